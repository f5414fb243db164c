package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
)

// SQLiteVersion returns the version of the SQLite library built into the
// binary, e.g. "3.51.2", asked of an in-memory database.
func SQLiteVersion(ctx context.Context) (string, error) {
	m, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return "", fmt.Errorf("db: sqlite version: %w", err)
	}
	defer m.Close()
	var v string
	if err := m.QueryRowContext(ctx, `SELECT sqlite_version()`).Scan(&v); err != nil {
		return "", fmt.Errorf("db: sqlite version: %w", err)
	}
	return v, nil
}

// Inspection is what Inspect found in a database file.
type Inspection struct {
	// SchemaVersion is the last migration applied (0: none); compare it
	// with SchemaVersion().
	SchemaVersion int64
	// Integrity is nil when SQLite's check (quick or full) answers
	// "ok", else what it found.
	Integrity error
	// Full says Integrity is the full integrity check's answer, not the
	// quick check's.
	Full bool
	// Newest is the latest time stored in the database (an account made,
	// a challenge, a game updated, a move), zero for an empty one.
	Newest int64 // unix seconds
}

// Inspect looks at the database file at path without changing it (opened
// read-only; a running server may keep using it): the schema version,
// SQLite's quick check (or, with full, its integrity check, which also
// matches every index against its table and takes several times longer)
// and the newest stored time. Errors: the file does not exist or is not
// a database SQLite can read.
func Inspect(ctx context.Context, path string, full bool) (Inspection, error) {
	if _, err := os.Stat(path); err != nil {
		return Inspection{}, fmt.Errorf("db: inspect: %w", err)
	}
	r, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return Inspection{}, fmt.Errorf("db: inspect %s: %w", path, err)
	}
	defer r.Close()
	r.SetMaxOpenConns(1)
	in := Inspection{Full: full}
	if in.SchemaVersion, err = schemaVersion(ctx, r); err != nil {
		return in, fmt.Errorf("db: inspect %s: %w", path, err)
	}
	check := `PRAGMA quick_check`
	if full {
		check = `PRAGMA integrity_check`
	}
	var res string
	if err := r.QueryRowContext(ctx, check).Scan(&res); err != nil {
		in.Integrity = err
	} else if res != "ok" {
		in.Integrity = errors.New(res)
	}
	if in.Integrity != nil {
		return in, nil
	}
	for _, q := range []string{`SELECT max(created_at) FROM users`, `SELECT max(created_at) FROM challenges`,
		`SELECT max(updated_at) FROM games`, `SELECT max(created_at) FROM moves`} {
		var t sql.NullInt64
		if err := r.QueryRowContext(ctx, q).Scan(&t); err != nil {
			if in.SchemaVersion == 0 {
				break // no tables yet
			}
			return in, fmt.Errorf("db: inspect %s: %w", path, err)
		}
		in.Newest = max(in.Newest, t.Int64)
	}
	return in, nil
}
