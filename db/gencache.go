package db

import "sync"

// genCache remembers answers read from SQLite by key under one value of a
// generation counter of writeLog (ratingGen, vacationGen, planGen): a
// committed change of what the answers are read from, or another
// process's commit, moves the counter on and the cache starts again
// empty. At most maxCachedGames answers; past it the cache starts again.
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
