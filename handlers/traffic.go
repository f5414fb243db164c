package handlers

import (
	"context"
	"sync/atomic"
	"time"
)

// quietFor is how long no request may have been answered before the
// puzzle search, the server's lowest work, goes on: between the requests
// of a visitor reading page after page it stands aside.
const quietFor = 20 * time.Millisecond

// quietPoll is how often a search that stands aside looks again.
const quietPoll = 5 * time.Millisecond

// traffic counts the requests being answered (not the event streams,
// which stay open), so that the puzzle search stands aside while there
// are any. A search thread at the lowest priority still holds one of the
// Go runtime's processors: each collection stops it with every other
// goroutine, and on a machine whose processors the requests keep busy it
// waits for one before it stops, and every request waits with it. With
// 16 pages never asked before requested at once on two processors, the
// slowest of them took 96–132 ms with the search on and 42–53 ms with it
// off.
type traffic struct {
	inFlight atomic.Int64
	lastDone atomic.Int64 // Unix nanoseconds: when the last request was answered
}

// begin counts a request in; end counts it out at now.
func (t *traffic) begin() { t.inFlight.Add(1) }

func (t *traffic) end(now time.Time) {
	t.lastDone.Store(now.UnixNano())
	t.inFlight.Add(-1)
}

// quiet says whether no request is being answered and none was for
// quietFor before now.
func (t *traffic) quiet(now time.Time) bool {
	return t.inFlight.Load() == 0 && now.UnixNano()-t.lastDone.Load() >= int64(quietFor)
}

// waitQuiet returns once the server is quiet (on clock), ctx is done or
// interrupt (looked at as often as the server is) says so, with how long
// it waited. A nil traffic is always quiet.
func (t *traffic) waitQuiet(ctx context.Context, clock func() time.Time, interrupt func() bool) time.Duration {
	if t == nil {
		return 0
	}
	start := clock()
	if t.quiet(start) {
		return 0
	}
	tick := time.NewTicker(quietPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return clock().Sub(start)
		case <-tick.C:
		}
		if now := clock(); t.quiet(now) || interrupt() {
			return now.Sub(start)
		}
	}
}
