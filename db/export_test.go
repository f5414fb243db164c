package db

import (
	"context"
	"database/sql"
)

// HoldWriteTurn takes the write connection as a transaction would, until
// release is called: the changes asked for meanwhile wait together.
func HoldWriteTurn(store *DB) (release func()) {
	tx, err := store.begin(context.Background())
	if err != nil {
		panic(err)
	}
	return func() { tx.Rollback() }
}

// WaitingWrites is how many changes of games wait for the write connection.
func WaitingWrites(store *DB) int {
	store.queue.mu.Lock()
	defer store.queue.mu.Unlock()
	return len(store.queue.waiting)
}

// QueueNoOps puts n changes that write nothing in the queue of the write
// connection, as if n players had sent them just before.
func QueueNoOps(store *DB, n int) {
	for range n {
		store.queue.add(&gameWrite{ctx: context.Background(), run: func(context.Context, *Tx) (Game, error) { return Game{}, nil },
			claimed: make(chan struct{}), done: make(chan struct{})})
	}
}

// TraceReads makes fn see every query of the read pool, until the
// returned function is called.
func TraceReads(store *DB, fn func(query string, args []any)) (stop func()) {
	store.read.trace.Store(&fn)
	return func() { store.read.trace.Store(nil) }
}

// ReadPool is the read pool, for EXPLAIN QUERY PLAN.
func ReadPool(store *DB) *sql.DB { return store.read.DB }

// Remember is remember for a read of ints, for the tests of the read
// cache.
func Remember(ctx context.Context, store *DB, key string, read func(context.Context) ([]int, error)) ([]int, error) {
	return remember(ctx, store, &store.log.commitGen, key, cloneSlice[int], read)
}

// QuietTables are the tables whose changes alone leave the settled reads
// remembered.
func QuietTables() map[string]bool { return quietTables }

// BackgroundTables are the tables only the background work writes.
func BackgroundTables() map[string]bool { return backgroundTables }

// PreparedReads is how many statements the read pool keeps prepared.
func PreparedReads(store *DB) int {
	store.read.cache.mu.Lock()
	defer store.read.cache.mu.Unlock()
	return len(store.read.cache.stmts)
}

// StoredGame reads game id from SQLite, past every cache.
func StoredGame(ctx context.Context, store *DB, id int64) (Game, error) {
	return gameByID(ctx, store.read, id)
}

// MarkDirectoryFrom makes the directory read its pages from marks every
// names apart once it would skip from names, until restore.
func MarkDirectoryFrom(from, every int) (restore func()) {
	f, e := directoryMarkFrom, directoryMarkEvery
	directoryMarkFrom, directoryMarkEvery = from, every
	return func() { directoryMarkFrom, directoryMarkEvery = f, e }
}

// MarkLeaderboardsFrom makes the leaderboards read their pages from marks
// every lines apart from line from of each part on, until restore.
func MarkLeaderboardsFrom(from, every int) (restore func()) {
	f, e := leaderMarkFrom, leaderMarkEvery
	leaderMarkFrom, leaderMarkEvery = from, every
	return func() { leaderMarkFrom, leaderMarkEvery = f, e }
}
