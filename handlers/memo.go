package handlers

import "sync"

// memo remembers values by key, up to size of them: past it, it starts
// again empty. What the pages draw the same for every viewer (a rating
// chart, a tournament's results) is kept in one, keyed by what it shows.
type memo[K comparable, V any] struct {
	size int
	mu   sync.Mutex
	m    map[K]V
}

// get returns the value kept for k, or builds it and keeps it
// (an error is returned and nothing kept). Two callers asking at once may
// both make it: the values are the same.
func (c *memo[K, V]) get(k K, build func() (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= c.size {
		c.m = make(map[K]V)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v, nil
}
