package handlers_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
)

// TestBrowserPlayTheComputer plays a whole game against the computer in
// the browser, with JavaScript on (the computer's moves arrive by the live
// update) and off (a reload shows them), in each game that has a computer
// player; then has the computer analyse it (where it analyses the game)
// until the graph shows.
func TestBrowserPlayTheComputer(t *testing.T) {
	needChromium(t)
	for _, game := range computerGames() {
		for _, js := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/js=%v", game, js), func(t *testing.T) { playComputerInBrowser(t, game, js) })
		}
	}
}

// resultShown is true when the status says how the game ended.
const resultShown = `/^(You won|You lost|Drawn)/.test(document.querySelector('#status').textContent.trim())`

func playComputerInBrowser(t *testing.T, game string, js bool) {
	start := time.Now()
	// The computer plays well enough to end the game soon.
	s, _ := startWithComputer(t, "", func(cfg *handlers.Config) { cfg.MoveNodes = 2_000 })
	b := newTabWithin(t, s, js, 3*time.Minute)
	b.signUp("carol")
	b.open("/challenges/new?game=" + game)
	b.do("choose the level", chromedp.SetValue(chromedp.CSS(`#play-computer select[name="level"]`), "medium"))
	if b.count("#play-computer") != 1 {
		t.Fatalf("the %s challenge page offers no game against the computer", game)
	}
	if b.count(`#play-computer select[name="color"]`) == 1 {
		b.do("choose to move first", chromedp.SetValue(chromedp.CSS(`#play-computer select[name="color"]`), "0"))
	}
	b.clickAndLoad("#play-computer-start")
	id := gameIDOf(t, s.URL+b.location())
	p := &player{t: t, s: s, b: b, id: id, url: fmt.Sprintf("/games/%d", id), js: js}
	p.start()
	if !strings.Contains(b.text("main"), "Computer · medium") {
		t.Fatal("the game page does not name the computer")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	moves := 0
	for ; moves < 300; moves++ {
		g := waitHuman(t, s, id, "carol")
		if g.Finished() {
			break
		}
		if js {
			// The computer's answer (if it moved) arrives by itself.
			p.b.waitUntil(12*time.Second, "the page shows carol's turn by itself",
				fmt.Sprintf(`document.querySelector('#game').dataset.ply === "%d" && document.querySelector('#status').textContent.trim() === "Your move"`, g.Ply))
			p.b.waitUntil(3*time.Second, "the live update settles", settled)
			if !b.eval(samePage) {
				t.Fatal("the live update reloaded the whole page, want an in-place swap")
			}
		} else {
			b.open(p.url)
			p.markPage()
			if got := b.attr("#game", "data-ply"); got != fmt.Sprint(g.Ply) {
				t.Fatalf("after a reload the page shows ply %s, want %d", got, g.Ply)
			}
		}
		if move := losingMove(t, g); move != "" {
			p.clickMove(move, g.Ply)
		} else {
			p.clickAnyMove(rng, g.Ply)
		}
	}
	g := p.game()
	if !g.Finished() {
		t.Fatalf("the game is not over after %d moves of carol's", moves)
	}
	if js {
		b.waitUntil(12*time.Second, "the page shows the result by itself", resultShown)
		if !b.eval(samePage) {
			t.Fatal("the end of the game reloaded the whole page")
		}
	} else {
		b.open(p.url)
		if !b.eval(resultShown) {
			t.Fatalf("the finished game says %q", b.text("#status"))
		}
	}
	t.Logf("%s: over after %d plies (%s), %d moves by carol, in %s", game, g.Ply, g.Reason, moves, time.Since(start).Round(100*time.Millisecond))
	// The finished game's analysis, in the same browser.
	if e, _ := g.Engine(); !rules.HidesInformation(e) {
		analyseInBrowser(t, s, b, js, id)
		t.Logf("%s: analysed, in %s", game, time.Since(start).Round(100*time.Millisecond))
	}
}

// losingMove is a move for the side to move in g that leaves the
// opponent best placed by a short search, so that the game ends soon; ""
// for a game with hidden information (its moves are clicked at random).
func losingMove(t *testing.T, g db.Game) string {
	t.Helper()
	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	e, _ := g.Engine()
	p, ok := bot.Lookup(g.Game)
	if !ok || rules.HidesInformation(e) {
		return ""
	}
	me, worst, least := st.ToMove(), "", 2.0
	for _, m := range st.Legal(me) {
		next, err := st.Apply(m)
		if err != nil {
			t.Fatal(err)
		}
		expect := 0.5
		if res := next.Result(); res.Over {
			expect = map[rules.Side]float64{me: 1, me.Other(): 0}[res.Winner]
		} else if th, err := p.Think(next, bot.Request{Level: bot.Hard, Side: next.ToMove(), Budget: bot.Budget{Nodes: 200}}); err == nil {
			expect = th.Expect
			if me == rules.Side1 {
				expect = 1 - expect
			}
		}
		if expect < least {
			worst, least = m, expect
		}
	}
	return worst
}

// clickMove plays move by clicking its clicks on the board: the last one
// submits it. ply is the game's ply before it.
func (p *player) clickMove(move string, ply int) {
	p.t.Helper()
	st, err := p.game().Decode()
	if err != nil {
		p.t.Fatal(err)
	}
	clicks := st.Clicks(move)
	if len(clicks) == 0 {
		p.t.Fatalf("move %s has no clicks", move)
	}
	for _, c := range clicks[:len(clicks)-1] {
		p.click(fmt.Sprintf(`#board a[data-click=%q]`, c))
	}
	sel := fmt.Sprintf(`#board button[name="move"][data-click=%q]`, clicks[len(clicks)-1])
	if got := p.b.attr(sel, "value"); got != move {
		p.t.Fatalf("the last click of %s submits %s", move, got)
	}
	p.click(sel)
	p.wantMoveStored(ply, move)
}

// wantMoveStored checks that carol's move is stored as ply+1.
func (p *player) wantMoveStored(ply int, move string) {
	p.t.Helper()
	moves, err := p.s.DB.Moves(context.Background(), p.id)
	if err != nil {
		p.t.Fatal(err)
	}
	if len(moves) <= ply || moves[ply].Move != move {
		p.t.Fatalf("carol's move %s at ply %d is not stored", move, ply+1)
	}
}

// clickAnyMove makes one move of carol's on the board by clicks, chosen
// at random among what the page offers at each step: a unit or action,
// then its targets, until a click submits the move (a button). ply is the
// game's ply before it.
func (p *player) clickAnyMove(rng *rand.Rand, ply int) {
	p.t.Helper()
	for step := 0; step < 8; step++ {
		// A completing click (the card game's refill is one, the first).
		if buttons := p.clicksOf(`#board button[name="move"]`); len(buttons) > 0 {
			sel := fmt.Sprintf(`#board button[name="move"][data-click=%q]`, buttons[rng.IntN(len(buttons))])
			move := p.b.attr(sel, "value")
			p.click(sel)
			p.wantMoveStored(ply, move)
			return
		}
		sel := `#board a[data-click]`
		switch {
		case step > 0 && p.b.count(`#board a[data-click].target`) > 0:
			sel = `#board a[data-click].target`
		case p.b.count(`#cards-actions a[data-click]`) > 0:
			sel = `#cards-actions a[data-click]`
		}
		links := p.clicksOf(sel)
		if len(links) == 0 {
			p.t.Fatalf("nothing to click at ply %d (step %d)", ply, step)
		}
		p.click(fmt.Sprintf(`%s[data-click=%q]`, sel, links[rng.IntN(len(links))]))
	}
	p.t.Fatalf("no move after eight clicks at ply %d", ply)
}

// analyseInBrowser asks, in b, for the analysis of finished game id,
// with JavaScript on (the panel updates itself, then the page reloads
// with the result) or off (the reload link), until the graph shows; its
// points lead to the positions.
func analyseInBrowser(t *testing.T, s *server, b *tab, js bool, id int64) {
	t.Helper()
	g := s.game(t, id)
	page := fmt.Sprintf("/games/%d", id)
	b.open(page)
	if b.count("#eval-graph") != 0 {
		t.Fatal("a graph before any analysis")
	}
	if js {
		b.waitUntil(5*time.Second, "htmx loads", `typeof window.htmx === "object"`)
		b.do("press Analyse", chromedp.Click(chromedp.CSS("#analyse")))
		b.waitUntil(20*time.Second, "the graph shows by itself", `document.querySelector('#eval-graph') !== null`)
	} else {
		b.clickAndLoad("#analyse")
		for end := time.Now().Add(20 * time.Second); b.count("#eval-graph") == 0; {
			if b.count("#analysis-progress") != 1 {
				t.Fatal("while the analysis runs the page shows no progress")
			}
			if time.Now().After(end) {
				t.Fatal("the analysis did not finish")
			}
			time.Sleep(100 * time.Millisecond)
			b.clickAndLoad("#analysis-reload")
		}
	}
	if n := b.count("#eval-graph a.eval-point"); n != g.Ply+1 {
		t.Fatalf("the graph has %d points, want %d", n, g.Ply+1)
	}
	want := fmt.Sprintf("%s?ply=3", page)
	b.do("click the graph's point 3", chromedp.Click(chromedp.CSS(`#eval-graph a[data-ply="3"] circle`)))
	b.waitUntil(10*time.Second, "the review shows ply 3",
		fmt.Sprintf(`location.pathname + location.search === %q && document.querySelector('#review-ply').textContent.trim() === "3"`, want))
	if b.count("#eval-graph circle.current") != 1 || b.attr("#eval-graph circle.current", "cx") == "" {
		t.Fatal("the graph does not mark the position shown")
	}
}
