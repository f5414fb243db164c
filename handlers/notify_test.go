package handlers_test

import (
	"context"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
)

// delivered is one message the test mail server accepted.
type delivered struct {
	From      string
	To        []string
	Subject   string
	MessageID string
	Body      string // decoded
	// ContentLanguage is the message's Content-Language header.
	ContentLanguage string
}

// mailSink is a real SMTP server on 127.0.0.1:0 that keeps what it gets.
// It can be made to refuse sessions (down), to refuse the next messages
// (failData) or to hold every session until a number of them are open
// (gate).
type mailSink struct {
	t        *testing.T
	Addr     string
	mu       sync.Mutex
	got      []delivered
	down     bool
	failData int
	refuse   map[string]bool // recipients refused with a 553
	gate     *sync.WaitGroup
}

// RefuseRcpt makes the server refuse addr as a recipient (553), as a
// strict server refuses an address it cannot take.
func (m *mailSink) RefuseRcpt(addr string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refuse == nil {
		m.refuse = map[string]bool{}
	}
	m.refuse[addr] = true
}

func (m *mailSink) SetDown(down bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.down = down
}

// FailData makes the next n messages fail with a temporary error after
// their content was sent.
func (m *mailSink) FailData(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failData = n
}

// Gate holds every new session until n sessions are open (or 5 s passed).
func (m *mailSink) Gate(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gate = new(sync.WaitGroup)
	m.gate.Add(n)
}

func (m *mailSink) newSession(*smtp.Conn) (smtp.Session, error) {
	m.mu.Lock()
	down, gate := m.down, m.gate
	m.mu.Unlock()
	if down {
		return nil, errors.New("not now")
	}
	if gate != nil {
		gate.Done()
		done := make(chan struct{})
		go func() { gate.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}
	return &sinkSession{sink: m}, nil
}

func startMailSink(t *testing.T) *mailSink {
	t.Helper()
	m := &mailSink{t: t}
	srv := smtp.NewServer(smtp.BackendFunc(m.newSession))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.Addr = ln.Addr().String()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m
}

// Mails returns the messages delivered so far.
func (m *mailSink) Mails() []delivered {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]delivered(nil), m.got...)
}

type sinkSession struct {
	sink *mailSink
	from string
	to   []string
}

func (s *sinkSession) Reset()        { s.from, s.to = "", nil }
func (s *sinkSession) Logout() error { return nil }
func (s *sinkSession) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}
func (s *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.sink.mu.Lock()
	refused := s.sink.refuse[to]
	s.sink.mu.Unlock()
	if refused {
		return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 1, 3}, Message: "mailbox name not allowed"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *sinkSession) Data(r io.Reader) error {
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return err
	}
	var body io.Reader = msg.Body
	switch strings.ToLower(msg.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	if ct := msg.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		return fmt.Errorf("content type %q, want text/plain", ct)
	}
	s.sink.mu.Lock()
	defer s.sink.mu.Unlock()
	if s.sink.failData > 0 {
		s.sink.failData--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	s.sink.got = append(s.sink.got, delivered{From: s.from, To: append([]string(nil), s.to...), Subject: subject,
		MessageID: msg.Header.Get("Message-ID"), Body: strings.ReplaceAll(string(text), "\r\n", "\n"),
		ContentLanguage: msg.Header.Get("Content-Language")})
	return nil
}

// startMailServer starts the app like startServer, with its base URL set
// and sending mail through the SMTP server at smtpAddr.
func startMailServer(t *testing.T, path string, clk *clock, smtpAddr string) *server {
	t.Helper()
	return startServerWith(t, path, clk, func(cfg *handlers.Config, url string) {
		cfg.BaseURL = url
		cfg.SMTP = handlers.SMTPConfig{Addr: smtpAddr, From: "Trench <trench@example.org>"}
	})
}

// runMailJob runs the notification job once and returns how many mails
// it sent.
func runMailJob(t *testing.T, s *server) int {
	t.Helper()
	n, err := s.App.SendNotifications(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// setNotify saves c's notification settings through the settings form
// and has c confirm the address.
func setNotify(t *testing.T, c *client, email, mode string) {
	t.Helper()
	saveNotify(t, c, email, mode)
	if email != "" {
		confirmAddress(t, c)
		c.Get("/settings")
	}
}

// saveNotify saves c's notification settings through the settings form,
// leaving a new address unverified.
func saveNotify(t *testing.T, c *client, email, mode string) {
	t.Helper()
	c.Get("/settings")
	c.wantStatus(http.StatusOK)
	c.Submit(c.Last.Find(`form[action="/settings/notifications"]`), url.Values{"email": {email}, "mode": {mode}})
	c.wantStatus(http.StatusOK)
	if c.Last.Find("#notifications .flash.ok").Length() != 1 {
		t.Fatalf("%s: no confirmation after saving notifications", c.Name)
	}
}

// confirmAddress has c's owner confirm their saved address, as the link
// mailed from the settings page does (mail goes only to a verified
// address).
func confirmAddress(t *testing.T, c *client) {
	t.Helper()
	ctx := context.Background()
	u, err := c.srv.DB.UserByName(ctx, c.Name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.srv.DB.StartEmailVerification(ctx, u.ID, c.srv.Clock.Now())
	if db.KindOf(err) == db.KindInvalid {
		return // verified already
	} else if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.srv.DB.VerifyEmail(ctx, v.Token, c.srv.Clock.Now()); err != nil {
		t.Fatal(err)
	}
}

// TestOnlyVerifiedAddressesGetMail: a saved address gets no "your move"
// mail until its owner has confirmed it; then it does.
func TestOnlyVerifiedAddressesGetMail(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a, b := signedUpPair(t, s)
	saveNotify(t, b, "bob@example.org", "move")
	if got := b.text("#email-status"); !strings.Contains(got, "no mail is sent to it") {
		t.Errorf("the settings page says %q about an unverified address", got)
	}
	id := challenge(t, a, b, "trench", "single", "0")
	clickMove(t, a, id, func(n int) int { return 0 })
	if n, err := s.App.SendNotifications(context.Background()); err != nil || n != 0 {
		t.Fatalf("%d mails to an unverified address (%v), want none", n, err)
	}
	confirmAddress(t, b)
	if n, err := s.App.SendNotifications(context.Background()); err != nil || n != 1 {
		t.Fatalf("%d mails once the address is verified (%v), want 1", n, err)
	}
	if m := waitMails(t, sink, 1)[0]; m.To[0] != "bob@example.org" {
		t.Errorf("the mail went to %v", m.To)
	}
}

func TestMoveMailSentOnceAcrossRestarts(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a, b := signedUpPair(t, s)
	setNotify(t, b, "bob@example.org", "move")
	id := challenge(t, a, b, "trench", "single", "0")
	if p, _ := whoMoves(t, s, id, a, b); p != a {
		t.Fatal("alice should move first")
	}
	if n := runMailJob(t, s); n != 0 || len(sink.Mails()) != 0 {
		t.Fatalf("%d mails before it is bob's turn", n)
	}
	clickMove(t, a, id, func(int) int { return 0 })
	a.wantStatus(http.StatusOK)
	if n := runMailJob(t, s); n != 1 {
		t.Fatalf("the job sent %d mails, want 1", n)
	}
	mails := sink.Mails()
	if len(mails) != 1 {
		t.Fatalf("%d mails delivered, want 1", len(mails))
	}
	m := mails[0]
	link := fmt.Sprintf("%s/games/%d", s.URL, id)
	if len(m.To) != 1 || m.To[0] != "bob@example.org" || m.From != "trench@example.org" {
		t.Fatalf("mail from %s to %v, want trench@example.org to bob@example.org", m.From, m.To)
	}
	if !strings.Contains(m.Body, link+"\n") || !strings.Contains(m.Body, "alice") || !strings.Contains(m.Body, "TRENCH") ||
		!strings.Contains(m.Subject, "alice") {
		t.Fatalf("the mail does not name the game, the opponent and the link %s:\nSubject: %s\n%s", link, m.Subject, m.Body)
	}
	if n := runMailJob(t, s); n != 0 || len(sink.Mails()) != 1 {
		t.Fatalf("a second run sent %d more mails", n)
	}

	// A restart on the same database sends nothing again.
	s.Stop()
	s2 := startMailServer(t, s.Path, s.Clock, sink.Addr)
	if n := runMailJob(t, s2); n != 0 || len(sink.Mails()) != 1 {
		t.Fatalf("after a restart the job sent %d more mails", n)
	}

	// The next time the game waits for bob, that is a new mail.
	a.moveTo(s2)
	b.moveTo(s2)
	clickMove(t, b, id, func(int) int { return 0 })
	b.wantStatus(http.StatusOK)
	if n := runMailJob(t, s2); n != 0 {
		t.Fatalf("%d mails when it is the turn of alice, who wants none", n)
	}
	clickMove(t, a, id, func(int) int { return 0 })
	a.wantStatus(http.StatusOK)
	if n := runMailJob(t, s2); n != 1 || len(sink.Mails()) != 2 {
		t.Fatalf("bob's next turn: %d mails sent, %d in all; want 1 and 2", n, len(sink.Mails()))
	}
}

func TestDailyDigest(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a, b := signedUpPair(t, s)
	c := s.newClient(t)
	c.SignUp("carol")
	setNotify(t, a, "alice@example.org", "daily")
	setNotify(t, b, "bob@example.org", "none")
	g1 := challenge(t, a, b, "trench", "single", "0")
	g2 := challenge(t, a, c, "trench", "single", "0")
	g3 := challenge(t, b, c, "trench", "single", "0") // waits for bob, who wants no mail
	for _, id := range []int64{g1, g2} {
		if p, _ := whoMoves(t, s, id, a, b, c); p != a {
			t.Fatalf("game %d does not wait for alice", id)
		}
	}
	if p, _ := whoMoves(t, s, g3, a, b, c); p != b {
		t.Fatalf("game %d does not wait for bob", g3)
	}

	if n := runMailJob(t, s); n != 1 {
		t.Fatalf("the job sent %d mails, want alice's digest only", n)
	}
	m := sink.Mails()[0]
	if len(m.To) != 1 || m.To[0] != "alice@example.org" {
		t.Fatalf("digest to %v", m.To)
	}
	for _, id := range []int64{g1, g2} {
		if link := fmt.Sprintf("%s/games/%d\n", s.URL, id); !strings.Contains(m.Body, link) {
			t.Fatalf("the digest does not link game %d:\n%s", id, m.Body)
		}
	}
	if !strings.Contains(m.Body, "bob") || !strings.Contains(m.Body, "carol") || !strings.Contains(m.Subject, "2 games") {
		t.Fatalf("the digest does not name both opponents and games:\nSubject: %s\n%s", m.Subject, m.Body)
	}
	if strings.Contains(m.Body, fmt.Sprintf("/games/%d\n", g3)) {
		t.Fatal("the digest lists a game that does not wait for alice")
	}

	// Later the same day: nothing.
	s.Clock.Advance(6 * time.Hour)
	if n := runMailJob(t, s); n != 0 || len(sink.Mails()) != 1 {
		t.Fatalf("a second digest the same day (%d sent)", n)
	}
	// The next day: a new digest.
	s.Clock.Advance(24 * time.Hour)
	if n := runMailJob(t, s); n != 1 || len(sink.Mails()) != 2 {
		t.Fatalf("the next day %d digests were sent, %d mails in all; want 1 and 2", n, len(sink.Mails()))
	}
	for _, m := range sink.Mails() {
		if m.To[0] != "alice@example.org" {
			t.Fatalf("a mail went to %v, who chose none", m.To)
		}
	}
}

// atomFeed is what the test reads of an Atom document.
type atomFeed struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Entries []struct {
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Summary string `xml:"summary"`
		Updated string `xml:"updated"`
		Links   []struct {
			Href string `xml:"href,attr"`
			Rel  string `xml:"rel,attr"`
		} `xml:"link"`
	} `xml:"entry"`
	// Daily is the daily puzzle's entry, "title link", taken out of
	// Entries by getFeed so that Entries holds the games alone.
	Daily []string `xml:"-"`
}

// getFeed fetches u without any cookie and parses it as Atom; it returns
// the status code and, for 200, the feed.
func getFeed(t *testing.T, u string) (int, atomFeed) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var f atomFeed
	if res.StatusCode != http.StatusOK {
		return res.StatusCode, f
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/atom+xml") {
		t.Fatalf("feed content type %q", ct)
	}
	if err := xml.NewDecoder(res.Body).Decode(&f); err != nil {
		t.Fatalf("the feed is not Atom: %v", err)
	}
	if f.ID == "" || f.Title == "" {
		t.Fatalf("feed without id or title: %+v", f)
	}
	if _, err := time.Parse(time.RFC3339, f.Updated); err != nil {
		t.Fatalf("feed updated %q: %v", f.Updated, err)
	}
	for _, e := range f.Entries {
		if !strings.HasPrefix(e.ID, "tag:") || e.Title == "" || len(e.Links) == 0 {
			t.Fatalf("entry without tag id, title or link: %+v", e)
		}
		if _, err := time.Parse(time.RFC3339, e.Updated); err != nil {
			t.Fatalf("entry updated %q: %v", e.Updated, err)
		}
	}
	games := f.Entries[:0]
	for _, e := range f.Entries {
		if strings.Contains(e.ID, ":puzzles/daily/") {
			f.Daily = append(f.Daily, e.Title+" "+e.Links[0].Href)
			continue
		}
		games = append(games, e)
	}
	f.Entries = games
	return res.StatusCode, f
}

// feedURL makes a new feed address on c's settings page and returns it,
// as the page shows it (once).
func feedURL(t *testing.T, c *client) string {
	t.Helper()
	c.Get("/settings")
	c.wantStatus(http.StatusOK)
	if c.Last.Find("#feed-url").Length() != 0 || c.Last.Find("#feed-hidden").Length() != 1 {
		t.Fatal("the settings page shows a feed address it should not know")
	}
	c.Submit(c.Last.Find(`form[action="/settings/feed"]`), nil)
	c.wantStatus(http.StatusOK)
	if cc := c.Header.Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("the page showing the feed address has Cache-Control %q, want no-store", cc)
	}
	u := attr(t, c, "#feed-url", "href")
	if c.text("#feed-url") != u {
		t.Fatalf("the feed link reads %q, want its address %q", c.text("#feed-url"), u)
	}
	if !strings.HasPrefix(u, c.srv.URL+"/feeds/") || !strings.HasSuffix(u, ".atom") {
		t.Fatalf("feed address %q, want %s/feeds/….atom", u, c.srv.URL)
	}
	return u
}

func TestFeed(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	link := fmt.Sprintf("%s/games/%d", s.URL, id)
	aliceURL, bobURL := feedURL(t, a), feedURL(t, b)
	if aliceURL == bobURL {
		t.Fatal("alice and bob share a feed")
	}

	status, f := getFeed(t, aliceURL)
	if status != http.StatusOK || len(f.Entries) != 1 || f.Entries[0].Links[0].Href != link {
		t.Fatalf("alice's feed (%d): %+v, want one entry linking %s", status, f, link)
	}
	first := f.Entries[0].ID
	if res, err := http.Head(aliceURL); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("HEAD of the feed: %v, %v", res, err)
	}
	if _, again := getFeed(t, aliceURL); again.Entries[0].ID != first {
		t.Fatal("the entry id changes between reads")
	}
	if _, f := getFeed(t, bobURL); len(f.Entries) != 0 {
		t.Fatalf("bob's feed lists %d games; none waits for him", len(f.Entries))
	}

	// After alice's move the game is in bob's feed, with a new id.
	clickMove(t, a, id, func(int) int { return 0 })
	a.wantStatus(http.StatusOK)
	if _, f := getFeed(t, aliceURL); len(f.Entries) != 0 {
		t.Fatalf("alice's feed still lists %d games after her move", len(f.Entries))
	}
	_, f = getFeed(t, bobURL)
	if len(f.Entries) != 1 || f.Entries[0].Links[0].Href != link || f.Entries[0].ID == first {
		t.Fatalf("bob's feed after alice's move: %+v", f)
	}
	// A finished game is listed too (bob moves first: a resignation
	// before both sides have moved aborts the game).
	clickMove(t, b, id, func(int) int { return 0 })
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB.Resign(context.Background(), id, mustUser(t, s, "bob"), g.Ply, s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	_, f = getFeed(t, aliceURL)
	if len(f.Entries) != 1 || f.Entries[0].Links[0].Href != link || !strings.Contains(f.Entries[0].Title, "won") {
		t.Fatalf("alice's feed after bob resigned: %+v", f)
	}

	// A new address: the old one is gone, the new one works.
	newURL := feedURL(t, a)
	if a.Last.Find("#feed .flash.ok").Length() != 1 {
		t.Fatal("no confirmation after making a new feed address")
	}
	if newURL == aliceURL {
		t.Fatal("the feed address did not change")
	}
	if status, _ := getFeed(t, aliceURL); status != http.StatusNotFound {
		t.Fatalf("the old feed address answers %d, want 404", status)
	}
	if status, f := getFeed(t, newURL); status != http.StatusOK || len(f.Entries) != 1 {
		t.Fatalf("the new feed address answers %d with %d entries", status, len(f.Entries))
	}
	if status, _ := getFeed(t, bobURL); status != http.StatusOK {
		t.Fatalf("bob's feed answers %d after alice's changed", status)
	}
	token := strings.TrimSuffix(strings.TrimPrefix(newURL, s.URL+"/feeds/"), ".atom")
	for _, bad := range []string{"AAAAAAAAAAAAAAAAAAAAAA.atom", "nonsense.atom", token, token + "x.atom", token + ".rss"} {
		if status, _ := getFeed(t, s.URL+"/feeds/"+bad); status != http.StatusNotFound {
			t.Fatalf("/feeds/%s answers %d, want 404", bad, status)
		}
	}
}

func TestNotifySettingsForm(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	uid := mustUser(t, s, "alice")
	ctx := context.Background()
	a.Get("/settings")
	a.wantStatus(http.StatusOK)
	if v, _ := a.Last.Find(`input[name="mode"][checked]`).Attr("value"); v != "none" {
		t.Fatalf("the checked choice is %q, want none", v)
	}
	if a.Last.Find(`input[name="mode"][type="radio"]`).Length() != 3 {
		t.Fatal("want three radio buttons")
	}
	before, err := s.DB.NotifySettings(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	feed := feedURL(t, a)
	form := `form[action="/settings/notifications"]`
	for _, tc := range []struct{ email, mode, msg string }{
		{"not an address", "move", "not an e-mail address"},
		{"alice@example.org\r\nBcc: eve@example.org", "move", "not an e-mail address"},
		{strings.Repeat("a", 250) + "@example.org", "daily", "at most 254"},
		{"", "move", "Give an e-mail address"},
		{"alice@example.org", "hourly", "Choose when"},
	} {
		a.Get("/settings")
		a.Submit(a.Last.Find(form), url.Values{"email": {tc.email}, "mode": {tc.mode}})
		a.wantStatus(http.StatusBadRequest)
		if msg := a.text(`#notifications .flash[role="alert"]`); !strings.Contains(msg, tc.msg) {
			t.Fatalf("%q/%q: message %q, want %q", tc.email, tc.mode, msg, tc.msg)
		}
		if got, _ := s.DB.NotifySettings(ctx, uid); got != before {
			t.Fatalf("%q/%q changed the settings to %+v", tc.email, tc.mode, got)
		}
	}
	// The form keeps what was typed.
	if v := attr(t, a, `input[name="email"]`, "value"); v != "alice@example.org" {
		t.Fatalf("the e-mail field holds %q after a refusal", v)
	}

	// Without the CSRF token nothing changes.
	for _, path := range []string{"/settings/notifications", "/settings/feed"} {
		a.PostRaw(path, url.Values{"email": {"alice@example.org"}, "mode": {"move"}})
		a.wantStatus(http.StatusForbidden)
		a.Get("/settings")
		a.PostRaw(path, url.Values{"_csrf": {"forged"}, "email": {"alice@example.org"}, "mode": {"move"}})
		a.wantStatus(http.StatusForbidden)
	}
	if got, _ := s.DB.NotifySettings(ctx, uid); got != before {
		t.Fatalf("a POST without the CSRF token changed the settings to %+v", got)
	}
	if status, _ := getFeed(t, feed); status != http.StatusOK {
		t.Fatalf("a POST without the CSRF token changed the feed's address: the old one answers %d", status)
	}

	// A good address (a display name is allowed; the address is kept).
	a.Get("/settings")
	a.Submit(a.Last.Find(form), url.Values{"email": {" Alice <alice@example.org> "}, "mode": {"daily"}})
	a.wantStatus(http.StatusOK)
	if a.Last.Find("#notifications .flash.ok").Length() != 1 {
		t.Fatal("no confirmation")
	}
	got, _ := s.DB.NotifySettings(ctx, uid)
	if got.Email != "alice@example.org" || got.Mode != db.NotifyDaily {
		t.Fatalf("stored %+v", got)
	}
	if v := attr(t, a, `input[name="email"]`, "value"); v != "alice@example.org" {
		t.Fatalf("the page shows the address %q", v)
	}
	if v, _ := a.Last.Find(`input[name="mode"][checked]`).Attr("value"); v != "daily" {
		t.Fatalf("the checked choice is %q, want daily", v)
	}
	// A visitor cannot post the form.
	v := s.newClient(t)
	v.Get("/signin")
	v.Post("/settings/notifications", url.Values{"email": {"x@example.org"}, "mode": {"move"}})
	v.wantStatus(http.StatusUnauthorized)
}

// bobsTurn signs up alice and bob on s, has bob choose a mail for every
// move and alice make the first move of a game, so that it waits for bob.
func bobsTurn(t *testing.T, s *server) {
	t.Helper()
	a, b := signedUpPair(t, s)
	setNotify(t, b, "bob@example.org", "move")
	id := challenge(t, a, b, "trench", "single", "0")
	clickMove(t, a, id, func(int) int { return 0 })
	a.wantStatus(http.StatusOK)
	if p, _ := whoMoves(t, s, id, a, b); p != b {
		t.Fatal("the game does not wait for bob")
	}
}

// TestMailServerDownSendsLater: while the mail server cannot be reached
// nothing is recorded, and the mail goes out once it can.
func TestMailServerDownSendsLater(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	bobsTurn(t, s)
	sink.SetDown(true)
	if n, err := s.App.SendNotifications(context.Background()); err == nil || n != 0 {
		t.Fatalf("with the mail server down: %d sent, error %v; want 0 and an error", n, err)
	}
	sink.SetDown(false)
	if n := runMailJob(t, s); n != 1 || len(sink.Mails()) != 1 {
		t.Fatalf("with the mail server back: %d sent, %d delivered; want 1", n, len(sink.Mails()))
	}
}

// TestRefusedMailIsNotRepeated: a mail is recorded before it is sent, so
// one the mail server refuses is lost, never sent twice.
func TestRefusedMailIsNotRepeated(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	bobsTurn(t, s)
	sink.FailData(1)
	if n := runMailJob(t, s); n != 0 {
		t.Fatalf("with the message refused: %d sent, want 0", n)
	}
	if n := runMailJob(t, s); n != 0 || len(sink.Mails()) != 0 {
		t.Fatalf("the refused mail was tried again: %d sent, %d delivered", n, len(sink.Mails()))
	}
}

// TestConcurrentRunsSendOnce: two runs that both found the same mail due
// send it once.
func TestConcurrentRunsSendOnce(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	bobsTurn(t, s)
	sink.Gate(2) // both runs have their list of what is due before either records
	var wg sync.WaitGroup
	sent := make([]int, 2)
	for i := range sent {
		wg.Go(func() {
			n, err := s.App.SendNotifications(context.Background())
			if err != nil {
				t.Error(err)
			}
			sent[i] = n
		})
	}
	wg.Wait()
	if sent[0]+sent[1] != 1 || len(sink.Mails()) != 1 {
		t.Fatalf("two runs sent %v, %d delivered; want 1 in all", sent, len(sink.Mails()))
	}
}

// TestCardTurnMailedOnce: in the card game a turn is several moves by the
// same player (an attack, then refills); the "your move" mail goes out
// once, when the turn passes to the player, never after a step of their
// own turn, and the feed's entry keeps its id for the whole turn.
func TestCardTurnMailedOnce(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a, b := signedUpPair(t, s)
	setNotify(t, a, "alice@example.org", "move")
	setNotify(t, b, "bob@example.org", "move")
	aliceFeed, bobFeed := feedURL(t, a), feedURL(t, b)
	w := newLeakWatch(t, s)
	id := cardsChallenge(t, w, a, b, "short")
	mailsTo := func(addr string) int {
		n := 0
		for _, m := range sink.Mails() {
			if m.To[0] == addr {
				n++
			}
		}
		return n
	}
	entryID := func(feed string) string {
		_, f := getFeed(t, feed)
		if len(f.Entries) != 1 {
			t.Fatalf("%s lists %d entries, want the one game", feed, len(f.Entries))
		}
		return f.Entries[0].ID
	}
	rng := rand.New(rand.NewPCG(5, 21))
	turns := map[string]int{}    // turns that passed to each player
	ids := map[string]bool{}     // feed entry ids seen
	var lastMover, lastID string // the player to move and their feed entry's id
	steps := 0                   // moves made within a turn, after its first
	for ply := 0; ply < 40; ply++ {
		p, _ := whoMoves(t, s, id, a, b)
		if p == nil {
			break
		}
		addr, feed := p.Name+"@example.org", aliceFeed
		if p == b {
			feed = bobFeed
		}
		runMailJob(t, s)
		entry := entryID(feed)
		if p.Name != lastMover {
			turns[addr]++
			if ids[entry] {
				t.Fatalf("ply %d: a new turn of %s reuses the feed entry id %s", ply, p.Name, entry)
			}
			ids[entry] = true
		} else {
			steps++
			if entry != lastID {
				t.Fatalf("ply %d: %s's feed entry changed id within one turn: %s → %s", ply, p.Name, lastID, entry)
			}
		}
		if got := mailsTo(addr); got != turns[addr] {
			t.Fatalf("ply %d: %d mails to %s for %d turns", ply, got, addr, turns[addr])
		}
		lastMover, lastID = p.Name, entry
		w.cardsClickMove(p, rng)
		p.wantStatus(http.StatusOK)
	}
	if steps == 0 || turns["alice@example.org"] < 3 || turns["bob@example.org"] < 3 {
		t.Fatalf("the test saw %d steps within turns and turns %v: too few to tell", steps, turns)
	}
}

// TestEmailStoredAsTyped: a valid address is stored exactly as typed (its
// domain converted to ASCII when it is not), the settings form accepts
// what it shows, and addresses that would be changed or could not be sent
// to a plain mail server are refused with a message, changing nothing.
func TestEmailStoredAsTyped(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a, b := signedUpPair(t, s)
	uid := mustUser(t, s, "bob")
	ctx := context.Background()
	form := `form[action="/settings/notifications"]`
	for _, tc := range []struct{ email, msg string }{
		{`"john doe"@example.org`, "Write the address without quotes"},
		{`" fred"@example.org`, "Write the address without quotes"},
		{`"fred"@example.org`, "Write the address without quotes"},
		{`jöhn@example.org`, "Only ASCII letters, digits and . ! # $ % & ' * + - / = ? ^ _ ` { | } ~ can come before the @"},
		{`john@[192.0.2.1]`, "Give the address with a domain name"},
		{`ann@123.45.67.89`, "Give the address with a domain name"},
		{strings.Repeat("a", 65) + `@example.org`, "has at most 64 characters before the @"},
		{`john@exa_mple.org`, "is not a domain name"},
	} {
		b.Get("/settings")
		b.Submit(b.Last.Find(form), url.Values{"email": {tc.email}, "mode": {"move"}})
		b.wantStatus(http.StatusBadRequest)
		if msg := b.text(`#notifications .flash[role="alert"]`); !strings.Contains(msg, tc.msg) {
			t.Errorf("%s: message %q, want %q", tc.email, msg, tc.msg)
		}
		if got, _ := s.DB.NotifySettings(ctx, uid); got.Email != "" {
			t.Fatalf("%s was stored as %q", tc.email, got.Email)
		}
	}
	for _, tc := range []struct{ typed, stored string }{
		{"John.Doe+trench@Example.ORG", "John.Doe+trench@Example.ORG"},
		{"Bob <bob@example.org>", "bob@example.org"},
		{"bob@exämple.org", "bob@xn--exmple-cua.org"},
	} {
		setNotify(t, b, tc.typed, "move")
		got, _ := s.DB.NotifySettings(ctx, uid)
		shown := attr(t, b, `input[name="email"]`, "value")
		if got.Email != tc.stored || shown != tc.stored {
			t.Fatalf("%s: stored %q and shown %q, want %q", tc.typed, got.Email, shown, tc.stored)
		}
		// The form as shown is accepted and stores the same.
		b.Submit(b.Last.Find(form), url.Values{"email": {shown}, "mode": {"move"}})
		b.wantStatus(http.StatusOK)
		if again, _ := s.DB.NotifySettings(ctx, uid); again.Email != tc.stored {
			t.Fatalf("saving the form as shown changed %q to %q", tc.stored, again.Email)
		}
	}
	// The mail goes to the ASCII form of the address.
	id := challenge(t, a, b, "trench", "single", "0")
	clickMove(t, a, id, func(int) int { return 0 })
	if n := runMailJob(t, s); n != 1 {
		t.Fatalf("%d mails sent, want 1", n)
	}
	if m := sink.Mails(); len(m) != 1 || len(m[0].To) != 1 || m[0].To[0] != "bob@xn--exmple-cua.org" {
		t.Fatalf("mails %+v, want one to bob@xn--exmple-cua.org", m)
	}
}

// TestFailedRecipientDoesNotStopTheRun: a mail the mail server refuses is
// recorded as failed and the run goes on with the others; the player sees
// the failure (when and why) on their settings page. Every mail names
// the sender's domain in its Message-ID.
func TestFailedRecipientDoesNotStopTheRun(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a, b := signedUpPair(t, s)
	c := s.newClient(t)
	c.SignUp("carol")
	setNotify(t, b, "fred@example.org", "move")
	setNotify(t, c, "carol@example.org", "move")
	for _, opp := range []*client{b, c} {
		id := challenge(t, a, opp, "trench", "single", "0")
		clickMove(t, a, id, func(int) int { return 0 })
		a.wantStatus(http.StatusOK)
	}
	sink.RefuseRcpt("fred@example.org")
	if n := runMailJob(t, s); n != 1 {
		t.Fatalf("the run sent %d mails, want carol's", n)
	}
	mails := sink.Mails()
	if len(mails) != 1 || mails[0].To[0] != "carol@example.org" {
		t.Fatalf("delivered %+v, want one mail to carol", mails)
	}
	if id := mails[0].MessageID; !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@example.org>") {
		t.Fatalf("Message-ID %q, want <…@example.org>", id)
	}
	b.Get("/settings")
	want := "The last mail to fred@example.org could not be delivered (1 March 2026 12:00 UTC): the mail server answered 553 5.1.3 mailbox name not allowed"
	if got := b.text("#mail-failure"); !strings.Contains(got, want) {
		t.Fatalf("bob's settings say %q, want %q", got, want)
	}
	c.Get("/settings")
	if c.Last.Find("#mail-failure").Length() != 0 {
		t.Fatal("carol's settings show a failure")
	}
	// The failure is about that address: a new one starts clean.
	setNotify(t, b, "bob@example.org", "move")
	if b.Last.Find("#mail-failure").Length() != 0 {
		t.Fatal("the failure of the old address is shown with the new one")
	}
	if n := runMailJob(t, s); n != 0 {
		t.Fatalf("the failed mail was sent again (%d)", n)
	}
}

// TestUnusableStoredAddressIsShown: an address stored before addresses
// were checked as they are now, which no mail can be written to, is
// reported on the settings page rather than silently skipped.
func TestUnusableStoredAddressIsShown(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a, b := signedUpPair(t, s)
	if err := s.DB.SetNotify(context.Background(), mustUser(t, s, "bob"), "john doe@example.org", db.NotifyMove); err != nil {
		t.Fatal(err)
	}
	confirmAddress(t, b)
	id := challenge(t, a, b, "trench", "single", "0")
	clickMove(t, a, id, func(int) int { return 0 })
	if n := runMailJob(t, s); n != 0 || len(sink.Mails()) != 0 {
		t.Fatalf("%d mails sent to an unusable address", n)
	}
	b.Get("/settings")
	want := "The last mail to john doe@example.org could not be delivered (1 March 2026 12:00 UTC): the mail could not be written to this address"
	if got := b.text("#mail-failure"); !strings.HasPrefix(got, want) {
		t.Fatalf("bob's settings say %q, want %q…", got, want)
	}
}

// TestSenderOutsideASCIIRefused: a sender whose domain is outside ASCII
// would break every mail (it goes into each envelope): the check that
// serve and doctor make refuses it and says how to write it.
func TestSenderOutsideASCIIRefused(t *testing.T) {
	err := handlers.SMTPConfig{Addr: "127.0.0.1:1", From: "Trench <trench@exämple.org>"}.Check(context.Background(), "https://trench.example.org")
	if err == nil || !strings.Contains(err.Error(), "trench@xn--exmple-cua.org") {
		t.Fatalf("a sender at exämple.org: %v, want a refusal naming trench@xn--exmple-cua.org", err)
	}
}

// TestVerificationMailRefused: the settings page speaks of the address
// stored, not of one the form refused; and a verification mail that the
// mail server refuses is shown there as the notifications' failures are.
func TestVerificationMailRefused(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a, _ := signedUpPair(t, s)
	saveNotify(t, a, "alice@example.org", "move")
	a.Submit(a.Last.Find(`form[action="/settings/notifications"]`), url.Values{"email": {"alice@[192.0.2.1]"}, "mode": {"move"}})
	a.wantStatus(http.StatusBadRequest)
	if got := a.text("#email-status"); !strings.HasPrefix(got, "alice@example.org is not verified yet") {
		t.Fatalf("after a refused address the status reads %q, want the stored address's", got)
	}
	sink.RefuseRcpt("alice@example.org")
	a.Get("/settings")
	a.Submit(a.Last.Find(`form[action="/settings/email/verify"]`), nil)
	a.wantStatus(http.StatusOK)
	deadline := time.Now().Add(10 * time.Second)
	for {
		a.Get("/settings")
		if got := a.text("#mail-failure"); strings.Contains(got, "alice@example.org") && strings.Contains(got, "553") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a refused verification mail is not shown on the settings page: %q", a.text("#notifications"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
