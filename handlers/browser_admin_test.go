package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserAdminWithHTMX: with JavaScript on, the admin page's forms
// swap the page in place (no page load).
func TestBrowserAdminWithHTMX(t *testing.T) { browserAdmin(t, true) }

// TestBrowserAdminWithoutJavaScript: with JavaScript off, the same forms
// are plain submissions, each loading the admin page again.
func TestBrowserAdminWithoutJavaScript(t *testing.T) { browserAdmin(t, false) }

// browserAdmin: the first account, made in the browser, is the admin; it
// sets an announcement that every page then shows, and suspends a player,
// which withdraws his open challenge and signs him out.
func browserAdmin(t *testing.T, script bool) {
	needChromium(t)
	start := time.Now()
	s := startServer(t, "", nil)
	b := newTab(t, s, script)
	b.signUp("root")
	bob := s.newClient(t)
	bob.SignUp("bob")
	bob.Get("/challenges/new?game=trench")
	bob.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "days": {"3"}})
	bob.wantStatus(http.StatusOK)

	b.open("/")
	b.clickAndLoad("nav a#nav-admin")
	if loc := b.location(); loc != "/admin" {
		t.Fatalf("the admin link leads to %s", loc)
	}
	if got := b.text("#users tr[data-user=bob] .status"); got != "active" {
		t.Fatalf("bob's status: %q", got)
	}
	if n := b.count("#challenges tr[data-challenge]"); n != 1 {
		t.Fatalf("%d open challenges listed, want bob's", n)
	}
	if script {
		b.waitUntil(5*time.Second, "htmx loads", `typeof window.htmx === "object"`)
		b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
	}
	// submit clicks a button of the admin page and waits for the answer:
	// an in-place swap with JavaScript, a page load without.
	submit := func(sel, what, doneExpr string) {
		t.Helper()
		if script {
			b.do(what, chromedp.Click(chromedp.CSS(sel)))
			b.waitUntil(10*time.Second, what, doneExpr)
			if !b.eval(`window.samePage === "yes"`) {
				t.Fatalf("%s reloaded the whole page, want an in-place swap", what)
			}
		} else {
			b.clickAndLoad(sel)
			if !b.eval(doneExpr) {
				t.Fatalf("%s: the page after it does not show the change", what)
			}
		}
	}

	const text = "Maintenance on Sunday, 10:00 UTC"
	b.within(5*time.Second, "type the announcement", chromedp.SendKeys(chromedp.CSS(`#announce textarea`), text))
	submit(`#announce button`, "save the announcement",
		`document.querySelector('#announcement') !== null && document.querySelector('#admin-done') !== null`)
	if got := b.text("#announcement"); got != text {
		t.Fatalf("the announcement shows %q", got)
	}
	bob.Get("/archive")
	if got := bob.text("#announcement"); got != text {
		t.Fatalf("bob sees the announcement %q", got)
	}

	submit(`#users tr[data-user=bob] form[data-action=suspend] button`, "suspend bob",
		`document.querySelector('#users tr[data-user=bob] .status').textContent.trim() === "suspended"`)
	if n := b.count("#challenges tr[data-challenge]"); n != 0 {
		t.Fatalf("%d open challenges after suspending bob, want none", n)
	}
	if signedIn(bob) {
		t.Fatal("the suspended bob is still signed in")
	}
	submit(`#users tr[data-user=bob] form[data-action=unsuspend] button`, "unsuspend bob",
		`document.querySelector('#users tr[data-user=bob] .status').textContent.trim() === "active"`)
	if !signIn(bob, "bob", "correct horse") {
		t.Fatal("bob cannot sign in once unsuspended")
	}
	if !strings.Contains(b.text("#figures"), "Players") {
		t.Fatal("the figures are gone after the actions")
	}
	t.Logf("took %s", time.Since(start).Round(100*time.Millisecond))
}
