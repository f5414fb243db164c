package db

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pressly/goose/v3"
)

// oldDatabase makes a database at path with the schema of migration
// version and one player, as an older release left it.
func oldDatabase(t *testing.T, path string, version int64) {
	t.Helper()
	ctx := context.Background()
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sub, _ := fs.Sub(migrations, "migrations")
	p, err := goose.NewProvider(goose.DialectSQLite3, w, sub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(ctx, `INSERT INTO users (name, password_hash, created_at) VALUES ('ann', 'x', 1)`); err != nil {
		t.Fatal(err)
	}
}

// previousVersion is the number of the migration before the last one
// (the numbers have gaps).
func previousVersion(t *testing.T) int64 {
	t.Helper()
	sub, _ := fs.Sub(migrations, "migrations")
	names, err := fs.Glob(sub, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	var prev int64
	for _, n := range names {
		if v, err := goose.NumericComponent(n); err == nil && v < SchemaVersion() && v > prev {
			prev = v
		}
	}
	return prev
}

func TestOpenBacksUpAnOlderSchemaBeforeMigrating(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	old := previousVersion(t)
	oldDatabase(t, path, old)

	var log bytes.Buffer
	store, err := OpenWith(ctx, path, Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	live, err := Inspect(ctx, path, true)
	if err != nil || live.SchemaVersion != SchemaVersion() {
		t.Fatalf("after Open: schema %d (%v), want %d", live.SchemaVersion, err, SchemaVersion())
	}
	backups, err := UpgradeBackups(path)
	if err != nil || len(backups) != 1 {
		t.Fatalf("backups %v (%v), want one", backups, err)
	}
	if !strings.HasSuffix(backups[0], "-v"+strconv.FormatInt(old, 10)) || filepath.Dir(backups[0]) != filepath.Dir(path) {
		t.Errorf("backup %s: want it beside the database, named after version %d", backups[0], old)
	}
	if !strings.Contains(log.String(), "upgrading the schema after a verified backup") || !strings.Contains(log.String(), backups[0]) {
		t.Errorf("the log does not name the backup %s:\n%s", backups[0], log.String())
	}
	b, err := Inspect(ctx, backups[0], true)
	if err != nil || b.SchemaVersion != old || b.Integrity != nil {
		t.Errorf("backup: %+v (%v), want schema %d", b, err, old)
	}
	if r, err := sql.Open("sqlite", "file:"+backups[0]+"?mode=ro"); err != nil {
		t.Fatal(err)
	} else {
		var n int
		err := r.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE name = 'ann'`).Scan(&n)
		r.Close()
		if err != nil || n != 1 {
			t.Errorf("the backup holds %d accounts named ann (%v), want the player", n, err)
		}
	}

	// Opening again (current schema) makes no new backup.
	store, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	if again, _ := UpgradeBackups(path); len(again) != 1 {
		t.Errorf("backups after a second open: %v", again)
	}
}

func TestUpgradeBackupsKeepsTheLastThree(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	oldDatabase(t, path, 2)
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var made []string
	for i := range 5 {
		dest, err := upgradeBackup(ctx, w, path, 2, start.Add(time.Duration(i)*time.Hour), slog.Default())
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, dest)
	}
	kept, err := UpgradeBackups(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(kept, " ") != strings.Join(made[2:], " ") {
		t.Errorf("kept %v, want the last three %v", kept, made[2:])
	}
	for _, gone := range made[:2] {
		if _, err := os.Stat(gone); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v, want it removed", gone, err)
		}
	}
}

func TestOpenRefusesANewerSchemaAndLeavesItAlone(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	store, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	newer := SchemaVersion() + 1
	if _, err := store.write.ExecContext(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)`, newer); err != nil {
		t.Fatal(err)
	}
	store.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	_, err = Open(ctx, path)
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Open: %v, want ErrNewerSchema", err)
	}
	for _, want := range []string{"schema version " + strconv.FormatInt(newer, 10), "newer release", "not changed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the refused database file changed")
	}
	if b, _ := UpgradeBackups(path); len(b) != 0 {
		t.Errorf("backups of a refused database: %v", b)
	}
}

func TestNewDatabaseAndBackupsAreForTheirOwnerOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "trench.db")
	store, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.write.ExecContext(ctx, `INSERT INTO users (name, password_hash, created_at) VALUES ('ann', 'x', 1)`); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "copy.db")
	if err := store.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", dest} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v: others may read it", filepath.Base(p), info.Mode().Perm())
		}
	}
	if b, err := VerifyFile(ctx, dest); err != nil {
		t.Errorf("the backup into a file made first: %v %+v", err, b)
	}
}

// failingMigrations is this binary's migrations and one more, 999, whose
// second statement fails: an upgrade that breaks off part-way.
func failingMigrations(t *testing.T) fstest.MapFS {
	t.Helper()
	files := fstest.MapFS{}
	names, err := fs.Glob(migrationFiles(), "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := fs.ReadFile(migrationFiles(), n)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = &fstest.MapFile{Data: b}
	}
	files["999_fails.sql"] = &fstest.MapFile{Data: []byte("-- +goose Up\nCREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")}
	return files
}

// schemaOf returns the schema version, the SQL of every table and index,
// and the rows of every table of the database file at path.
func schemaOf(t *testing.T, path string) (int64, string, []string) {
	t.Helper()
	ctx := context.Background()
	r, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	v, err := schemaVersion(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	var schema string
	if err := r.QueryRowContext(ctx, `SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name)`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	rows, err := tableRows(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	return v, schema, rows
}

// An upgrade that fails part-way leaves the database as it was: its old
// schema version, its tables and its rows.
func TestAFailedUpgradeLeavesTheOldSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	oldDatabase(t, path, 8)
	v0, schema0, rows0 := schemaOf(t, path)

	_, err := OpenWith(ctx, path, Options{migrations: failingMigrations(t), Logger: slog.New(slog.DiscardHandler)})
	if err == nil {
		t.Fatal("Open with a failing migration: no error")
	}
	v, schema, rows := schemaOf(t, path)
	if v != v0 || v != 8 {
		t.Errorf("after the failed upgrade: schema version %d, want %d", v, v0)
	}
	if schema != schema0 {
		t.Errorf("after the failed upgrade the tables and indexes changed")
	}
	if !slices.Equal(rows, rows0) {
		t.Errorf("after the failed upgrade: rows %v, want %v", rows, rows0)
	}

	// The next release's binary upgrades it.
	later := time.Now().Add(time.Hour)
	store, err := OpenWith(ctx, path, Options{now: func() time.Time { return later }})
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	if v, _, _ := schemaOf(t, path); v != SchemaVersion() {
		t.Errorf("after a good upgrade: schema version %d, want %d", v, SchemaVersion())
	}
}

// A disk that fills during an upgrade (here the database may not grow
// past half of what the upgrade needs) leaves the old schema.
func TestAFullDiskDuringAnUpgradeLeavesTheOldSchema(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pages := func(path string) int64 {
		t.Helper()
		r, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var n int64
		if err := r.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	full := filepath.Join(dir, "full.db")
	store, err := Open(ctx, full)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	path := filepath.Join(dir, "trench.db")
	oldDatabase(t, path, 1)
	v0, schema0, rows0 := schemaOf(t, path)
	before, after := pages(path), pages(full)
	if after-before < 8 {
		t.Fatalf("the upgrade grows the database from %d to only %d pages", before, after)
	}

	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	if _, err := w.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, before+(after-before)/2)); err != nil {
		t.Fatal(err)
	}
	err = upgrade(ctx, w, path, migrationFiles(), false, time.Now(), slog.New(slog.DiscardHandler))
	w.Close()
	if err == nil || !strings.Contains(err.Error(), "full") {
		t.Fatalf("upgrade on a full disk: %v, want a full database", err)
	}
	v, schema, rows := schemaOf(t, path)
	if v != v0 || schema != schema0 || !slices.Equal(rows, rows0) {
		t.Errorf("after the failed upgrade: schema version %d (want %d), schema changed %v, rows %v (want %v)",
			v, v0, schema != schema0, rows, rows0)
	}
}

// Five starts that fail to upgrade, less than a second apart (a service
// manager restarting the server), each make a backup and keep a backup of the schema before the upgrade
// that opens and holds the data.
func TestFailingStartsKeepTheBackupOfTheOriginalSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	oldDatabase(t, path, 8)
	clock := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	failing := failingMigrations(t)
	for i := range 5 {
		// Within one second, then a second apart.
		now := clock.Add(time.Duration(i) * 400 * time.Millisecond)
		_, err := OpenWith(ctx, path, Options{migrations: failing, now: func() time.Time { return now }, Logger: slog.New(slog.DiscardHandler)})
		if err == nil || !strings.Contains(err.Error(), "999_fails.sql") {
			t.Fatalf("start %d: %v, want the failing migration after a backup", i+1, err)
		}
	}
	backups, err := UpgradeBackups(path)
	if err != nil {
		t.Fatal(err)
	}
	var original []string
	for _, b := range backups {
		if strings.HasSuffix(b, "-v8") {
			original = append(original, b)
		}
	}
	if len(original) == 0 {
		t.Fatalf("no backup of schema 8 among %v", backups)
	}
	b := original[len(original)-1]
	if c, err := Inspect(ctx, b, false); err != nil || c.SchemaVersion != 8 || c.Integrity != nil {
		t.Fatalf("backup %s: %+v (%v), want a sound database of schema 8", b, c, err)
	}
	r, err := sql.Open("sqlite", "file:"+b+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var n int
	if err := r.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE name = 'ann'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("the backup holds %d accounts named ann (%v), want the player", n, err)
	}
}

// goose reads the version table that Open keeps as its own: a new
// database is at this binary's version with nothing pending.
func TestGooseReadsTheVersionsOpenApplies(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	store, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, w, migrationFiles())
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.GetDBVersion(ctx)
	if err != nil || v != SchemaVersion() {
		t.Errorf("goose reads version %d (%v), want %d", v, err, SchemaVersion())
	}
	if pending, err := p.HasPending(ctx); err != nil || pending {
		t.Errorf("goose finds migrations pending: %v (%v)", pending, err)
	}
}

// Two backups made in the same instant get names of their own.
func TestTwoUpgradeBackupsInOneSecondBothKept(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	oldDatabase(t, path, 2)
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	a, err := upgradeBackup(ctx, w, path, 2, now, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	b, err := upgradeBackup(ctx, w, path, 2, now, slog.Default())
	if err != nil {
		t.Fatalf("a second backup in the same second: %v", err)
	}
	if kept, _ := UpgradeBackups(path); strings.Join(kept, " ") != a+" "+b {
		t.Errorf("backups %v, want %s then %s", kept, a, b)
	}
}

// The newest backup of the oldest schema among the backups outlives the
// last three: after starts that upgraded part-way (schema 8 to 10, then
// 13) it is the way back to the release that ran before.
func TestUpgradeBackupsKeepTheNewestOfTheOldestSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	oldDatabase(t, path, 2)
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// upgradeBackup checks that the copy has the database's version:
	// give the database each version in turn.
	setVersion := func(v int64) {
		t.Helper()
		if _, err := w.ExecContext(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)`, v); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var made []string
	for i, v := range []int64{8, 8, 10, 13, 13, 13} {
		setVersion(v)
		dest, err := upgradeBackup(ctx, w, path, v, start.Add(time.Duration(i)*time.Second), slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, dest)
	}
	kept, err := UpgradeBackups(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{made[1], made[3], made[4], made[5]}
	if !slices.Equal(kept, want) {
		t.Errorf("kept %v, want the newest of schema 8 and the last three %v", kept, want)
	}
	if c, err := Inspect(ctx, made[1], false); err != nil || c.SchemaVersion != 8 {
		t.Errorf("backup %s: %+v (%v), want schema 8", made[1], c, err)
	}
}

// releaseDatabase makes a database at path with the migrations of the
// embedded set whose numbers keep says, and one player, as a release
// with those migrations left it.
func releaseDatabase(t *testing.T, path string, keep func(v int64) bool) {
	t.Helper()
	ctx := context.Background()
	set := fstest.MapFS{}
	names, err := fs.Glob(migrationFiles(), "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		v, err := goose.NumericComponent(n)
		if err != nil {
			t.Fatal(err)
		}
		if keep(v) {
			b, err := fs.ReadFile(migrationFiles(), n)
			if err != nil {
				t.Fatal(err)
			}
			set[n] = &fstest.MapFile{Data: b}
		}
	}
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, w, set)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(ctx, `INSERT INTO users (name, password_hash, created_at) VALUES ('ann', 'x', 1)`); err != nil {
		t.Fatal(err)
	}
}

// A release had migration 026 (page figures) before 025 (puzzles) was
// written: its databases upgrade, 025 included. Any other migration
// missing below a database's version is still refused.
func TestAnUpgradeFromTheReleaseWithout025(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	releaseDatabase(t, path, func(v int64) bool { return v <= 26 && v != 25 })
	store, err := OpenWith(ctx, path, Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("open the database of the release without 025: %v", err)
	}
	var puzzles, ann int
	err = store.read.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM puzzles), (SELECT COUNT(*) FROM users WHERE name = 'ann')`).Scan(&puzzles, &ann)
	store.Close()
	if err != nil || ann != 1 {
		t.Errorf("after the upgrade: %d puzzles, %d players named ann (%v), want the puzzles' table and the player", puzzles, ann, err)
	}
	if v, _, _ := schemaOf(t, path); v != SchemaVersion() {
		t.Errorf("after the upgrade: schema version %d, want %d", v, SchemaVersion())
	}

	other := filepath.Join(t.TempDir(), "trench.db")
	releaseDatabase(t, other, func(v int64) bool { return v <= 26 && v != 24 })
	v0, schema0, _ := schemaOf(t, other)
	_, err = OpenWith(ctx, other, Options{Logger: slog.New(slog.DiscardHandler)})
	if err == nil || !strings.Contains(err.Error(), "024_lessons.sql is not applied") {
		t.Errorf("open a database missing 024 below its version: %v, want it refused", err)
	}
	if v, schema, _ := schemaOf(t, other); v != v0 || schema != schema0 {
		t.Errorf("the refused database changed: version %d, want %d", v, v0)
	}
}
