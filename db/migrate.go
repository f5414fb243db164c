package db

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
)

// migration is one file of a migration set: its number and the SQL of
// its Up section.
type migration struct {
	version int64
	name    string
	up      string
}

// late are the migrations that reached a release after one with a
// higher number, and so may be missing below a database's version: each
// is applied (first, in its order) with the others pending. They make
// only tables and indexes of their own, which nothing later than them
// in that release used. 025 (puzzles) came after 026 (page figures).
var late = map[int64]bool{25: true}

// migrate applies the migrations of files that the database open as w
// lacks, in order, all in one transaction: the database ends with every
// one of them or, when one fails (a full disk, a bad statement), with
// none, at the schema it had. It keeps goose's version table
// (goose_db_version, created with the version 0 row as goose makes it)
// with one row per migration applied, so goose and older releases read
// the version as before. Errors: a file that cannot be read or parsed, a
// migration missing below the database's version (but for those of
// late), or SQLite failing.
func migrate(ctx context.Context, w *sql.DB, files fs.FS) error {
	set, err := readMigrations(files)
	if err != nil {
		return err
	}
	store, err := database.NewStore(database.DialectSQLite3, versionTable)
	if err != nil {
		return fmt.Errorf("db: migrate: %w", err)
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: migrate: %w", err)
	}
	defer tx.Rollback()
	applied, err := appliedVersions(ctx, tx, store)
	if err != nil {
		return err
	}
	var pending []migration
	for _, m := range set {
		if !applied[m.version] {
			pending = append(pending, m)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	for _, m := range pending {
		if late[m.version] {
			continue
		}
		for v := range applied {
			if v > m.version {
				return fmt.Errorf("db: migrate: %s is not applied but the database has the later migration %d", m.name, v)
			}
		}
	}
	for _, m := range pending {
		if _, err := tx.ExecContext(ctx, m.up); err != nil {
			return fmt.Errorf("db: migrate: %s: %w (no migration was applied)", m.name, err)
		}
		if err := store.Insert(ctx, tx, database.InsertRequest{Version: m.version}); err != nil {
			return fmt.Errorf("db: migrate: record %s: %w (no migration was applied)", m.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("db: migrate: commit: %w (no migration was applied)", err)
	}
	return nil
}

// appliedVersions returns the migrations the version table says are
// applied (a version's latest row decides), creating the table (with its
// version 0 row) in tx when the database has none.
func appliedVersions(ctx context.Context, tx *sql.Tx, store database.Store) (map[int64]bool, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, versionTable).Scan(&n); err != nil {
		return nil, fmt.Errorf("db: migrate: %w", err)
	}
	if n == 0 {
		if err := store.CreateVersionTable(ctx, tx); err != nil {
			return nil, fmt.Errorf("db: migrate: create %s: %w", versionTable, err)
		}
		if err := store.Insert(ctx, tx, database.InsertRequest{Version: 0}); err != nil {
			return nil, fmt.Errorf("db: migrate: %w", err)
		}
	}
	rows, err := store.ListMigrations(ctx, tx) // latest first
	if err != nil {
		return nil, fmt.Errorf("db: migrate: %w", err)
	}
	applied := map[int64]bool{}
	seen := map[int64]bool{}
	for _, r := range rows {
		if !seen[r.Version] {
			seen[r.Version] = true
			applied[r.Version] = r.IsApplied
		}
	}
	for v, ok := range applied {
		if !ok {
			delete(applied, v)
		}
	}
	return applied, nil
}

// readMigrations reads the NNN_name.sql files of files, in order of
// their numbers. A file holds an Up section (after the line
// "-- +goose Up") and may hold a Down section, which is not read;
// StatementBegin and StatementEnd lines are kept as the comments they
// are. Any other goose annotation (NO TRANSACTION, ENVSUB) is an error:
// every migration runs in the upgrade's one transaction, as written.
func readMigrations(files fs.FS) ([]migration, error) {
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("db: migrations: %w", err)
	}
	var set []migration
	for _, name := range names {
		v, err := goose.NumericComponent(name)
		if err != nil {
			return nil, fmt.Errorf("db: migration %s: %w", name, err)
		}
		b, err := fs.ReadFile(files, name)
		if err != nil {
			return nil, fmt.Errorf("db: migration %s: %w", name, err)
		}
		up, err := upSection(string(b))
		if err != nil {
			return nil, fmt.Errorf("db: migration %s: %w", name, err)
		}
		set = append(set, migration{version: v, name: name, up: up})
	}
	slices.SortFunc(set, func(a, b migration) int { return int(a.version - b.version) })
	for i := 1; i < len(set); i++ {
		if set[i].version == set[i-1].version {
			return nil, fmt.Errorf("db: migrations %s and %s have the same number", set[i-1].name, set[i].name)
		}
	}
	return set, nil
}

// upSection returns the SQL between "-- +goose Up" and "-- +goose Down"
// (or the end).
func upSection(text string) (string, error) {
	var up strings.Builder
	section := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "-- +goose "); ok {
			switch a := strings.ToLower(strings.TrimSpace(rest)); a {
			case "up", "down":
				section = a
				continue
			case "statementbegin", "statementend":
			default:
				return "", fmt.Errorf("the annotation %q is not supported: every migration runs in one transaction", line)
			}
		}
		if section == "up" {
			up.WriteString(line)
			up.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	if section == "" {
		return "", fmt.Errorf("no %q line", "-- +goose Up")
	}
	return up.String(), nil
}
