package handlers

import (
	"context"
	"testing"
	"time"
)

// TestSearchSlotsRoundRobin: with one slot, a slot that comes free goes
// to the owner served longest ago, whatever the order of the waiters; a
// waiter whose context ends leaves the queue without holding a slot.
func TestSearchSlotsRoundRobin(t *testing.T) {
	s := newSearchSlots(1)
	ctx := context.Background()
	if !s.acquire(ctx, 1) {
		t.Fatal("the free slot was not granted")
	}
	got := make(chan int64, 16)
	// queue makes n waiters of owner and waits until they are queued.
	queue := func(owner int64, n int) {
		for range n {
			go func() {
				if s.acquire(ctx, owner) {
					got <- owner
				}
			}()
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			s.mu.Lock()
			queued := 0
			if o := s.owners[owner]; o != nil {
				queued = len(o.waiters)
			}
			s.mu.Unlock()
			if queued == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("owner %d: %d waiters queued, want %d", owner, queued, n)
			}
		}
	}
	// Owner 1 holds the slot and queues three more; 2 and 3 queue one each.
	queue(1, 3)
	queue(2, 1)
	queue(3, 1)
	cancelled, cancel := context.WithCancel(ctx)
	done := make(chan bool)
	go func() { done <- s.acquire(cancelled, 4) }()
	cancel()
	if <-done {
		t.Fatal("a cancelled waiter got a slot")
	}
	var order []int64
	owner := int64(1)
	for range 5 {
		s.release(owner)
		select {
		case owner = <-got:
		case <-time.After(5 * time.Second):
			t.Fatalf("no grant after %v", order)
		}
		order = append(order, owner)
	}
	want := []int64{2, 3, 1, 1, 1}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("grants in the order %v, want %v", order, want)
		}
	}
	s.release(owner)
	if s.free != 1 || len(s.owners) != 0 {
		t.Fatalf("after every release: %d free, owners %v", s.free, s.owners)
	}
}
