package db

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The driver parses a query each time it runs unless it is a prepared
// statement; on a busy server that parsing is the largest cost. The pool
// and transaction types below prepare each query text once and reuse the
// statement. Query texts built at run time (the archive's filters) are
// few; past maxStatements distinct texts a query runs unprepared.
const maxStatements = 512

// stmtCache holds the prepared statements of one *sql.DB.
type stmtCache struct {
	db    *sql.DB
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// lookup returns the prepared statement of query if there is one, without
// preparing it (a transaction holding the write pool's only connection
// must not wait for another).
func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stmts[query]
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}}
}

// get returns the prepared statement of query, preparing it on first use;
// nil when the cache is full (the caller runs the query unprepared).
// Preparing waits for a connection, so it happens outside the lock.
func (c *stmtCache) get(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	st, ok := c.stmts[query]
	full := len(c.stmts) >= maxStatements
	c.mu.Unlock()
	if ok || full {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.stmts[query]; ok {
		st.Close() // prepared twice at once: keep the first
		return prev, nil
	}
	c.stmts[query] = st
	return st, nil
}

func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for q, st := range c.stmts {
		if err := st.Close(); err != nil && first == nil {
			first = err
		}
		delete(c.stmts, q)
	}
	return first
}

// pool is a connection pool whose queries use prepared statements.
type pool struct {
	*sql.DB
	cache *stmtCache
	// trace, when set (by the tests), sees every query before it runs.
	trace atomic.Pointer[func(query string, args []any)]
}

func (p *pool) traced(query string, args []any) {
	if f := p.trace.Load(); f != nil {
		(*f)(query, args)
	}
}

func newPool(db *sql.DB) *pool { return &pool{DB: db, cache: newStmtCache(db)} }

// QueryContext runs query as a prepared statement.
func (p *pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	p.traced(query, args)
	st, err := p.cache.get(ctx, query)
	if err != nil || st == nil {
		if err != nil {
			return nil, err
		}
		return p.DB.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs query as a prepared statement.
func (p *pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	p.traced(query, args)
	st, err := p.cache.get(ctx, query)
	if err != nil || st == nil {
		return p.DB.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// ExecContext runs query as a prepared statement.
func (p *pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := p.cache.get(ctx, query)
	if err != nil || st == nil {
		if err != nil {
			return nil, err
		}
		return p.DB.ExecContext(ctx, query, args...)
	}
	return st.ExecContext(ctx, args...)
}

// Tx is a write transaction whose statements are prepared once on the
// write connection and reused. The write pool has one connection, which
// the transaction holds: a query without a prepared statement yet runs
// unprepared, and is prepared once the transaction has ended.
type Tx struct {
	*sql.Tx
	cache    *stmtCache
	missed   []string
	onCommit *commitObserver // nil: commits are not timed
	log      *writeLog       // what the transaction changed, announced after its commit
	// fresh is what the transaction knows of games as its commit leaves
	// them (their rows read last, the moves it appended), by game id:
	// the game cache takes it after the commit instead of reading again.
	fresh map[int64]*freshGame
	// turn is DB.writeTurn, given back once the transaction has ended.
	turn     chan struct{}
	turnDone bool
	// detached: the statements run to their end even when the context
	// they are given is cancelled (a group of changes, see groupWrite).
	detached bool
	// audit is the admin action the transaction records as it commits,
	// with auditCtx (see WithAudit); nil for none.
	audit    *audit
	auditCtx context.Context
}

// stmtCtx is the context tx's statements run with.
func (tx *Tx) stmtCtx(ctx context.Context) context.Context {
	if tx.detached {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

// endTurn lets the next write transaction begin.
func (tx *Tx) endTurn() {
	if tx.turn != nil && !tx.turnDone {
		tx.turnDone = true
		<-tx.turn
	}
}

// freshGame is what a write transaction knows of one game as it commits.
type freshGame struct {
	game    Game // the row as read after the transaction's last write to it
	hasGame bool
	from    int    // the ply before the first move appended
	moves   []Move // the moves appended, in order
}

func (tx *Tx) freshOf(id int64) *freshGame {
	if tx.fresh == nil {
		tx.fresh = map[int64]*freshGame{}
	}
	f := tx.fresh[id]
	if f == nil {
		f = &freshGame{from: -1}
		tx.fresh[id] = f
	}
	return f
}

// gameRead notes g as the row of its game after the transaction's last
// write to it (nothing may write the game after this in the transaction).
func (tx *Tx) gameRead(g Game) {
	f := tx.freshOf(g.ID)
	f.game, f.hasGame = g, true
}

// moveAppended notes move m appended to game id, whose ply was before
// (m.Ply-1); m.CreatedAt as stored (whole seconds).
func (tx *Tx) moveAppended(id int64, m Move) {
	f := tx.freshOf(id)
	if f.from < 0 {
		f.from = m.Ply - 1
	}
	f.moves = append(f.moves, m)
}

func (tx *Tx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	st := tx.cache.lookup(query)
	if st == nil {
		tx.missed = append(tx.missed, query)
		return nil, nil
	}
	return tx.Tx.StmtContext(ctx, st), nil
}

// Commit commits the transaction, then tells the OnGameCommit and
// OnTournamentCommit observers what it changed and prepares the statements
// it missed.
func (tx *Tx) Commit() error {
	err := tx.commit()
	tx.prepareMissed()
	tx.endTurn()
	return err
}

// commit commits and announces the commit. The announcements of two
// commits never cross: the next write transaction begins only once this
// one has ended (DB.writeTurn, given back after this), so the game cache
// takes the transactions' fresh values in the order SQLite committed
// them.
func (tx *Tx) commit() error {
	if au := tx.audit; au != nil {
		au.mu.Lock()
		defer au.mu.Unlock()
		if !au.recorded {
			if err := au.a.insert(tx.auditCtx, tx.Tx); err != nil {
				// Neither the action nor its entry: the next
				// transaction forgets what this one logged.
				_ = tx.Tx.Rollback()
				return err
			}
		}
	}
	// Taken while the transaction still holds the connection.
	ch := tx.log.take()
	gen := tx.log.gameGen.Load()
	start := time.Now()
	err := tx.Tx.Commit()
	if tx.audit != nil && err == nil {
		tx.audit.recorded = true
	}
	if tx.onCommit != nil && err == nil {
		(*tx.onCommit)(time.Since(start))
	}
	if err == nil {
		tx.log.committed(ch, tx.fresh, gen)
	}
	return err
}

// Rollback rolls the transaction back (after Commit it does nothing and
// returns sql.ErrTxDone), then prepares the statements it missed.
func (tx *Tx) Rollback() error {
	err := tx.Tx.Rollback()
	tx.prepareMissed()
	tx.endTurn()
	return err
}

func (tx *Tx) prepareMissed() {
	missed := tx.missed
	tx.missed = nil
	for _, q := range missed {
		// A statement that does not prepare runs unprepared next time too.
		_, _ = tx.cache.get(context.Background(), q)
	}
}

// QueryContext runs query in the transaction as a prepared statement.
func (tx *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = tx.stmtCtx(ctx)
	st, err := tx.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return tx.Tx.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs query in the transaction as a prepared statement.
func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = tx.stmtCtx(ctx)
	st, err := tx.stmt(ctx, query)
	if err != nil || st == nil {
		return tx.Tx.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// ExecContext runs query in the transaction as a prepared statement.
func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = tx.stmtCtx(ctx)
	st, err := tx.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return tx.Tx.ExecContext(ctx, query, args...)
	}
	return st.ExecContext(ctx, args...)
}

// idList returns the parameters of an IN list of ids ("?, ?, …") and
// their values, padded with 0 (no row's id) to a multiple of n, so that a
// query reading a page of rows by id has one text, prepared once, however
// many rows the page has and whichever they are: ids written into the
// text would make each page a statement of its own, and fill the cache.
func idList(ids []int64, n int) (string, []any) {
	size := max(n, (len(ids)+n-1)/n*n)
	args := make([]any, size)
	for i := range args {
		args[i] = int64(0)
		if i < len(ids) {
			args[i] = ids[i]
		}
	}
	return "?" + strings.Repeat(", ?", size-1), args
}
