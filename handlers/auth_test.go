package handlers_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/handlers"
)

func TestSignUpSignInSignOut(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	a.Get("/")
	if a.Last.Find("h1").First().Text() != "Your games" {
		t.Fatalf("signed-in home is %q", a.Last.Find("h1").First().Text())
	}
	// The session cookie is HttpOnly and SameSite=Lax.
	a.Get("/")
	a.Post("/signout", nil)
	a.wantStatus(http.StatusOK)
	if strings.Contains(a.text("nav.top"), "alice") {
		t.Fatal("still signed in after signing out")
	}
	a.Get("/signin")
	a.Post("/signin", url.Values{"name": {"ALICE"}, "password": {"correct horse"}})
	a.wantStatus(http.StatusOK)
	if !strings.Contains(a.text("nav.top"), "alice") {
		t.Fatal("sign in with the name in another case failed")
	}
}

// The session, CSRF and language cookies are HttpOnly, SameSite=Lax,
// Path=/ without a Domain; over HTTPS (secure cookies) they are Secure and
// named with the __Host- prefix, over HTTP plainly.
func TestSessionCookieFlags(t *testing.T) {
	for _, secure := range []bool{false, true} {
		s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.SecureCookies = secure })
		a := s.newClient(t)
		noRedirect := *a.http
		noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		cookies := map[string]*http.Cookie{}
		post := func(path string, form url.Values) {
			req, _ := http.NewRequest(http.MethodPost, s.URL+path, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			res, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			for _, c := range res.Cookies() {
				cookies[c.Name] = c
			}
		}
		res, err := noRedirect.Get(s.URL + "/signup")
		if err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Cookies() {
			cookies[c.Name] = c
		}
		tok, _ := doc.Find(`input[name="_csrf"]`).Attr("value")
		post("/signup", url.Values{"name": {"alice"}, "password": {"correct horse"}, "_csrf": {tok}})
		post("/language", url.Values{"lang": {"fr"}, "back": {"/"}, "_csrf": {tok}})
		prefix := map[bool]string{true: "__Host-", false: ""}[secure]
		for _, name := range []string{"trench", "_csrf", "lang"} {
			c := cookies[prefix+name]
			if c == nil {
				t.Fatalf("secure-cookies %v: no %s cookie among %v", secure, prefix+name, cookies)
			}
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure != secure || c.Path != "/" || c.Domain != "" {
				t.Fatalf("secure-cookies %v: cookie %s HttpOnly %v SameSite %v Secure %v Path %q Domain %q",
					secure, c.Name, c.HttpOnly, c.SameSite, c.Secure, c.Path, c.Domain)
			}
		}
		if secure && (cookies["trench"] != nil || cookies["_csrf"] != nil || cookies["lang"] != nil) {
			t.Fatalf("over HTTPS a cookie is set without the __Host- prefix: %v", cookies)
		}
	}
}

func attr(t *testing.T, c *client, sel, name string) string {
	t.Helper()
	v, ok := c.Last.Find(sel).First().Attr(name)
	if !ok {
		t.Fatalf("no %s[%s] on the page", sel, name)
	}
	return v
}

func TestSignUpRefusals(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	b := s.newClient(t)
	cases := []struct {
		name, pw string
		want     int
		msg      string
	}{
		{"Alice", "correct horse", http.StatusConflict, "taken"},
		{"al", "correct horse", http.StatusBadRequest, "3 to 24"},
		{"a b c", "correct horse", http.StatusBadRequest, "3 to 24"},
		{"<script>", "correct horse", http.StatusBadRequest, "3 to 24"},
		{"bobby", "short", http.StatusBadRequest, "at least 8"},
		{"bobby", strings.Repeat("x", 80), http.StatusBadRequest, "72"},
		{"Computer", "correct horse", http.StatusBadRequest, "computer players"},
		{"computer_hard", "correct horse", http.StatusBadRequest, "computer players"},
		{"Computer-easy", "correct horse", http.StatusBadRequest, "computer players"},
		{"COMPUTERS", "correct horse", http.StatusBadRequest, "computer players"},
		{"com-pu_ter", "correct horse", http.StatusBadRequest, "computer players"},
	}
	for _, tc := range cases {
		b.Get("/signup")
		b.Post("/signup", url.Values{"name": {tc.name}, "password": {tc.pw}})
		b.wantStatus(tc.want)
		if !strings.Contains(b.Last.Text(), tc.msg) {
			t.Errorf("sign up %q: no message %q", tc.name, tc.msg)
		}
	}
	// A name that only contains the word is a name like any other.
	b.SignUp("my_computer")
}

func TestCSRFIsRequired(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	for _, path := range []string{"/signout", "/challenges", "/settings/password", "/games/1/move"} {
		a.PostRaw(path, url.Values{"x": {"1"}})
		a.wantStatus(http.StatusForbidden)
		a.Get("/")
		a.PostRaw(path, url.Values{"_csrf": {"forged-token"}})
		a.wantStatus(http.StatusForbidden)
	}
	// A token in the address does not count.
	a.Get("/")
	a.PostRaw("/signout?_csrf="+url.QueryEscape(attr(t, a, `input[name="_csrf"]`, "value")), url.Values{})
	a.wantStatus(http.StatusForbidden)
	if !a.signedIn("alice") {
		t.Fatal("signed out by a POST with the token in its address")
	}
	// With htmx the header carries the token just as well.
	a.Get("/")
	tok := attr(t, a, `input[name="_csrf"]`, "value")
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/signout", nil)
	req.Header.Set("X-CSRF-Token", tok)
	req.Header.Set("HX-Request", "true")
	a.do(req, true)
	if a.Status != http.StatusOK || strings.Contains(a.text("nav.top"), "alice") {
		t.Fatalf("htmx sign-out with the header token: status %d", a.Status)
	}
}

func TestChangePassword(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	a.Get("/settings")
	a.Post("/settings/password", url.Values{"current": {"wrong one"}, "password": {"new password 1"}})
	a.wantStatus(http.StatusUnauthorized)
	a.Post("/settings/password", url.Values{"current": {"correct horse"}, "password": {"short"}})
	a.wantStatus(http.StatusBadRequest)
	a.Post("/settings/password", url.Values{"current": {"correct horse"}, "password": {"new password 1"}})
	a.wantStatus(http.StatusOK)
	if a.Last.Find(".flash.ok").Length() != 1 {
		t.Fatal("no confirmation after changing the password")
	}
	b := s.newClient(t)
	b.Get("/signin")
	b.Post("/signin", url.Values{"name": {"alice"}, "password": {"new password 1"}})
	if !strings.Contains(b.text("nav.top"), "alice") {
		t.Fatal("cannot sign in with the new password")
	}
}

func TestSignedOutVisitor(t *testing.T) {
	s := startServer(t, "", nil)
	v := s.newClient(t)
	v.Get("/challenges/new")
	if !strings.HasPrefix(strings.TrimPrefix(v.URL, s.URL), "/signin?next=") {
		t.Fatalf("a visitor asking for the challenge form ends at %s, want the sign-in page", v.URL)
	}
	v.Get("/signin") // a page with a form, hence a CSRF token
	v.Post("/challenges", url.Values{"game": {"trench"}})
	v.wantStatus(http.StatusUnauthorized)
	// After signing in from that page the visitor lands where they wanted.
	v.Get("/signup?next=/challenges/new")
	v.Post("/signup", url.Values{"name": {"vera"}, "password": {"correct horse"}, "next": {"/challenges/new"}})
	if !strings.HasSuffix(v.URL, "/challenges/new") {
		t.Fatalf("after sign-up went to %s", v.URL)
	}
	// No open redirect.
	v.Post("/signout", nil)
	v.Get("/signin")
	v.Post("/signin", url.Values{"name": {"vera"}, "password": {"correct horse"}, "next": {"//evil.example/"}})
	if v.URL != s.URL+"/" {
		t.Fatalf("next=//evil.example/ redirected to %s", v.URL)
	}
}

func TestSecurityHeadersAndEscaping(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.Get("/")
	h := a.Header
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Fatalf("CSP %q", csp)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
		t.Fatalf("headers %v", h)
	}
	// No inline script anywhere on a page.
	a.SignUp("alice")
	a.Get("/challenges/new?game=trench&opponent=%3Cscript%3Ealert(1)%3C/script%3E")
	html, _ := a.Last.Html()
	if strings.Contains(html, "<script>alert") {
		t.Fatal("a query parameter was rendered unescaped")
	}
	a.Last.Find("script").Each(func(_ int, s2 *goquery.Selection) {
		if _, ok := s2.Attr("src"); !ok {
			t.Fatal("an inline script is on the page")
		}
	})
}

func TestMalformedRequestsGet4xx(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	gets := []string{
		"/games/0", "/games/99999999999999999999", fmt.Sprintf("/games/%d?view=hex", id), "/rules/chess",
		fmt.Sprintf("/games/%d?sel=%s", id, strings.Repeat("z,", 400)), "/challenges/new?game=%00",
		"/nothing-here", "/static/none.js",
	}
	for _, p := range gets {
		a.Get(p)
		if a.Status < 400 && !(strings.Contains(p, "sel=") || strings.Contains(p, "game=%00")) {
			t.Errorf("GET %s: status %d", p, a.Status)
		}
		if a.Status >= 500 {
			t.Errorf("GET %s: status %d", p, a.Status)
		}
	}
	a.Get("/")
	posts := map[string]url.Values{
		"/challenges":                                   {"game": {"trench"}, "variant": {"x"}, "color": {"0"}, "days": {"3"}},
		"/challenges/abc/accept":                        {},
		"/challenges/999/accept":                        {},
		fmt.Sprintf("/games/%d/armistice/maybe", id):    {"ply": {"0"}},
		fmt.Sprintf("/games/%d/resign", id):             {"ply": {"0"}},
		fmt.Sprintf("/games/%d/move", id):               {"ply": {"-4"}, "move": {"d4-d5"}},
		fmt.Sprintf("/games/%d/move", id) + "?x=%00":    {"ply": {"0"}, "move": {strings.Repeat("d", 5000)}},
		fmt.Sprintf("/games/%d/move", id) + "/../../..": {"ply": {"0"}},
	}
	for p, form := range posts {
		a.Get("/")
		a.Post(p, form)
		if a.Status < 400 || a.Status >= 500 {
			t.Errorf("POST %s: status %d", p, a.Status)
		}
	}
	if g, _ := s.DB.Game(t.Context(), id); g.Ply != 0 || g.Finished() {
		t.Fatal("a malformed request changed the game")
	}
}

// next= after sign-in leads only to a path on this site: nothing a browser
// could read as another host.
func TestSignInNextStaysOnSite(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	noRedirect := *a.http
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for next, want := range map[string]string{
		"/\t/evil.example/path": "/", "/\n/evil.example": "/", "/\r\n/evil.example": "/", "/\\evil.example": "/",
		"//evil.example": "/", "http://evil.example/": "/", "/\x00x": "/", "https:/evil.example": "/",
		"/games/1?view=square": "/games/1?view=square", "/challenges/new": "/challenges/new",
	} {
		a.Get("/signin")
		form := url.Values{"name": {"alice"}, "password": {"correct horse"}, "next": {next},
			"_csrf": {attr(t, a, `input[name="_csrf"]`, "value")}}
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/signin", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || loc != want {
			t.Errorf("next=%q: status %d, Location %q, want %q", next, res.StatusCode, loc, want)
		}
	}
}

// HEAD answers like GET, without a body.
func TestHeadAnswersLikeGet(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "bga", "0")
	for path, want := range map[string]int{
		"/": http.StatusOK, "/archive": http.StatusOK, "/rules/trench": http.StatusOK, "/signin": http.StatusOK,
		fmt.Sprintf("/games/%d", id): http.StatusOK, "/players/alice": http.StatusOK,
		"/games/99999": http.StatusNotFound, "/nothing-here": http.StatusNotFound,
	} {
		req, _ := http.NewRequest(http.MethodHead, s.URL+path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want || len(body) != 0 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("HEAD %s: status %d (want %d), %d bytes, Content-Type %q", path, res.StatusCode, want, len(body), res.Header.Get("Content-Type"))
		}
	}
}
