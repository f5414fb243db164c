package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The browser tests drive a real Chromium (headless) against the real
// server: one person plays in the browser, the opponent through the
// plain HTTP client of the harness.

// browserTimeout bounds everything one browser test does.
const browserTimeout = 60 * time.Second

// needChromium returns the path of Chromium, or skips the test when it is
// not installed. With TRENCH_BROWSER_TESTS=1 (as in CI) a missing Chromium
// fails the test instead.
func needChromium(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err == nil {
		return path
	}
	if os.Getenv("TRENCH_BROWSER_TESTS") == "1" {
		t.Fatalf("TRENCH_BROWSER_TESTS=1 but Chromium is not installed: %v", err)
	}
	t.Skip("chromium not found in PATH (set TRENCH_BROWSER_TESTS=1 to require it)")
	return ""
}

// tab is one browser tab of its own browser (its own profile, so its own
// cookies): one person at the site.
type tab struct {
	t   *testing.T
	ctx context.Context
	srv *server
}

// newTab starts a headless Chromium with a fresh profile. With script
// false, JavaScript is off in the tab, as for a visitor who disabled it.
// The browser is closed when the test ends, before the server stops.
func newTab(t *testing.T, s *server, script bool) *tab {
	t.Helper()
	return newTabWithin(t, s, script, browserTimeout)
}

// newTabWithin is newTab for a test that may take up to d (a whole game).
func newTabWithin(t *testing.T, s *server, script bool, d time.Duration) *tab {
	t.Helper()
	path := needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 1000),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)
	b := &tab{t: t, ctx: tabCtx, srv: s}
	b.do("start the browser") // no action: starts the browser and opens the tab
	if !script {
		if _, err := chromedp.Call(tabCtx, emulation.SetScriptExecutionDisabled,
			emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatalf("turn JavaScript off: %v", err)
		}
	}
	return b
}

// do runs actions, failing the test with what on an error.
func (b *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// within runs actions with a deadline of d, so that a missing element
// fails fast instead of waiting for the end of the test.
func (b *tab) within(d time.Duration, what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, d)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// open loads path (relative to the server) as typed into the address bar.
func (b *tab) open(path string) {
	b.t.Helper()
	b.do("open "+path, chromedp.Navigate(b.srv.URL+path))
}

// clickAndLoad clicks the element sel and waits for the page it leads to
// to load (a link or a form submission, not an htmx swap).
func (b *tab) clickAndLoad(sel string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS(sel)))); err != nil {
		b.t.Fatalf("click %s and wait for a new page: %v", sel, err)
	}
}

// location is the address the browser shows, relative to the server.
func (b *tab) location() string {
	b.t.Helper()
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		b.t.Fatal(err)
	}
	return strings.TrimPrefix(loc, b.srv.URL)
}

// text is the trimmed text content of the first element matching sel.
func (b *tab) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.Join(strings.Fields(s), " ")
}

// attr is the attribute name of the first element matching sel.
func (b *tab) attr(sel, name string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	a, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(sel), name))
	if err != nil {
		b.t.Fatalf("attribute %s of %s: %v", name, sel, err)
	}
	if !a.Exists {
		b.t.Fatalf("%s has no attribute %s", sel, name)
	}
	return a.Value
}

// count is the number of elements matching sel, now (no waiting).
func (b *tab) count(sel string) int {
	b.t.Helper()
	n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](fmt.Sprintf("document.querySelectorAll(%q).length", sel)))
	if err != nil {
		b.t.Fatalf("count %s: %v", sel, err)
	}
	return n
}

// eval evaluates a JavaScript expression in the page and returns its
// boolean value.
func (b *tab) eval(expr string) bool {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitUntil waits up to d for the JavaScript expression expr to be true
// in the page. It polls from Go: the page's Content-Security-Policy
// forbids the eval that an in-page poll would need.
func (b *tab) waitUntil(d time.Duration, what, expr string) {
	b.t.Helper()
	deadline := time.Now().Add(d)
	var lastErr error
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		lastErr = err
		if time.Now().After(deadline) || b.ctx.Err() != nil {
			b.t.Fatalf("%s: not within %s (last error: %v)", what, d, lastErr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// signUp creates an account through the sign-up form of the browser.
func (b *tab) signUp(name string) {
	b.t.Helper()
	b.open("/signup")
	b.within(10*time.Second, "fill in the sign-up form",
		chromedp.SendKeys(chromedp.CSS(`form input[name="name"]`), name),
		chromedp.SendKeys(chromedp.CSS(`form input[name="password"]`), "correct horse"),
	)
	b.clickAndLoad(`main form button[type="submit"]`)
	if nav := b.text("nav.top"); !strings.Contains(nav, name) {
		b.t.Fatalf("after signing up, the navigation bar says %q, want the name %s", nav, name)
	}
}

// acceptChallenge accepts the first open challenge from the dashboard and
// returns the id of the game the browser lands on.
func (b *tab) acceptChallenge() int64 {
	b.t.Helper()
	b.open("/")
	b.clickAndLoad(`#open-challenges tr[data-challenge] form[action$="/accept"] button`)
	return gameIDOf(b.t, b.srv.URL+b.location())
}

// browserGame signs up a person in the browser tab b and another through
// the harness client; the client challenges the browser's person to a
// TRENCH single game in which the browser's person moves first. It
// returns the client and the game id, with the browser on the game page.
func browserGame(t *testing.T, s *server, b *tab) (*client, int64) {
	t.Helper()
	b.signUp("carol")
	bob := s.newClient(t)
	bob.SignUp("bob")
	bob.Get("/challenges/new?game=trench")
	bob.wantStatus(http.StatusOK)
	// Bob plays the second side, so Carol moves first.
	bob.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"1"}, "days": {"3"}, "opponent": {"carol"}})
	bob.wantStatus(http.StatusOK)
	id := b.acceptChallenge()
	if loc := b.location(); loc != fmt.Sprintf("/games/%d", id) {
		t.Fatalf("after accepting, the browser is at %s", loc)
	}
	if got := b.text("#status"); got != "Your move" {
		t.Fatalf("the new game's status says %q, want %q", got, "Your move")
	}
	return bob, id
}

// boardDrawn checks that the board is drawn as a board: the stylesheet
// is in effect (64 cells laid out in a square, not stacked as a list)
// and the units have a size.
func (b *tab) boardDrawn() {
	b.t.Helper()
	type box struct{ W, H, Units, Cells, UnitW, UnitH float64 }
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[box](`(() => {
		const board = document.querySelector('#board .board').getBoundingClientRect();
		const unit = document.querySelector('#board svg').getBoundingClientRect();
		return {W: board.width, H: board.height, Cells: document.querySelectorAll('#board .board-row > [data-click]').length,
			Units: document.querySelectorAll('#board svg').length, UnitW: unit.width, UnitH: unit.height};
	})()`))
	if err != nil {
		b.t.Fatalf("measure the board: %v", err)
	}
	if got.Cells != 64 || got.Units == 0 || got.W < 200 || got.H < 0.8*got.W || got.H > 1.2*got.W ||
		got.UnitW < 10 || got.UnitW > got.W/4 || got.UnitH < 10 {
		b.t.Fatalf("the board is not drawn as an 8×8 board: %+v", got)
	}
}

// wantPly checks the stored game has ply plies and the last move last.
func wantPly(t *testing.T, s *server, id int64, ply int, last string) {
	t.Helper()
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Ply != ply || (last != "" && g.LastMove != last) {
		t.Fatalf("game %d: ply %d last move %q, want ply %d last move %q", id, g.Ply, g.LastMove, ply, last)
	}
}

// TestBrowserPlayWithHTMX plays with JavaScript on: selecting a unit and
// moving swap the game in place (no page load) and keep the address in
// step; the opponent's move shows up by itself through the live poll.
func TestBrowserPlayWithHTMX(t *testing.T) {
	needChromium(t)
	start := time.Now()
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	bob, id := browserGame(t, s, b)
	gameURL := fmt.Sprintf("/games/%d", id)

	b.waitUntil(5*time.Second, "htmx loads", `typeof window.htmx === "object"`)
	b.boardDrawn()
	// A full page load would forget this.
	b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
	samePage := `window.samePage === "yes"`
	if b.count(`#board button[name="move"]`) != 0 {
		t.Fatal("destinations are shown before a unit is selected")
	}

	unit := b.attr(`#board a[data-click]`, "data-click")
	b.do("click unit "+unit, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board a[data-click=%q]`, unit))))
	b.waitUntil(10*time.Second, "destinations appear after clicking "+unit,
		`document.querySelector('#board button[name="move"]') !== null`)
	if !b.eval(samePage) {
		t.Fatal("selecting a unit reloaded the whole page, want an in-place swap")
	}
	if loc, want := b.location(), gameURL+"?sel="+url.QueryEscape(unit); loc != want {
		t.Fatalf("after selecting a unit the address is %s, want %s", loc, want)
	}

	move := b.attr(`#board button[name="move"]`, "value")
	dest := b.attr(`#board button[name="move"]`, "data-click")
	b.do("click destination "+dest, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board button[name="move"][data-click=%q]`, dest))))
	b.waitUntil(10*time.Second, "the game shows the move", `document.querySelector('#game').dataset.ply === "1"`)
	wantPly(t, s, id, 1, move)
	if !b.eval(samePage) {
		t.Fatal("moving reloaded the whole page, want an in-place swap")
	}
	if got := b.text("#status"); got == "Your move" || !strings.Contains(got, "bob") {
		t.Fatalf("after moving, the status says %q, want bob to move", got)
	}
	if b.count(`#board button[name="move"], #board a[data-click]`) != 0 {
		t.Fatal("the board is still clickable after the move, on the opponent's turn")
	}
	if loc := b.location(); loc != gameURL {
		t.Fatalf("after moving the address is %s, want %s", loc, gameURL)
	}

	// The opponent moves elsewhere; the open page notices by itself.
	reply := clickMove(t, bob, id, func(int) int { return 0 })
	wantPly(t, s, id, 2, reply)
	waitStart := time.Now()
	b.waitUntil(10*time.Second, "the page shows the opponent's move without a reload",
		`document.querySelector('#game').dataset.ply === "2" && document.querySelector('#status').textContent.trim() === "Your move"`)
	t.Logf("the opponent's move appeared after %s", time.Since(waitStart).Round(100*time.Millisecond))
	if !b.eval(samePage) {
		t.Fatal("the live update reloaded the whole page, want an in-place swap")
	}
	if n := b.count(`#moves li[data-ply]`); n != 2 {
		t.Fatalf("the move list shows %d moves, want 2", n)
	}
	if b.count(`#board a[data-click]`) == 0 {
		t.Fatal("after the opponent's move no unit can be selected")
	}
	t.Logf("took %s", time.Since(start).Round(100*time.Millisecond))
}

// TestBrowserPlayWithoutJavaScript plays with JavaScript off: the unit is
// a plain link, the destination a plain form submission answered by a
// redirect, and each step loads a new page.
func TestBrowserPlayWithoutJavaScript(t *testing.T) {
	needChromium(t)
	start := time.Now()
	s := startServer(t, "", nil)
	b := newTab(t, s, false)
	_, id := browserGame(t, s, b)
	gameURL := fmt.Sprintf("/games/%d", id)

	if !b.eval(`typeof window.htmx === "undefined"`) {
		t.Fatal("htmx runs although JavaScript is off")
	}
	if b.count(`#board button[name="move"]`) != 0 {
		t.Fatal("destinations are shown before a unit is selected")
	}
	unit := b.attr(`#board a[data-click]`, "data-click")
	b.clickAndLoad(fmt.Sprintf(`#board a[data-click=%q]`, unit))
	if loc, want := b.location(), gameURL+"?sel="+url.QueryEscape(unit); loc != want {
		t.Fatalf("after selecting a unit the address is %s, want %s", loc, want)
	}
	if b.count(`#board button[name="move"]`) == 0 {
		t.Fatal("no destination is shown after selecting a unit")
	}
	b.boardDrawn()

	move := b.attr(`#board button[name="move"]`, "value")
	dest := b.attr(`#board button[name="move"]`, "data-click")
	b.clickAndLoad(fmt.Sprintf(`#board button[name="move"][data-click=%q]`, dest))
	wantPly(t, s, id, 1, move)
	if loc := b.location(); loc != gameURL {
		t.Fatalf("after moving the address is %s, want %s (the redirect after the POST)", loc, gameURL)
	}
	if ply := b.attr("#game", "data-ply"); ply != "1" {
		t.Fatalf("the page shows ply %s, want 1", ply)
	}
	if got := b.text("#status"); got == "Your move" || !strings.Contains(got, "bob") {
		t.Fatalf("after moving, the status says %q, want bob to move", got)
	}
	if n := b.count(`#moves li[data-ply]`); n != 1 {
		t.Fatalf("the move list shows %d moves, want 1", n)
	}
	if b.count(`#board button[name="move"], #board a[data-click]`) != 0 {
		t.Fatal("the board is still clickable after the move, on the opponent's turn")
	}
	t.Logf("took %s", time.Since(start).Round(100*time.Millisecond))
}
