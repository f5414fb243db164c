package handlers

import (
	"slices"
	"sync"
)

// fifoCache is a map that keeps at most a given number of entries: past
// it, the entry put first is dropped. Safe for concurrent use; the zero
// value is ready to use.
type fifoCache[K comparable, V any] struct {
	mu    sync.Mutex
	m     map[K]V
	order []K // oldest first
}

// get returns the value kept for k.
func (c *fifoCache[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// put keeps v for k, dropping the oldest entry when limit are kept.
func (c *fifoCache[K, V]) put(k K, v V, limit int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[K]V)
	}
	if _, ok := c.m[k]; !ok {
		if len(c.order) >= limit {
			delete(c.m, c.order[0])
			c.order = slices.Delete(c.order, 0, 1)
		}
		c.order = append(c.order, k)
	}
	c.m[k] = v
}

// len returns how many entries are kept.
func (c *fifoCache[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
