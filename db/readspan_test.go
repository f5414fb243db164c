package db

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
)

// TestReadAskedAgainStaysWhileOthersComeAndGo: a read asked for again and
// again (an archive list's marks, asked on each of its pages) is read
// once, however many other reads (the pages a crawler walks, each asked
// once) come between two askings; those others are dropped as new ones
// come, so that the cache stays bounded.
func TestReadAskedAgainStaysWhileOthersComeAndGo(t *testing.T) {
	ctx := context.Background()
	store := new(DB)
	var gen atomic.Uint64
	reads := map[string]int{}
	get := func(key string) {
		t.Helper()
		v, err := remember(ctx, store, &gen, key, same[string], func(context.Context) (string, error) {
			reads[key]++
			return "read " + key, nil
		})
		if err != nil || v != "read "+key {
			t.Fatalf("%s: %q, %v", key, v, err)
		}
	}
	get("marks")
	for i := range 8 * readCacheEntries {
		get(fmt.Sprintf("page %d", i))
		if i%(readCacheEntries/2) == 0 {
			get("marks")
		}
	}
	if reads["marks"] != 1 {
		t.Errorf("the marks, asked every %d pages, were read %d times over %d pages, want once", readCacheEntries/2, reads["marks"], 8*readCacheEntries)
	}
	if n := len(store.reads.entries) + len(store.reads.older); n > 2*readCacheEntries {
		t.Errorf("%d reads kept, want at most %d", n, 2*readCacheEntries)
	}
	get("page 0")
	if reads["page 0"] != 2 {
		t.Errorf("the first page, asked once long ago, was read %d times when asked again, want 2 (dropped since)", reads["page 0"])
	}
	// A commit makes the marks be read again, once.
	gen.Add(1)
	get("marks")
	get("marks")
	if reads["marks"] != 2 {
		t.Errorf("the marks were read %d times after a commit, want 2 in all", reads["marks"])
	}
}
