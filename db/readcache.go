package db

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// The reads behind the public pages (the archive, profiles, leaderboards,
// the directory, a dashboard's lists) cost a few milliseconds each on a
// database of a million games, and the same page is often asked for by
// several visitors at once. What such a read returns is remembered, with
// the commit generation it was read under (writeLog.commitGen, which
// every committed transaction of this process and every commit of
// another one moves on): the same read asked again while no transaction
// has committed since is answered from memory, and one asked while the
// same read is under way waits for it instead of running it again.
//
// Three generations: commitGen moves on at every commit; playGen at
// every commit but those of the background work alone (the puzzle
// search, the analyses: background); settledGen only at the commits that
// may change what the settled reads show — the finished games and their
// matches, accounts, ratings, players' records — and not at a move in a
// game in progress, a message, a session, a puzzle or the work of the
// background jobs (settles). A read says which one it is remembered
// under: one that shows games in progress, or when each player last
// played, is remembered under playGen; the daily puzzle under commitGen.
//
// A read remembered under generation n began after every transaction
// counted in n had committed, so it saw them all; a write whose method
// has returned has moved the generation on, so no reader that began
// after it can be answered with what was read before it.

// readCacheEntries bounds what the read cache holds: it keeps the reads
// of two spans, the current one and the one before, and a span ends when
// it has taken in readCacheEntries reads. A read asked for again from the
// span before is taken into the current one; the rest of the span before
// is dropped when the current one ends. So what is asked for all the time
// (an archive list's marks, read again on each of its pages) stays
// however many other reads come and go between two askings, and a
// crawler walking a list one page after another pushes out only what
// nobody asked for since. An archive page or a heavy player's games in
// progress are at most a few hundred kilobytes.
const readCacheEntries = 256

// readCache is the DB's cache of reads (remember).
type readCache struct {
	mu sync.Mutex
	// entries are the current span's reads, older the span's before
	// (readCacheEntries).
	entries, older map[string]*readEntry
	// hits and misses count the answers from memory and the reads run
	// (ReadCacheStats).
	hits, misses uint64
}

// readEntry is one read, under way until done is closed; then val holds
// its result when err is nil.
type readEntry struct {
	gen  uint64 // the generation it was read under
	done chan struct{}
	val  any
	err  error
}

// ReadCacheStats returns how many of the remembered reads were answered
// from memory (hits) and how many ran (misses) since the DB was opened.
func (db *DB) ReadCacheStats() (hits, misses uint64) {
	c := &db.reads
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// remember returns what read returns, run at most once for key while
// generation gen (the DB's commitGen or settledGen) stays where it is;
// every caller gets its own copy made by clone (a caller may change what
// it gets). An error is not remembered: a caller that waited on a read
// that failed (its own client gone, say) runs the read itself.
func remember[T any](ctx context.Context, db *DB, gen *atomic.Uint64, key string, clone func(T) T, read func(context.Context) (T, error)) (T, error) {
	now := gen.Load()
	c := &db.reads
	c.mu.Lock()
	e, ok := c.take(key)
	switch {
	case ok && e.gen == now:
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
		if e.err == nil {
			c.mu.Lock()
			c.hits++
			c.mu.Unlock()
			return clone(e.val.(T)), nil
		}
		c.mu.Lock()
		c.misses++
		c.mu.Unlock()
		return read(ctx)
	case ok && e.gen > now:
		// A commit came between loading the generation and the lock,
		// and a later reader has remembered what it read since: read
		// without remembering.
		c.misses++
		c.mu.Unlock()
		return read(ctx)
	}
	e = &readEntry{gen: now, done: make(chan struct{})}
	c.put(key, e)
	c.misses++
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		if c.entries[key] == e {
			delete(c.entries, key)
		}
		if c.older[key] == e {
			delete(c.older, key)
		}
		c.mu.Unlock()
	}
	ended := false
	defer func() {
		if !ended {
			// The read panicked: those waiting read for themselves,
			// and the panic goes on up.
			e.err = errReadStopped
			close(e.done)
			forget()
		}
	}()
	v, err := read(ctx)
	ended = true
	e.val, e.err = v, err
	close(e.done)
	if err != nil {
		forget()
		return v, err
	}
	return clone(v), nil
}

// take returns key's read, from the current span or, taken into it, from
// the span before (readCacheEntries). c.mu is held.
func (c *readCache) take(key string) (*readEntry, bool) {
	if e, ok := c.entries[key]; ok {
		return e, true
	}
	e, ok := c.older[key]
	if ok {
		delete(c.older, key)
		c.put(key, e)
	}
	return e, ok
}

// put keeps e as key's read in the current span, which ends first when
// it is full: the span before is dropped, and the current one becomes it.
// c.mu is held.
func (c *readCache) put(key string, e *readEntry) {
	if _, ok := c.entries[key]; !ok && len(c.entries) >= readCacheEntries {
		c.older, c.entries = c.entries, nil
	}
	if c.entries == nil {
		c.entries = map[string]*readEntry{}
	}
	delete(c.older, key)
	c.entries[key] = e
}

// errReadStopped is what a read that panicked leaves to those waiting on
// it (they read for themselves).
var errReadStopped = errors.New("db: a remembered read stopped")

// remember2 is remember for a read that returns two values; cloneA
// copies the first for each caller (the second is copied as it is).
func remember2[A, B any](ctx context.Context, db *DB, gen *atomic.Uint64, key string, cloneA func(A) A,
	read func(context.Context) (A, B, error)) (A, B, error) {
	type pair struct {
		a A
		b B
	}
	p, err := remember(ctx, db, gen, key, func(p pair) pair { p.a = cloneA(p.a); return p },
		func(ctx context.Context) (pair, error) {
			a, b, err := read(ctx)
			return pair{a, b}, err
		})
	return p.a, p.b, err
}

// same is remember's clone for a value with nothing a caller could change
// in another's copy.
func same[T any](v T) T { return v }

// cloneSlice is remember's clone for a slice of values.
func cloneSlice[E any](s []E) []E {
	if s == nil {
		return nil
	}
	return append(make([]E, 0, len(s)), s...)
}

// clonePuzzle is remember's clone for a puzzle: its line and themes.
func clonePuzzle(p Puzzle) Puzzle {
	p.Solution = cloneSlice(p.Solution)
	p.Themes = cloneSlice(p.Themes)
	return p
}

// cloneMatches is remember's clone for matches with their games.
func cloneMatches(ms []MatchGames) []MatchGames {
	ms = cloneSlice(ms)
	for i := range ms {
		ms[i].Games = cloneSlice(ms[i].Games)
	}
	return ms
}

// quietTables are the tables that no settled read reads: a change to
// them alone leaves settledGen where it is. A table not named here, or
// new, moves it.
var quietTables = map[string]bool{
	"account_tokens": true, "admin_log": true, "analyses": true, "analysis_plies": true,
	"conditional_moves": true, "counters": true, "digests": true, "game_notes": true,
	"last_played_days": true, "lesson_progress": true, "messages": true, "moves": true,
	"notices": true, "notify_settings": true, "push_deliveries": true, "push_subscriptions": true,
	"puzzle_attempts": true, "puzzle_ratings": true, "puzzle_scans": true, "puzzles": true, "rematch_offers": true,
	"rematches": true, "reports": true, "sessions": true, "settings": true, "vacations": true,
	"sqlite_sequence": true, "sqlite_stat1": true, "sqlite_stat4": true,
	"_litestream_lock": true, "_litestream_seq": true,
}

// backgroundTables are written by the server's background work alone:
// the puzzle search (the puzzles it finds, the games it has looked at),
// the analyses players ask for, and the planner's statistics (Optimize).
// No read remembered under playGen reads them.
var backgroundTables = map[string]bool{
	"puzzles": true, "puzzle_scans": true, "analyses": true, "analysis_plies": true,
	"sqlite_stat1": true, "sqlite_stat4": true,
}

// background says whether the row change d is one of the background
// work's own: a row of backgroundTables, or the settings row where the
// puzzle search keeps how far it has looked (puzzleScanKey).
func background(d *sqlite.SQLitePreUpdateData) bool {
	if backgroundTables[d.TableName] {
		return true
	}
	if d.TableName != "settings" {
		return false
	}
	get := d.New
	if d.Op == sqlite3.SQLITE_DELETE {
		get = d.Old
	}
	row := make([]any, 1)
	if get(row...) != nil {
		return false
	}
	key, ok := row[0].(string)
	if !ok {
		if b, isBytes := row[0].([]byte); isBytes {
			key, ok = string(b), true
		}
	}
	return ok && key == puzzleScanKey
}

// settles says whether the row change d may change what a settled read
// shows: any change of a table not quiet, except an update of a game that
// neither was nor is finished (a move, a clock, an offer). (An update of
// an account that changes only when its player last played is not one
// either: lastPlayedOnly, which the caller asks first.) Unsure (a column
// that cannot be read), it says yes.
func (l *writeLog) settles(d *sqlite.SQLitePreUpdateData) bool {
	if d.TableName == "games" {
		if d.Op != sqlite3.SQLITE_UPDATE || l.gameStatus == 0 {
			return true
		}
		return l.finished(d.Old) || l.finished(d.New)
	}
	return !quietTables[d.TableName]
}

// lastPlayedOnly says whether the row change d is an update of an account
// that changes nothing but when its player last played (false when
// unsure: a column that cannot be read).
func (l *writeLog) lastPlayedOnly(d *sqlite.SQLitePreUpdateData) bool {
	return d.TableName == "users" && d.Op == sqlite3.SQLITE_UPDATE && l.lastPlayed != 0 &&
		onlyColumnChanged(d, l.lastPlayed)
}

// nameChanged says whether the row change d of an account may change a
// player's name as it is remembered by id (nameCache): a deletion, or an
// update of its name or id. A new account changes none. Unsure (a column
// that cannot be read), it says yes.
func (l *writeLog) nameChanged(d *sqlite.SQLitePreUpdateData) bool {
	switch {
	case d.Op == sqlite3.SQLITE_INSERT:
		return false
	case d.Op != sqlite3.SQLITE_UPDATE || l.userName == 0 || d.OldRowID != d.NewRowID:
		return true
	}
	old, new := make([]any, l.userName+1), make([]any, l.userName+1)
	if d.Old(old...) != nil || d.New(new...) != nil {
		return true
	}
	return !sameValue(old[l.userName], new[l.userName])
}

// finished says whether the games row get reads is a finished game's (or
// cannot be read).
func (l *writeLog) finished(get func(...any) error) bool {
	row := make([]any, l.gameStatus+1)
	if err := get(row...); err != nil {
		return true
	}
	status, ok := row[l.gameStatus].(string)
	return !ok || status == "finished"
}

// onlyColumnChanged says whether the update d changes no column but col
// (false when a row cannot be read).
func onlyColumnChanged(d *sqlite.SQLitePreUpdateData, col int) bool {
	n := d.Count()
	if col >= n {
		return false
	}
	old, new := make([]any, n), make([]any, n)
	if d.Old(old...) != nil || d.New(new...) != nil {
		return false
	}
	for i := range n {
		if i == col {
			continue
		}
		if !sameValue(old[i], new[i]) {
			return false
		}
	}
	return true
}

// sameValue says whether the column values a and b, as the pre-update
// hook reads them, are equal.
func sameValue(a, b any) bool {
	if x, ok := a.([]byte); ok {
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	if _, ok := b.([]byte); ok {
		return false
	}
	return a == b
}

// matchesGen is the generation Matches(f) is remembered under: the
// finished matches are settled, the ones in progress move with each game.
func matchesGen(db *DB, f MatchFilter) *atomic.Uint64 {
	if f.Finished {
		return &db.log.settledGen
	}
	return &db.log.playGen
}
