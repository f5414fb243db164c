package handlers_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// overflow is how far a page reaches past a narrow screen: the width of
// the page's scrolling area, and the widest elements that reach beyond the
// screen's right edge (outside a board and outside a box that scrolls on
// its own).
type overflow struct {
	Width    float64
	Culprits []string
}

// measureOverflow measures the page the tab shows. A board may be wider
// than the screen (WCAG 1.4.10 excepts it); its own scrolling box holds it.
const measureOverflow = `(() => {
	const out = {Width: document.scrollingElement.scrollWidth, Culprits: []};
	const inner = innerWidth;
	const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
		const o = getComputedStyle(p).overflowX; if (o === "auto" || o === "scroll" || o === "hidden") return true; } return false; };
	for (const el of document.body.querySelectorAll("*")) {
		const r = el.getBoundingClientRect();
		if (r.right > inner + 0.5 && !scrolls(el)) {
			const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "");
			out.Culprits.push(name + " " + Math.round(r.right) + "px");
		}
		if (out.Culprits.length >= 8) break;
	}
	return out;
})()`

// TestBrowserReflowAt320 visits a page of each kind on a 320 px wide
// screen (WCAG 1.4.10, reflow) and fails when one scrolls sideways: the
// text, forms and tables fit the width (a wide table scrolls inside its
// own box); only a board may be wider, inside its own scrolling box.
func TestBrowserReflowAt320(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	visitor := newTabWithin(t, s, true, 3*time.Minute)
	player := newTabWithin(t, s, true, 3*time.Minute)
	player.signUp("alice")
	bob := s.newClient(t)
	bob.SignUp("bob")

	trenchMid := startRated(t, s, "alice", "bob", "trench", "single")
	playRandom(t, s, trenchMid, 10)
	finished := finishByResign(t, s, "alice", "bob", "bob", "trench", "match", 14)
	trenchesMid := startRated(t, s, "alice", "bob", "trenches", "standard")
	playRandom(t, s, trenchesMid, 6)
	cardsMid := startRated(t, s, "alice", "bob", "cards", "short")
	playRandom(t, s, cardsMid, 5)
	cardsDone := finishByResign(t, s, "alice", "bob", "bob", "cards", "short", 6)
	tournament := organise(t, bob, url.Values{"name": {"Spring cup of the western front"}, "game": {"trench:match"}, "format": {"roundrobin"},
		"min": {"4"}, "max": {"4"}, "days": {"3"}, "starts": {""}})
	tournamentAct(t, bob, tournament, "join")
	bob.Get("/challenges/new?game=trench")
	bob.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "days": {"3"}})

	pages := []struct {
		name, path string
		who        *tab
	}{
		{"home (visitor)", "/", visitor},
		{"sign-up", "/signup", visitor},
		{"sign-in", "/signin", visitor},
		{"password reset", "/reset", visitor},
		{"dashboard", "/", player},
		{"challenge form", "/challenges/new", player},
		{"new tournament", "/tournaments/new", player},
		{"TRENCH game in progress", fmt.Sprintf("/games/%d", trenchMid), player},
		{"TRENCH game in progress, square view", fmt.Sprintf("/games/%d?view=square", trenchMid), player},
		{"TRENCH game finished", fmt.Sprintf("/games/%d", finished.ID), player},
		{"review", fmt.Sprintf("/games/%d?ply=3", finished.ID), player},
		{"analysis board", fmt.Sprintf("/games/%d/analysis", finished.ID), player},
		{"Trenches game in progress", fmt.Sprintf("/games/%d", trenchesMid), player},
		{"card table", fmt.Sprintf("/games/%d", cardsMid), player},
		{"card game finished", fmt.Sprintf("/games/%d", cardsDone.ID), player},
		{"archive", "/archive", player},
		{"profile", "/players/alice", player},
		{"players", "/players", player},
		{"settings", "/settings", player},
		{"vacation", "/vacation", player},
		{"rules", "/rules", player},
		{"TRENCH rules", "/rules/trench", player},
		{"Trenches rules", "/rules/trenches", player},
		{"card game rules", "/rules/cards", player},
		{"leaderboard", "/leaderboard/trench", player},
		{"tournaments", "/tournaments", player},
		{"tournament", tournament, player},
	}
	for _, who := range []*tab{visitor, player} {
		who.do("a 320 px wide screen", chromedp.EmulateViewport(320, 640))
	}
	for _, p := range pages {
		p.who.open(p.path)
		p.who.shot("reflow-" + strings.ReplaceAll(p.name, " ", "-"))
		o, err := chromedp.Run(p.who.ctx, chromedp.Evaluate[overflow](measureOverflow))
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if o.Width > 320 {
			t.Errorf("%s (%s) is %.0f px wide on a 320 px screen: %s", p.name, p.path, o.Width, strings.Join(o.Culprits, ", "))
		}
	}
}
