package db

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
	live, err := Inspect(ctx, path)
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
	b, err := Inspect(ctx, backups[0])
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
