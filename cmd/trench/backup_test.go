package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trench-games/trench/db"
)

// A backup taken by a binary newer than the database copies it as it is:
// the live database is opened read-only and never migrated.
func TestBackupNeverMigratesTheSource(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "live.db")
	store, err := db.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	// Make it a database from before the latest migration of this binary.
	raw, err := sql.Open("sqlite", src)
	if err != nil {
		t.Fatal(err)
	}
	_, want, err := db.FileSchemaVersion(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, `DELETE FROM goose_db_version WHERE version_id = ?`, want); err != nil {
		t.Fatal(err)
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	dest := filepath.Join(dir, "copy.db")
	if err := backupCommand(ctx, &out, []string{"--db", src, dest}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "quick check ok") {
		t.Fatalf("backup said %q", out.String())
	}
	after, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("the backup changed the live database")
	}
	have, _, err := db.FileSchemaVersion(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if have == want {
		t.Fatalf("the backup migrated the live database to version %d", have)
	}
	if info, err := os.Stat(src + "-wal"); err == nil && info.Size() != 0 {
		t.Error("the backup wrote to the live database's -wal file")
	}
	// A missing database is refused, not created.
	missing := filepath.Join(dir, "none.db")
	if err := backupCommand(ctx, &out, []string{"--db", missing, filepath.Join(dir, "copy2.db")}); err == nil {
		t.Fatal("a backup of a missing database succeeded")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("the backup created the missing database")
	}
}

// A backup is checked by SQLite's quick check, without replaying the
// games (a million games replay for most of an hour); --verify-games
// replays every game and refuses a copy whose stored position is not the
// replay of its moves.
func TestBackupReplaysTheGamesOnlyWhenAsked(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "live.db")
	if _, err := db.Fill(ctx, src, db.FillOptions{Games: 200, PasswordHash: "hash", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", src)
	if err != nil {
		t.Fatal(err)
	}
	// A finished game's stored ply no longer matches its moves: only a
	// replay can tell.
	if _, err := raw.ExecContext(ctx, `UPDATE games SET ply = ply + 1 WHERE id = (SELECT MIN(id) FROM games WHERE status = 'finished')`); err != nil {
		t.Fatal(err)
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := backupCommand(ctx, &out, []string{"--db", src, filepath.Join(dir, "quick.db")}); err != nil {
		t.Fatalf("the default backup: %v", err)
	}
	if !strings.Contains(out.String(), "quick check ok") || !strings.Contains(out.String(), "not replayed") {
		t.Fatalf("the default backup said %q", out.String())
	}
	out.Reset()
	err = backupCommand(ctx, &out, []string{"--verify-games", "--db", src, filepath.Join(dir, "verified.db")})
	if err == nil || !strings.Contains(err.Error(), "does not check out") {
		t.Fatalf("a backup with --verify-games of a game that does not replay: %v (%q)", err, out.String())
	}
}

// The doctor checks the database with SQLite's quick check; with
// --full-check, with its full integrity check.
func TestDoctorQuickChecksUnlessAskedForTheFullCheck(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "live.db")
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{{[]string{"--db", path}, "SQLite's quick check: ok"}, {[]string{"--full-check", "--db", path}, "SQLite's integrity check: ok"}} {
		var out bytes.Buffer
		_ = doctorCommand(ctx, &out, c.args) // other checks may fail here
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("doctor %v said:\n%s\nwant %q", c.args, out.String(), c.want)
		}
	}
}
