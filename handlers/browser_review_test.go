package handlers_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserReviewWithArrowKeys: with JavaScript on, the arrow keys step
// through a finished game in place (no page load), and the move list
// marks the ply shown.
func TestBrowserReviewWithArrowKeys(t *testing.T) {
	s := startServer(t, "", nil)
	signedUpPair(t, s)
	g := finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 8)
	b := newTab(t, s, true)
	b.open(fmt.Sprintf("/games/%d", g.ID))
	b.waitUntil(10*time.Second, "htmx is loaded", `typeof htmx !== "undefined"`)
	if got := b.text("#review-ply"); got != strconv.Itoa(g.Ply) {
		t.Fatalf("a finished game opens at ply %s, want %d", got, g.Ply)
	}
	b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
	for want := g.Ply - 1; want >= g.Ply-3; want-- {
		b.do("press ←", chromedp.KeyEvent(kb.ArrowLeft))
		b.waitUntil(10*time.Second, fmt.Sprintf("the review shows ply %d", want),
			fmt.Sprintf(`document.querySelector('#review-ply').textContent.trim() === "%d"`, want))
		if !b.eval(fmt.Sprintf(`document.querySelector('#moves li.current').dataset.ply === "%d"`, want)) {
			t.Fatalf("the move list does not mark ply %d", want)
		}
		if !b.eval(`window.samePage === "yes"`) {
			t.Fatal("an arrow key reloaded the page, want an in-place swap")
		}
	}
	b.do("press →", chromedp.KeyEvent(kb.ArrowRight))
	b.waitUntil(10*time.Second, "the review goes forward", fmt.Sprintf(`document.querySelector('#review-ply').textContent.trim() === "%d"`, g.Ply-2))
	if loc := b.location(); loc != fmt.Sprintf("/games/%d?ply=%d", g.ID, g.Ply-2) {
		t.Fatalf("the address is %s, want it to name the ply", loc)
	}
}
