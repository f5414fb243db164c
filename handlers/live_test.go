package handlers_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
)

// sseEvent is one event (or comment) read from an event stream.
type sseEvent struct {
	id, name, data string
	comment        string // a comment line (a heartbeat), when not an event
}

// stream is an open event stream of a client.
type stream struct {
	t      *testing.T
	Status int
	events chan sseEvent
	body   io.ReadCloser
	ended  chan struct{} // closed once the server ended the stream
}

// openStream opens path's event stream as c (with its cookies and
// address), sending lastID as Last-Event-ID unless empty.
func openStream(t *testing.T, c *client, path, lastID string) *stream {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.abs(path), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	if c.ForwardedFor != "" {
		req.Header.Set("X-Forwarded-For", c.ForwardedFor)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	s := &stream{t: t, Status: res.StatusCode, events: make(chan sseEvent, 64), body: res.Body, ended: make(chan struct{})}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		close(s.ended)
		return s
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("stream %s: Content-Type %q", path, ct)
	}
	go func() {
		defer close(s.ended)
		readEvents(res.Body, s.events)
	}()
	return s
}

// readEvents parses an event stream into out until it ends.
func readEvents(r io.Reader, out chan<- sseEvent) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var ev sseEvent
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.name != "" || len(data) > 0 {
				ev.data = strings.Join(data, "\n")
				out <- ev
			}
			ev, data = sseEvent{}, nil
		case strings.HasPrefix(line, ":"):
			out <- sseEvent{comment: strings.TrimSpace(line[1:])}
		case strings.HasPrefix(line, "data: "):
			data = append(data, line[len("data: "):])
		case strings.HasPrefix(line, "event: "):
			ev.name = line[len("event: "):]
		case strings.HasPrefix(line, "id: "):
			ev.id = line[len("id: "):]
		}
	}
}

// next returns the next event named name (skipping comments and other
// events), failing after wait.
func (s *stream) next(name string, wait time.Duration) sseEvent {
	s.t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case ev := <-s.events:
			if ev.comment == "" && ev.name == name {
				return ev
			}
		case <-deadline:
			s.t.Fatalf("no %q event within %v", name, wait)
		}
	}
}

// none checks that no event (comments aside) arrives within wait.
func (s *stream) none(wait time.Duration) {
	s.t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case ev := <-s.events:
			if ev.comment == "" {
				s.t.Fatalf("unexpected event %q (id %q): %.300s", ev.name, ev.id, ev.data)
			}
		case <-deadline:
			return
		}
	}
}

func (ev sseEvent) doc(t *testing.T) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(ev.data))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// liveURL is the event stream a page holds (its sse-connect).
func liveURL(t *testing.T, doc *goquery.Document) string {
	t.Helper()
	u, ok := doc.Find("[sse-connect]").Attr("sse-connect")
	if !ok {
		t.Fatal("the page holds no event stream")
	}
	return u
}

// playFirstLegal plays the first legal move of game id for whoever is to
// move, straight through the game flow (as the computer does).
func playFirstLegal(t *testing.T, s *server, id int64) db.Game {
	t.Helper()
	ctx := context.Background()
	g, err := s.DB.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	legal := st.Legal(g.ToMove)
	if len(legal) == 0 {
		t.Fatalf("no legal move in game %d at ply %d", id, g.Ply)
	}
	g, err = s.DB.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: legal[0]}, s.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestLiveMoveReachesOpenPages: the opponent's game page, both players'
// dashboards and a spectator's page get a move as soon as it commits, as
// fragments of the viewer's own page; a message reaches the opponent
// alone; a heartbeat keeps an idle stream alive.
func TestLiveMoveReachesOpenPages(t *testing.T) {
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.LiveHeartbeat = 100 * time.Millisecond })
	a, b := signedUpPair(t, s)
	a.HTMX, b.HTMX = true, true
	id := challenge(t, a, b, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	spectator := s.newClient(t)

	b.Get(page)
	bGame := openStream(t, b, liveURL(t, b.Last), "")
	spectator.Get(page)
	sGame := openStream(t, spectator, liveURL(t, spectator.Last), "")
	a.Get("/")
	if u := liveURL(t, a.Last); !strings.HasPrefix(u, "/events?g=") {
		t.Fatalf("the dashboard's stream is %q", u)
	}
	aDash := openStream(t, a, liveURL(t, a.Last), "")
	b.Get("/")
	bDash := openStream(t, b, liveURL(t, b.Last), "")
	// Nothing changed since the pages were made: nothing is sent, but
	// the heartbeat is.
	bGame.none(300 * time.Millisecond)
	select {
	case ev := <-bGame.events:
		if ev.comment != "ping" {
			t.Fatalf("after a quiet while: %+v, want the heartbeat", ev)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no heartbeat on an idle stream")
	}

	move := clickMove(t, a, id, func(int) int { return 0 })
	ev := bGame.next("update", 5*time.Second)
	d := ev.doc(t)
	if ply, _ := d.Find("#game").Attr("data-ply"); ply != "1" {
		t.Fatalf("bob's update shows ply %q, want 1", ply)
	}
	if oob, _ := d.Find("#game").Attr("hx-swap-oob"); oob != "true" {
		t.Fatal("the update's #game is not swapped out of band")
	}
	if d.Find("#moves li").Length() != 1 {
		t.Fatalf("bob's update has %d moves in the list, want 1", d.Find("#moves li").Length())
	}
	if !strings.Contains(d.Find("#status").Text(), "Your move") {
		t.Fatalf("bob's update says %q, want his move", d.Find("#status").Text())
	}
	if d.Find(`#board button[name="move"], #board a[data-click]`).Length() == 0 {
		t.Fatal("bob's update has nothing to click: not his own seat's view")
	}
	if tok, _ := d.Find(`input[name="_csrf"]`).First().Attr("value"); tok == "" || strings.Contains(ev.data, "LIVEcsrf") {
		t.Fatalf("the update's forms carry %q as their CSRF token", tok)
	}
	if !strings.HasPrefix(ev.id, "1.") {
		t.Fatalf("event id %q does not name ply 1", ev.id)
	}
	sev := sGame.next("update", 5*time.Second)
	sd := sev.doc(t)
	if sd.Find(`#board button[name="move"], #board a[data-click]`).Length() != 0 || sd.Find("#social-live").Length() != 0 {
		t.Fatal("the spectator's update has moves to click or the players' messages")
	}
	for _, dash := range []*stream{aDash, bDash} {
		dd := dash.next("update", 5*time.Second).doc(t)
		if dd.Find("#dashboard-body").Length() != 1 || dd.Find("#turn-badge").Length() != 1 {
			t.Fatal("a dashboard update without the dashboard's body and the turn count")
		}
	}
	_ = move

	// A message: bob's messages are updated, and nothing else.
	a.Get(page)
	a.Post(page+"/messages", url.Values{"message": {"Your turn, Bob"}})
	a.wantStatus(http.StatusOK)
	ev = bGame.next("update", 5*time.Second)
	d = ev.doc(t)
	if d.Find("#game").Length() != 0 || !strings.Contains(d.Find("#social-live").Text(), "Your turn, Bob") {
		t.Fatalf("after a message bob got: %.500s", ev.data)
	}
	sGame.none(300 * time.Millisecond)
}

// csrfOf is the CSRF token of c's last page.
func csrfOf(c *client) string {
	tok, _ := c.Last.Find(`input[name="_csrf"]`).First().Attr("value")
	return tok
}

// TestLiveCatchUp: a stream opened by a page older than the game (or
// reconnecting with the last event it got) gets the current game at once.
func TestLiveCatchUp(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	b.Get(fmt.Sprintf("/games/%d", id))
	u := liveURL(t, b.Last)
	g := playFirstLegal(t, s, id)
	st := openStream(t, b, u, "")
	ev := st.next("update", 5*time.Second)
	if ply, _ := ev.doc(t).Find("#game").Attr("data-ply"); ply != "1" || g.Ply != 1 {
		t.Fatalf("caught up to ply %q, want 1", ply)
	}
	// Reconnecting with the last event's id (the current version): nothing
	// to send.
	again := openStream(t, b, u, ev.id)
	again.none(300 * time.Millisecond)
	// A dashboard made before a change of its player's games.
	b.Get("/")
	du := liveURL(t, b.Last)
	playFirstLegal(t, s, id)
	if d := openStream(t, b, du, "").next("update", 5*time.Second).doc(t); d.Find("#dashboard-body").Length() != 1 {
		t.Fatal("the dashboard's catch-up has no dashboard")
	}
	// An unknown game is a 404, not a stream.
	if st := openStream(t, b, "/games/99999/events", ""); st.Status != http.StatusNotFound {
		t.Fatalf("stream of no game: %d", st.Status)
	}
}

// TestLiveLimits: beyond --live-per-user and --live-max a stream is
// refused with 429 and nothing else changes; a stream that ends frees its
// place.
func TestLiveLimits(t *testing.T) {
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.LivePerUser, cfg.LiveMax = 2, 3 })
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	path := fmt.Sprintf("/games/%d/events", id)
	a1, a2 := openStream(t, a, path, ""), openStream(t, a, "/events", "")
	if a1.Status != 200 || a2.Status != 200 {
		t.Fatalf("statuses %d %d", a1.Status, a2.Status)
	}
	if st := openStream(t, a, path, ""); st.Status != http.StatusTooManyRequests {
		t.Fatalf("a third stream of one player: %d, want 429", st.Status)
	}
	if st := openStream(t, b, path, ""); st.Status != 200 {
		t.Fatalf("bob's first stream: %d", st.Status)
	}
	spectator := s.newClient(t)
	if st := openStream(t, spectator, path, ""); st.Status != http.StatusTooManyRequests {
		t.Fatalf("a fourth stream on a server allowing three: %d, want 429", st.Status)
	}
	rec := httptest.NewRecorder()
	s.App.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), "\ntrench_live_streams 3\n") {
		t.Error("/metrics does not count the three open streams (trench_live_streams)")
	}
	a1.body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for s.App.LiveStreams() != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams open after one closed, want 2", s.App.LiveStreams())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := openStream(t, spectator, path, ""); st.Status != 200 {
		t.Fatalf("a stream once one ended: %d", st.Status)
	}
}

// TestLiveShutdownEndsStreams: shutting the server down ends its open
// streams at once instead of waiting for them.
func TestLiveShutdownEndsStreams(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	st := openStream(t, a, fmt.Sprintf("/games/%d/events", id), "")
	dash := openStream(t, b, "/events", "")
	start := time.Now()
	s.Stop()
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("shutting down took %v with streams open", d)
	}
	for _, x := range []*stream{st, dash} {
		select {
		case <-x.ended:
		case <-time.After(2 * time.Second):
			t.Fatal("a stream still open after the shutdown")
		}
	}
}

// TestLiveCardsNeverLeak plays a card game with both players' pages and
// a spectator's holding streams, and checks every pushed update against
// what its viewer may know: a card hidden from a viewer never reaches
// their stream.
func TestLiveCardsNeverLeak(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	spectator := s.newClient(t)
	spectator.Name = "spectator"
	w := newLeakWatch(t, s)
	w.viewers[spectator] = rules.NoSide
	id := cardsChallenge(t, w, a, b, cards.VariantShort)
	page := fmt.Sprintf("/games/%d", id)
	streams := map[*client]*stream{}
	for _, c := range []*client{a, b, spectator} {
		w.get(c, page, false)
		streams[c] = openStream(t, c, liveURL(t, c.Last), "")
	}
	rng := rand.New(rand.NewPCG(5, 7))
	updates := 0
	for ply := 0; ply < 40; ply++ {
		p, _ := whoMoves(t, s, id, a, b)
		if p == nil {
			break
		}
		w.cardsClickMove(p, rng)
		for c, st := range streams {
			ev := st.next("update", 5*time.Second)
			w.check(c, w.viewers[c], fmt.Sprintf("pushed update at ply %d", w.ply), []byte(ev.data), ev.doc(t))
			updates++
		}
	}
	if updates < 30 {
		t.Fatalf("only %d updates checked", updates)
	}
	t.Logf("%d pushed updates checked", updates)
}

// TestLiveThousandPages opens 1,000 event streams of one game on
// loopback (signed-out spectators, as raw connections) and checks that
// each move reaches every one of them; it reports the server's memory per
// idle stream and the time from a move's commit to its delivery (p50,
// p99) against the target of 50 ms at the 99th percentile.
func TestLiveThousandPages(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 1,000 connections")
	}
	const pages, moves = 1000, 10
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.LiveMax, cfg.LivePerUser = pages+10, pages+10 })
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	spectator := s.newClient(t)
	spectator.Get(fmt.Sprintf("/games/%d", id))
	path := liveURL(t, spectator.Last)
	var commitMu sync.Mutex
	committed := map[int]time.Time{} // ply → when its move committed
	s.DB.OnGameCommit(func(ids ...int64) {
		now := time.Now()
		if g, err := s.DB.Game(context.Background(), id); err == nil {
			commitMu.Lock()
			if _, ok := committed[g.Ply]; !ok {
				committed[g.Ply] = now
			}
			commitMu.Unlock()
		}
	})

	addr := strings.TrimPrefix(s.URL, "http://")
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	goroutines := runtime.NumGoroutine()
	type page struct {
		conn net.Conn
		r    *bufio.Reader
	}
	ps := make([]page, 0, pages)
	for i := 0; i < pages; i++ {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		t.Cleanup(func() { conn.Close() })
		if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", path, addr); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, page{conn, bufio.NewReaderSize(conn, 256)})
	}
	for i, p := range ps {
		p.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		status, err := p.r.ReadString('\n')
		if err != nil || !strings.Contains(status, " 200 ") {
			t.Fatalf("stream %d: %q %v", i, status, err)
		}
		for { // headers, then the opening comment
			line, err := p.r.ReadString('\n')
			if err != nil {
				t.Fatalf("stream %d: %v", i, err)
			}
			if strings.HasPrefix(line, ": open") {
				break
			}
		}
	}
	if n := s.App.LiveStreams(); n != pages {
		t.Fatalf("%d streams open, want %d", n, pages)
	}
	// Idle for a while: a few collections (each may shrink the stacks the
	// streams grew while opening).
	for range 4 {
		runtime.GC()
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	perPage := (int64(after.HeapInuse+after.StackInuse) - int64(before.HeapInuse+before.StackInuse)) / pages
	t.Logf("memory per idle stream: %.1f KiB (heap %.1f, stacks %.1f; the server's side, and the test's raw socket with a 256-byte buffer); %.1f goroutines per stream",
		float64(perPage)/1024, float64(int64(after.HeapInuse)-int64(before.HeapInuse))/pages/1024,
		float64(int64(after.StackInuse)-int64(before.StackInuse))/pages/1024, float64(runtime.NumGoroutine()-goroutines)/pages)

	// Each page reads its updates; each move must reach all of them.
	type arrival struct {
		ply int
		at  time.Time
	}
	arrivals := make(chan arrival, pages*moves)
	for _, p := range ps {
		go func() {
			p.conn.SetReadDeadline(time.Now().Add(2 * time.Minute))
			// A buffer that holds a whole line of an update, read without
			// copying: the test's own reading costs the server's processors
			// little.
			r := bufio.NewReaderSize(p.r, 32<<10)
			marker := []byte(`id="game" data-game=`)
			for {
				line, err := r.ReadSlice('\n')
				if err != nil && err != bufio.ErrBufferFull {
					return
				}
				if i := bytes.Index(line, marker); i >= 0 {
					var g, ply int
					if _, err := fmt.Sscanf(string(line[i:min(len(line), i+60)]), `id="game" data-game="%d" data-ply="%d"`, &g, &ply); err == nil {
						arrivals <- arrival{ply, time.Now()}
					}
				}
			}
		}()
	}
	var lat []time.Duration
	var ru0 syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru0); err != nil {
		t.Fatal(err)
	}
	wall := time.Now()
	for m := 1; m <= moves; m++ {
		playFirstLegal(t, s, id)
		got := 0
		deadline := time.After(30 * time.Second)
		for got < pages {
			select {
			case a := <-arrivals:
				if a.ply != m {
					t.Fatalf("a page got ply %d while waiting for ply %d", a.ply, m)
				}
				commitMu.Lock()
				c := committed[m]
				commitMu.Unlock()
				lat = append(lat, a.at.Sub(c))
				got++
			case <-deadline:
				t.Fatalf("move %d reached %d of %d pages", m, got, pages)
			}
		}
	}
	var ru1 syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru1); err != nil {
		t.Fatal(err)
	}
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / moves
	t.Logf("processor time per move, server and test readers together: %v (%v of wall time per move; the machine's load average: %s)",
		cpu.Round(100*time.Microsecond), (time.Since(wall) / moves).Round(100*time.Microsecond), loadAverage())
	slices.Sort(lat)
	p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
	t.Logf("%d moves × %d pages: commit to delivery p50 %v, p99 %v, max %v (target: p99 ≤ 50ms)", moves, pages,
		p50.Round(10*time.Microsecond), p99.Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond))
}

// TestLiveTournamentPage: a tournament page (a visitor's, and an
// entrant's with their own buttons) gets each sign-up and the start as
// they commit.
func TestLiveTournamentPage(t *testing.T) {
	s := startServer(t, "", nil)
	var ps []*client
	for i := 1; i <= 3; i++ {
		c := s.newClient(t)
		c.SignUp(fmt.Sprintf("pl%d", i))
		ps = append(ps, c)
	}
	tp := organise(t, ps[0], url.Values{"name": {"Live cup"}, "game": {"trench:single"}, "format": {"roundrobin"},
		"min": {"2"}, "max": {"2"}, "days": {"3"}, "starts": {""}})
	v := s.newClient(t)
	v.Get(tp)
	visitor := openStream(t, v, liveURL(t, v.Last), "")
	ps[1].Get(tp)
	entrant := openStream(t, ps[1], liveURL(t, ps[1].Last), "")
	visitor.none(200 * time.Millisecond)

	tournamentAct(t, ps[1], tp, "join")
	d := visitor.next("update", 5*time.Second).doc(t)
	if got := d.Find("#entrants li").Text(); !strings.Contains(got, "pl2") || d.Find("#tournament-body").Length() != 1 {
		t.Fatalf("after pl2 joined the visitor's page lists %q", got)
	}
	if d.Find(`#tournament-actions form`).Length() != 0 {
		t.Fatal("the visitor's update has buttons")
	}
	if ed := entrant.next("update", 5*time.Second).doc(t); !strings.Contains(ed.Find("#tournament-actions").Text(), "Leave") {
		t.Fatalf("pl2's own update offers %q, want Leave", ed.Find("#tournament-actions").Text())
	}
	tournamentAct(t, ps[2], tp, "join") // full: it starts
	d = visitor.next("update", 5*time.Second).doc(t)
	for !strings.Contains(d.Find("#tournament-status").Text(), "Running") {
		d = visitor.next("update", 5*time.Second).doc(t)
	}
	if d.Find("#crosstable tbody a").Length() == 0 {
		t.Fatal("the started tournament's update has no game links")
	}
}

// loadAverage is the machine's load average over the last minute ("?"
// where unknown).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}

// olderVersion reports whether the game version a (a page's data-seq)
// is older than b by the rule of static/live.js: "START.N" of the same
// start of the server with a smaller count. An answer or an update older
// than the page is not swapped in.
func olderVersion(a, b string) bool {
	sa, na, _ := strings.Cut(a, ".")
	sb, nb, _ := strings.Cut(b, ".")
	if !strings.Contains(a, ".") {
		sa, na = "", a
	}
	if !strings.Contains(b, ".") {
		sb, nb = "", b
	}
	x, errA := strconv.ParseUint(na, 10, 64)
	y, errB := strconv.ParseUint(nb, 10, 64)
	return sa == sb && errA == nil && errB == nil && x < y
}

// TestLiveVersionSurvivesRestart: the version a game page carries
// (data-seq) grows with each change, and after the server restarts the
// answers and updates of the new server are never older than a page made
// before the restart, which would then ignore them and freeze.
func TestLiveVersionSurvivesRestart(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	a.HTMX, b.HTMX = true, true
	id := challenge(t, a, b, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	version := func(c *client) string {
		t.Helper()
		v, ok := c.Last.Find("#game").Attr("data-seq")
		if !ok {
			t.Fatalf("%s's answer holds no #game with data-seq", c.Name)
		}
		return v
	}
	var shown string
	for i := 0; i < 4; i++ {
		c, _ := whoMoves(t, s, id, a, b)
		clickMove(t, c, id, func(int) int { return 0 })
		v := version(c)
		if shown != "" && !olderVersion(shown, v) {
			t.Fatalf("move %d: the version went from %q to %q, want newer", i+1, shown, v)
		}
		shown = v
	}
	waiting, _ := whoMoves(t, s, id, a, b)
	waiting.get(page, true)
	shown = version(waiting)

	s2 := restartServer(t, s)
	a.moveTo(s2)
	b.moveTo(s2)
	waiting.get(page, true)
	if v := version(waiting); olderVersion(v, shown) {
		t.Fatalf("after a restart the page (version %q) takes the game (version %q) as older", shown, v)
	}
	clickMove(t, waiting, id, func(int) int { return 0 })
	if v := version(waiting); olderVersion(v, shown) {
		t.Fatalf("after a restart the page (version %q) takes its move's answer (version %q) as older", shown, v)
	}
}
