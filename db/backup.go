package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/trench-games/trench/rules"
)

// Backup writes a consistent copy of the database to the new file dest
// with VACUUM INTO, while the server keeps running: the copy is one
// snapshot (a read transaction), so it holds every move committed before
// the backup started and none of the moves committed during it, and
// writers are never blocked (WAL). It runs on a connection of its own, so
// the server's pools go on serving meanwhile. The copy is a plain SQLite
// file (rollback journal; Open switches it back to WAL), synced to disk
// before Backup returns.
//
// The copy is created with mode 0600.
//
// Errors: dest exists (Backup never overwrites a file; errors.Is
// fs.ErrExist), or SQLite fails.
func (db *DB) Backup(ctx context.Context, dest string) error {
	return backup(ctx, dsn(db.path, false), dest)
}

// BackupFile is Backup for a database that is not open in this process
// (the server may have it open): src is opened read-only and is never
// migrated nor otherwise changed, whatever its schema version. The copy
// has src's schema version.
//
// Errors: src does not exist, dest exists, or SQLite fails.
func BackupFile(ctx context.Context, src, dest string) error {
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("db: backup: %w", err)
	}
	q := url.Values{}
	q.Add("mode", "ro")
	q.Add("_pragma", "busy_timeout(10000)")
	return backup(ctx, "file:"+src+"?"+q.Encode(), dest)
}

func backup(ctx context.Context, source, dest string) error {
	if dest == "" {
		return errors.New("db: backup: empty destination")
	}
	// The copy is made in a new empty file of mode 0600: it holds every
	// account's password hash.
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("db: backup: %s already exists; choose a new file (%w)", dest, fs.ErrExist)
	} else if err != nil {
		return fmt.Errorf("db: backup: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("db: backup: %w", err)
	}
	done := false
	defer func() {
		if !done {
			os.Remove(dest)
		}
	}()
	// The read pool is query_only and the write pool's one connection
	// carries every move: use a connection of our own.
	conn, err := sql.Open("sqlite", source)
	if err != nil {
		return fmt.Errorf("db: backup: %w", err)
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		return fmt.Errorf("db: backup to %s: %w", dest, err)
	}
	if err := syncFile(dest); err != nil {
		return err
	}
	done = true
	return nil
}

// syncFile flushes path and the directory entry that names it to disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("db: backup: %w", err)
	}
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("db: backup: sync %s: %w", path, err)
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("db: backup: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("db: backup: sync directory of %s: %w", path, err)
	}
	return nil
}

// Checked is what Verify and VerifyFile looked at.
type Checked struct {
	Games int // games replayed
	Moves int // moves replayed
}

// Verify checks the database: PRAGMA integrity_check, then, in one read
// snapshot (so that it can run while the server writes), that every
// game's stored position is the replay of its stored moves from its
// stored start: plies numbered 1, 2, … without a gap, each move made by
// the side that was to move and legal where it was made, and the replay
// ending on the stored state, ply and last move. The engines of the
// stored games must be registered (imported) by the caller.
func (db *DB) Verify(ctx context.Context) (Checked, error) {
	if err := db.IntegrityCheck(ctx); err != nil {
		return Checked{}, err
	}
	return verifyGames(ctx, db.read.DB)
}

// VerifyFile runs Verify's checks on the database file at path without
// changing it: the file is opened read-only and immutable, so it must not
// be in use (a backup made by Backup, not a live database).
func VerifyFile(ctx context.Context, path string) (Checked, error) {
	if _, err := os.Stat(path); err != nil {
		return Checked{}, fmt.Errorf("db: verify: %w", err)
	}
	r, err := openVerified(ctx, path)
	if err != nil {
		return Checked{}, err
	}
	defer r.Close()
	return verifyGames(ctx, r)
}

// openVerified opens the database file at path read-only and immutable
// and runs SQLite's integrity check on it.
func openVerified(ctx context.Context, path string) (*sql.DB, error) {
	r, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		return nil, fmt.Errorf("db: verify %s: %w", path, err)
	}
	if err := integrityCheck(ctx, r, path); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// CheckFile runs PRAGMA integrity_check on the database file at path,
// opened read-only and immutable (a backup, not a live database): the
// check Verify makes before replaying the games, for a copy whose schema
// this binary does not know.
func CheckFile(ctx context.Context, path string) error {
	return checkFile(ctx, path, integrityCheck)
}

// QuickCheckFile runs PRAGMA quick_check on the database file at path,
// opened read-only and immutable (a backup, not a live database): every
// page and record of every table and index is read and checked, as
// integrity_check does, but indexes are not matched against their tables
// (nor UNIQUE constraints checked), which makes it several times faster
// on a large database. Errors: the file cannot be read, or the check
// finds a problem (its first lines).
func QuickCheckFile(ctx context.Context, path string) error {
	return checkFile(ctx, path, quickCheck)
}

func checkFile(ctx context.Context, path string, check func(context.Context, *sql.DB, string) error) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("db: verify: %w", err)
	}
	r, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		return fmt.Errorf("db: verify %s: %w", path, err)
	}
	defer r.Close()
	return check(ctx, r, path)
}

func integrityCheck(ctx context.Context, r *sql.DB, path string) error {
	return pragmaCheck(ctx, r, path, "integrity_check")
}

func quickCheck(ctx context.Context, r *sql.DB, path string) error {
	return pragmaCheck(ctx, r, path, "quick_check")
}

// pragmaCheck runs PRAGMA check (integrity_check or quick_check) on r.
func pragmaCheck(ctx context.Context, r *sql.DB, path, check string) error {
	var res string
	if err := r.QueryRowContext(ctx, `PRAGMA `+check).Scan(&res); err != nil {
		return fmt.Errorf("db: verify %s: %s: %w", path, check, err)
	}
	if res != "ok" {
		return fmt.Errorf("db: verify %s: %s: %s", path, check, res)
	}
	return nil
}

func verifyGames(ctx context.Context, pool *sql.DB) (Checked, error) {
	tx, err := pool.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Checked{}, fmt.Errorf("db: verify: %w", err)
	}
	defer tx.Rollback()
	var ids []int64
	rows, err := tx.QueryContext(ctx, `SELECT id FROM games ORDER BY id`)
	if err != nil {
		return Checked{}, fmt.Errorf("db: verify: %w", err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return Checked{}, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Checked{}, err
	}
	var c Checked
	for _, id := range ids {
		n, err := verifyGame(ctx, tx, id)
		if err != nil {
			return c, err
		}
		c.Games++
		c.Moves += n
	}
	return c, nil
}

// verifyGame replays game id and returns its number of moves.
func verifyGame(ctx context.Context, q queryer, id int64) (int, error) {
	g, err := gameByID(ctx, q, id)
	if err != nil {
		return 0, err
	}
	eng, err := g.Engine()
	if err != nil {
		return 0, err
	}
	st, err := eng.Decode(g.Variant, g.StartState)
	if err != nil {
		return 0, fmt.Errorf("db: verify game %d: start state: %w", id, err)
	}
	rows, err := q.QueryContext(ctx, `SELECT ply, side, move FROM moves WHERE game_id = ? ORDER BY ply`, id)
	if err != nil {
		return 0, fmt.Errorf("db: verify game %d: %w", id, err)
	}
	defer rows.Close()
	n, last := 0, ""
	for rows.Next() {
		var ply, side int
		var move string
		if err := rows.Scan(&ply, &side, &move); err != nil {
			return n, err
		}
		switch {
		case ply != n+1:
			return n, fmt.Errorf("db: verify game %d: move %d is stored as ply %d", id, n+1, ply)
		case rules.Side(side) != st.ToMove():
			return n, fmt.Errorf("db: verify game %d: ply %d (%s) stored as side %d's, but side %d was to move", id, ply, move, side, st.ToMove())
		}
		if st, err = st.Apply(move); err != nil {
			return n, fmt.Errorf("db: verify game %d: ply %d (%s): %w", id, ply, move, err)
		}
		n, last = ply, move
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	switch {
	case n != g.Ply:
		return n, fmt.Errorf("db: verify game %d: %d moves stored, but the game is at ply %d", id, n, g.Ply)
	case st.Encode() != g.State:
		return n, fmt.Errorf("db: verify game %d: the stored position %q is not the replay of its moves %q", id, g.State, st.Encode())
	case last != g.LastMove:
		return n, fmt.Errorf("db: verify game %d: last move stored as %q, replayed %q", id, g.LastMove, last)
	case !g.Finished() && st.ToMove() != g.ToMove:
		return n, fmt.Errorf("db: verify game %d: side %d to move, replayed side %d", id, g.ToMove, st.ToMove())
	}
	return n, nil
}

// createPrivate creates the empty file path, readable and writable by its
// owner only (mode 0600). Errors: it exists, or cannot be made.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// FileSchemaVersion returns the schema version (the last migration
// applied) of the database file at path, opened read-only, and the
// version this binary migrates to (SchemaVersion). Errors: the file
// cannot be read.
func FileSchemaVersion(ctx context.Context, path string) (have, want int64, err error) {
	if _, err := os.Stat(path); err != nil {
		return 0, 0, fmt.Errorf("db: %w", err)
	}
	r, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return 0, 0, fmt.Errorf("db: %w", err)
	}
	defer r.Close()
	if have, err = schemaVersion(ctx, r); err != nil {
		return 0, 0, fmt.Errorf("db: schema version of %s: %w", path, err)
	}
	return have, SchemaVersion(), nil
}
