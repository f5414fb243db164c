package handlers_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Keyboard play: a TRENCH game played without a mouse, by Tab and Enter
// on the squares of the board or by typing moves in the move box under
// it, the way a person using a screen reader or the keyboard alone plays.

// kbTabTo presses Tab until the element focused matches sel and returns
// its data-click (or id). It fails when sel cannot be reached.
func (b *tab) kbTabTo(sel string) string {
	b.t.Helper()
	focused := fmt.Sprintf(`(() => { const a = document.activeElement; return a !== null && a.matches(%q); })()`, sel)
	for i := 0; i < 400; i++ {
		if b.eval(focused) {
			s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.activeElement.dataset.click || document.activeElement.id || ""`))
			if err != nil {
				b.t.Fatal(err)
			}
			return s
		}
		b.do("press Tab", chromedp.KeyEvent(kb.Tab))
	}
	b.t.Fatalf("%s cannot be reached with the Tab key", sel)
	return ""
}

// kbFocused is an attribute of the element focused.
func (b *tab) kbFocused(name string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.activeElement.getAttribute(%q) || ""`, name)))
	if err != nil {
		b.t.Fatal(err)
	}
	return s
}

// kbWantRing fails unless the element focused shows a focus ring.
func (b *tab) kbWantRing(what string) {
	b.t.Helper()
	if !b.eval(`(() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2; })()`) {
		b.t.Fatalf("%s shows no focus ring when reached by the keyboard", what)
	}
}

// kbPress presses keys (with JavaScript on) and waits for the game to be
// swapped in place.
func (b *tab) kbPress(what, keys string) {
	b.t.Helper()
	b.do("mark the game", chromedp.Evaluate[chromedp.Void](`document.querySelector('#game').dataset.before = "yes"`))
	b.do(what, chromedp.KeyEvent(keys))
	b.waitUntil(15*time.Second, "the game is redrawn after "+what,
		`(() => { const g = document.querySelector('#game'); return g !== null && g.dataset.before === undefined && `+settled+`; })()`)
	if !b.eval(samePage) {
		b.t.Fatalf("%s reloaded the whole page, want an in-place swap", what)
	}
}

// kbPressAndLoad presses keys (JavaScript off) and waits for the page
// that follows.
func (b *tab) kbPressAndLoad(what, keys string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.KeyEvent(keys))); err != nil {
		b.t.Fatalf("%s and wait for a new page: %v", what, err)
	}
}

// kbSignIn signs name in through the sign-in form of the browser.
func (b *tab) kbSignIn(name string) {
	b.t.Helper()
	b.open("/signin")
	b.within(10*time.Second, "fill in the sign-in form",
		chromedp.SendKeys(chromedp.CSS(`form input[name="name"]`), name),
		chromedp.SendKeys(chromedp.CSS(`form input[name="password"]`), "correct horse"),
	)
	b.clickAndLoad(`main form button[type="submit"]`)
	if nav := b.text("nav.top"); !strings.Contains(nav, name) {
		b.t.Fatalf("after signing in, the navigation bar says %q, want the name %s", nav, name)
	}
}

// kbWaitPly waits until the page shows the game at ply with the board's
// live region saying the last move.
func (b *tab) kbWaitPly(ply int, last string) {
	b.t.Helper()
	b.waitUntil(15*time.Second, fmt.Sprintf("the page shows ply %d", ply), fmt.Sprintf(
		`(() => { const g = document.querySelector('#game'); return g !== null && g.dataset.ply === "%d" && `+settled+`; })()`, ply))
	b.waitUntil(5*time.Second, "the live region is filled", `document.querySelector('#board-status').textContent !== ""`)
	if got, want := b.text("#board-status"), "Last move "+last+"."; !strings.HasPrefix(got, want) || !strings.Contains(got, " to move.") {
		b.t.Fatalf("the board's live region says %q, want %q and the side to move", got, want)
	}
}

// kbArrows checks, from the square from (focused), that the arrow keys
// move the focus along the grid's rows and columns, onto squares with
// nothing to click too, and back.
func (b *tab) kbArrows(from string) {
	b.t.Helper()
	type pos struct{ Row, Col int }
	where := func() (string, pos) {
		b.t.Helper()
		p, err := chromedp.Run(b.ctx, chromedp.Evaluate[pos](`(() => { const c = document.activeElement, r = c.parentElement;
			return {Row: Array.prototype.indexOf.call(r.parentElement.children, r), Col: Array.prototype.indexOf.call(r.children, c)}; })()`))
		if err != nil {
			b.t.Fatal(err)
		}
		return b.kbFocused("data-click"), p
	}
	_, at := where()
	v, h := -1, 1 // up and right, unless at the edge
	if at.Row == 0 {
		v = 1
	}
	if at.Col == 7 {
		h = -1
	}
	keys := map[pos]string{{-1, 0}: kb.ArrowUp, {1, 0}: kb.ArrowDown, {0, -1}: kb.ArrowLeft, {0, 1}: kb.ArrowRight}
	for _, step := range []pos{{v, 0}, {0, h}, {-v, 0}, {0, -h}} {
		b.do("press an arrow key", chromedp.KeyEvent(keys[step]))
		name, now := where()
		if want := (pos{at.Row + step.Row, at.Col + step.Col}); now != want {
			b.t.Fatalf("after an arrow key the focus is on row %d column %d, want row %d column %d", now.Row, now.Col, want.Row, want.Col)
		}
		at = now
		label, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.activeElement.querySelector('.vh').textContent`))
		if err != nil || name == "" || !strings.HasPrefix(label, name+", ") {
			b.t.Fatalf("the square reached by an arrow key (%s) is named %q (%v)", name, label, err)
		}
		b.kbWantRing("the square " + name)
	}
	if name, _ := where(); name != from {
		b.t.Fatalf("the arrow keys did not come back to %s but to %s", from, name)
	}
}

// TestBrowserKeyboardGame: carol and bob, each at a browser with
// JavaScript on, play a TRENCH game with the keyboard alone. Carol tabs
// to a unit and presses Enter, then to a destination and presses Enter;
// bob tabs to the move box, types a legal move (and once a malformed one,
// refused with a message) and presses Enter. Each sees the other's move
// announced in the board's live region. After six plies carol resigns by
// keyboard.
func TestBrowserKeyboardGame(t *testing.T) {
	needChromium(t)
	start := time.Now()
	s := startServer(t, "", nil)
	carol := newTabWithin(t, s, true, 4*time.Minute)
	bobTab := newTabWithin(t, s, true, 4*time.Minute)
	_, id := browserGame(t, s, carol)
	gameURL := fmt.Sprintf("/games/%d", id)
	bobTab.kbSignIn("bob")
	bobTab.open(gameURL)
	for _, b := range []*tab{carol, bobTab} {
		b.waitUntil(5*time.Second, "htmx loads", `typeof window.htmx === "object"`)
		b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
	}
	if n := carol.count(`#board [role="grid"] > [role="row"] > [role="gridcell"]`); n != 64 {
		t.Fatalf("the board's grid has %d cells in rows, want 64", n)
	}
	if n := bobTab.count("#move-box"); n != 0 {
		t.Fatal("the move box is offered to the player who is not to move")
	}

	const plies = 6
	for ply := 0; ply < plies; ply++ {
		var move string
		if ply%2 == 0 {
			// Carol: Tab to a unit, Enter; Tab to a destination, Enter.
			unit := carol.kbTabTo(`#board a[data-click]`)
			carol.kbWantRing("the square " + unit)
			if label := carol.kbFocused("title"); !strings.HasPrefix(label, unit+", ") || !strings.HasSuffix(label, ", select") {
				t.Fatalf("the unit on %s is named %q, want the square, the unit and \"select\"", unit, label)
			}
			if ply == 0 {
				carol.kbArrows(unit)
			}
			carol.kbPress("press Enter on "+unit, kb.Enter)
			// The live region is emptied and refilled a moment after a swap,
			// so that a screen reader reads it anew.
			carol.waitUntil(5*time.Second, "the live region says "+unit+" is selected",
				fmt.Sprintf(`document.querySelector('#board-status').textContent.includes(%q)`, "Selected: "+unit+"."))
			dest := carol.kbTabTo(`#board button[name="move"]`)
			if label := carol.kbFocused("title"); !strings.HasPrefix(label, dest+", ") || !strings.Contains(label, "move here") {
				t.Fatalf("the destination %s is named %q, want the square and \"move here\"", dest, label)
			}
			move = carol.kbFocused("value")
			carol.kbPress("press Enter on "+dest, kb.Enter)
			wantPly(t, s, id, ply+1, move)
			bobTab.kbWaitPly(ply+1, move)
		} else {
			// Bob: Tab to the move box, type a move, Enter.
			bobTab.kbTabTo("#move-input")
			bobTab.kbWantRing("the move box")
			if ply == 1 {
				bobTab.do("type a malformed move", chromedp.KeyEvent("zz9"))
				bobTab.kbPress("press Enter in the move box", kb.Enter)
				if got := bobTab.text("#game-message"); got == "" {
					t.Fatal("a malformed move typed in the move box gets no message")
				}
				if loc := bobTab.location(); loc != gameURL {
					t.Fatalf("after a refused move the address bar shows %s, want %s (a reload must show the game)", loc, gameURL)
				}
				wantPly(t, s, id, ply, "")
				bobTab.kbTabTo("#move-input")
			}
			legal, err := chromedp.Run(bobTab.ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#move-list option'), o => o.value)`))
			if err != nil || len(legal) == 0 {
				t.Fatalf("the move box offers no legal move (%v)", err)
			}
			move = legal[len(legal)/2]
			bobTab.do("type "+move, chromedp.KeyEvent(move))
			bobTab.kbPress("press Enter in the move box", kb.Enter)
			wantPly(t, s, id, ply+1, move)
			carol.kbWaitPly(ply+1, move)
		}
		t.Logf("ply %d: %s", ply+1, move)
	}

	// Carol resigns: Tab to Resign…, Enter; Tab to the confirmation, Enter.
	carol.kbTabTo("#resign")
	carol.kbWantRing("the resign link")
	carol.kbPress("press Enter on Resign…", kb.Enter)
	carol.kbTabTo(`#confirm-resign button[value="yes"]`)
	carol.do("press Enter on Yes, resign", chromedp.KeyEvent(kb.Enter))
	carol.waitUntil(15*time.Second, "the game ends", `document.querySelector('#confirm-resign') === null && document.querySelector('#resign') === null`)
	g, err := s.DB.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Finished() || g.Ply != plies {
		t.Fatalf("after resigning by keyboard the game is finished %v at ply %d, want finished at %d", g.Finished(), g.Ply, plies)
	}
	bobTab.waitUntil(15*time.Second, "bob's board says the game is over",
		`(document.querySelector('#board-status') || {}).textContent.includes("The game is over.")`)
	t.Logf("took %s", time.Since(start).Round(100*time.Millisecond))
}

// TestBrowserKeyboardMoveBoxWithoutJavaScript: with JavaScript off the
// move box is a plain form: a malformed move typed there answers with a
// 4xx page that says why and changes nothing; a legal move typed and sent
// with Enter is played, and the page after the redirect announces it.
func TestBrowserKeyboardMoveBoxWithoutJavaScript(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, false)
	_, id := browserGame(t, s, b)
	if !b.eval(`typeof window.htmx === "undefined"`) {
		t.Fatal("htmx runs although JavaScript is off")
	}
	if got := b.attr(`label[for="move-input"]`, "for"); got != "move-input" {
		t.Fatal("the move box has no label")
	}
	b.kbTabTo("#move-input")
	b.do("type a malformed move", chromedp.KeyEvent("a1-a1"))
	b.kbPressAndLoad("press Enter in the move box", kb.Enter)
	if got := b.text("#game-message"); got == "" {
		t.Fatal("a malformed move typed in the move box gets no message")
	}
	wantPly(t, s, id, 0, "")

	legal, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#move-list option'), o => o.value)`))
	if err != nil || len(legal) == 0 {
		t.Fatalf("the move box offers no legal move (%v)", err)
	}
	move := legal[0]
	b.kbTabTo("#move-input")
	b.do("type "+move, chromedp.KeyEvent(move))
	b.kbPressAndLoad("press Enter in the move box", kb.Enter)
	wantPly(t, s, id, 1, move)
	if loc, want := b.location(), fmt.Sprintf("/games/%d", id); loc != want {
		t.Fatalf("after the move the address is %s, want %s (the redirect after the POST)", loc, want)
	}
	if got, want := b.text("#board-status"), "Last move "+move+"."; !strings.HasPrefix(got, want) {
		t.Fatalf("the board's live region says %q, want it to start with %q", got, want)
	}
	if b.count("#move-box") != 0 {
		t.Fatal("the move box is still offered on the opponent's turn")
	}
}
