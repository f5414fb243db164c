package handlers

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/semaphore"
)

// Pages are made a few at a time, in the order they were asked for: a
// page read (GET or HEAD, not a static file or an event stream) waits for
// one of a few turns (Config.PageTurns, by default one per processor)
// before its handler runs, and gives it back as soon as its answer is
// made, before that answer is sent. When more pages are asked for at once
// than there are processors, each is made in about the time it takes
// alone, after those asked for before it; left to the Go scheduler, the
// processors were shared among them all, and some waited far longer than
// others: with 16 clients each reading archive pages never asked before,
// on two processors, the slowest took 52–67 ms, and 30–38 in turns. A
// player's move (a POST) takes no turn.
//
// The answer is held in memory while the turn is held and sent after:
// a client that reads slowly, or not at all, never keeps a turn.

// admission hands out the turns.
type admission struct {
	turns   *semaphore.Weighted
	waiting atomic.Int64 // page reads waiting for a turn (the metric trench_pages_waiting)
}

func newAdmission(turns int) *admission {
	return &admission{turns: semaphore.NewWeighted(int64(max(1, turns)))}
}

// takesTurn says whether the request r waits for a turn.
func takesTurn(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	p := r.URL.Path
	return !strings.HasPrefix(p, "/static/") && !isEventStream(r) && p != "/healthz"
}

// isEventStream says whether r asks for a page's live updates (every
// route of them ends in /events): a stream that stays open.
func isEventStream(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/events") }

var heldPool = sync.Pool{New: func() any { return new(heldWriter) }}

// middleware runs the handler in a turn and sends what it wrote after.
// A client that goes away while its request waits gets nothing: the
// request's context error is returned.
func (ad *admission) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if !takesTurn(req) {
			return next(c)
		}
		ad.waiting.Add(1)
		err := ad.turns.Acquire(req.Context(), 1)
		ad.waiting.Add(-1)
		if err != nil {
			return err
		}
		res := c.Response()
		out := res.Writer
		w := heldPool.Get().(*heldWriter)
		w.header, w.code = out.Header(), 0
		res.Writer = w
		err = func() error {
			defer ad.turns.Release(1)
			return next(c)
		}()
		res.Writer = out
		if w.code != 0 {
			out.WriteHeader(w.code)
			if _, werr := out.Write(w.body.Bytes()); werr != nil && err == nil {
				err = werr
			}
		}
		if w.body.Cap() <= 1<<20 {
			w.body.Reset()
			w.header = nil
			heldPool.Put(w)
		}
		return err
	}
}

// heldWriter holds an answer: its headers are the real writer's, its
// status and body are kept until the turn is given back.
type heldWriter struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (w *heldWriter) Header() http.Header { return w.header }

func (w *heldWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *heldWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.body.Write(b)
}
