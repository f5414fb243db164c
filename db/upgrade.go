package db

import (
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
	"time"

	"github.com/pressly/goose/v3"
)

// versionTable is goose's table of applied migrations.
const versionTable = "goose_db_version"

// keepUpgradeBackups is how many upgrade backups Open keeps beside a
// database.
const keepUpgradeBackups = 3

// ErrNewerSchema is returned (wrapped) by Open for a database written by
// a newer release than this binary: it is left untouched.
var ErrNewerSchema = errors.New("the database was written by a newer release of trench")

// ErrOlderSchema is returned (wrapped) by OpenWith with NoUpgrade for a
// database whose schema is older than this binary's: it is left
// untouched.
var ErrOlderSchema = errors.New("the database has the schema of an older release of trench")

// SchemaVersion returns the number of the last migration this binary
// knows (the schema version it writes), e.g. 5 for 005_notifications.sql.
func SchemaVersion() int64 {
	return lastVersion(migrationFiles())
}

// migrationFiles is the embedded set of migrations, one NNN_name.sql file
// each.
func migrationFiles() fs.FS {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic(err) // "migrations" is a valid path
	}
	return sub
}

// lastVersion is the number of the last migration in files.
func lastVersion(files fs.FS) int64 {
	var last int64
	names, _ := fs.Glob(files, "*.sql")
	for _, n := range names {
		if v, err := goose.NumericComponent(n); err == nil && v > last {
			last = v
		}
	}
	return last
}

// schemaVersion reads the schema version of an open database without
// changing it: the last migration applied, 0 for a database without
// migrations (a new file).
func schemaVersion(ctx context.Context, q queryer) (int64, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, versionTable).Scan(&n)
	if err != nil || n == 0 {
		return 0, err
	}
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT max(version_id) FROM `+versionTable).Scan(&v); err != nil {
		return 0, err
	}
	return v.Int64, nil
}

// upgrade brings the database at path, open as w, to this binary's
// schema. A database newer than the binary is refused (ErrNewerSchema)
// and left as it is, and so is an older one with noUpgrade
// (ErrOlderSchema). A database with an older schema is first copied to a
// verified backup beside it (see upgradeBackup), then migrated.
func upgrade(ctx context.Context, w *sql.DB, path string, files fs.FS, noUpgrade bool, now time.Time, logger *slog.Logger) error {
	have, err := schemaVersion(ctx, w)
	if err != nil {
		return fmt.Errorf("db: schema version of %s: %w", path, err)
	}
	want := lastVersion(files)
	switch {
	case have > want:
		return fmt.Errorf("db: %s has schema version %d but this trench knows versions up to %d: %w; "+
			"run that release or a newer one (the database was not changed)", path, have, want, ErrNewerSchema)
	case have < want && noUpgrade:
		return fmt.Errorf("db: %s has schema version %d but this trench writes version %d: %w (the database was not changed)",
			path, have, want, ErrOlderSchema)
	case have > 0 && have < want:
		dest, err := upgradeBackup(ctx, w, path, have, now, logger)
		if err != nil {
			return fmt.Errorf("db: no upgrade without a backup: %w", err)
		}
		logger.Info("db: upgrading the schema after a verified backup", "db", path, "from", have, "to", want, "backup", dest)
	}
	return migrate(ctx, w, files)
}

// upgradeBackupTime is the layout of the time in an upgrade backup's
// name: UTC to the nanosecond, fixed width, so that names sort as times.
// Backups of older releases carry whole seconds ("…T150405Z").
const upgradeBackupTime = "20060102T150405.000000000Z"

// upgradeBackup copies the database at path (open as w, schema version
// from) to PATH.upgrade-YYYYMMDDTHHMMSS.NNNNNNNNNZ-vFROM with Backup (a
// name already taken moves the time on by a nanosecond, so starts in the
// same instant never share one), checks the copy (SQLite's integrity
// check, the same schema version, and the same number of rows in every
// table as the database) and removes the older upgrade backups of path
// beyond the last three, keeping always the newest backup of the oldest
// schema among them: the way back to the release that ran before, even
// after starts that failed. It returns the backup's path.
func upgradeBackup(ctx context.Context, w *sql.DB, path string, from int64, now time.Time, logger *slog.Logger) (string, error) {
	var dest string
	for tries := 0; ; tries++ {
		dest = fmt.Sprintf("%s.upgrade-%s-v%d", path, now.UTC().Format(upgradeBackupTime), from)
		err := (&DB{path: path}).Backup(ctx, dest)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || tries == 1000 {
			return "", err
		}
		now = now.Add(time.Nanosecond)
	}
	if err := verifyCopy(ctx, w, dest); err != nil {
		return "", fmt.Errorf("db: the backup %s does not check out: %w", dest, err)
	}
	all, err := upgradeBackups(path)
	if err != nil {
		return dest, err
	}
	keep := map[string]bool{}
	for _, b := range all[max(0, len(all)-keepUpgradeBackups):] {
		keep[b.path] = true
	}
	if len(all) > 0 {
		oldest := all[0]
		for _, b := range all[1:] {
			if b.version <= oldest.version {
				oldest = b // the newest of the lowest version
			}
		}
		keep[oldest.path] = true
	}
	for _, b := range all {
		if keep[b.path] {
			continue
		}
		if err := os.Remove(b.path); err != nil {
			return dest, fmt.Errorf("db: remove an old upgrade backup: %w", err)
		}
		logger.Info("db: removed an old upgrade backup", "backup", b.path)
	}
	return dest, nil
}

// UpgradeBackups lists the backups Open made of the database at path
// before upgrading it, oldest first.
func UpgradeBackups(path string) ([]string, error) {
	all, err := upgradeBackups(path)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(all))
	for i, b := range all {
		paths[i] = b.path
	}
	return paths, nil
}

// upgradeBackupFile is an upgrade backup: its path, when it was made and
// the schema version it holds, as its name says.
type upgradeBackupFile struct {
	path    string
	made    time.Time
	version int64
}

// upgradeBackups lists the upgrade backups of path by the time in their
// names, oldest first; files whose names do not read as one are left out.
func upgradeBackups(path string) ([]upgradeBackupFile, error) {
	names, err := filepath.Glob(globEscape(path) + ".upgrade-*")
	if err != nil {
		return nil, err
	}
	var all []upgradeBackupFile
	for _, n := range names {
		stamp, v, ok := strings.Cut(strings.TrimPrefix(n, path+".upgrade-"), "-v")
		if !ok {
			continue
		}
		made, err := time.Parse("20060102T150405Z", stamp) // with or without a fraction
		if err != nil {
			continue
		}
		version, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			continue
		}
		all = append(all, upgradeBackupFile{path: n, made: made, version: version})
	}
	slices.SortFunc(all, func(a, b upgradeBackupFile) int {
		if c := a.made.Compare(b.made); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	return all, nil
}

// globEscape quotes the glob metacharacters in a path.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	if filepath.Separator == '\\' {
		r = strings.NewReplacer(`*`, `[*]`, `?`, `[?]`, `[`, `[[]`)
	}
	return r.Replace(s)
}

// verifyCopy checks that the file dest is a sound copy of the database
// src: SQLite's quick check (every page and record read; see
// QuickCheckFile), then the same schema version and the same tables, and
// the same number of rows in each table but the largest, the moves and the
// games (a copy of a million games is checked in minutes, not most of an
// hour). Replaying the games (VerifyFile) needs the current schema, which
// an older copy does not have yet.
func verifyCopy(ctx context.Context, src *sql.DB, dest string) error {
	cp, err := sql.Open("sqlite", "file:"+dest+"?mode=ro&immutable=1")
	if err != nil {
		return fmt.Errorf("db: verify %s: %w", dest, err)
	}
	defer cp.Close()
	if err := quickCheck(ctx, cp, dest); err != nil {
		return err
	}
	va, err := schemaVersion(ctx, src)
	if err != nil {
		return err
	}
	vb, err := schemaVersion(ctx, cp)
	if err != nil {
		return err
	}
	if va != vb {
		return fmt.Errorf("schema version %d, copy %d", va, vb)
	}
	a, err := tableRows(ctx, src)
	if err != nil {
		return err
	}
	b, err := tableRows(ctx, cp)
	if err != nil {
		return err
	}
	if !slices.Equal(a, b) {
		return fmt.Errorf("tables and row counts differ: database %v, copy %v", a, b)
	}
	return nil
}

// countedLast are the tables tableRows does not count: the largest, whose
// rows the quick check reads anyway.
var countedLast = map[string]bool{"moves": true, "games": true}

// tableRows returns "name=rows" for every table, by name; the tables of
// countedLast are named without their rows.
func tableRows(ctx context.Context, q queryer) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		if countedLast[n] {
			out = append(out, n)
			continue
		}
		var c int64
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM "`+strings.ReplaceAll(n, `"`, `""`)+`"`).Scan(&c); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("%s=%d", n, c))
	}
	return out, nil
}
