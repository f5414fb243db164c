package handlers

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	netmail "net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/labstack/echo/v4"
	"github.com/wneessen/go-mail"
	"golang.org/x/net/idna"

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
	from, err := netmail.ParseAddress(s.From)
	if err != nil {
		return fmt.Errorf("smtp sender %q: want an e-mail address (%v)", s.From, err)
	}
	if !isASCII(from.Address) {
		// Written into every mail's envelope and From line, where a mail
		// server without SMTPUTF8 refuses it.
		at := strings.LastIndexByte(from.Address, '@')
		hint := ""
		if ascii, err := idna.Lookup.ToASCII(from.Address[at+1:]); err == nil && isASCII(from.Address[:at]) {
			hint = fmt.Sprintf(": write it as %s", from.Address[:at]+"@"+ascii)
		}
		return fmt.Errorf("smtp sender %q: the address must be in ASCII%s", s.From, hint)
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
// open. A mail the mail server refuses (it answers 4xx or 5xx) is logged
// and recorded for its recipient (RecordMailFailure, shown on their
// settings page), and the run goes on with the others; when the
// connection itself fails the run stops, so that the mails after it stay
// due for the next run.
func (a *App) SendNotifications(ctx context.Context) (int, error) {
	cfg := a.cfg.SMTP
	if cfg.Addr == "" {
		return 0, nil
	}
	if err := cfg.check(a.cfg.BaseURL); err != nil {
		return 0, err
	}
	now := a.cfg.Now()
	notices, err := a.db.DueMoveNotices(ctx, db.ChannelMail)
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
			a.log.Warn("mail: close connection", "err", err) // not shown
		}
	}()
	base := strings.TrimRight(a.cfg.BaseURL, "/")
	sent := 0
	send := func(to db.Recipient, claim func() (bool, error), compose func() (*mail.Msg, error), what string) error {
		ok, err := claim()
		if err != nil || !ok {
			return err
		}
		msg, err := compose()
		if err != nil { // recorded already: logged and dropped, never retried
			a.log.Error("mail: compose", "what", what, "err", err)
			// Shown on the recipient's settings page: in their language.
			reason := views.T(mailContext(ctx, to, ""), "the mail could not be written to this address (%s)", err.Error())
			return a.db.RecordMailFailure(ctx, to.UserID, to.Email, reason, now)
		}
		if err := client.SendWithSMTPClient(conn, msg); err != nil {
			var se *mail.SendError
			if !errors.As(err, &se) || se.ErrorCode() == 0 {
				return fmt.Errorf("mail: send %s: %w", what, err)
			}
			reason := smtpReason(se)
			a.log.Error("mail: refused", "what", what, "to", to.Email, "answer", reason)
			return a.db.RecordMailFailure(ctx, to.UserID, to.Email, views.T(mailContext(ctx, to, ""), "the mail server answered %s", reason), now)
		}
		sent++
		return nil
	}
	for _, n := range notices {
		err := send(n.To, func() (bool, error) {
			return a.db.ClaimMoveNotice(ctx, db.ChannelMail, n.To.UserID, n.Game.ID, n.Game.Ply, now)
		},
			func() (*mail.Msg, error) { return a.moveMail(mailContext(ctx, n.To, ""), n, base, now) },
			fmt.Sprintf("move notice to %s for game %d at ply %d", n.To.Name, n.Game.ID, n.Game.Ply))
		if err != nil {
			return sent, err
		}
	}
	for _, d := range digests {
		err := send(d.To, func() (bool, error) { return a.db.ClaimDigest(ctx, d.To.UserID, len(d.Games), now) },
			func() (*mail.Msg, error) { return a.digestMail(mailContext(ctx, d.To, ""), d, base, now) },
			fmt.Sprintf("digest to %s for %s", d.To.Name, db.DigestDay(now)))
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// smtpReason is the mail server's answer in a refusal, e.g. "553 5.1.3
// mailbox name not allowed" (go-mail's error also names the command, the
// recipients and the message).
func smtpReason(se *mail.SendError) string {
	text := strings.TrimPrefix(se.Error(), se.Reason.String()+": ")
	for _, tail := range []string{", affected recipient(s): ", ", affected message ID: "} { // not shown: go-mail's words
		text, _, _ = strings.Cut(text, tail)
	}
	if code, msg, ok := strings.Cut(text, " "); ok && len(code) == 3 {
		if unq, err := strconv.Unquote(msg); err == nil {
			text = code + " " + unq
		}
	}
	return text
}

// mailDomain is the domain the server's Message-IDs end in: the
// sender's, or else the base URL's host.
func (a *App) mailDomain() string {
	if addr, err := netmail.ParseAddress(a.cfg.SMTP.From); err == nil {
		if _, domain, ok := strings.Cut(addr.Address, "@"); ok && domain != "" {
			return domain
		}
	}
	if u, err := url.Parse(a.cfg.BaseURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "localhost"
}

// newMail starts a plain-text message from the configured sender to r,
// written in the language lang (its Content-Language; "" for English).
func (a *App) newMail(r db.Recipient, lang, subject, body string, now time.Time) (*mail.Msg, error) {
	m := mail.NewMsg()
	if err := m.From(a.cfg.SMTP.From); err != nil {
		return nil, err
	}
	if err := m.To(r.Email); err != nil {
		return nil, err
	}
	m.Subject(subject)
	m.SetDateWithValue(now)
	m.SetMessageIDWithValue(rand.Text() + "@" + a.mailDomain())
	m.SetGenHeader("Auto-Submitted", "auto-generated")
	m.SetGenHeader("Content-Language", cmp.Or(lang, "en"))
	m.SetBodyString(mail.TypeTextPlain, body)
	return m, nil
}

// mailFooter says why the mail came (why: the sentence, in the language
// of the mail) and where to change it, in the language of ctx.
func mailFooter(ctx context.Context, base, why string) string {
	return "\n-- \n" + why + "\n" + views.T(ctx, "To change or stop it: %s", base+"/settings") + "\n"
}

// moveMail is the mail telling n.To that n.Game waits for their move,
// written in the language of ctx (the recipient's).
func (a *App) moveMail(ctx context.Context, n db.MoveNotice, base string, now time.Time) (*mail.Msg, error) {
	rows, err := gameRows(ctx, a.db, []db.Game{n.Game}, n.To.UserID, n.To.UserID, now)
	if err != nil {
		return nil, err
	}
	r := rows[0]
	var b strings.Builder
	b.WriteString(mailHello(ctx, n.To))
	b.WriteString(views.T(ctx, "it is your move in %s against %s (%s).", r.Title, r.Opponent, r.Clock) + "\n\n")
	fmt.Fprintf(&b, "%s%s\n", base, r.Href)
	b.WriteString(mailFooter(ctx, base, views.T(ctx, "You get this e-mail because you asked for one whenever a game waits for your move.")))
	return a.newMail(n.To, views.Lang(ctx), views.T(ctx, "Your move against %s: %s", r.Opponent, r.Title), b.String(), now)
}

// digestMail is d.To's daily digest of the games waiting for their move,
// written in the language of ctx (the recipient's).
func (a *App) digestMail(ctx context.Context, d db.Digest, base string, now time.Time) (*mail.Msg, error) {
	var b strings.Builder
	subject := views.TN(ctx, "%d games wait for your move", len(d.Games), len(d.Games))
	b.WriteString(mailHello(ctx, d.To))
	b.WriteString(views.T(ctx, "%s:|list", subject) + "\n\n")
	rows, err := gameRows(ctx, a.db, d.Games, d.To.UserID, d.To.UserID, now)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "- %s\n  %s%s\n", views.T(ctx, "%s against %s (%s)", r.Title, r.Opponent, r.Clock), base, r.Href)
	}
	b.WriteString(mailFooter(ctx, base, views.T(ctx, "You get this e-mail because you asked for a daily digest of the games waiting for your move.")))
	return a.newMail(d.To, views.Lang(ctx), subject, b.String(), now)
}

// notifyHandler serves the notification and feed settings and the feed.
type notifyHandler struct {
	db      *db.DB
	now     func() time.Time
	baseURL string
	mailOn  func() bool // whether the server sends e-mail
	pushKey string      // the server's VAPID public key, base64url
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

// modeOptions are the notification choices, in the language of ctx, with
// selected checked.
func modeOptions(ctx context.Context, selected db.NotifyMode) []views.Option {
	opts := []views.Option{
		{Value: string(db.NotifyNone), Label: views.T(ctx, "Never")},
		{Value: string(db.NotifyMove), Label: views.T(ctx, "Every move: when a game waits for my move")},
		{Value: string(db.NotifyDaily), Label: views.T(ctx, "Daily digest: once a day, the games waiting for my move")},
	}
	for i := range opts {
		opts[i].Selected = opts[i].Value == string(selected)
	}
	return opts
}

// settingsPage renders the settings page for the signed-in user with
// status: the stored notification settings unless p carries submitted
// ones (p.Modes set), and the feed's address when p has it (only just
// after it was made: the server keeps a hash of its token only).
func (h *notifyHandler) settingsPage(c echo.Context, status int, p views.SettingsPage) error {
	s, err := h.db.NotifySettings(c.Request().Context(), currentViewer(c).ID)
	if err != nil {
		return err
	}
	if p.Modes == nil {
		p.Email, p.Modes = s.Email, modeOptions(c.Request().Context(), s.Mode)
	}
	if c.Request().Method == http.MethodGet {
		p.NotifyDone = c.QueryParam("notify") == "1"
		p.VerifySent = c.QueryParam("verify") == "sent"
	}
	p.ConfirmMoves = currentViewer(c).ConfirmMoves
	appearance(c, &p)
	if c.Request().Method == http.MethodGet {
		p.MovesDone = c.QueryParam("moves") == "1"
	}
	p.SavedEmail, p.EmailVerified = s.Email, s.Verified
	p.MailOff = !h.mailOn()
	if s.Failure != "" {
		p.MailFailure = tr(c, "The last mail to %s could not be delivered (%s): %s.",
			s.Email, views.DateTime(c.Request().Context(), s.FailedAt), s.Failure)
	}
	p.PushKey = h.pushKey
	if c.Request().Method == http.MethodGet {
		p.PushDone = c.QueryParam("push")
	}
	devices, err := h.db.PushSubscriptions(c.Request().Context(), currentViewer(c).ID)
	if err != nil {
		return err
	}
	for _, d := range devices {
		row := views.PushDeviceRow{ID: d.ID, Device: d.Device, Since: views.DateTime(c.Request().Context(), d.Created)}
		for _, k := range db.PushWants {
			row.Wants = append(row.Wants, views.PushWantBox{Kind: k, Label: pushWantLabel(c.Request().Context(), k),
				On: slices.Contains(d.Wants, k)})
		}
		if !d.LastSuccess.IsZero() {
			row.LastSuccess = views.DateTime(c.Request().Context(), d.LastSuccess)
		}
		p.PushDevices = append(p.PushDevices, row)
	}
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
		return h.settingsPage(c, http.StatusBadRequest, views.SettingsPage{Page: pageOf(c, tr(c, "Settings")),
			Email: raw, Modes: modeOptions(c.Request().Context(), mode), NotifyError: msg})
	}
	email := ""
	if raw != "" {
		if len(raw) > db.MaxEmailLength {
			return fail(tr(c, "An e-mail address can be at most %d characters long.", db.MaxEmailLength))
		}
		var msg string
		if email, msg = parseEmail(c.Request().Context(), raw); msg != "" {
			return fail(msg)
		}
	}
	switch {
	case !mode.Valid():
		return fail(tr(c, "Choose when to get e-mail: never, for every move, or a daily digest."))
	case email == "" && mode != db.NotifyNone:
		return fail(tr(c, "Give an e-mail address to get e-mail."))
	}
	err := h.db.SetNotify(c.Request().Context(), currentViewer(c).ID, email, mode)
	if db.KindOf(err) == db.KindInvalid {
		_, msg := statusOf(c, err)
		return fail(msg)
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/settings?notify=1#notifications")
}

// atext is what RFC 5322 allows unquoted in the part of an address
// before the @, besides letters, digits and dots.
const atext = "!#$%&'*+-/=?^_`{|}~"

// parseEmail reads an e-mail address typed into the settings form, alone
// or as "Name <address>", and returns the address to store: exactly as
// typed, except that a domain outside ASCII is converted to its ASCII
// form (IDNA), so that any mail server takes it. It returns a message for
// the player instead when the text is no address, when the part before
// the @ needs quotes (net/mail would store another address than the one
// typed) or is not ASCII (a mail server without SMTPUTF8 refuses it), or
// when the domain is no domain name. The message is in the language of
// ctx.
func parseEmail(ctx context.Context, raw string) (string, string) {
	const maxLocalPart = 64 // RFC 5321, 4.5.3.1.1
	addr, err := netmail.ParseAddress(raw)
	if err != nil {
		return "", views.T(ctx, "That is not an e-mail address; write it as name@example.org.")
	}
	spec := raw
	if i := strings.LastIndexByte(raw, '<'); i >= 0 && strings.HasSuffix(raw, ">") {
		spec = raw[i+1 : len(raw)-1]
	}
	at := strings.LastIndexByte(spec, '@')
	if at < 0 {
		return "", views.T(ctx, "That is not an e-mail address; write it as name@example.org.")
	}
	local, domain := spec[:at], spec[at+1:]
	if strings.ContainsAny(local, `"\ `) {
		return "", views.T(ctx, "Write the address without quotes (name@example.org): addresses that need them are not accepted here.")
	}
	for _, r := range local {
		if r > unicode.MaxASCII {
			return "", views.T(ctx, "Only ASCII letters, digits and . %s can come before the @: not every mail server takes other letters there.",
				strings.Join(strings.Split(atext, ""), " "))
		}
	}
	if len(local) > maxLocalPart {
		return "", views.T(ctx, "An e-mail address has at most %d characters before the @.", maxLocalPart)
	}
	if strings.HasPrefix(domain, "[") || net.ParseIP(domain) != nil {
		return "", views.T(ctx, "Give the address with a domain name (name@example.org), not a server's IP address.")
	}
	ascii, err := idna.Lookup.ToASCII(domain)
	if err != nil || !strings.Contains(ascii, ".") {
		return "", views.T(ctx, "%q is not a domain name; write the address as name@example.org.", domain)
	}
	if isASCII(domain) {
		ascii = domain // kept as typed (IDNA would lower its case)
	}
	email := local + "@" + ascii
	if addr.Address != local+"@"+domain || len(email) > db.MaxEmailLength {
		return "", views.T(ctx, "That is not an e-mail address; write it as name@example.org.")
	}
	return email, ""
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// regenerateFeed gives the user a new feed address and shows it, this
// once: only its token's hash is kept. The old one answers 404 from now
// on.
func (h *notifyHandler) regenerateFeed(c echo.Context) error {
	tok, err := h.db.RegenerateFeedToken(c.Request().Context(), currentViewer(c).ID)
	if err != nil {
		return err
	}
	// The address is in this answer only: no browser or proxy keeps it.
	c.Response().Header().Set("Cache-Control", "no-store")
	return h.settingsPage(c, http.StatusOK, views.SettingsPage{Page: pageOf(c, tr(c, "Settings")), FeedNew: true,
		FeedURL: h.base(c) + "/feeds/" + url.PathEscape(tok) + ".atom"})
}

// feedFinished is how many finished games the feed lists.
const feedFinished = 20

// feed serves /feeds/TOKEN.atom: the games waiting for the token owner's
// move and their latest finished games, as Atom, with an ETag (a 304
// while nothing changed). The token is the only credential; a wrong one
// is a plain 404.
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
	// The feed is in the language the owner chose, else in the one their
	// browser last asked for, else in the one the feed reader asks for.
	lctx := ctx
	if lang := cmp.Or(u.Language, u.BrowserLanguage); lang != "" {
		lctx = views.WithLang(ctx, lang)
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
	// one per game and turn waiting for the move (named by the ply the
	// turn began at), one per finished game.
	tag := func(g db.Game, rest string) string {
		return fmt.Sprintf("tag:%s,%s:games/%d/%s", host, g.CreatedAt.Format(time.DateOnly), g.ID, rest)
	}
	f := views.Feed{
		ID:      fmt.Sprintf("tag:%s,%s:players/%d/feed", host, u.CreatedAt.Format(time.DateOnly), u.ID),
		Title:   views.T(lctx, "Trench: %s's games", u.Name),
		Lang:    views.Lang(lctx),
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
	clocks, err := h.db.Clocks(ctx, waiting, now)
	if err != nil {
		return err
	}
	for i, g := range waiting {
		r, err := gameRow(lctx, g, u.ID, u.ID, clocks[i])
		if err != nil {
			return err
		}
		clock := views.T(lctx, "Your time runs out on %s", views.DateTime(lctx, g.Deadline))
		if clocks[i].Stopped {
			clock = r.Clock
		}
		add(views.FeedEntry{
			ID:      tag(g, "ply/"+strconv.Itoa(g.TurnPly)),
			Title:   views.T(lctx, "Your move: %s against %s", r.Title, r.Opponent),
			Link:    base + r.Href,
			Summary: views.T(lctx, "It is your move against %s. %s.", r.Opponent, clock),
			Updated: g.UpdatedAt,
		})
	}
	for _, g := range finished {
		r, err := gameRow(lctx, g, u.ID, u.ID, db.ClockState{})
		if err != nil {
			return err
		}
		add(views.FeedEntry{
			ID:      tag(g, "end"),
			Title:   views.T(lctx, "%s: %s against %s|feed", r.Status, r.Title, r.Opponent),
			Link:    base + r.Href,
			Summary: views.T(lctx, "The game against %s is over: %s.", r.Opponent, r.Status),
			Updated: g.EndedAt,
		})
	}
	// The daily puzzle, one entry a day.
	if pz, ok, err := h.db.DailyPuzzle(ctx, now); err != nil {
		return err
	} else if ok {
		day := now.UTC().Truncate(24 * time.Hour)
		title, err := dailyTitle(lctx, pz)
		if err != nil {
			return err
		}
		add(views.FeedEntry{
			ID:      fmt.Sprintf("tag:%s,%s:puzzles/daily/%d", host, day.Format(time.DateOnly), pz.ID),
			Title:   title,
			Link:    base + puzzleURL(pz.Game, pz.ID),
			Summary: views.T(lctx, "Today's puzzle: find the best move."),
			Updated: day,
		})
	}
	var buf bytes.Buffer
	if err := views.WriteAtom(&buf, f); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Language", f.Lang)
	return sendTagged(c, "application/atom+xml; charset=utf-8", "private, no-cache", buf.Bytes()) // not shown
}

// Check connects to the mail server as the notifications would (TLS,
// authentication), then hangs up without sending anything. Errors: the
// configuration is incomplete for a server at baseURL, or the mail server
// cannot be reached or refuses TLS or the credentials.
func (s SMTPConfig) Check(ctx context.Context, baseURL string) error {
	if err := s.check(baseURL); err != nil {
		return err
	}
	c, err := s.client()
	if err != nil {
		return err
	}
	sc, err := c.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return err
	}
	return c.CloseWithSMTPClient(sc)
}
