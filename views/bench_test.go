package views_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
	"github.com/trench-games/trench/static"
	"github.com/trench-games/trench/views"
)

// gamePage is a game page as the game handler builds it for the player to
// move, with a selected unit and a long move list.
func gamePage(b testing.TB, e rules.Engine, variant string) views.GamePage {
	st, err := e.Start(rules.GameSpec{Variant: variant}, 7)
	if err != nil {
		b.Fatal(err)
	}
	var log []views.LogLine
	for i := 0; i < 40; i++ {
		legal := st.Legal(st.ToMove())
		if len(legal) == 0 || st.Result().Over {
			b.Fatalf("%s ended after %d plies", e.Key(), i)
		}
		log = append(log, views.LogLine{Ply: i + 1, Side: st.ToMove(), Text: st.Describe(legal[0], st.ToMove())})
		if st, err = st.Apply(legal[0]); err != nil {
			b.Fatal(err)
		}
	}
	side := st.ToMove()
	legal := st.Legal(side)
	first := st.Clicks(legal[0])[0]
	next := map[string]views.Step{}
	for _, m := range legal {
		c := st.Clicks(m)
		if len(c) == 1 { // a card game's refill: its card alone
			next[c[0]] = views.Step{Move: m}
		} else if c[0] == first && len(c) == 2 {
			next[c[1]] = views.Step{Move: m}
		} else if c[0] == first {
			next[c[1]] = views.Step{Href: "/games/1?sel=" + first + "," + c[1]}
		}
	}
	return views.GamePage{
		Page: views.Page{Title: "Game", User: "alice", CSRF: strings.Repeat("x", 32)},
		ID:   1, URL: "/games/1", Heading: e.Title(), Bottom: side, Ply: 40, Log: log, LogHref: "/games/1?ply=",
		Status: "Your move", YourTurn: true, Clock: "You have 2 days 3 hours to move.", TimeControl: "3 days per move",
		PollURL: "/games/1/live?v=40.active.-1",
		Players: [2]views.Player{{Name: "alice", SideName: "A", Score: "3"}, {Name: "bob", SideName: "B", Score: "4"}},
		View:    st.View(side),
		Play: views.Play{GameURL: "/games/1", Ply: 40, CSRF: "x", Viewer: side, CanMove: true,
			Selected: []string{first}, Next: next, BackHref: "/games/1"},
		Badge: true,
	}
}

func benchmarkRender(b *testing.B, e rules.Engine, variant string, full bool) {
	p := gamePage(b, e, variant)
	comp := views.GameSwap(p)
	if full {
		comp = views.GameView(p)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := comp.Render(context.Background(), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGamePage renders a whole game page (a plain GET).
func BenchmarkGamePage(b *testing.B) {
	for _, g := range []struct {
		e       rules.Engine
		variant string
	}{{trench.Engine{}, "single"}, {trenches.Engine{}, "standard"}, {cards.Engine{}, "short"}} {
		b.Run(g.e.Key(), func(b *testing.B) { benchmarkRender(b, g.e, g.variant, true) })
	}
}

// BenchmarkBoardFragment renders the answer to an htmx request on a game:
// the #game fragment and what comes out of band with it.
func BenchmarkBoardFragment(b *testing.B) {
	for _, g := range []struct {
		e       rules.Engine
		variant string
	}{{trench.Engine{}, "single"}, {trenches.Engine{}, "standard"}, {cards.Engine{}, "short"}} {
		b.Run(g.e.Key(), func(b *testing.B) { benchmarkRender(b, g.e, g.variant, false) })
	}
}

// BenchmarkMoveAnswer renders the answer to a move as its player gets it:
// the #game fragment with the opponent to move, the side panel with the
// conditional moves, and the one new line of the move list.
func BenchmarkMoveAnswer(b *testing.B) {
	for _, g := range []struct {
		e       rules.Engine
		variant string
	}{{trench.Engine{}, "single"}, {trenches.Engine{}, "standard"}} {
		b.Run(g.e.Key(), func(b *testing.B) {
			p := gamePage(b, g.e, g.variant)
			p.Log = p.Log[len(p.Log)-1:]
			p.YourTurn, p.Status, p.Clock = false, "bob (B) to move", "3 days left to move."
			p.Play = views.Play{GameURL: p.URL, Ply: p.Ply, CSRF: p.Play.CSRF, Viewer: p.Play.Viewer.Other(),
				LastMove: []string{"a1", "b2"}, LastMoveText: "a1-b2"}
			p.Plan = &views.PlanPanel{Action: p.URL + "/plan", CSRF: p.Play.CSRF, Ply: p.Ply}
			b.ReportAllocs()
			var n int
			for b.Loop() {
				var out strings.Builder
				if err := views.GameSwap(p).Render(context.Background(), &out); err != nil {
					b.Fatal(err)
				}
				n = out.Len()
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}

// TestRenderedPagesHaveNoInlineScriptOrStyle checks what the
// Content-Security-Policy forbids: inline scripts, style attributes and
// event handler attributes, on every game's page.
func TestRenderedPagesHaveNoInlineScriptOrStyle(t *testing.T) {
	for _, g := range []struct {
		e       rules.Engine
		variant string
	}{{trench.Engine{}, "single"}, {trenches.Engine{}, "standard"}, {cards.Engine{}, "short"}} {
		var out strings.Builder
		if err := views.GameView(gamePage(t, g.e, g.variant)).Render(context.Background(), &out); err != nil {
			t.Fatal(err)
		}
		html := out.String()
		for _, bad := range []string{"<script>", " style=", " onclick=", " onload=", "javascript:"} {
			if strings.Contains(html, bad) {
				t.Errorf("%s page contains %q", g.e.Key(), bad)
			}
		}
		if !strings.Contains(html, `<script src="`+static.URL("htmx.min.js")+`"`) {
			t.Errorf("%s page does not load htmx", g.e.Key())
		}
	}
}
