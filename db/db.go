// Package db is the server's storage and the one game flow shared by every
// game: accounts, challenges, matches, games and their moves, in one SQLite
// file. It is the only package that imports the SQLite driver.
//
// Every exported method that writes runs in one transaction: begin, defer
// Rollback, small helpers, commit. A move is applied in one transaction
// guarded by the ply it was made against, so a stale or double submission
// gets a KindConflict error and never a second move.
package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is an open database: a single-connection pool for writes (SQLite
// takes one writer at a time; BEGIN IMMEDIATE) and a pool for reads.
type DB struct {
	write        *pool
	read         *pool
	path         string
	vacationDays int          // the yearly vacation allowance of every player
	repl         *replication // nil without a replica
	onCommit     atomic.Pointer[commitObserver]
	log          *writeLog // the games and tournaments the transaction in progress changed
	accounts     accountCache
	names        nameCache // players' names by id (playerNames)
	gameCache    gameCache
	vacations    genCache[string, vacationsRead] // vacationsSince by users, under writeLog.vacationGen
	ratings      genCache[int64, storedRatings]  // readGameRatings by game, under writeLog.ratingGen
	queue        writeQueue                      // the changes of games waiting for the write connection (groupWrite)
	plans        genCache[[2]int64, planned]     // PlanOf by game and user, under writeLog.planGen
	socials      genCache[[2]int64, string]      // SocialVersion by game and match, under writeLog.socialGen
	reads        readCache                       // the pages' heavier reads, under writeLog.commitGen or settledGen
	activeRated  heldByGame[int]                 // leaderCounts' active players by game
	leaderMarks  heldByGame[leaderMarks]         // where the leaderboards' pages begin, by game
	established  heldByGame[int]                 // leaderCounts' established players by game
	// leaderMarking is held (a token sent) while a request reads a
	// leaderboard's marks.
	leaderMarking chan struct{}
	outsideMu     sync.Mutex
	outsideObs    []func()
	stopWatch     chan struct{} // closed by Close: watchOutside ends
	watchDone     chan struct{}
	stopOnce      sync.Once
	// writes counts the write transactions begun (WriteTransactions).
	writes atomic.Int64
	// writeTurn holds a token while a write transaction holds the write
	// connection; those waiting for it queue in order (begin).
	writeTurn chan struct{}
}

// dsn returns the driver's data source name for path: busy_timeout first so
// that every later pragma already waits on a lock, then WAL, foreign keys
// and a full sync (a move acknowledged is a move kept).
func dsn(path string, readOnly bool) string {
	return dsnWith(path, readOnly, false)
}

// dsnWith is dsn; with replicated, the write connection leaves
// checkpoints to Litestream (wal_autocheckpoint(0)), which makes them
// once it has copied the WAL.
func dsnWith(path string, readOnly, replicated bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	if replicated && !readOnly {
		q.Add("_pragma", "wal_autocheckpoint(0)")
	}
	if readOnly {
		// The readers map the file instead of copying each page they
		// miss out of the kernel's cache with a system call (SQLite caps
		// the size at what its build allows); pages in the WAL are read
		// as before.
		q.Add("_pragma", "mmap_size(17179869184)")
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Set("_txlock", "immediate")
	}
	return "file:" + path + "?" + q.Encode()
}

// Open opens (creating if needed) the database file at path, sets the
// pragmas and runs the embedded migrations it lacks in order, all in one
// transaction, so that a failed upgrade leaves the schema it had (after a
// verified backup when the schema was older, see upgrade). Errors: the
// file cannot be opened, a migration fails, or the schema is newer than
// this binary's (ErrNewerSchema).
func Open(ctx context.Context, path string) (*DB, error) {
	return OpenWith(ctx, path, Options{})
}

// OpenWith is Open with options: with opt.Replica, the database is first
// restored from the replica when its file is missing (opt.RestoreIfMissing),
// and once open every committed transaction is streamed to the replica.
// Errors: as Open, a replica that cannot be reached or restored from, and
// a database behind a non-empty replica (*BehindReplicaError) unless
// opt.ReplicaOverwrite.
func OpenWith(ctx context.Context, path string, opt Options) (*DB, error) {
	if path == "" {
		return nil, errors.New("db: empty path")
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Replica != "" && opt.RestoreIfMissing {
		restored, err := restoreIfMissing(ctx, path, opt.Replica)
		if err != nil {
			return nil, err
		}
		if restored {
			opt.Logger.Info("database restored from the replica", "db", path, "replica", Redact(opt.Replica))
		}
	}
	// SQLite would make a new file readable by everyone: make it first,
	// for its owner only (its -wal and -shm files take the same mode).
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if err := createPrivate(path); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("db: create %s: %w", path, err)
		}
	}
	if opt.migrations == nil {
		opt.migrations = migrationFiles()
	}
	if opt.now == nil {
		opt.now = time.Now
	}
	db, err := open(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	if opt.Replica != "" {
		if db.repl, err = startReplication(ctx, path, opt.Replica, opt.ReplicaOverwrite, opt.Logger); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

func open(ctx context.Context, path string, opt Options) (*DB, error) {
	log := newWriteLog(opt.Logger)
	conn, err := newHookedConnector(dsnWith(path, false, opt.Replica != ""), log)
	if err != nil {
		return nil, fmt.Errorf("db: open %s: %w", path, err)
	}
	w := sql.OpenDB(conn)
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("db: open %s: %w", path, err)
	}
	if err := upgrade(ctx, w, path, opt.migrations, opt.NoUpgrade, opt.now(), opt.Logger); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("db: open %s for reading: %w", path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0)*2)
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	db := &DB{write: newPool(w), read: newPool(r), path: path, vacationDays: DefaultVacationDays, log: log,
		stopWatch: make(chan struct{}), watchDone: make(chan struct{}), writeTurn: make(chan struct{}, 1),
		leaderMarking: make(chan struct{}, 1)}
	log.gamesChanged = db.gameCache.committed
	log.ratingsChanged = db.ratingsChanged
	if log.gameSides, log.challengeMatch, log.gameStatus, log.lastPlayed, log.userName, err = hookColumns(ctx, w); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	v, err := db.dataVersion(ctx)
	if err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("db: open %s: %w", path, err)
	}
	go db.watchOutside(db.stopWatch, db.watchDone, v)
	if err := db.Optimize(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// analysedTables are the tables whose statistics the query planner
// needs: the moves are only ever read by game, through their key.
var analysedTables = []string{"games", "matches", "rating_changes", "ratings", "users", "challenges",
	"tournaments", "tournament_entrants", "tournament_pairings", "messages", "vacations"}

// Optimize refreshes the statistics SQLite's query planner chooses its
// indexes by (ANALYZE of analysedTables, a few seconds on a million
// games) when there are none yet or the games have grown by a quarter
// since. Open runs it; the server again every few hours. Without them the
// planner may walk every finished game by date instead of reading a
// player's games from their index.
func (db *DB) Optimize(ctx context.Context) error {
	var analysed, games int64
	err := db.read.QueryRowContext(ctx, `SELECT
		COALESCE((SELECT CAST(stat AS INTEGER) FROM sqlite_stat1 WHERE tbl = 'games' AND idx = 'games_finished'), -1),
		(SELECT n FROM counters WHERE name = 'games')`).Scan(&analysed, &games)
	if err != nil && strings.Contains(err.Error(), "no such table: sqlite_stat1") {
		analysed, err = -1, db.read.QueryRowContext(ctx, `SELECT n FROM counters WHERE name = 'games'`).Scan(&games)
	}
	if err != nil {
		return fmt.Errorf("db: optimize: %w", err)
	}
	if analysed >= 0 && games <= analysed+analysed/4 {
		return nil
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, t := range analysedTables {
		if _, err := tx.ExecContext(ctx, `ANALYZE `+t); err != nil {
			return fmt.Errorf("db: optimize: %w", err)
		}
	}
	return tx.Commit()
}

// hookColumns returns the positions, as the pre-update hook reads a row,
// of the games' two players and status, of a challenge's match and of a
// user's last game played and name (0 when not found).
func hookColumns(ctx context.Context, w *sql.DB) (sides [2]int, challengeMatch, gameStatus, lastPlayed, userName int, err error) {
	rows, err := w.QueryContext(ctx, `SELECT 'games', cid, name FROM pragma_table_info('games')
		UNION ALL SELECT 'challenges', cid, name FROM pragma_table_info('challenges')
		UNION ALL SELECT 'users', cid, name FROM pragma_table_info('users')`)
	if err != nil {
		return sides, 0, 0, 0, 0, fmt.Errorf("db: columns of games, challenges and users: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, name string
		var cid int
		if err := rows.Scan(&table, &cid, &name); err != nil {
			return sides, 0, 0, 0, 0, fmt.Errorf("db: columns of games, challenges and users: %w", err)
		}
		switch table + "." + name {
		case "games.side0_id":
			sides[0] = cid
		case "games.side1_id":
			sides[1] = cid
		case "games.status":
			gameStatus = cid
		case "challenges.match_id":
			challengeMatch = cid
		case "users.last_played":
			lastPlayed = cid
		case "users.name":
			userName = cid
		}
	}
	return sides, challengeMatch, gameStatus, lastPlayed, userName, rows.Err()
}

// Close closes both pools, then sends what the replica still lacks and
// stops replication (Litestream must close after the database's own
// connections).
func (db *DB) Close() error {
	db.stopOnce.Do(func() { close(db.stopWatch) })
	<-db.watchDone
	err := errors.Join(db.read.cache.close(), db.write.cache.close(), db.read.Close(), db.write.Close())
	if db.repl != nil {
		err = errors.Join(err, db.repl.close())
	}
	return err
}

// WriteTransactions is how many write transactions this DB began since
// it was opened: each holds SQLite's one write lock, which moves wait for.
func (db *DB) WriteTransactions() int64 { return db.writes.Load() }

// Path is the database file's path.
func (db *DB) Path() string { return db.path }

// begin starts a write transaction (BEGIN IMMEDIATE).
func (db *DB) begin(ctx context.Context) (*Tx, error) {
	// The write connection goes to the transactions in the order they
	// asked for it: database/sql hands a freed connection to a random
	// waiter, which under load left some moves waiting many times longer
	// than others.
	select {
	case db.writeTurn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("db: begin: %w", ctx.Err())
	}
	return db.beginHeld(ctx)
}

// beginHeld starts a write transaction once the caller has the write turn
// (DB.writeTurn), which the transaction's end gives back (at once if it
// cannot begin).
func (db *DB) beginHeld(ctx context.Context) (*Tx, error) {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		<-db.writeTurn
		return nil, fmt.Errorf("db: begin: %w", err)
	}
	db.writes.Add(1)
	// The connection is this transaction's now: whatever a transaction
	// that did not commit left in the log is forgotten.
	db.log.reset()
	t := &Tx{Tx: tx, cache: db.write.cache, onCommit: db.onCommit.Load(), log: db.log, turn: db.writeTurn}
	if au, _ := ctx.Value(auditKey{}).(*audit); au != nil {
		t.audit, t.auditCtx = au, ctx
	}
	return t, nil
}

// queryer is what both *sql.DB and *Tx offer for reads.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Secret returns the server secret stored under key, creating n random
// bytes on first use (the session keys survive restarts this way).
func (db *DB) Secret(ctx context.Context, key string, n int) ([]byte, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var v []byte
	err = tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		v = make([]byte, n)
		if _, err := rand.Read(v); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)`, key, v); err != nil {
			return nil, fmt.Errorf("db: store secret: %w", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("db: read secret: %w", err)
	}
	return v, tx.Commit()
}

// IntegrityCheck runs PRAGMA integrity_check and returns an error unless
// SQLite answers "ok".
func (db *DB) IntegrityCheck(ctx context.Context) error {
	var res string
	if err := db.read.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&res); err != nil {
		return fmt.Errorf("db: integrity check: %w", err)
	}
	if res != "ok" {
		return fmt.Errorf("db: integrity check: %s", res)
	}
	return nil
}

func unix(t time.Time) int64 { return t.Unix() }

func fromUnix(s int64) time.Time { return time.Unix(s, 0).UTC() }

func fromNullUnix(s sql.NullInt64) time.Time {
	if !s.Valid {
		return time.Time{}
	}
	return fromUnix(s.Int64)
}
