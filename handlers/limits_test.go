package handlers_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
)

// behindProxy starts the server with 127.0.0.1 as its trusted proxy, so
// that each client's ForwardedFor is its address.
func behindProxy(t *testing.T) *server {
	t.Helper()
	return startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) {
		_, n, err := net.ParseCIDR("127.0.0.1/32")
		if err != nil {
			t.Fatal(err)
		}
		cfg.TrustedProxies = []*net.IPNet{n}
	})
}

// Someone guessing alice's password from elsewhere backs off, and never
// locks alice out: the right password from her own address still works,
// and so does her password change.
func TestGuessingDoesNotLockOutTheOwner(t *testing.T) {
	s := behindProxy(t)
	a := s.newClient(t)
	a.ForwardedFor = "198.51.100.10"
	a.SignUp("alice")
	a.Get("/")
	a.Post("/signout", nil)

	g := s.newClient(t)
	g.ForwardedFor = "203.0.113.66"
	g.Get("/signin")
	for i := range 5 {
		g.Post("/signin", url.Values{"name": {"alice"}, "password": {fmt.Sprintf("guess %d!!", i)}})
		g.wantStatus(http.StatusUnauthorized)
	}
	// The guesser now waits, even with the right password…
	g.Post("/signin", url.Values{"name": {"alice"}, "password": {"correct horse"}})
	g.wantStatus(http.StatusTooManyRequests)
	if msg := g.text(".flash"); !strings.Contains(msg, "try again in 1 second") || g.Header.Get("Retry-After") != "1" {
		t.Fatalf("429 says %q, Retry-After %q", msg, g.Header.Get("Retry-After"))
	}
	// …twice as long after each further failure.
	s.Clock.Advance(time.Second)
	g.Post("/signin", url.Values{"name": {"alice"}, "password": {"guess 6!!"}})
	g.wantStatus(http.StatusUnauthorized)
	g.Post("/signin", url.Values{"name": {"alice"}, "password": {"correct horse"}})
	g.wantStatus(http.StatusTooManyRequests)
	if msg := g.text(".flash"); !strings.Contains(msg, "try again in 2 seconds") {
		t.Fatalf("second back-off says %q", msg)
	}

	// Meanwhile alice signs in from her own address and changes her password.
	if st := a.SignIn("alice", "correct horse"); st != http.StatusOK || !a.signedIn("alice") {
		t.Fatalf("the owner is locked out: status %d", st)
	}
	a.Get("/settings")
	a.Post("/settings/password", url.Values{"current": {"correct horse"}, "password": {"new password 1"}})
	a.wantStatus(http.StatusOK)
	if a.Last.Find(".flash.ok").Length() != 1 {
		t.Fatalf("the password change was refused: %q", a.text(".flash"))
	}
}

// Wrong current passwords on the settings page back off too, per account.
func TestPasswordChangeBacksOff(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	a.Get("/settings")
	for i := range 5 {
		a.Post("/settings/password", url.Values{"current": {fmt.Sprintf("guess %d!!", i)}, "password": {"new password 1"}})
		a.wantStatus(http.StatusUnauthorized)
	}
	a.Post("/settings/password", url.Values{"current": {"correct horse"}, "password": {"new password 1"}})
	a.wantStatus(http.StatusTooManyRequests)
	s.Clock.Advance(time.Second)
	a.Post("/settings/password", url.Values{"current": {"correct horse"}, "password": {"new password 1"}})
	a.wantStatus(http.StatusOK)
}

// Without --trusted-proxy, X-Forwarded-For is ignored: rotating it does
// not get past the per-address limits.
func TestForwardedForIgnoredByDefault(t *testing.T) {
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.TrustedProxies = nil })
	c := s.newClient(t)
	refused := 0
	for i := range 12 {
		c.ForwardedFor = fmt.Sprintf("203.0.113.%d", i+1)
		c.Get("/signup")
		c.Post("/signup", url.Values{"name": {fmt.Sprintf("user%d", i)}, "password": {"correct horse"}})
		if c.Status == http.StatusTooManyRequests {
			refused++
			if msg := c.text(".flash"); !strings.Contains(msg, "Too many new accounts") || !strings.Contains(msg, "try again in") {
				t.Fatalf("429 says %q", msg)
			}
		}
		c.Get("/")
		if c.Last.Find(`form[action="/signout"]`).Length() > 0 {
			c.Post("/signout", nil)
		}
	}
	if refused != 7 {
		t.Fatalf("%d of 12 sign-ups from one address were refused, want 7 (a burst of 5)", refused)
	}
}

// Behind a trusted proxy, the client is the address that proxy added (the
// last hop): what the client wrote before it is not believed.
func TestTrustedProxyLastHopOnly(t *testing.T) {
	s := behindProxy(t)
	c := s.newClient(t)
	signUp := func(name, xff string) int {
		c.ForwardedFor = xff
		c.Get("/signup")
		c.Post("/signup", url.Values{"name": {name}, "password": {"correct horse"}})
		st := c.Status
		c.Get("/")
		if c.Last.Find(`form[action="/signout"]`).Length() > 0 {
			c.Post("/signout", nil)
		}
		return st
	}
	for i := range 5 {
		if st := signUp(fmt.Sprintf("user%d", i), fmt.Sprintf("10.9.9.%d, 198.51.100.7", i)); st != http.StatusOK {
			t.Fatalf("sign-up %d: status %d", i, st)
		}
	}
	if st := signUp("user5", "10.9.9.99, 198.51.100.7"); st != http.StatusTooManyRequests {
		t.Fatalf("a forged first hop got past the limit: status %d", st)
	}
	if st := signUp("user6", "198.51.100.8"); st != http.StatusOK {
		t.Fatalf("another client behind the proxy was refused: status %d", st)
	}
}

// An unknown name takes as long to refuse as a wrong password for a known
// one: both compare a bcrypt hash.
func TestSignInTimingSameForUnknownNames(t *testing.T) {
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.BcryptCost = 8 })
	a := s.newClient(t)
	a.SignUp("alice")
	a.Get("/")
	a.Post("/signout", nil)
	a.Get("/signin")
	tok := attr(t, a, `input[name="_csrf"]`, "value")
	timeOf := func(name string) time.Duration {
		best := time.Hour
		for range 2 {
			start := time.Now()
			a.PostRaw("/signin", url.Values{"name": {name}, "password": {"wrong password"}, "_csrf": {tok}})
			a.wantStatus(http.StatusUnauthorized)
			best = min(best, time.Since(start))
		}
		return best
	}
	timeOf("nobody") // the dummy hash is made on first use
	known, unknown := timeOf("alice"), timeOf("nobody-else")
	if unknown < known/2 {
		t.Fatalf("a wrong password takes %v for a known name, %v for an unknown one", known, unknown)
	}
}

// Wrong passwords at an account's deletion back off as at a password
// change, on the same count: 40 guesses in a row are not all answered;
// the owner deletes once the wait is over.
func TestDeleteAccountBacksOff(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	a.Get("/settings")
	refused := 0
	for i := range 40 {
		a.Post("/settings/delete", url.Values{"password": {fmt.Sprintf("guess %d!!", i)}})
		switch a.Status {
		case http.StatusUnauthorized:
			if refused > 0 {
				t.Fatalf("guess %d answered 401 after a 429, with the clock still", i)
			}
		case http.StatusTooManyRequests:
			refused++
			if a.Header.Get("Retry-After") != "1" || !strings.Contains(a.text(".flash"), "try again in 1 second") {
				t.Fatalf("guess %d: 429 says %q, Retry-After %q", i, a.text(".flash"), a.Header.Get("Retry-After"))
			}
		default:
			t.Fatalf("guess %d: status %d", i, a.Status)
		}
	}
	if refused != 35 {
		t.Fatalf("%d of 40 wrong passwords were refused with 429, want 35 (after 5)", refused)
	}
	// The wait is shared with the password change.
	a.Post("/settings/password", url.Values{"current": {"correct horse"}, "password": {"new password 1"}})
	a.wantStatus(http.StatusTooManyRequests)
	s.Clock.Advance(time.Second)
	a.Post("/settings/delete", url.Values{"password": {"correct horse"}})
	a.wantStatus(http.StatusOK)
	if !strings.Contains(a.text("main"), "is deleted") {
		t.Fatalf("after the wait the deletion says %q", a.text("main"))
	}
}

// A player has at most db.MaxOpenTournaments tournaments in sign-up or
// running: 40 created in a row put 3 on the list, the others are
// answered 429 with Retry-After on the form, in the player's language.
// Cancelling one makes room; an administrator is not capped.
func TestOpenTournamentsPerOrganiserCapped(t *testing.T) {
	s := startServer(t, "", nil)
	admin, a := signedUpPair(t, s) // the first account is an administrator
	a.AcceptLanguage = "fr"
	a.Get("/tournaments/new")
	form := func(i int) url.Values {
		return url.Values{"name": {fmt.Sprintf("Cup %d", i)}, "game": {"trenches:standard"}, "format": {"roundrobin"},
			"min": {"2"}, "max": {"4"}, "days": {"3"}, "starts": {""}}
	}
	var first string
	for i := range 40 {
		a.Submit(a.Last.Find("#tournament-form"), form(i))
		if i < db.MaxOpenTournaments {
			a.wantStatus(http.StatusOK)
			if first == "" {
				first = strings.TrimPrefix(a.URL, s.URL)
			}
			a.Get("/tournaments/new")
			continue
		}
		a.wantStatus(http.StatusTooManyRequests)
		if msg := a.text(".flash"); !strings.Contains(msg, "Vous avez 3 tournois en inscription ou en cours") ||
			a.Header.Get("Retry-After") != "3600" || a.Last.Find("#tournament-form").Length() != 1 {
			t.Fatalf("creation %d: 429 says %q, Retry-After %q", i, msg, a.Header.Get("Retry-After"))
		}
	}
	admin.Get("/tournaments")
	if n := admin.Last.Find("#tournaments-upcoming tbody tr").Length(); n != db.MaxOpenTournaments {
		t.Fatalf("%d tournaments listed after 40 created in a row, want %d", n, db.MaxOpenTournaments)
	}
	// A cancelled one frees its place.
	tournamentAct(t, a, first, "cancel")
	organise(t, a, form(100))
	// Administrators organise without a cap.
	for i := range db.MaxOpenTournaments + 2 {
		organise(t, admin, form(200+i))
	}
}

// A page number past the end of a list, however large, shows the list's
// last page (as /archive does): never a 500.
func TestHugePageNumbersShowTheLastPage(t *testing.T) {
	s := startServer(t, "", nil)
	signedUpPair(t, s)
	finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 6)
	v := s.newClient(t)
	for _, page := range []string{"9223372036854775807", "9223372036854775808", "99999999999999999999999", "1048577", "2"} {
		// The leaderboard is empty (no rated games): its one page.
		v.Get("/leaderboard/trench?page=" + page)
		if v.Status != http.StatusOK || v.Last.Find("#leaderboard-empty").Length() != 1 {
			t.Fatalf("/leaderboard/trench?page=%s: status %d", page, v.Status)
		}
		for path, rows := range map[string]string{"/players": "#players tbody tr", "/archive": "main table tbody tr"} {
			v.Get(path + "?page=" + page)
			if v.Status != http.StatusOK {
				t.Fatalf("%s?page=%s: status %d", path, page, v.Status)
			}
			if v.Last.Find(rows).Length() == 0 {
				t.Errorf("%s?page=%s lists nothing, want the last page", path, page)
			}
		}
	}
	for _, page := range []string{"0", "-9223372036854775809", "x"} {
		v.Get("/leaderboard/trench?page=" + page)
		v.wantStatus(http.StatusBadRequest)
	}
}

// /static/ serves its files and lists no folder: the root, with or
// without its slash, answers 404 like an unknown file.
func TestStaticListsNoFolder(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	for _, p := range []string{"/static/", "/static/.", "/static//", "/static/./", "/static/none.js", "/static/x/../"} {
		res, err := c.http.Get(s.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || strings.Contains(string(body), `href="VERSIONS"`) {
			t.Errorf("GET %s: status %d, body %.80q; want 404 without a listing", p, res.StatusCode, body)
		}
	}
	for _, p := range []string{"/static/style.css", "/static/htmx.min.js", "/static/units.svg"} {
		res, err := c.http.Get(s.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != "public, max-age=3600" {
			t.Errorf("GET %s: status %d, Cache-Control %q", p, res.StatusCode, res.Header.Get("Cache-Control"))
		}
	}
}
