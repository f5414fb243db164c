package db

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestWriteTransactionsBeginInOrder: while one transaction writes, the
// ones waiting for the write connection get it in the order they asked
// (a move submitted first is not overtaken by later ones, whatever the
// load).
func TestWriteTransactionsBeginInOrder(t *testing.T) {
	ctx := context.Background()
	store, err := Open(ctx, filepath.Join(t.TempDir(), "order.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	first, err := store.begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const waiting = 12
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range waiting {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tx, err := store.begin(ctx)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			tx.Rollback()
		}()
		time.Sleep(10 * time.Millisecond) // each asks after the one before
	}
	first.Rollback()
	wg.Wait()
	for i, got := range order {
		if got != i {
			t.Fatalf("the waiting transactions began in the order %v, not in the order they asked", order)
		}
	}
	if len(order) != waiting {
		t.Fatalf("%d of %d waiting transactions began", len(order), waiting)
	}
}
