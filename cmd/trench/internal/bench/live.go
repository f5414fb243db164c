package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// With --live (the default) the clients behave as browsers with
// JavaScript on: each tab of a game holds the page's event stream (its
// sse-connect), the waiting player's tab learns of the opponent's move
// from the update pushed to it (no poll), and every htmx request names
// its page's stream (X-Trench-Tab), as the page's hx-headers make htmx
// do. Without --live the waiting tab polls (#poll), as a page does while
// its stream is down.

// pushWait is how long a waiting tab waits for the update of the
// opponent's move before the client counts an error.
const pushWait = 10 * time.Second

// tabStream is one tab's event stream: a goroutine reads it and keeps the
// newest "update" event for the client to take.
type tabStream struct {
	cancel context.CancelFunc
	ready  chan struct{} // signalled (capacity 1) on each update and at the end

	mu     sync.Mutex
	update []byte    // the newest update's data not yet taken (nil: none)
	at     time.Time // when it arrived
	n      int       // updates received
	bytes  int       // their data, in bytes
	done   bool      // the stream has ended
	err    error     // why, when not asked to
}

// openStream opens the event stream of g's tab i (player u), at the
// address its page gave.
func (c *client) openStream(ctx context.Context, u *user, g *game, i int) (*tabStream, error) {
	sctx, cancel := context.WithCancel(ctx)
	path := g.live[i]
	if path == "" {
		path = g.url() + "/events"
	}
	req, err := http.NewRequestWithContext(sctx, http.MethodGet, c.l.baseURL()+path, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header["Accept"] = []string{"text/event-stream"}
	req.Header["Accept-Encoding"] = []string{acceptEncoding}
	req.Header["X-Forwarded-For"] = []string{u.addr}
	// The user's cookies, without the one-minute bound of a request.
	hc := &http.Client{Jar: u.http.Jar, Transport: u.http.Transport}
	res, err := hc.Do(req)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("GET %s/events: %w", g.url(), err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		cancel()
		return nil, fmt.Errorf("GET %s/events: status %d", g.url(), res.StatusCode)
	}
	body, err := streamBody(res)
	if err != nil {
		res.Body.Close()
		cancel()
		return nil, fmt.Errorf("GET %s/events: %w", g.url(), err)
	}
	s := &tabStream{cancel: cancel, ready: make(chan struct{}, 1)}
	go func() {
		defer res.Body.Close()
		err := s.read(bufio.NewReaderSize(body, 64<<10))
		s.mu.Lock()
		s.done = true
		if sctx.Err() == nil {
			s.err = err
		}
		s.mu.Unlock()
		s.signal()
	}()
	return s, nil
}

func (s *tabStream) signal() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// read reads events until the stream ends: an "update" event's data
// lines, joined by newlines, become the newest update.
func (s *tabStream) read(r *bufio.Reader) error {
	var event string
	var data []byte
	lines := 0
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: gather it.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil {
			return err
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		switch {
		case len(line) == 0: // the end of an event
			if event == "update" && lines > 0 {
				s.mu.Lock()
				s.update = append(s.update[:0:0], data...)
				s.at = time.Now()
				s.n++
				s.bytes += len(data)
				s.mu.Unlock()
				s.signal()
			}
			event, data, lines = "", data[:0], 0
		case line[0] == ':': // a comment: the opening, a heartbeat
		case bytes.HasPrefix(line, []byte("event:")):
			event = string(bytes.TrimSpace(line[len("event:"):]))
		case bytes.HasPrefix(line, []byte("data:")):
			v := line[len("data:"):]
			if len(v) > 0 && v[0] == ' ' {
				v = v[1:]
			}
			if lines > 0 {
				data = append(data, '\n')
			}
			data = append(data, v...)
			lines++
		}
	}
}

// take returns the newest update not yet taken (nil for none), when it
// arrived, and whether the stream has ended (with its error).
func (s *tabStream) take() ([]byte, time.Time, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.update
	s.update = nil
	return u, s.at, s.done, s.err
}

// counts returns the updates received and their bytes, and zeroes them.
func (s *tabStream) counts() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, b := s.n, s.bytes
	s.n, s.bytes = 0, 0
	return n, b
}

// close ends the stream.
func (s *tabStream) close() {
	if s != nil {
		s.cancel()
	}
}

// closeStreams ends g's streams, counting what they received.
func (c *client) closeStreams(g *game) {
	for i, s := range g.streams {
		if s != nil {
			c.countPushes(s)
			s.close()
			g.streams[i] = nil
		}
	}
}

func (c *client) countPushes(s *tabStream) {
	n, b := s.counts()
	c.st.Pushes += n
	c.st.PushBytes += b
}

// ensureStreams opens the streams of g's tabs that are not open (the
// server then sends at once whatever the tab has not seen).
func (c *client) ensureStreams(ctx context.Context, g *game) error {
	for i, u := range g.players {
		if u == nil {
			continue
		}
		if s := g.streams[i]; s != nil {
			if _, done, _ := s.peek(); !done {
				continue
			}
			c.countPushes(s)
			s.close()
			g.streams[i] = nil
		}
		s, err := c.openStream(ctx, u, g, i)
		if err != nil {
			return err
		}
		g.streams[i] = s
	}
	return nil
}

// tabOf returns the name of the stream at address live (its ?tab=), ""
// for none.
func tabOf(live string) string {
	_, q, _ := strings.Cut(live, "?")
	v, err := url.ParseQuery(q)
	if err != nil {
		return ""
	}
	return v.Get("tab")
}

// peek is take without taking.
func (s *tabStream) peek() (bool, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.update != nil, s.done, s.err
}

// awaitPush waits for the update that shows tab w of g a game at ply
// atLeast or later in which it is to move, or which is over.
func (c *client) awaitPush(ctx context.Context, g *game, w, atLeast int) (*gamePage, error) {
	s := g.streams[w]
	timer := time.NewTimer(pushWait)
	defer timer.Stop()
	for {
		data, at, done, err := s.take()
		if data != nil {
			if pg := c.readGame(data); pg.found && pg.ply >= atLeast && (pg.yourTurn || pg.finished) {
				c.st.PushDelay = append(c.st.PushDelay, max(0, at.Sub(g.answered)))
				return pg, nil
			}
		}
		if done {
			if err == nil {
				err = fmt.Errorf("the stream ended")
			}
			return nil, fmt.Errorf("%s's event stream of game %d: %w", g.players[w].name, g.id, err)
		}
		select {
		case <-s.ready:
		case <-timer.C:
			return nil, fmt.Errorf("%s's page of game %d got no update of ply %d in %s", g.players[w].name, g.id, atLeast, pushWait)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
