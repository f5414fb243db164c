package handlers_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/crypto/bcrypt"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules"
)

// clock is a settable clock shared by the server and the test.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// server is the real application listening on 127.0.0.1:0 with its
// database in a temporary folder.
type server struct {
	t      *testing.T
	URL    string
	DB     *db.DB
	Path   string
	Clock  *clock
	App    *handlers.App
	seed   int64
	stop   func()
	stopMu sync.Once
	// clients counts the clients made, for each one's address.
	clients atomic.Int64
}

// startServer starts the app on a fresh database file (or on path when
// given, to restart on the same file).
func startServer(t *testing.T, path string, clk *clock) *server {
	t.Helper()
	return startServerWith(t, path, clk, nil)
}

// startServerWith is startServer with configure, when not nil, changing
// the app's configuration once the server's URL is known.
func startServerWith(t *testing.T, path string, clk *clock, configure func(cfg *handlers.Config, url string)) *server {
	t.Helper()
	return startServerOn(t, "127.0.0.1:0", path, clk, configure)
}

// restartServer stops s and starts the app again on its database file,
// its clock and its address, as a restart or an upgrade of the server
// would: the pages open in browsers reach the new server at the same
// address.
func restartServer(t *testing.T, s *server) *server {
	t.Helper()
	s.Stop()
	return startServerOn(t, strings.TrimPrefix(s.URL, "http://"), s.Path, s.Clock, nil)
}

// startServerOn is startServerWith listening on addr.
func startServerOn(t *testing.T, addr, path string, clk *clock, configure func(cfg *handlers.Config, url string)) *server {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "trench.db")
	}
	if clk == nil {
		clk = &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	}
	ctx, cancel := context.WithCancel(context.Background())
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, DB: store, Path: path, Clock: clk, seed: 42, URL: "http://" + ln.Addr().String()}
	var seedMu sync.Mutex
	// Each client speaks from an address of its own (client.ForwardedFor,
	// from this trusted loopback proxy), as players on their own machines.
	_, loopback, _ := net.ParseCIDR("127.0.0.1/32")
	cfg := handlers.Config{
		TrustedProxies: []*net.IPNet{loopback},
		BcryptCost:     bcrypt.MinCost,
		Now:            clk.Now,
		Seed: func() int64 {
			seedMu.Lock()
			defer seedMu.Unlock()
			s.seed++
			return s.seed
		},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if configure != nil {
		configure(&cfg, s.URL)
	}
	e, app, err := handlers.New(ctx, store, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.App = app
	srv := &http.Server{Handler: e}
	srv.RegisterOnShutdown(app.EndLiveStreams)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	s.stop = func() {
		sctx, c2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer c2()
		if err := srv.Shutdown(sctx); err != nil {
			t.Error(err)
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Error(err)
		}
		cancel()
		if err := store.Close(); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(s.Stop)
	return s
}

// Stop shuts the server down and closes its database (once).
func (s *server) Stop() { s.stopMu.Do(s.stop) }

// client is one browser: a cookie jar, the last page it got, and whether
// it sends htmx's headers (JavaScript on) or not.
type client struct {
	t    *testing.T
	srv  *server
	http *http.Client
	HTMX bool
	Name string
	// UserAgent, when set, is sent as the User-Agent header.
	UserAgent string
	// ForwardedFor, when set, is sent as the X-Forwarded-For header (as a
	// proxy in front of the server would add it): the client's own address,
	// different for each client unless a test sets it.
	ForwardedFor string
	// AcceptLanguage, when set, is sent as the Accept-Language header.
	AcceptLanguage string
	// Last is the last HTML document received; Status its status code.
	Last   *goquery.Document
	Status int
	Header http.Header
	URL    string
}

func (s *server) newClient(t *testing.T) *client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	n := s.clients.Add(1)
	return &client{t: t, srv: s, ForwardedFor: fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255), http: &http.Client{
		Jar: jar,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > 5 {
				return errors.New("too many redirects")
			}
			return nil
		},
	}}
}

// copyCookies returns a new client holding a copy of c's cookies: the
// same browser session, as someone who copied the cookie would have it.
func (c *client) copyCookies(t *testing.T) *client {
	u, _ := url.Parse(c.srv.URL)
	d := c.srv.newClient(t)
	d.http.Jar.SetCookies(u, c.http.Jar.Cookies(u))
	return d
}

// moveTo points the client at another server (a restart) keeping cookies.
func (c *client) moveTo(s *server) {
	old, _ := url.Parse(c.srv.URL)
	nu, _ := url.Parse(s.URL)
	c.http.Jar.SetCookies(nu, c.http.Jar.Cookies(old))
	c.srv = s
}

func (c *client) do(req *http.Request, htmx bool) *goquery.Document {
	c.t.Helper()
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	if c.ForwardedFor != "" {
		req.Header.Set("X-Forwarded-For", c.ForwardedFor)
	}
	if c.AcceptLanguage != "" {
		req.Header.Set("Accept-Language", c.AcceptLanguage)
	}
	if htmx && c.HTMX {
		req.Header.Set("HX-Request", "true")
		req.Header.Set("HX-Current-URL", c.URL)
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	c.Status, c.Header, c.URL = res.StatusCode, res.Header, res.Request.URL.String()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	if err != nil {
		c.t.Fatal(err)
	}
	c.Last = doc
	return doc
}

// Get fetches path (relative to the server) as a plain link or address
// bar would, and parses the HTML.
func (c *client) Get(path string) *goquery.Document {
	c.t.Helper()
	return c.get(path, false)
}

func (c *client) get(path string, htmx bool) *goquery.Document {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.abs(path), nil)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.do(req, htmx)
}

// Click follows a link of the last page: with JavaScript on, a link with
// hx-get is fetched by htmx (HX-Request), otherwise as a plain link.
func (c *client) Click(link *goquery.Selection) *goquery.Document {
	c.t.Helper()
	if u, ok := link.Attr("hx-get"); ok && c.HTMX {
		return c.get(u, true)
	}
	href, ok := link.Attr("href")
	if !ok {
		c.t.Fatal("the link has no href")
	}
	return c.get(href, c.HTMX && boosted(link))
}

// boosted reports whether htmx boosts el: it or an ancestor has
// hx-boost="true".
func boosted(el *goquery.Selection) bool {
	v, _ := el.Closest("[hx-boost]").Attr("hx-boost")
	return v == "true"
}

// Submit submits a form of the last page with the given values added to
// its hidden fields (and, for a button, that button's name and value):
// with JavaScript on, a form with hx-post goes through htmx.
func (c *client) Submit(form *goquery.Selection, extra url.Values) *goquery.Document {
	c.t.Helper()
	req, htmx := c.formRequest(form, extra)
	return c.do(req, htmx)
}

// formRequest builds the POST a browser sends for form with extra values,
// and whether htmx sends it (JavaScript on, and the form is boosted or
// has hx-post).
func (c *client) formRequest(form *goquery.Selection, extra url.Values) (*http.Request, bool) {
	c.t.Helper()
	vals := url.Values{}
	form.Find(`input[type="hidden"]`).Each(func(_ int, in *goquery.Selection) {
		name, _ := in.Attr("name")
		v, _ := in.Attr("value")
		vals.Set(name, v)
	})
	for k, v := range extra {
		vals[k] = v
	}
	action, _ := form.Attr("action")
	htmx := c.HTMX && boosted(form)
	if u, ok := form.Attr("hx-post"); ok && c.HTMX {
		action, htmx = u, true
	}
	req, err := http.NewRequest(http.MethodPost, c.abs(action), strings.NewReader(vals.Encode()))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return req, htmx
}

// assertResultShown checks that each player of finished game id sees the
// result from their side and no move left to click.
func assertResultShown(t *testing.T, s *server, id int64, players ...*client) {
	t.Helper()
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		p.HTMX = false
		p.Get(fmt.Sprintf("/games/%d", id))
		status := p.text("#status")
		side := g.SideOf(mustUser(t, s, p.Name))
		want := "Drawn"
		if g.Winner == side {
			want = "You won"
		} else if g.Winner != rules.NoSide {
			want = "You lost"
		}
		if !strings.HasPrefix(status, want) {
			t.Errorf("%s sees %q, want %q…", p.Name, status, want)
		}
		if p.Last.Find(`#board button[name="move"], #board a[data-click]`).Length() != 0 {
			t.Errorf("%s can still click moves on a finished game", p.Name)
		}
	}
}

func (c *client) abs(path string) string {
	if strings.HasPrefix(path, "http") {
		return path
	}
	return c.srv.URL + path
}

// Post submits form values to path, adding the CSRF token of the last
// page, as a browser submitting a form of that page would.
func (c *client) Post(path string, form url.Values) *goquery.Document {
	c.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if form.Get("_csrf") == "" && c.Last != nil {
		if tok, ok := c.Last.Find(`input[name="_csrf"]`).Attr("value"); ok {
			form.Set("_csrf", tok)
		}
	}
	return c.PostRaw(path, form)
}

// PostRaw submits form values exactly as given.
func (c *client) PostRaw(path string, form url.Values) *goquery.Document {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.abs(path), strings.NewReader(form.Encode()))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req, false)
}

// SignUp creates an account and signs in.
func (c *client) SignUp(name string) {
	c.t.Helper()
	c.Get("/signup")
	c.Post("/signup", url.Values{"name": {name}, "password": {"correct horse"}})
	if c.Status != http.StatusOK || c.Last.Find(".top").Text() == "" || !strings.Contains(c.Last.Find("nav.top").Text(), name) {
		c.t.Fatalf("sign up %s: status %d, nav %q", name, c.Status, c.Last.Find("nav.top").Text())
	}
	c.Name = name
}

// SignIn signs in as name with password pw from the sign-in page and
// returns the status of the answer.
func (c *client) SignIn(name, pw string) int {
	c.t.Helper()
	c.Get("/signin")
	c.Post("/signin", url.Values{"name": {name}, "password": {pw}})
	if c.Status == http.StatusOK {
		c.Name = name
	}
	return c.Status
}

// signedIn reports whether the client's home page shows it signed in as
// name.
func (c *client) signedIn(name string) bool {
	c.t.Helper()
	c.Get("/")
	return strings.Contains(c.text("nav.top"), name)
}

// wantStatus fails the test unless the last answer had status code.
func (c *client) wantStatus(code int) {
	c.t.Helper()
	if c.Status != code {
		html, _ := c.Last.Html()
		if len(html) > 1500 {
			html = html[:1500]
		}
		c.t.Fatalf("status %d, want %d; page: %s", c.Status, code, html)
	}
}

// text returns the trimmed text of the first element matching sel in the
// last page.
func (c *client) text(sel string) string {
	return strings.TrimSpace(c.Last.Find(sel).First().Text())
}

// gameID returns the game id of the page at URL /games/N.
func gameIDOf(t *testing.T, u string) int64 {
	t.Helper()
	var id int64
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscanf(p.Path, "/games/%d", &id); err != nil {
		t.Fatalf("not a game URL: %s", u)
	}
	return id
}
