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
	if !strings.Contains(out.String(), "integrity ok") {
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
