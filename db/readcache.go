package db

import (
	"context"
	"sync"
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
// A read remembered under generation n began after every transaction
// counted in n had committed, so it saw them all; a write whose method
// has returned has moved the generation on, so no reader that began
// after it can be answered with what was read before it.

// readCacheEntries bounds what the read cache holds: past it, it starts
// again empty. An archive page or a heavy player's games in progress are
// at most a few hundred kilobytes.
const readCacheEntries = 256

// readCache is the DB's cache of reads (remember).
type readCache struct {
	mu      sync.Mutex
	gen     uint64
	entries map[string]*readEntry
	// hits and misses count the answers from memory and the reads run
	// (ReadCacheStats).
	hits, misses uint64
}

// readEntry is one read, under way until done is closed; then val holds
// its result when err is nil.
type readEntry struct {
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

// remember returns what read returns, run at most once for key while no
// transaction commits; every caller gets its own copy made by clone (a
// caller may change what it gets). An error is not remembered: a caller
// that waited on a read that failed (its own client gone, say) runs the
// read itself.
func remember[T any](ctx context.Context, db *DB, key string, clone func(T) T, read func(context.Context) (T, error)) (T, error) {
	gen := db.log.commitGen.Load()
	c := &db.reads
	c.mu.Lock()
	if gen < c.gen {
		// A commit came between loading the generation and the lock:
		// read without remembering.
		c.misses++
		c.mu.Unlock()
		return read(ctx)
	}
	if gen > c.gen || c.entries == nil || len(c.entries) >= readCacheEntries {
		c.gen, c.entries = gen, map[string]*readEntry{}
	}
	if e, ok := c.entries[key]; ok {
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
	}
	e := &readEntry{done: make(chan struct{})}
	c.entries[key] = e
	c.misses++
	entries := c.entries
	c.mu.Unlock()
	v, err := read(ctx)
	e.val, e.err = v, err
	close(e.done)
	if err != nil {
		c.mu.Lock()
		if entries[key] == e {
			delete(entries, key)
		}
		c.mu.Unlock()
		return v, err
	}
	return clone(v), nil
}

// cloneSlice is remember's clone for a slice of values.
func cloneSlice[E any](s []E) []E {
	if s == nil {
		return nil
	}
	return append(make([]E, 0, len(s)), s...)
}

// cloneArchivePage is remember's clone for an archive page.
func cloneArchivePage(p ArchivePage) ArchivePage {
	p.Rows = cloneSlice(p.Rows)
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
