package handlers_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// focusShown is true when the element focused is in the game, drawn, and
// at least partly inside the window.
const focusShown = `(() => {
	const a = document.activeElement;
	if (a === null || a === document.body || !a.isConnected || a.closest('#game') === null) return false;
	const r = a.getBoundingClientRect();
	return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
})()`

// focusWhere describes the element focused, for a failure message.
const focusWhere = `(() => {
	const a = document.activeElement;
	if (a === null || a === document.body) return "nothing (the page itself)";
	const r = a.getBoundingClientRect();
	return a.tagName + "#" + a.id + " [" + (a.dataset.click || "") + "] at y=" + Math.round(r.top) + "–" + Math.round(r.bottom) + " of " + window.innerHeight;
})()`

// TestBrowserFocusAfterSwap: with JavaScript on, on a short screen, a
// keyboard player whose focused element goes away with the swap that
// follows their action (the move box once the move is sent, "Send move"
// once the move is stored) finds the focus on the equivalent element of
// the new content or on the board, inside the window: not lost to the
// page, and not on something they would have to scroll to find.
func TestBrowserFocusAfterSwap(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	p := browserGameOf(t, s, b, true, "trench", "single", "1")
	b.do("a short screen", chromedp.EmulateViewport(390, 520))
	if p.game().ToMove != p.side {
		playRandom(t, s, p.id, 1)
	}
	b.open(p.url)
	p.start()
	where := func() string {
		s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](focusWhere))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	// A move typed in the move box: the box goes (it is the opponent's
	// turn), the focus goes to the board.
	g := p.game()
	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	move := st.Legal(p.side)[0]
	b.do("type the move", chromedp.ScrollIntoView(chromedp.CSS("#move-input")), chromedp.Focus(chromedp.CSS("#move-input")),
		chromedp.SendKeys(chromedp.CSS("#move-input"), move))
	b.kbPress("Enter in the move box", kb.Enter)
	wantStored(t, s, p.id, g.Ply+1, move)
	b.waitUntil(5*time.Second, "the focus is restored", `document.activeElement !== document.body`)
	if !b.eval(focusShown) {
		t.Fatalf("after a move sent from the move box the focus is on %s, want the board inside the window", where())
	}
	if !b.eval(`document.activeElement.closest('#board') !== null`) {
		t.Fatalf("after a move sent from the move box the focus is on %s, want the board", where())
	}

	// The opponent replies; with Confirm moves on, "Send move" pressed
	// with the keyboard.
	playRandom(t, s, p.id, 1)
	b.open("/settings")
	b.do("tick Confirm moves", chromedp.Click(chromedp.CSS("#confirm-moves")))
	b.clickAndLoad("#moves-form button[type=submit]")
	b.open(p.url)
	p.start()
	g = p.game()
	st, _ = g.Decode()
	move = st.Legal(p.side)[0]
	b.do("type the move", chromedp.ScrollIntoView(chromedp.CSS("#move-input")), chromedp.Focus(chromedp.CSS("#move-input")),
		chromedp.SendKeys(chromedp.CSS("#move-input"), move))
	b.kbPress("Enter in the move box", kb.Enter)
	if b.count("#send-move") != 1 {
		t.Fatal("the typed move is not shown pending")
	}
	b.do("focus Send move", chromedp.Focus(chromedp.CSS("#send-move")))
	b.kbPress("Enter on Send move", kb.Enter)
	wantStored(t, s, p.id, g.Ply+1, move)
	b.waitUntil(5*time.Second, "the focus is restored", `document.activeElement !== document.body`)
	if !b.eval(focusShown) || !b.eval(`document.activeElement.closest('#board') !== null`) {
		t.Fatalf("after Send move the focus is on %s, want the board inside the window", where())
	}
	t.Logf("focus after Send move: %s", where())
}
