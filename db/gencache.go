package db

import (
	"maps"
	"sync"
)

// genCache remembers answers read from SQLite by key under one value of a
// generation counter of writeLog (ratingGen, vacationGen, planGen): a
// committed change of what the answers are read from, or another
// process's commit, moves the counter on and the cache starts again
// empty (or, after a narrower change, keeps what it did not touch:
// advance). At most maxCachedGames answers; past it the cache starts again.
type genCache[K comparable, V any] struct {
	mu  sync.Mutex
	gen uint64
	m   map[K]V
}

// get returns the answer remembered for key under gen.
func (c *genCache[K, V]) get(key K, gen uint64) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		var zero V
		return zero, false
	}
	v, ok := c.m[key]
	return v, ok
}

// keep remembers v, read under gen, if the generation is still gen (now).
func (c *genCache[K, V]) keep(key K, gen uint64, v V, now uint64) {
	if gen != now {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen < gen || c.m == nil {
		c.gen, c.m = gen, map[K]V{}
	}
	if c.gen != gen {
		return
	}
	if len(c.m) >= maxCachedGames {
		clear(c.m)
	}
	c.m[key] = v
}

// advance moves the cache from generation old to now keeping what is
// still true: the answers for which drop is false. A cache that is not
// at old (another change came between) starts again empty.
func (c *genCache[K, V]) advance(old, now uint64, drop func(K, V) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.gen == old:
		maps.DeleteFunc(c.m, drop)
		c.gen = now
	case c.gen < now:
		c.gen, c.m = now, nil
	}
}
