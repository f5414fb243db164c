package handlers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trench-games/trench/rules"
)

// shot saves a screenshot of the page as name.png in $TRENCH_SHOTS, when
// that is set (to look at the pages; no test reads them).
func (b *tab) shot(name string) {
	b.t.Helper()
	dir := os.Getenv("TRENCH_SHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// box is an element's place on the page in CSS pixels.
type box struct{ Left, Top, Right, Bottom, Width, Height float64 }

// rect measures the first element matching sel.
func (b *tab) rect(sel string) box {
	b.t.Helper()
	r, err := chromedp.Run(b.ctx, chromedp.Evaluate[box](fmt.Sprintf(`(() => {
		const r = document.querySelector(%q).getBoundingClientRect();
		return {Left: r.left, Top: r.top + scrollY, Right: r.right, Bottom: r.bottom + scrollY, Width: r.width, Height: r.height};
	})()`, sel)))
	if err != nil {
		b.t.Fatalf("measure %s: %v", sel, err)
	}
	return r
}

// TestBrowserPhoneBoard: on a 390 px wide phone the board takes the width
// with its side panel below, its squares are big enough to tap (40 px or
// more across) in both views, and the coordinates are readable above the
// units.
func TestBrowserPhoneBoard(t *testing.T) {
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	b.do("phone-sized screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2)))
	_, id := browserGame(t, s, b)
	for _, view := range []string{"diamond", "square"} {
		b.open(fmt.Sprintf("/games/%d?view=%s", id, view))
		b.shot("phone-" + view)
		cell := b.rect("#board .board-row > [data-click]")
		board := b.rect("#board .board-wrap")
		side := b.rect("#side")
		if cell.Width < 40 || cell.Height < 40 {
			t.Errorf("%s view: a square is %.0f×%.0f px on a phone, want 40 or more", view, cell.Width, cell.Height)
		}
		if board.Left < 0 || board.Right > 390 {
			t.Errorf("%s view: the board spans %.0f–%.0f px, outside the 390 px screen", view, board.Left, board.Right)
		}
		if side.Top < board.Bottom-1 {
			t.Errorf("%s view: the side panel (top %.0f) is not below the board (bottom %.0f)", view, side.Top, board.Bottom)
		}
		type coord struct {
			Size float64
			Z    string
		}
		c, err := chromedp.Run(b.ctx, chromedp.Evaluate[coord](`(() => {
			const st = getComputedStyle(document.querySelector('#board .board-row > [data-click]'), '::before');
			return {Size: parseFloat(st.fontSize), Z: st.zIndex};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if c.Size < 10 || c.Z != "2" {
			t.Errorf("%s view: coordinates %.1f px, z-index %s; want 10 px or more, above the units", view, c.Size, c.Z)
		}
	}
}

// TestBrowserMatchPanel: the match panel in the side column keeps game
// names and scores on one line and has no blank space above its heading.
func TestBrowserMatchPanel(t *testing.T) {
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	b.signUp("carol")
	bob := s.newClient(t)
	bob.SignUp("bob")
	g := finishByResign(t, s, "carol", "bob", "bob", "trench", "match", 6)
	b.open(fmt.Sprintf("/games/%d", g.ID))
	b.shot("match-panel")
	type wrap struct {
		Lines   []int
		Texts   []string
		HeadGap float64
	}
	w, err := chromedp.Run(b.ctx, chromedp.Evaluate[wrap](`(() => {
		const out = {Lines: [], Texts: []};
		for (const td of document.querySelectorAll('#match tr > :nth-child(-n+3)')) {
			if (td.querySelector('.visually-hidden')) continue; // a name for screen readers only
			const r = document.createRange();
			r.selectNodeContents(td);
			const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
			out.Lines.push(tops.size);
			out.Texts.push(td.textContent.trim());
		}
		const panel = document.querySelector('#match').getBoundingClientRect();
		const h2 = document.querySelector('#match h2').getBoundingClientRect();
		out.HeadGap = h2.top - panel.top;
		return out;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range w.Lines {
		if n > 1 {
			t.Errorf("the match panel wraps %q over %d lines", w.Texts[i], n)
		}
	}
	if w.HeadGap > 20 {
		t.Errorf("%.0f px of blank space above the match panel's heading", w.HeadGap)
	}
}

// TestBrowserFinishedCardTable: a card game lost by running out of cards
// leaves the loser's hand empty; the finished table does not keep a
// card-high empty green area for it.
func TestBrowserFinishedCardTable(t *testing.T) {
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	b.signUp("carol")
	bob := s.newClient(t)
	bob.SignUp("bob")
	var lost int64
	for i := 0; i < 20 && lost == 0; i++ {
		id := startRated(t, s, "carol", "bob", "cards", "short")
		g := playRandom(t, s, id, 3000)
		if g.Finished() && g.Winner.Valid() && g.Side[g.Winner].Name == "bob" && g.Reason != rules.ReasonRepetition {
			lost = id
		}
	}
	if lost == 0 {
		t.Fatal("no random game lost by carol running out of cards")
	}
	b.open(fmt.Sprintf("/games/%d", lost))
	b.shot("cards-lost")
	if n := b.count(".cards-info-mine .cards-hand > *"); n != 0 {
		t.Fatalf("the loser's hand shows %d things, want none", n)
	}
	if h := b.rect(".cards-info-mine .cards-hand").Height; h > 12 {
		t.Errorf("the empty hand keeps %.0f px of empty table", h)
	}
}

// TestBrowserPhoneShowsRequestsAboveTheBoard: on a 390×844 phone the
// opponent's takeback request, whose answer sits in the controls far
// below the board, shows above the board on the first screen, with a link
// to the answer.
func TestBrowserPhoneShowsRequestsAboveTheBoard(t *testing.T) {
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	bob, id := browserGame(t, s, b)
	carol := s.newClient(t)
	carol.SignIn("carol", "correct horse")
	clickMove(t, carol, id, func(int) int { return 0 })
	clickMove(t, bob, id, func(int) int { return 0 })
	bob.Get(fmt.Sprintf("/games/%d", id))
	bob.Submit(bob.Last.Find("#takeback-ask-form"), nil)
	b.do("phone-sized screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2)))
	b.open(fmt.Sprintf("/games/%d", id))
	if b.count("#takeback-asked") != 1 {
		t.Fatal("the page shows no takeback request")
	}
	board := b.rect("#board")
	found, err := chromedp.Run(b.ctx, chromedp.Evaluate[box](`(() => {
		for (const a of document.querySelectorAll('main a[href="#takeback-asked"]')) {
			const el = a.parentElement, r = el.getBoundingClientRect();
			if (a.getBoundingClientRect().height > 0 && el.textContent.includes("asks to take back"))
				return {Left: r.left, Top: r.top + scrollY, Right: r.right, Bottom: r.bottom + scrollY, Width: r.width, Height: r.height};
		}
		return {Top: -1};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if found.Top < 0 || found.Bottom > board.Top || found.Bottom > 844 {
		t.Fatalf("the request with a link to its answer is at %.0f–%.0f px, want above the board (top %.0f) on the first 844 px",
			found.Top, found.Bottom, board.Top)
	}
}
