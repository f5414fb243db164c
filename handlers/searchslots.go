package handlers

import (
	"context"
	"sync"
	"sync/atomic"
)

// searchSlots shares the computer's search slots between the players who
// wait for it: a slot that comes free goes to the first waiter of the
// owner served longest ago (an owner never served before goes first), so
// a player with many games waiting for the computer takes one turn in
// the round like a player with one. An owner is the player a search
// answers (the human opponent of a computer's game), or analysisOwner.
type searchSlots struct {
	mu     sync.Mutex
	free   int
	seq    uint64                // counts grants and arrivals: the order of events
	owners map[int64]*slotsOwner // owners with a waiter or a slot held
	// queued is how many wait for a slot, in every owner's queue (read
	// without the lock too).
	queued atomic.Int64
}

// slotsOwner is one owner's queue.
type slotsOwner struct {
	waiters []chan struct{} // closed when granted, in order of arrival
	arrived uint64          // seq when its first waiter of the queue came
	served  uint64          // seq of its last grant; 0 never
	held    int             // slots held
}

// analysisOwner is the owner of the analyses' searches: the queue of
// analyses takes its turn in the round like one player.
const analysisOwner int64 = -1

func newSearchSlots(n int) *searchSlots {
	return &searchSlots{free: max(n, 1), owners: map[int64]*slotsOwner{}}
}

func (s *searchSlots) owner(id int64) *slotsOwner {
	o := s.owners[id]
	if o == nil {
		o = &slotsOwner{}
		s.owners[id] = o
	}
	return o
}

// acquire waits for a slot for owner; false when ctx ended first (no slot
// is then held).
func (s *searchSlots) acquire(ctx context.Context, owner int64) bool {
	s.mu.Lock()
	o := s.owner(owner)
	if s.free > 0 && s.queued.Load() == 0 {
		s.free--
		s.grant(o)
		s.mu.Unlock()
		return true
	}
	ch := make(chan struct{})
	if len(o.waiters) == 0 {
		s.seq++
		o.arrived = s.seq
	}
	o.waiters = append(o.waiters, ch)
	s.queued.Add(1)
	s.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, w := range o.waiters {
		if w == ch {
			o.waiters = append(o.waiters[:i], o.waiters[i+1:]...)
			s.queued.Add(-1)
			s.forget(owner, o)
			return false
		}
	}
	// Granted meanwhile: give the slot on.
	s.releaseLocked(owner)
	return false
}

// release gives back a slot owner held.
func (s *searchSlots) release(owner int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked(owner)
}

func (s *searchSlots) releaseLocked(owner int64) {
	if o := s.owners[owner]; o != nil {
		o.held--
		s.forget(owner, o)
	}
	var next *slotsOwner
	for _, o := range s.owners {
		if len(o.waiters) == 0 {
			continue
		}
		if next == nil || o.served < next.served || o.served == next.served && o.arrived < next.arrived {
			next = o
		}
	}
	if next == nil {
		s.free++
		return
	}
	ch := next.waiters[0]
	next.waiters = next.waiters[1:]
	s.queued.Add(-1)
	s.grant(next)
	close(ch)
}

// grant records a slot given to o.
func (s *searchSlots) grant(o *slotsOwner) {
	s.seq++
	o.served = s.seq
	o.held++
}

// forget drops the queue of an owner with nothing waiting or held.
func (s *searchSlots) forget(id int64, o *slotsOwner) {
	if len(o.waiters) == 0 && o.held == 0 {
		delete(s.owners, id)
	}
}

// wanted says whether a search waits for a slot: one that holds a slot
// for work that can wait gives it up.
func (s *searchSlots) wanted() bool { return s.queued.Load() > 0 }
