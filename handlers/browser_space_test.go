package handlers_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trench-games/trench/rules"
)

// TestBrowserSpaceActivatesSquaresAndCards: Space does what Enter does on
// a square of the board and on a card game's action word (announced as a
// grid cell and a button, which Space activates): it selects, in place,
// without scrolling the page.
func TestBrowserSpaceActivatesSquaresAndCards(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	browserGame(t, s, b)
	space := func(sel, want string) {
		t.Helper()
		b.waitUntil(5*time.Second, "htmx loads", `typeof window.htmx === "object"`)
		b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
		what := b.kbTabTo(sel)
		b.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
		top, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`document.activeElement.getBoundingClientRect().top`))
		if err != nil {
			t.Fatal(err)
		}
		b.kbPress("press Space on "+what, " ")
		if b.count(want) == 0 {
			t.Fatalf("after Space on %s nothing matches %s", what, want)
		}
		if y, _ := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`scrollY`)); y > 0 && top < 600 {
			t.Errorf("Space on %s scrolled the page by %.0f px", what, y)
		}
	}
	space(`#board a[data-click]`, `#board button[name="move"]`)

	id := cardsActionFor(t, s, "carol", "bob")
	b.open(fmt.Sprintf("/games/%d", id))
	space(`#board a.cards-action`, `#board .cards-action[aria-current], #board .cards-place.target, #board .cards-action.active`)
}

// cardsActionFor starts a card game of a and b (a plays the first side)
// and plays random moves until a may take an action; it returns the game.
func cardsActionFor(t *testing.T, s *server, a, b string) int64 {
	t.Helper()
	id := startRated(t, s, a, b, "cards", "short")
	for i := 0; i < 20; i++ {
		g, err := s.DB.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := g.Decode()
		if g.ToMove == rules.Side0 && strings.Contains(" "+strings.Join(st.Legal(g.ToMove), " "), " shift") {
			return id
		}
		playRandom(t, s, id, 1)
	}
	t.Fatalf("%s never has an action to take", a)
	return 0
}
