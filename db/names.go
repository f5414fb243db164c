package db

import (
	"context"
	"fmt"
	"maps"
	"sync"
)

// maxCachedNames bounds the names remembered at once; past it the cache
// starts again empty.
const maxCachedNames = 200_000

// nameCache remembers players' names by id under one value of
// writeLog.nameGen, which a committed renaming or deletion of an account
// moves on (a new account does not: no name remembered is its): a name is
// kept only if the generation did not move while it was read, and the
// cache starts again empty when it has.
// On a million games, the names of an archive page's players were a
// third of its reads from the database (the accounts of 100 players at
// random: 0.2 ms of 0.6).
type nameCache struct {
	mu    sync.Mutex
	gen   uint64
	names map[int64]string
}

// playerNames sets the Name of every player in ps from its ID, from
// memory where the name is known and from the accounts otherwise, in one
// read. Errors: the read's.
func (db *DB) playerNames(ctx context.Context, ps []*Player) error {
	gen := db.log.nameGen.Load()
	c := &db.names
	var missing []int64
	var unnamed []*Player
	c.mu.Lock()
	if c.gen != gen || c.names == nil {
		c.gen, c.names = gen, map[int64]string{}
	}
	for _, p := range ps {
		if n, ok := c.names[p.ID]; ok {
			p.Name = n
		} else {
			missing = append(missing, p.ID)
			unnamed = append(unnamed, p)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return nil
	}
	in, args := idList(missing, 2*ArchivePageSize)
	read, err := db.readNames(ctx, `SELECT id, name FROM users WHERE id IN (`+in+`)`, args...)
	if err != nil {
		return err
	}
	for _, p := range unnamed {
		n, ok := read[p.ID]
		if !ok {
			return fmt.Errorf("db: players' names: no account %d", p.ID)
		}
		p.Name = n
	}
	db.keepNames(gen, read)
	return nil
}

// readNames reads the names of the accounts query gives (id, name) with
// args, by id.
func (db *DB) readNames(ctx context.Context, query string, args ...any) (map[int64]string, error) {
	rows, err := db.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("db: players' names: %w", err)
	}
	defer rows.Close()
	read := map[int64]string{}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, fmt.Errorf("db: players' names: %w", err)
		}
		read[id] = name
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: players' names: %w", err)
	}
	return read, nil
}

// keepNames keeps the names read, read under generation gen, in the
// names' cache: only if no account was renamed or deleted since (the
// generation did not move), in place of what the cache held under an
// older generation, and within maxCachedNames (past it, the cache starts
// again with these).
func (db *DB) keepNames(gen uint64, read map[int64]string) {
	if db.log.nameGen.Load() != gen {
		return // an account changed while they were read: not kept
	}
	c := &db.names
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.gen > gen:
		return // the cache has moved on
	case c.gen < gen || len(c.names) == 0:
		c.gen, c.names = gen, read
		return
	case len(c.names)+len(read) > maxCachedNames:
		clear(c.names)
	}
	maps.Copy(c.names, read)
}

// WarmNames reads every account's name (up to maxCachedNames of them)
// into the memory playerNames answers from, in one pass over the
// accounts, so that the lists a server shows after it starts (the
// archive's pages, each naming up to 100 players) need not read their
// players' names one page at a time: on a million games, a server just
// started spent 0.8 ms of an archive page's 3 reading the names it did
// not know yet. The names are kept only if no account was renamed or
// deleted meanwhile (nameGen). 100,000 accounts take about 0.15 s and 8
// MB. Errors: the read's (ctx done, the database closed).
func (db *DB) WarmNames(ctx context.Context) error {
	gen := db.log.nameGen.Load()
	read, err := db.readNames(ctx, `SELECT id, name FROM users LIMIT ?`, maxCachedNames)
	if err != nil {
		return err
	}
	db.keepNames(gen, read)
	return nil
}
