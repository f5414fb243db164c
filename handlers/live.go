package handlers

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// Live updates: an open game page, dashboard or tournament page holds one
// event stream (Server-Sent Events, read by htmx's SSE extension). When a
// write of a game or a tournament commits (db.OnGameCommit,
// db.OnTournamentCommit), the hub renders the change through the same
// views as the page's own requests, for each viewer's own seat (a card
// hidden from a viewer never reaches their stream), and sends it as one
// "update" event whose fragments htmx swaps out of band. Without
// JavaScript nothing of this runs: the page is reloaded by the player.
//
// A signed-in viewer's stream belongs to their session: it is closed when
// the session ends here (sessionsEnded), and a stream whose session has
// ended anywhere (`trench admin` included) writes no further event.

// The defaults of the live updates' limits.
const (
	DefaultLiveMax       = 10000            // open streams in all
	DefaultLivePerUser   = 16               // open streams of one account (or one client, signed out: an IPv4 address or an IPv6 /64)
	DefaultLiveHeartbeat = 25 * time.Second // a comment line on an idle stream, so that proxies keep it
)

// liveRetry is the reconnection delay the streams ask the browser for.
const liveRetry = 3 * time.Second

// liveMaxAge is how long a stream lives at most (a quarter more at
// random, so that streams opened together do not end together): the
// browser then reconnects, and its viewer is read afresh.
const liveMaxAge = 5 * time.Minute

// liveBacklog is how many updates a stream may have waiting to be
// written; one that falls further behind is closed, and the browser
// reconnects and catches up.
const liveBacklog = 8

// csrfMark stands for the CSRF token in a rendering shared by several
// streams; each stream writes its own token in its place.
const csrfMark = "LIVEcsrfMARK0d2f7a"

// eventBufs hold an event while a stream writes it, shared by the
// streams (an idle stream holds none).
var eventBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// liveKind is what a stream follows.
type liveKind uint8

const (
	liveGame       liveKind = iota // a game page
	liveUser                       // a player's dashboard
	liveTournament                 // a tournament page
)

// liveTopic is the thing a stream follows: a game, a player (their
// dashboard) or a tournament.
type liveTopic struct {
	kind liveKind
	id   int64
}

// liveEvent is one event ready to write: its text split where the
// stream's CSRF token goes.
type liveEvent struct {
	parts [][]byte
}

// liveSub is one open stream.
type liveSub struct {
	topic  liveTopic
	viewer viewer
	lang   string // the language of the page (views.Lang)
	csrf   string
	who    string // the key its per-user limit counts it under
	// session is the SHA-256 of the viewer's session token (tokenHash);
	// nil for a visitor.
	session []byte
	site    string // a signed-out IPv6 client's /48, capped at siteFactor times the per-user limit; "" for none
	out     chan liveEvent
	kicked  chan struct{} // closed when it fell behind or its session ended
	once    sync.Once
	// What a game page shows (version and SocialVersion; under vmu once
	// the stream is registered: the dispatcher and a released hold set
	// them), and for any page whether it must be sent the current state
	// at once (a reconnection; changed by the hub's dispatcher only once
	// the stream is registered).
	vmu            sync.Mutex
	gameV, socialV string
	catchUp        bool
	ended          bool // the game is over and the page was told
	// round is the round a tournament page shows (?round=; 0: the
	// latest, or every round).
	round int
	// tab names a game page's stream (?tab=, see newTab); the page's
	// requests carry it (views.TabHeader). While a request of that page
	// changes the game, the stream is held (held > 0, under the hub's mu):
	// the answer brings the page up to date, so the change is not pushed
	// to it as well; a change it was held from is sent when it is
	// released, if the answer did not show it (missed).
	tab    string
	held   int
	missed bool
}

func (s *liveSub) kick() { s.once.Do(func() { close(s.kicked) }) }

// send queues ev, or closes a stream that fell behind.
func (s *liveSub) send(ev liveEvent) {
	select {
	case s.out <- ev:
	default:
		s.kick()
	}
}

// liveHub keeps the open streams by topic and pushes each committed
// change to them.
type liveHub struct {
	log       *slog.Logger
	max       int
	perUser   int
	heartbeat time.Duration
	render    *liveRenderer // set once the routes are made
	sessions  *sessionManager
	start     string // this start of the server (newStartID), the first part of seq's versions

	mu     sync.Mutex
	topics map[liveTopic]map[*liveSub]struct{}
	users  map[int64]map[*liveSub]struct{} // the signed-in viewers' streams, by account
	gens   map[liveTopic]uint64            // dashboards and tournaments: changes pushed so far
	seqs   map[int64]uint64                // games: commits so far, counted as they commit
	total  int
	per    map[string]int
	closed bool
	done   chan struct{} // closed by close: every stream ends

	pendMu  sync.Mutex
	pending map[liveTopic]struct{} // changed since the dispatcher last looked
	joined  []*liveSub             // new streams to catch up
	wake    chan struct{}
}

// newLiveHub returns the hub of the event streams, within cfg's limits;
// sessions tells it whether a stream's session is still open.
func newLiveHub(cfg Config, sessions *sessionManager, log *slog.Logger) *liveHub {
	h := &liveHub{log: log, start: newStartID(), sessions: sessions, max: cfg.LiveMax, perUser: cfg.LivePerUser, heartbeat: cfg.LiveHeartbeat,
		topics: map[liveTopic]map[*liveSub]struct{}{}, users: map[int64]map[*liveSub]struct{}{}, gens: map[liveTopic]uint64{}, seqs: map[int64]uint64{}, per: map[string]int{}, done: make(chan struct{}),
		pending: map[liveTopic]struct{}{}, wake: make(chan struct{}, 1)}
	if h.max <= 0 {
		h.max = DefaultLiveMax
	}
	if h.perUser <= 0 {
		h.perUser = DefaultLivePerUser
	}
	if h.heartbeat <= 0 {
		h.heartbeat = DefaultLiveHeartbeat
	}
	return h
}

// gamesCommitted is the db.OnGameCommit observer: it notes the games for
// the dispatcher and returns at once.
func (h *liveHub) gamesCommitted(ids ...int64) {
	h.mu.Lock()
	for _, id := range ids {
		h.seqs[id]++
	}
	h.mu.Unlock()
	h.changed(liveGame, ids)
}

// seq is the version of game id a rendering read after it is at least as
// new as: "START.N", this server's start id (see newStartID) and how many
// commits have changed the game since it started. Pages carry it
// (data-seq) so that an answer and an update that cross are told apart
// even when a takeback lowers the ply; a version of another start (the
// server restarted since the page was made) is never older (see
// static/live.js).
func (h *liveHub) seq(id int64) string {
	h.mu.Lock()
	n := h.seqs[id]
	h.mu.Unlock()
	return h.start + "." + strconv.FormatUint(n, 10)
}

// newStartID returns a fresh name for a start of the server: 8 lowercase
// hexadecimal digits.
func newStartID() string {
	var b [4]byte
	_, _ = crand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// tournamentsCommitted is the db.OnTournamentCommit observer.
func (h *liveHub) tournamentsCommitted(ids ...int64) { h.changed(liveTournament, ids) }

func (h *liveHub) changed(kind liveKind, ids []int64) {
	h.pendMu.Lock()
	for _, id := range ids {
		h.pending[liveTopic{kind, id}] = struct{}{}
	}
	h.pendMu.Unlock()
	h.signal()
}

func (h *liveHub) signal() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// run dispatches the changes until ctx is done or the hub is closed.
func (h *liveHub) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.done:
			return
		case <-h.wake:
		}
		h.pendMu.Lock()
		topics, joined := h.pending, h.joined
		h.pending, h.joined = map[liveTopic]struct{}{}, nil
		h.pendMu.Unlock()
		for t := range topics {
			h.dispatch(ctx, t, nil, true)
		}
		for _, s := range joined {
			h.dispatch(ctx, s.topic, []*liveSub{s}, false)
		}
	}
}

// subscribers returns the open streams of t.
func (h *liveHub) subscribers(t liveTopic) []*liveSub {
	h.mu.Lock()
	defer h.mu.Unlock()
	subs := make([]*liveSub, 0, len(h.topics[t]))
	for s := range h.topics[t] {
		subs = append(subs, s)
	}
	return subs
}

// dispatch brings the streams subs (nil: all of t's) up to date with t.
// After a commit (all true), a game's change goes to its players'
// dashboards too. A held stream is left to the answer of its page's
// request (see hold).
func (h *liveHub) dispatch(ctx context.Context, t liveTopic, subs []*liveSub, all bool) {
	if h.render == nil {
		return
	}
	if all && t.kind != liveGame {
		// Counted before the streams are listed: a page made before this
		// change whose stream is not listed yet sees the count moved when
		// it connects.
		h.mu.Lock()
		h.gens[t]++
		h.mu.Unlock()
	}
	if subs == nil {
		subs = h.subscribers(t)
	}
	if t.kind == liveGame {
		subs = h.notHeld(subs)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var err error
	switch t.kind {
	case liveGame:
		var players [2]int64
		players, err = h.render.game(ctx, t.id, subs)
		if all {
			for _, p := range players {
				if p != 0 {
					h.dispatch(ctx, liveTopic{liveUser, p}, nil, true)
				}
			}
		}
	case liveUser:
		err = h.render.dashboard(ctx, t.id, subs, all)
	case liveTournament:
		err = h.render.tournament(ctx, t.id, subs, all)
	}
	if err != nil && ctx.Err() == nil && db.KindOf(err) != db.KindNotFound {
		h.log.Error("live update", "kind", t.kind, "id", t.id, "err", err)
	}
}

// notHeld returns the streams of subs that are not held, and marks the
// others as having missed a change.
func (h *liveHub) notHeld(subs []*liveSub) []*liveSub {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := subs[:0:0]
	for _, s := range subs {
		if s.held > 0 {
			s.missed = true
			continue
		}
		out = append(out, s)
	}
	return out
}

// hold finds the stream of the page that sent c's request (its
// views.TabHeader, a stream of game id opened by the same account) and
// holds it while the request changes the game: the change's update is
// not pushed to it. The caller must release it (nil: no such stream).
func (h *liveHub) hold(c echo.Context, id int64) *liveSub {
	if h == nil {
		return nil
	}
	tab := c.Request().Header.Get(views.TabHeader)
	uid := currentViewer(c).ID
	if !validTab(tab) || uid == 0 {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.topics[liveTopic{liveGame, id}] {
		if s.tab == tab && s.viewer.ID == uid {
			s.held++
			return s
		}
	}
	return nil
}

// release ends a hold: shown is the version of the game (see version)
// the request's answer showed the page, "" when it showed none. A change
// the stream missed while held and the answer did not show is then sent
// to it.
func (h *liveHub) release(s *liveSub, shown string) {
	if s == nil {
		return
	}
	if shown != "" {
		s.vmu.Lock()
		s.gameV = shown
		s.vmu.Unlock()
	}
	h.mu.Lock()
	s.held--
	catchUp := s.held == 0 && s.missed
	if catchUp {
		s.missed = false
	}
	h.mu.Unlock()
	if catchUp {
		h.pendMu.Lock()
		h.joined = append(h.joined, s)
		h.pendMu.Unlock()
		h.signal()
	}
}

// newTab returns a fresh name for a game page's stream: 16 lowercase
// hexadecimal digits (one word, that reads as nothing else on the page).
func newTab() string {
	var b [8]byte
	_, _ = crand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// validTab reports whether tab may name a stream: 1 to 32 letters,
// digits, '-' or '_'.
func validTab(tab string) bool {
	if tab == "" || len(tab) > 32 {
		return false
	}
	for i := 0; i < len(tab); i++ {
		c := tab[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// errLiveClosed refuses a stream once the server is shutting down.
var errLiveClosed = db.Errorf(db.KindTooMany, "The server is restarting: reload the page in a moment.")

// join registers a stream, within the limits. Errors: KindTooMany.
func (h *liveHub) join(s *liveSub) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.closed:
		return errLiveClosed
	case h.total >= h.max:
		return db.Errorf(db.KindTooMany, "Too many pages are following games live on this server right now; this page shows the changes when it is reloaded.")
	case h.per[s.who] >= h.perUser:
		return db.Errorf(db.KindTooMany, "You have %d pages following games live already; this one shows the changes when it is reloaded.", h.perUser)
	case s.site != "" && h.per[s.site] >= siteFactor*h.perUser:
		return db.Errorf(db.KindTooMany, "Too many pages from your network are following games live already; this one shows the changes when it is reloaded.")
	}
	h.total++
	h.per[s.who]++
	if s.site != "" {
		h.per[s.site]++
	}
	m := h.topics[s.topic]
	if m == nil {
		m = map[*liveSub]struct{}{}
		h.topics[s.topic] = m
	}
	m[s] = struct{}{}
	if uid := s.viewer.ID; uid != 0 {
		if h.users[uid] == nil {
			h.users[uid] = map[*liveSub]struct{}{}
		}
		h.users[uid][s] = struct{}{}
	}
	return nil
}

// leave unregisters a stream.
func (h *liveHub) leave(s *liveSub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.topics[s.topic]
	if _, ok := m[s]; !ok {
		return
	}
	delete(m, s)
	if len(m) == 0 {
		delete(h.topics, s.topic)
	}
	if uid := s.viewer.ID; uid != 0 {
		delete(h.users[uid], s)
		if len(h.users[uid]) == 0 {
			delete(h.users, uid)
		}
	}
	h.total--
	if h.per[s.who]--; h.per[s.who] <= 0 {
		delete(h.per, s.who)
	}
	if s.site != "" {
		if h.per[s.site]--; h.per[s.site] <= 0 {
			delete(h.per, s.site)
		}
	}
}

// gen is how many changes of a dashboard's or a tournament's topic t
// have been pushed: a page carries it from when it was made (?g=), and
// its stream is sent the page at once when it has moved.
func (h *liveHub) gen(t liveTopic) uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gens[t]
}

// stale reports whether a page of t made at generation ?g= (or
// reconnecting: Last-Event-ID) must be sent the current state.
func (h *liveHub) stale(c echo.Context, t liveTopic) bool {
	if c.Request().Header.Get("Last-Event-ID") != "" {
		return true
	}
	g, err := strconv.ParseUint(c.QueryParam("g"), 10, 64)
	return err != nil || g != h.gen(t)
}

// sessionOpen reports whether the session of s's viewer is still open
// (always, for a visitor's stream). A failure to read it is logged and
// counts as ended: the browser reconnects.
func (h *liveHub) sessionOpen(ctx context.Context, s *liveSub) bool {
	if s.viewer.ID == 0 {
		return true
	}
	open, err := h.sessions.open(ctx, s.session, s.viewer.ID)
	if err != nil && ctx.Err() == nil {
		h.log.Error("live stream: read its session", "user", s.viewer.ID, "err", err)
	}
	return open
}

// sessionsEnded closes the open streams of account uid whose session has
// ended: call it once a write that may end sessions of uid (signing out,
// everywhere too, a new password, a suspension, a deletion) has
// committed. The streams of the sessions that go on stay open.
func (h *liveHub) sessionsEnded(ctx context.Context, uid int64) {
	if h == nil || uid == 0 {
		return
	}
	h.mu.Lock()
	subs := make([]*liveSub, 0, len(h.users[uid]))
	for s := range h.users[uid] {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	for _, s := range subs {
		if !h.sessionOpen(ctx, s) {
			s.kick()
		}
	}
}

// open returns the number of open streams.
func (h *liveHub) open() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// close ends every stream and refuses new ones.
func (h *liveHub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.done)
	}
}

// EndLiveStreams ends every open event stream (live updates) and refuses
// new ones; the browsers reconnect to the next server. Call it when the
// server shuts down (http.Server.RegisterOnShutdown): Shutdown waits for
// open requests, and a stream never ends by itself.
func (a *App) EndLiveStreams() { a.live.close() }

// LiveStreams returns the number of event streams open now.
func (a *App) LiveStreams() int { return a.live.open() }

// stream serves one event stream of topic t: registered within the
// limits (429 beyond them), then the updates, a heartbeat comment every
// so often, until the browser leaves, falls behind, the viewer's session
// ends or the server shuts down.
func (h *liveHub) stream(c echo.Context, s *liveSub) error {
	v := currentViewer(c)
	s.viewer = v
	s.lang = views.Lang(c.Request().Context())
	s.csrf, _ = c.Get("csrf").(string)
	s.out = make(chan liveEvent, liveBacklog)
	s.kicked = make(chan struct{})
	if v.ID != 0 {
		s.who = "u" + strconv.FormatInt(v.ID, 10)
		token, _ := h.sessions.cookieValues(c.Request())
		s.session = tokenHash(token)
	} else {
		own, site := clientKeys(c.RealIP())
		s.who = "a" + own
		if site != "" {
			s.site = "s" + site
		}
	}
	if err := h.join(s); err != nil {
		return err
	}
	defer h.leave(s)

	w := c.Response()
	rc := http.NewResponseController(w)
	// The server's read and write timeouts are for ordinary requests: a
	// stream stays open, each write with a deadline of its own.
	if err := rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no") // nginx: do not hold the events back
	w.WriteHeader(http.StatusOK)
	write := func(parts ...[]byte) error {
		if err := rc.SetWriteDeadline(time.Now().Add(15 * time.Second)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
		// One write of the whole event (with this stream's token): one
		// chunk, the fewest system calls.
		buf := eventBufs.Get().(*[]byte)
		b := (*buf)[:0]
		for i, p := range parts {
			if i > 0 {
				b = append(b, s.csrf...)
			}
			b = append(b, p...)
		}
		_, err := w.Write(b)
		*buf = b
		eventBufs.Put(buf)
		if err != nil {
			return err
		}
		return rc.Flush()
	}
	if err := write([]byte("retry: " + strconv.Itoa(int(liveRetry/time.Millisecond)) + "\n: open\n\n")); err != nil {
		return nil // the browser left
	}
	// Catch the page up with what changed since it was made.
	h.pendMu.Lock()
	h.joined = append(h.joined, s)
	h.pendMu.Unlock()
	h.signal()

	beat := time.NewTicker(h.heartbeat)
	defer beat.Stop()
	age := time.NewTimer(liveMaxAge + rand.N(liveMaxAge/4))
	defer age.Stop()
	ctx := c.Request().Context()
	for {
		select {
		case ev := <-s.out:
			// Nothing more once the stream was closed or its session
			// ended (the event may be the viewer's private messages).
			select {
			case <-s.kicked:
				return nil
			default:
			}
			if !h.sessionOpen(ctx, s) {
				return nil
			}
			if err := write(ev.parts...); err != nil {
				return nil
			}
		case <-beat.C:
			if err := write([]byte(": ping\n\n")); err != nil {
				return nil
			}
		case <-s.kicked:
			return nil
		case <-age.C:
			return nil
		case <-h.done:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

// gameEvents is GET /games/:id/events: the stream of a game page. ?v= and
// ?s= (or, on a reconnection, the Last-Event-ID) say what the page shows;
// anything newer is sent at once.
func (h *liveHub) gameEvents(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	if _, err := h.render.db.Game(c.Request().Context(), id); err != nil {
		return err
	}
	s := &liveSub{topic: liveTopic{liveGame, id}, gameV: c.QueryParam("v"), socialV: c.QueryParam("s")}
	if tab := c.QueryParam("tab"); validTab(tab) {
		s.tab = tab
	}
	if last := c.Request().Header.Get("Last-Event-ID"); last != "" {
		s.gameV, s.socialV, _ = strings.Cut(last, "~")
	}
	return h.stream(c, s)
}

// dashboardEvents is GET /events: the stream of the viewer's dashboard.
// A dashboard older than the last change (?g=, see gen) or reconnecting
// is sent the dashboard at once.
func (h *liveHub) dashboardEvents(c echo.Context) error {
	t := liveTopic{liveUser, currentViewer(c).ID}
	return h.stream(c, &liveSub{topic: t, catchUp: h.stale(c, t)})
}

// tournamentEvents is GET /tournaments/:id/events: the stream of a
// tournament page. A page older than the last change (?g=, see gen) or
// reconnecting is sent the page at once.
func (h *liveHub) tournamentEvents(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	if _, err := h.render.db.Tournament(c.Request().Context(), id); err != nil {
		return err
	}
	round, err := roundParam(c)
	if err != nil {
		return err
	}
	t := liveTopic{liveTournament, id}
	return h.stream(c, &liveSub{topic: t, catchUp: h.stale(c, t), round: round})
}

// liveRenderer renders the pushed updates with the pages' own handlers,
// in a request of its own for each viewer (as an htmx request of theirs
// would be rendered).
type liveRenderer struct {
	e           *echo.Echo
	db          *db.DB
	games       *gameHandler
	pages       *pageHandler
	tournaments *tournamentHandler
}

// context is a request of viewer v for path, as htmx would send it from
// a game page showing ply (its views.PlyHeader: the move list then comes
// from the next move on; "" for a page whose ply is not known, which gets
// the whole list), with csrfMark for the CSRF token.
func (r *liveRenderer) context(ctx context.Context, path string, id int64, v viewer, ply string) echo.Context {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, path, nil)
	req.Header.Set("HX-Request", "true")
	c := r.e.NewContext(req, discard{header: http.Header{}})
	if ply != "" {
		req.Header.Set(views.PlyHeader, ply)
	} else {
		c.Set("wholeLog", true)
	}
	if v.ID != 0 {
		uid := v.ID
		v.turns = sync.OnceValues(func() (int, error) { return r.db.TurnCount(ctx, uid) })
	}
	c.Set("viewer", v)
	c.Set("csrf", csrfMark)
	c.Set("badge", true)
	c.Set("social", true)
	c.SetParamNames("id")
	c.SetParamValues(strconv.FormatInt(id, 10))
	return c
}

// viewerKey groups the streams that see a page alike: same account,
// same board view, same confirm-moves choice (the CSRF token aside).
func viewerKey(v viewer) string {
	return fmt.Sprintf("%d/%s/%t", v.ID, v.BoardView, v.ConfirmMoves)
}

// event renders comp as an "update" event (id id, "" for none).
func event(ctx context.Context, id string, comp templ.Component) (liveEvent, error) {
	var html bytes.Buffer
	if err := comp.Render(ctx, &html); err != nil {
		return liveEvent{}, err
	}
	var b bytes.Buffer
	if id != "" {
		b.WriteString("id: " + id + "\n")
	}
	b.WriteString("event: update\n")
	for _, line := range bytes.Split(html.Bytes(), []byte("\n")) {
		b.WriteString("data: ")
		b.Write(bytes.TrimSuffix(line, []byte("\r")))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return liveEvent{parts: bytes.Split(b.Bytes(), []byte(csrfMark))}, nil
}

// endEvent tells a game page that the game is over: it closes its
// stream (sse-close) and goes back to polling for the rematch offer.
var endEvent = liveEvent{parts: [][]byte{[]byte("event: end\ndata: over\n\n")}}

// game brings the streams of game id up to date: each one whose page
// shows an older version of the game gets the game's update, one whose
// player has not seen the last message gets the messages. It returns the
// game's players.
func (r *liveRenderer) game(ctx context.Context, id int64, subs []*liveSub) ([2]int64, error) {
	s, err := r.games.load(ctx, id)
	if err != nil {
		return [2]int64{}, err
	}
	g := s.game
	players := [2]int64{g.Side[0].ID, g.Side[1].ID}
	if len(subs) == 0 {
		return players, nil
	}
	gv := version(g)
	sv, err := r.db.SocialVersion(ctx, g.ID, g.MatchID)
	if err != nil {
		return players, err
	}
	type group struct {
		page         *views.GamePage
		full, social *liveEvent
	}
	groups := map[string]*group{}
	for _, sub := range subs {
		player := g.SideOf(sub.viewer.ID).Valid()
		sub.vmu.Lock()
		shown := sub.gameV
		newGame := shown != gv
		newSocial := player && sub.socialV != sv
		sub.vmu.Unlock()
		if !newGame && !newSocial {
			if g.Finished() && !sub.ended {
				sub.ended = true
				sub.send(endEvent)
			}
			continue
		}
		// The page gets the moves after the ply it shows, and a player's
		// page the messages only when they changed.
		ply := shownPly(shown)
		key := viewerKey(sub.viewer) + "/" + sub.lang + "/" + ply + "/" + strconv.FormatBool(newSocial)
		gr := groups[key]
		if gr == nil {
			gr = &group{}
			groups[key] = gr
		}
		lctx := views.WithLang(ctx, sub.lang)
		if gr.page == nil {
			c := r.context(lctx, fmt.Sprintf("/games/%d", id), id, sub.viewer, ply)
			c.Set("social", newSocial)
			p, err := r.games.page(c, s, "")
			if err != nil {
				return players, err
			}
			gr.page = &p
		}
		id := gv + "~" + sv
		var ev liveEvent
		if newGame {
			if gr.full == nil {
				e, err := event(lctx, id, views.GamePush(*gr.page))
				if err != nil {
					return players, err
				}
				gr.full = &e
			}
			ev = *gr.full
		} else {
			if gr.social == nil {
				if gr.page.Social == nil {
					continue
				}
				e, err := event(lctx, id, views.SocialPush(*gr.page.Social))
				if err != nil {
					return players, err
				}
				gr.social = &e
			}
			ev = *gr.social
		}
		sub.vmu.Lock()
		sub.gameV, sub.socialV = gv, sv
		sub.vmu.Unlock()
		sub.send(ev)
		if g.Finished() && !sub.ended {
			sub.ended = true
			sub.send(endEvent)
		}
	}
	return players, nil
}

// shownPly is the ply of a game's version (see version), "" when v is
// not one.
func shownPly(v string) string {
	ply, _, _ := strings.Cut(v, ".")
	if n, err := strconv.Atoi(ply); err != nil || n < 0 {
		return ""
	}
	return ply
}

// dashboard sends player uid's dashboard to subs: after a commit (all),
// or to a reconnecting stream.
func (r *liveRenderer) dashboard(ctx context.Context, uid int64, subs []*liveSub, all bool) error {
	evs := map[string]liveEvent{} // by language
	for _, sub := range subs {
		if !all && !sub.catchUp {
			continue
		}
		sub.catchUp = false
		ev, ok := evs[sub.lang]
		if !ok {
			lctx := views.WithLang(ctx, sub.lang)
			c := r.context(lctx, "/", uid, sub.viewer, "")
			d, err := r.pages.dashboard(c)
			if err != nil {
				return err
			}
			if ev, err = event(lctx, "d", views.DashboardPush(d)); err != nil {
				return err
			}
			evs[sub.lang] = ev
		}
		sub.send(ev)
	}
	return nil
}

// tournament sends tournament id's page to subs (each viewer sees their
// own buttons): after a commit (all), or to a reconnecting stream.
func (r *liveRenderer) tournament(ctx context.Context, id int64, subs []*liveSub, all bool) error {
	type key struct {
		user  int64
		lang  string
		round int
	}
	evs := map[key]liveEvent{}
	for _, sub := range subs {
		if !all && !sub.catchUp {
			continue
		}
		sub.catchUp = false
		k := key{sub.viewer.ID, sub.lang, sub.round}
		ev, ok := evs[k]
		if !ok {
			lctx := views.WithLang(ctx, sub.lang)
			path := fmt.Sprintf("/tournaments/%d", id)
			if sub.round != 0 {
				path += fmt.Sprintf("?round=%d", sub.round)
			}
			c := r.context(lctx, path, id, sub.viewer, "")
			p, err := r.tournaments.page(c, id)
			if err != nil {
				return err
			}
			if ev, err = event(lctx, "t", views.TournamentPush(p)); err != nil {
				return err
			}
			evs[k] = ev
		}
		sub.send(ev)
	}
	return nil
}

// discard is the response of a rendering for a stream: nothing is
// written to it (the handlers used return view models).
type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(p []byte) (int, error) { return len(p), nil }
func (d discard) WriteHeader(int)             {}
