package handlers

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/static"
	"github.com/trench-games/trench/views"
)

// Push notifications (the Push API: RFC 8030 delivery, VAPID RFC 8292,
// payload encryption RFC 8291 through webpush-go). A notice is due when
// the turn in a game passes to a player with a device that asked for
// "your move", and when a game of theirs ends, a challenge is addressed
// to them, a message is sent to them or a tournament round gives them a
// new game, for the devices that asked for that kind. One write
// (db.ClaimPushNotices) records the results of the requests finished
// since the last, the notices due (each never due again, even across a
// restart) and hands out their deliveries, one per device; a delivery
// whose result is not yet recorded when the server stops is lost, never
// sent twice.
const (
	// pushTimeout bounds one request to a push service.
	pushTimeout = 10 * time.Second
	// pushParallel is the most requests to push services at once.
	pushParallel = 8
	// pushPoll is how often the sender looks for due notices when no
	// commit woke it.
	pushPoll = 30 * time.Second
	// pushFlush is the longest the results of finished requests wait to
	// be recorded when no commit wakes the sender first.
	pushFlush = time.Second
	// pushGap is the shortest time between two looks for due notices
	// that commits woke: a server taking hundreds of moves a second looks
	// a few times a second, not once a move (each look is seven reads).
	pushGap = 250 * time.Millisecond
	// pushMaxAttempts is how often a delivery is tried before it is
	// dropped.
	pushMaxAttempts = 8
	// pushMaxTTL is the longest a push service keeps a notice for a
	// device that is offline (a game without a deadline): four weeks.
	pushMaxTTL = 28 * 24 * time.Hour
	// pushMaxMessage is the most characters of a message a notice
	// carries.
	pushMaxMessage = 200
	// pushMaxPayload is the largest payload sent, in bytes, well under
	// RFC 8291's 3,993 bytes of plaintext in a 4,096-byte record.
	pushMaxPayload = 3 * 1024
)

// PushPayload is what a push notification carries to the service worker
// (JSON): only what the player may see on the game's page.
type PushPayload struct {
	Title string `json:"title"` // "Your move against ann: TRENCH", "Game over against ann: TRENCH", …
	Body  string `json:"body"`  // "2 days left", the result, the message, …
	URL   string `json:"url"`   // the page to open, a path on the server ("/games/12")
	// Tag is one per game ("game-12"; "message-12" for its messages,
	// "challenge-7" for a challenge): a newer notice replaces an older one.
	Tag string `json:"tag"`
	// Waiting is how many games waited for the player's move when the
	// notice was made: the number on the app's badge.
	Waiting int `json:"waiting"`
	// Image is the game's position when the notice was made, a PNG
	// picture's path on the server ("/games/12/position.png?ply=9"), for
	// the games that have one (views.HasPNG); "" for none.
	Image string `json:"image,omitempty"`
}

// pushImage is the Image of a notice about game g.
func pushImage(g db.Game) string {
	if !views.HasPNG(g.Game) {
		return ""
	}
	return fmt.Sprintf("/games/%d/position.png?ply=%d", g.ID, g.Ply)
}

// pusher sends the push notifications.
type pusher struct {
	db         *db.DB
	keys       vapidKeys
	client     *http.Client
	subscriber string // the VAPID "sub" claim: the server's https URL or a mailto: address
	now        func() time.Time
	log        *slog.Logger
	metrics    *metrics
	// allowLoopback lets endpoints on loopback addresses in (tests).
	allowLoopback bool

	wake  chan struct{}
	slots chan struct{} // one per request in flight
	// results are the outcomes of the finished requests, recorded by the
	// next pass, in its one write.
	mu      sync.Mutex
	results []db.PushResult
	// starved is set when a pass stopped for want of a free slot: the
	// next request to finish then wakes the sender.
	starved atomic.Bool
}

func newPusher(store *db.DB, keys vapidKeys, cfg Config, m *metrics) *pusher {
	p := &pusher{db: store, keys: keys, now: cfg.Now, log: cfg.Logger, metrics: m, allowLoopback: cfg.PushAllowLoopback,
		wake: make(chan struct{}, 1), slots: make(chan struct{}, pushParallel)}
	p.subscriber = "mailto:trench@localhost"
	if u, err := url.Parse(cfg.BaseURL); err == nil && u.Scheme == "https" && u.Host != "" {
		p.subscriber = "https://" + u.Host
	}
	dialer := &net.Dialer{Timeout: pushTimeout, Control: func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		if !p.publicAddr(ap.Addr()) {
			return fmt.Errorf("push: %s is not a public address", ap.Addr())
		}
		return nil
	}}
	p.client = &http.Client{
		Timeout: pushTimeout,
		Transport: &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: pushTimeout,
			MaxIdleConnsPerHost: pushParallel, IdleConnTimeout: 90 * time.Second, ForceAttemptHTTP2: true},
		// A push service answers; it never sends the server elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return p
}

// publicAddr reports whether a is an address on the public internet:
// not loopback (unless allowed), private, link-local, shared (RFC 6598),
// multicast or unspecified.
func (p *pusher) publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() {
		return p.allowLoopback
	}
	shared := netip.MustParsePrefix("100.64.0.0/10")
	return a.IsValid() && !a.IsPrivate() && !a.IsLinkLocalUnicast() && !a.IsLinkLocalMulticast() &&
		!a.IsInterfaceLocalMulticast() && !a.IsMulticast() && !a.IsUnspecified() && !shared.Contains(a)
}

// checkEndpoint reports, in the language of ctx, what makes raw no
// acceptable push endpoint: not an https:// URL (http:// only on loopback
// when allowed), or a host that does not resolve or resolves to an
// address that is not public. "" when it is acceptable.
func (p *pusher) checkEndpoint(ctx context.Context, raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || (u.Scheme != "https" && !(p.allowLoopback && u.Scheme == "http")) {
		return views.T(ctx, "A push endpoint must be an https:// address.")
	}
	host := u.Hostname()
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		ips, err := net.DefaultResolver.LookupNetIP(rctx, "ip", host)
		if err != nil || len(ips) == 0 {
			return views.T(ctx, "The push service %s cannot be found.", host)
		}
		addrs = ips
	}
	for _, a := range addrs {
		if !p.publicAddr(a) {
			return views.T(ctx, "The push service %s is not on the public internet.", host)
		}
	}
	if u.Scheme == "http" {
		for _, a := range addrs {
			if !a.Unmap().IsLoopback() {
				return views.T(ctx, "A push endpoint must be an https:// address.")
			}
		}
	}
	return ""
}

// kick wakes the sender (a game committed, a request finished).
func (p *pusher) kick() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run sends the push notifications due until ctx is done: first it drops
// the deliveries a stop interrupted, then it looks for due notices
// whenever a game commits, a request finishes while others wait for a
// slot, a retry falls due, and at least every pushPoll.
func (p *pusher) run(ctx context.Context) {
	if n, err := p.db.DropInterruptedPushDeliveries(ctx); err != nil {
		if ctx.Err() == nil {
			p.log.Error("push: drop interrupted deliveries", "err", err)
		}
	} else if n > 0 {
		p.log.Warn("push: notices interrupted by the last stop were dropped", "count", n) // not shown
		p.metrics.pushed("failed", "interrupted", n)
	}
	t := time.NewTimer(0)
	defer t.Stop()
	var last time.Time // the last look's start, by the machine's clock
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
			if d := time.Until(last.Add(pushGap)); d > 0 {
				gap := time.NewTimer(d)
				select {
				case <-ctx.Done():
					gap.Stop()
					return
				case <-gap.C:
				}
			}
		case <-t.C:
		}
		last = time.Now()
		_, err := p.pass(ctx, nil)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			p.log.Error("push: send notices", "err", err)
		}
		p.metrics.job("push", err)
		wait := pushPoll
		if p.pending() {
			wait = pushFlush
		}
		if next, err := p.db.NextPushDelivery(ctx); err == nil && !next.IsZero() {
			if d := next.Sub(p.now()); d < wait {
				wait = max(d, time.Second)
			}
		}
		if !t.Stop() {
			select {
			case <-t.C:
			default:
			}
		}
		t.Reset(wait)
	}
}

// pass records the results of the requests finished since the last one,
// claims the push notices due now and starts sending the deliveries due,
// at most pushParallel at once, all with one write to the database. With
// wg nil it returns without waiting for the requests; otherwise each
// request is added to wg. It returns how many deliveries it started.
func (p *pusher) pass(ctx context.Context, wg *sync.WaitGroup) (int, error) {
	now := p.now()
	results := p.takeResults()
	free := cap(p.slots) - len(p.slots)
	ds, err := p.db.ClaimPushNotices(ctx, now, results, free)
	if err != nil {
		p.putBack(results)
		return 0, err
	}
	if len(ds) >= free {
		p.starved.Store(true) // more may be due: the next request to finish wakes the sender
	}
	for _, d := range ds {
		p.slots <- struct{}{}
		if wg != nil {
			wg.Add(1)
		}
		go func() {
			defer func() {
				<-p.slots
				if wg != nil {
					wg.Done()
				}
				if p.starved.Swap(false) {
					p.kick()
				}
			}()
			p.deliver(ctx, d)
		}()
	}
	return len(ds), nil
}

// takeResults returns the results of the requests finished since the
// last call and forgets them.
func (p *pusher) takeResults() []db.PushResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	rs := p.results
	p.results = nil
	return rs
}

// putBack keeps results that could not be recorded for the next try.
func (p *pusher) putBack(rs []db.PushResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.results = append(rs, p.results...)
}

// pending reports whether results wait to be recorded.
func (p *pusher) pending() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.results) > 0
}

// flush records the results of the finished requests.
func (p *pusher) flush(ctx context.Context) error {
	rs := p.takeResults()
	if err := p.db.FinishPushDeliveries(ctx, rs); err != nil {
		p.putBack(rs)
		return err
	}
	return nil
}

// SendPushNotices sends the push notifications due now, waits for every
// request it made and records their results; it returns how many
// deliveries it tried.
func (a *App) SendPushNotices(ctx context.Context) (int, error) {
	var wg sync.WaitGroup
	n, err := a.push.pass(ctx, &wg)
	wg.Wait()
	if err != nil {
		return n, err
	}
	return n, a.push.flush(ctx)
}

// StartPush starts sending push notifications in the background until
// ctx is done, woken by every committed game.
func (a *App) StartPush(ctx context.Context) {
	a.db.OnGameCommit(func(...int64) { a.push.kick() })
	go a.push.run(ctx)
}

// compose makes delivery d's notice at now, in the player's language,
// and says how long it is worth keeping (at most the time left to move,
// else a day). fresh is false when what it tells no longer holds (the
// turn passed, the challenge was answered, the message was read): it is
// then not sent.
func (p *pusher) compose(ctx context.Context, d db.PushDelivery, now time.Time) (pl PushPayload, ttl time.Duration, fresh bool, err error) {
	lctx := views.WithLang(ctx, d.Language)
	uid := d.Sub.UserID
	// row is game id's row as uid sees it at now (the game only when
	// ok says it is still as the notice found it).
	row := func(id int64, ok func(db.Game) bool) (views.GameRow, db.Game, bool, error) {
		g, err := p.db.Game(ctx, id)
		if db.KindOf(err) == db.KindNotFound {
			return views.GameRow{}, g, false, nil
		}
		if err != nil || !ok(g) {
			return views.GameRow{}, g, false, err
		}
		rows, err := gameRows(lctx, p.db, []db.Game{g}, uid, uid, now)
		if err != nil {
			return views.GameRow{}, g, false, err
		}
		return rows[0], g, true, nil
	}
	gameTag := func(id int64) string { return "game-" + strconv.FormatInt(id, 10) }
	untilDeadline := func(g db.Game) time.Duration {
		if g.Deadline.IsZero() {
			return pushMaxTTL
		}
		return min(pushMaxTTL, g.Deadline.Sub(now))
	}
	switch d.Kind {
	case db.NoticeEnd:
		r, g, ok, err := row(d.Subject, db.Game.Finished)
		if !ok || err != nil {
			return pl, 0, false, err
		}
		return PushPayload{Title: views.T(lctx, "Game over against %s: %s", r.Opponent, r.Title), Body: r.Status,
			URL: r.Href, Tag: gameTag(d.Subject), Image: pushImage(g)}, db.NoticeWindow, true, nil
	case db.NoticeChallenge:
		c, err := p.db.Challenge(ctx, d.Subject)
		if db.KindOf(err) == db.KindNotFound || (err == nil && (c.Status != "open" || c.Opponent.ID != uid)) {
			return pl, 0, false, nil
		}
		if err != nil {
			return pl, 0, false, err
		}
		r := challengeRow(lctx, c, uid)
		return PushPayload{Title: views.T(lctx, "%s challenges you: %s", c.Creator.Name, r.Game),
			Body: r.Variant + " · " + r.Time, URL: "/#open-challenges",
			Tag: "challenge-" + strconv.FormatInt(c.ID, 10)}, db.NoticeWindow, true, nil
	case db.NoticeMessage:
		m, err := p.db.PushMessage(ctx, d.Subject)
		if db.KindOf(err) == db.KindNotFound || (err == nil && (!m.Unread || m.ToID != uid)) {
			return pl, 0, false, nil
		}
		if err != nil {
			return pl, 0, false, err
		}
		r, _, ok, err := row(m.GameID, func(db.Game) bool { return true })
		if !ok || err != nil {
			return pl, 0, false, err
		}
		body := m.Body
		if rs := []rune(body); len(rs) > pushMaxMessage {
			body = string(rs[:pushMaxMessage-1]) + "…"
		}
		return PushPayload{Title: views.T(lctx, "Message from %s: %s", m.From.Name, r.Title), Body: body,
			URL: r.Href, Tag: "message-" + strconv.FormatInt(m.GameID, 10)}, db.NoticeWindow, true, nil
	case db.NoticeRound:
		_, name, round, inTournament, err := p.db.GameRound(ctx, d.Subject)
		if !inTournament || err != nil {
			return pl, 0, false, err
		}
		r, g, ok, err := row(d.Subject, func(g db.Game) bool { return !g.Finished() })
		if !ok || err != nil {
			return pl, 0, false, err
		}
		body := r.Status
		if r.Clock != "" {
			body += " · " + r.Clock
		}
		return PushPayload{Title: views.T(lctx, "%s, round %d: your game against %s", name, round, r.Opponent),
			Body: body, URL: r.Href, Tag: gameTag(g.ID), Image: pushImage(g)}, untilDeadline(g), true, nil
	default: // db.NoticeMove
		r, g, ok, err := row(d.Subject, func(g db.Game) bool {
			return !g.Finished() && g.ToMove.Valid() && g.Side[g.ToMove].ID == uid && g.TurnPly == d.TurnPly
		})
		if !ok || err != nil {
			return pl, 0, false, err
		}
		return PushPayload{Title: views.T(lctx, "Your move against %s: %s", r.Opponent, r.Title), Body: r.Clock,
			URL: r.Href, Tag: gameTag(g.ID), Image: pushImage(g)}, untilDeadline(g), true, nil
	}
}

// deliver hands delivery d to its push service and records the outcome.
func (p *pusher) deliver(ctx context.Context, d db.PushDelivery) {
	now := p.now()
	outcome, reason, retryAt := p.send(ctx, d, now)
	if ctx.Err() != nil {
		return // stopping: dropped at the next start, never repeated
	}
	switch outcome {
	case db.PushSent:
		p.metrics.pushed("sent", "ok", 1)
	case db.PushGone:
		p.metrics.pushed("removed", reason, 1)
	case db.PushRetry:
		p.metrics.pushed("failed", reason, 1)
		if d.Attempts >= pushMaxAttempts {
			outcome = db.PushDropped
			p.metrics.pushed("failed", "gave_up", 1)
		}
	default:
		p.metrics.pushed("failed", reason, 1)
	}
	if outcome != db.PushSent && outcome != db.PushRetry {
		p.log.Info("push: notice not delivered", "device", d.Sub.ID, "kind", d.Kind, "subject", d.Subject, "reason", reason) // not shown
	}
	// Recorded by the next pass (or flush), with the others.
	p.mu.Lock()
	p.results = append(p.results, db.PushResult{Delivery: d, Outcome: outcome, At: now, RetryAt: retryAt})
	p.mu.Unlock()
}

// send makes and sends d's notice and says what became of it: the
// outcome, the reason (a metrics label) and, for db.PushRetry, when to
// try again.
func (p *pusher) send(ctx context.Context, d db.PushDelivery, now time.Time) (db.PushOutcome, string, time.Time) {
	pl, ttl, fresh, err := p.compose(ctx, d, now)
	if err != nil {
		p.log.Error("push: compose", "kind", d.Kind, "subject", d.Subject, "err", err)
		return db.PushDropped, "error", time.Time{}
	}
	if !fresh || ttl <= 0 {
		return db.PushDropped, "stale", time.Time{}
	}
	if pl.Waiting, err = p.db.TurnCount(ctx, d.Sub.UserID); err != nil {
		p.log.Error("push: games waiting", "err", err)
		return db.PushDropped, "error", time.Time{}
	}
	body, err := json.Marshal(pl)
	if err != nil || len(body) > pushMaxPayload {
		return db.PushDropped, "too_large", time.Time{}
	}
	urgency := webpush.UrgencyNormal
	if ttl < 24*time.Hour {
		urgency = webpush.UrgencyHigh
	}
	rctx, cancel := context.WithTimeout(ctx, pushTimeout)
	defer cancel()
	resp, err := webpush.SendNotificationWithContext(rctx, body, &webpush.Subscription{Endpoint: d.Sub.Endpoint,
		Keys: webpush.Keys{P256dh: d.Sub.P256dh, Auth: d.Sub.Auth}}, &webpush.Options{
		HTTPClient: p.client, Subscriber: p.subscriber, VAPIDPublicKey: p.keys.Public, VAPIDPrivateKey: p.keys.Private,
		TTL: int(ttl / time.Second), Urgency: urgency, Topic: pl.Tag,
		VapidExpiration: now.Add(12 * time.Hour)})
	if err != nil {
		if resp == nil && !errors.Is(err, context.Canceled) && (errors.Is(err, context.DeadlineExceeded) || isNetErr(err)) {
			return db.PushRetry, "unreachable", now.Add(pushBackoff(d.Attempts))
		}
		return db.PushDropped, "refused", time.Time{} // a malformed subscription
	}
	defer resp.Body.Close()
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return db.PushSent, "ok", time.Time{}
	case code == http.StatusNotFound || code == http.StatusGone:
		return db.PushGone, "gone_" + strconv.Itoa(code), time.Time{}
	case code == http.StatusTooManyRequests || code >= 500:
		wait := pushBackoff(d.Attempts)
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			wait = max(wait, time.Duration(s)*time.Second)
		} else if t, err := http.ParseTime(resp.Header.Get("Retry-After")); err == nil {
			wait = max(wait, t.Sub(now))
		}
		reason := "busy_429"
		if code >= 500 {
			reason = "server_5xx"
		}
		return db.PushRetry, reason, now.Add(wait)
	default:
		return db.PushDropped, "refused_" + strconv.Itoa(code), time.Time{}
	}
}

// isNetErr reports whether err is a network error (no connection, a
// reset, a refused address).
func isNetErr(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe)
}

// pushBackoff is how long to wait after the attempts-th failed try: 30 s,
// doubled each time, at most an hour.
func pushBackoff(attempts int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempts && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// pushHandler serves the settings of push notifications.
type pushHandler struct {
	db   *db.DB
	push *pusher
	now  func() time.Time
	// settingsPage renders the settings page (notifyHandler.settingsPage).
	settingsPage func(c echo.Context, status int, p views.SettingsPage) error
}

// pushSubscribeRequest is POST /settings/push's JSON body: the Push API's
// PushSubscription.toJSON() with the kinds of notices wanted.
type pushSubscribeRequest struct {
	Endpoint string                        `json:"endpoint"`
	Keys     struct{ P256dh, Auth string } `json:"keys"`
	Wants    []string                      `json:"wants"`
}

// subscribe stores the device's push subscription, sent as JSON (the
// settings page's script; answers 201 and {"id": N}) or as a form
// (endpoint, p256dh, auth, wants; answers with the settings page). An
// endpoint that is not https:// on a public host, or a player's eleventh
// device, is refused with a 4xx and a message.
func (h *pushHandler) subscribe(c echo.Context) error {
	var req pushSubscribeRequest
	isJSON := strings.HasPrefix(c.Request().Header.Get(echo.HeaderContentType), echo.MIMEApplicationJSON)
	if isJSON {
		if err := json.NewDecoder(c.Request().Body).Decode(&req); err != nil {
			return c.JSON(http.StatusBadRequest, map[string]string{"error": tr(c, "The push subscription is not valid JSON.")})
		}
	} else {
		req.Endpoint, req.Keys.P256dh, req.Keys.Auth = c.FormValue("endpoint"), c.FormValue("p256dh"), c.FormValue("auth")
		if f, err := c.FormParams(); err == nil {
			req.Wants = f["wants"]
		}
	}
	if len(req.Wants) == 0 {
		req.Wants = db.PushWants
	}
	fail := func(status int, msg string) error {
		if isJSON {
			return c.JSON(status, map[string]string{"error": msg})
		}
		return h.settingsPage(c, status, views.SettingsPage{Page: pageOf(c, tr(c, "Settings")), PushError: msg})
	}
	ctx := c.Request().Context()
	if len(req.Endpoint) > db.MaxPushEndpoint {
		return fail(http.StatusBadRequest, tr(c, "The push subscription is too long."))
	}
	if msg := h.push.checkEndpoint(ctx, req.Endpoint); msg != "" {
		return fail(http.StatusBadRequest, msg)
	}
	if !validPushKeys(req.Keys.P256dh, req.Keys.Auth) {
		return fail(http.StatusBadRequest, tr(c, "The push subscription's keys are not valid."))
	}
	id, err := h.db.AddPushSubscription(ctx, db.PushSubscription{UserID: currentViewer(c).ID, Endpoint: req.Endpoint,
		P256dh: req.Keys.P256dh, Auth: req.Keys.Auth, Wants: req.Wants,
		Device: deviceName(views.WithLang(ctx, "en"), c.Request().UserAgent())}, h.now())
	if k := db.KindOf(err); k == db.KindInvalid || k == db.KindConflict {
		status, msg := statusOf(c, err)
		return fail(status, msg)
	} else if err != nil {
		return err
	}
	if isJSON {
		return c.JSON(http.StatusCreated, map[string]int64{"id": id})
	}
	return c.Redirect(http.StatusSeeOther, "/settings?push=1#push")
}

// validPushKeys reports whether p256dh is a P-256 public key and auth a
// 16-byte secret, both base64url with or without padding (RFC 8291).
func validPushKeys(p256dh, auth string) bool {
	dec := func(s string) []byte {
		b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
		if err != nil {
			return nil
		}
		return b
	}
	if len(dec(auth)) != 16 {
		return false
	}
	_, err := ecdh.P256().NewPublicKey(dec(p256dh))
	return err == nil
}

// unsubscribe removes one of the player's devices (POST
// /settings/push/:id/delete).
func (h *pushHandler) unsubscribe(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return echo.ErrNotFound
	}
	if err := h.db.DeletePushSubscription(c.Request().Context(), currentViewer(c).ID, id); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/settings?push=removed#push")
}

// setWants saves the kinds of notice one of the player's devices is sent
// (POST /settings/push/:id/wants, a check box "wants" per kind; none
// checked sends it nothing until some are).
func (h *pushHandler) setWants(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return echo.ErrNotFound
	}
	f, err := c.FormParams()
	if err != nil {
		return err
	}
	if err := h.db.SetPushWants(c.Request().Context(), currentViewer(c).ID, id, f["wants"]); db.KindOf(err) == db.KindInvalid {
		status, msg := statusOf(c, err)
		return h.settingsPage(c, status, views.SettingsPage{Page: pageOf(c, tr(c, "Settings")), PushError: msg})
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/settings?push=wants#push")
}

// pushWantLabel names kind k of notice in the language of ctx.
func pushWantLabel(ctx context.Context, k string) string {
	switch db.NoticeKind(k) {
	case db.NoticeMove:
		return views.T(ctx, "Your move")
	case db.NoticeEnd:
		return views.T(ctx, "Game over")
	case db.NoticeChallenge:
		return views.T(ctx, "Challenges to you")
	case db.NoticeMessage:
		return views.T(ctx, "Messages")
	case db.NoticeRound:
		return views.T(ctx, "Tournament rounds")
	}
	return k
}

// serviceWorker serves /sw.js at the root, so that its scope is the
// whole site: never cached without asking (a new version reaches every
// browser at its next visit).
func serviceWorker(c echo.Context) error {
	b, ok := static.Content("sw.js")
	if !ok {
		return echo.ErrNotFound // sw.js is embedded: never happens
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Service-Worker-Allowed", "/")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", b)
}

// manifest serves /manifest.webmanifest.
func manifest(c echo.Context) error {
	b, err := json.Marshal(views.AppManifest())
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, "application/manifest+json", b)
}

// offline serves the page the service worker keeps for when the network
// is gone, in the reader's language.
func offline(c echo.Context) error {
	return render(c, http.StatusOK, views.OfflineView(), nil)
}
