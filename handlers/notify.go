package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/wneessen/go-mail"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// SMTPConfig is how the server sends e-mail. With an empty Addr it sends
// none.
type SMTPConfig struct {
	Addr     string // host:port of the mail server (STARTTLS when offered; TLS from the start on port 465)
	User     string // for SMTP authentication; "" for none
	Password string
	From     string // the sender, e.g. "Trench <trench@example.org>"
}

// check reports what is wrong with a mail configuration for a server at
// baseURL (the links in the mails need it).
func (s SMTPConfig) check(baseURL string) error {
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil || host == "" {
		return fmt.Errorf("smtp address %q: want host:port", s.Addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("smtp address %q: bad port", s.Addr)
	}
	if _, err := netmail.ParseAddress(s.From); err != nil {
		return fmt.Errorf("smtp sender %q: want an e-mail address (%v)", s.From, err)
	}
	if baseURL == "" {
		return errors.New("the links in the mails need the server's public URL (base URL)")
	}
	return nil
}

// client returns a mail client for the configuration.
func (s SMTPConfig) client() (*mail.Client, error) {
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return nil, err
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, err
	}
	opts := []mail.Option{mail.WithPort(p), mail.WithTimeout(30 * time.Second)}
	if p == 465 {
		opts = append(opts, mail.WithSSL())
	} else {
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	if s.User != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover), mail.WithUsername(s.User), mail.WithPassword(s.Password))
	}
	return mail.NewClient(host, opts...)
}

// SendNotifications sends the e-mails due now, once each: a mail for every
// game waiting for the move of a player who chose "every move" (at a ply
// not mailed yet), and the day's digest for every player who chose "daily
// digest" and has a game waiting. It returns how many mails the mail
// server accepted. Without a mail server configured it does nothing.
//
// Every mail is recorded in the database before it is handed to the mail
// server, in its own transaction, and only the run whose record was new
// sends it. So a mail is sent at most once: if the server stops, the
// connection breaks or the mail server refuses it after the record, that
// mail is lost, never repeated (recording after sending would repeat it
// whenever the process stopped between the two). To lose as little as
// possible, nothing is recorded until a connection to the mail server is
// open, and the run stops at the first failed send so that the mails after
// it stay due for the next run.
func (a *App) SendNotifications(ctx context.Context) (int, error) {
	cfg := a.cfg.SMTP
	if cfg.Addr == "" {
		return 0, nil
	}
	if err := cfg.check(a.cfg.BaseURL); err != nil {
		return 0, err
	}
	now := a.cfg.Now()
	notices, err := a.db.DueMoveNotices(ctx)
	if err != nil {
		return 0, err
	}
	digests, err := a.db.DueDigests(ctx, now)
	if err != nil {
		return 0, err
	}
	if len(notices) == 0 && len(digests) == 0 {
		return 0, nil
	}
	client, err := cfg.client()
	if err != nil {
		return 0, fmt.Errorf("mail: %w", err)
	}
	conn, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return 0, fmt.Errorf("mail: connect to %s: %w", cfg.Addr, err)
	}
	defer func() {
		if err := client.CloseWithSMTPClient(conn); err != nil {
			a.log.Warn("mail: close connection", "err", err)
		}
	}()
	base := strings.TrimRight(a.cfg.BaseURL, "/")
	sent := 0
	send := func(claim func() (bool, error), compose func() (*mail.Msg, error), what string) error {
		ok, err := claim()
		if err != nil || !ok {
			return err
		}
		msg, err := compose()
		if err != nil { // recorded already: logged and dropped, never retried
			a.log.Error("mail: compose", "what", what, "err", err)
			return nil
		}
		if err := client.SendWithSMTPClient(conn, msg); err != nil {
			return fmt.Errorf("mail: send %s: %w", what, err)
		}
		sent++
		return nil
	}
	for _, n := range notices {
		err := send(func() (bool, error) { return a.db.ClaimMoveNotice(ctx, n.To.UserID, n.Game.ID, n.Game.Ply, now) },
			func() (*mail.Msg, error) { return a.moveMail(n, base, now) },
			fmt.Sprintf("move notice to %s for game %d at ply %d", n.To.Name, n.Game.ID, n.Game.Ply))
		if err != nil {
			return sent, err
		}
	}
	for _, d := range digests {
		err := send(func() (bool, error) { return a.db.ClaimDigest(ctx, d.To.UserID, len(d.Games), now) },
			func() (*mail.Msg, error) { return a.digestMail(d, base, now) },
			fmt.Sprintf("digest to %s for %s", d.To.Name, db.DigestDay(now)))
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// newMail starts a plain-text message from the configured sender to r.
func (a *App) newMail(r db.Recipient, subject, body string, now time.Time) (*mail.Msg, error) {
	m := mail.NewMsg()
	if err := m.From(a.cfg.SMTP.From); err != nil {
		return nil, err
	}
	if err := m.To(r.Email); err != nil {
		return nil, err
	}
	m.Subject(subject)
	m.SetDateWithValue(now)
	m.SetMessageID()
	m.SetGenHeader("Auto-Submitted", "auto-generated")
	m.SetBodyString(mail.TypeTextPlain, body)
	return m, nil
}

// mailFooter says why the mail came and where to change it.
func mailFooter(base, why string) string {
	return "\n-- \nYou get this e-mail because you asked for " + why + ".\n" +
		"To change or stop it: " + base + "/settings\n"
}

// moveMail is the mail telling n.To that n.Game waits for their move.
func (a *App) moveMail(n db.MoveNotice, base string, now time.Time) (*mail.Msg, error) {
	r, err := gameRow(n.Game, n.To.UserID, now)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\nit is your move in %s against %s (%s).\n\n", n.To.Name, r.Title, r.Opponent, r.Clock)
	fmt.Fprintf(&b, "%s%s\n", base, r.Href)
	b.WriteString(mailFooter(base, "one whenever a game waits for your move"))
	return a.newMail(n.To, fmt.Sprintf("Your move against %s: %s", r.Opponent, r.Title), b.String(), now)
}

// digestMail is d.To's daily digest of the games waiting for their move.
func (a *App) digestMail(d db.Digest, base string, now time.Time) (*mail.Msg, error) {
	var b strings.Builder
	subject := "1 game waits for your move"
	if len(d.Games) != 1 {
		subject = fmt.Sprintf("%d games wait for your move", len(d.Games))
	}
	fmt.Fprintf(&b, "Hello %s,\n\n%s:\n\n", d.To.Name, subject)
	for _, g := range d.Games {
		r, err := gameRow(g, d.To.UserID, now)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "- %s against %s (%s)\n  %s%s\n", r.Title, r.Opponent, r.Clock, base, r.Href)
	}
	b.WriteString(mailFooter(base, "a daily digest of the games waiting for your move"))
	return a.newMail(d.To, subject, b.String(), now)
}

// notifyHandler serves the notification and feed settings and the feed.
type notifyHandler struct {
	db      *db.DB
	now     func() time.Time
	baseURL string
	mailOn  func() bool // whether the server sends e-mail
	// sessionRows lists the viewer's signed-in browsers for the page
	// (authHandler.sessionRows).
	sessionRows func(c echo.Context) ([]views.SessionRow, error)
}

// base is the server's public URL without a trailing slash: the
// configured one, or else the one the request came to.
func (h *notifyHandler) base(c echo.Context) string {
	if h.baseURL != "" {
		return strings.TrimRight(h.baseURL, "/")
	}
	return c.Scheme() + "://" + c.Request().Host
}

// modeOptions are the notification choices with selected checked.
func modeOptions(selected db.NotifyMode) []views.Option {
	opts := []views.Option{
		{Value: string(db.NotifyNone), Label: "Never"},
		{Value: string(db.NotifyMove), Label: "Every move: when a game waits for my move"},
		{Value: string(db.NotifyDaily), Label: "Daily digest: once a day, the games waiting for my move"},
	}
	for i := range opts {
		opts[i].Selected = opts[i].Value == string(selected)
	}
	return opts
}

// settingsPage renders the settings page for the signed-in user with
// status: the stored notification settings unless p carries submitted
// ones (p.Modes set), and the feed's address.
func (h *notifyHandler) settingsPage(c echo.Context, status int, p views.SettingsPage) error {
	s, err := h.db.NotifySettings(c.Request().Context(), currentViewer(c).ID)
	if err != nil {
		return err
	}
	if p.Modes == nil {
		p.Email, p.Modes = s.Email, modeOptions(s.Mode)
	}
	if c.Request().Method == http.MethodGet {
		p.NotifyDone = c.QueryParam("notify") == "1"
		p.FeedNew = c.QueryParam("feed") == "new"
		p.VerifySent = c.QueryParam("verify") == "sent"
	}
	p.EmailVerified = s.Verified && p.Email == s.Email
	p.MailOff = !h.mailOn()
	p.FeedURL = h.base(c) + "/feeds/" + url.PathEscape(s.FeedToken) + ".atom"
	if p.Sessions, err = h.sessionRows(c); err != nil {
		return err
	}
	return render(c, status, views.SettingsView(p), nil)
}

// saveNotify stores the e-mail address and the notification choice; bad
// input answers 400 with the form as submitted and changes nothing.
func (h *notifyHandler) saveNotify(c echo.Context) error {
	raw := strings.TrimSpace(c.FormValue("email"))
	mode := db.NotifyMode(c.FormValue("mode"))
	fail := func(msg string) error {
		return h.settingsPage(c, http.StatusBadRequest, views.SettingsPage{Page: pageOf(c, "Settings"),
			Email: raw, Modes: modeOptions(mode), NotifyError: msg})
	}
	email := ""
	if raw != "" {
		if len(raw) > db.MaxEmailLength {
			return fail(fmt.Sprintf("An e-mail address can be at most %d characters long.", db.MaxEmailLength))
		}
		addr, err := netmail.ParseAddress(raw)
		if err != nil {
			return fail("That is not an e-mail address; write it as name@example.org.")
		}
		email = addr.Address
	}
	switch {
	case !mode.Valid():
		return fail("Choose when to get e-mail: never, for every move, or a daily digest.")
	case email == "" && mode != db.NotifyNone:
		return fail("Give an e-mail address to get e-mail.")
	}
	err := h.db.SetNotify(c.Request().Context(), currentViewer(c).ID, email, mode)
	if db.KindOf(err) == db.KindInvalid {
		return fail(db.Message(err))
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/settings?notify=1#notifications")
}

// regenerateFeed gives the user a new feed address; the old one answers
// 404 from now on.
func (h *notifyHandler) regenerateFeed(c echo.Context) error {
	if _, err := h.db.RegenerateFeedToken(c.Request().Context(), currentViewer(c).ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/settings?feed=new#feed")
}

// feedFinished is how many finished games the feed lists.
const feedFinished = 20

// feed serves /feeds/TOKEN.atom: the games waiting for the token owner's
// move and their latest finished games, as Atom. The token is the only
// credential; a wrong one is a plain 404.
func (h *notifyHandler) feed(c echo.Context) error {
	token, ok := strings.CutSuffix(c.Param("file"), ".atom")
	if !ok {
		return echo.ErrNotFound
	}
	ctx := c.Request().Context()
	u, err := h.db.UserByFeedToken(ctx, token)
	if err != nil {
		return err
	}
	waiting, err := h.db.WaitingGames(ctx, u.ID)
	if err != nil {
		return err
	}
	finished, err := h.db.FinishedGames(ctx, u.ID, feedFinished)
	if err != nil {
		return err
	}
	now := h.now()
	base := h.base(c)
	host := base
	if bu, err := url.Parse(base); err == nil && bu.Hostname() != "" {
		host = bu.Hostname()
	}
	// Entry ids are tag: URIs (RFC 4151) dated by the game's creation:
	// one per game and ply waiting for the move, one per finished game.
	tag := func(g db.Game, rest string) string {
		return fmt.Sprintf("tag:%s,%s:games/%d/%s", host, g.CreatedAt.Format(time.DateOnly), g.ID, rest)
	}
	f := views.Feed{
		ID:      fmt.Sprintf("tag:%s,%s:players/%d/feed", host, u.CreatedAt.Format(time.DateOnly), u.ID),
		Title:   "Trench: " + u.Name,
		Link:    base + "/",
		Author:  "Trench",
		Updated: u.CreatedAt,
	}
	add := func(e views.FeedEntry) {
		f.Entries = append(f.Entries, e)
		if e.Updated.After(f.Updated) {
			f.Updated = e.Updated
		}
	}
	for _, g := range waiting {
		r, err := gameRow(g, u.ID, now)
		if err != nil {
			return err
		}
		add(views.FeedEntry{
			ID:    tag(g, "ply/"+strconv.Itoa(g.Ply)),
			Title: "Your move: " + r.Title + " against " + r.Opponent,
			Link:  base + r.Href,
			Summary: fmt.Sprintf("It is your move against %s. Your time runs out on %s.", r.Opponent,
				g.Deadline.UTC().Format("2 January 2006 at 15:04 UTC")),
			Updated: g.UpdatedAt,
		})
	}
	for _, g := range finished {
		r, err := gameRow(g, u.ID, now)
		if err != nil {
			return err
		}
		add(views.FeedEntry{
			ID:      tag(g, "end"),
			Title:   r.Status + ": " + r.Title + " against " + r.Opponent,
			Link:    base + r.Href,
			Summary: fmt.Sprintf("The game against %s is over: %s.", r.Opponent, r.Status),
			Updated: g.EndedAt,
		})
	}
	var buf bytes.Buffer
	if err := views.WriteAtom(&buf, f); err != nil {
		return err
	}
	return c.Blob(http.StatusOK, "application/atom+xml; charset=utf-8", buf.Bytes())
}
