package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trench-games/trench/db"
)

// TestBrowserTakeback: in a TRENCH game with a time bank, carol captures
// in the browser, asks to take the capture back, bob accepts, and carol's
// page shows the position, the clock and the scores as they were before
// the capture, with JavaScript on (the page updates itself) and off.
func TestBrowserTakeback(t *testing.T) {
	needChromium(t)
	for _, js := range []bool{true, false} {
		t.Run(map[bool]string{true: "htmx", false: "no-javascript"}[js], func(t *testing.T) {
			s := startServer(t, "", nil)
			b := newTab(t, s, js)
			p := takebackGameOf(t, s, b, js)
			ctx := context.Background()

			// Quiet moves through the store until carol can capture.
			capture := ""
			for i := 0; i < 200 && capture == ""; i++ {
				g := p.game()
				st, _ := g.Decode()
				legal := st.Legal(g.ToMove)
				if g.ToMove == p.side && i >= 4 {
					if k := slices.IndexFunc(legal, func(m string) bool { return strings.Contains(m, "x") }); k >= 0 {
						capture = legal[k]
						break
					}
				}
				k := slices.IndexFunc(legal, func(m string) bool { return !strings.Contains(m, "x") })
				if _, err := s.DB.PlayMove(ctx, db.Play{GameID: p.id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: legal[k]}, s.Clock.Now()); err != nil {
					t.Fatal(err)
				}
				s.Clock.Advance(2 * time.Hour)
			}
			if capture == "" {
				t.Fatal("carol never had a capture")
			}
			before := p.game()
			b.open(p.url)
			p.start()
			seen := readGameScreen(t, b)
			if seen.Clock == "" || seen.Banks == "" || len(seen.Scores) != 2 {
				t.Fatalf("the page shows no clock, banks or scores: %+v", seen)
			}
			if b.count("#takeback-ask") != 0 {
				t.Fatal("carol is offered to take back bob's move")
			}

			// Carol captures by clicking.
			st, _ := before.Decode()
			for _, c := range st.Clicks(capture) {
				p.click(fmt.Sprintf(`#board [data-click=%q]`, c))
			}
			p.afterMove(before.Ply+1, capture)
			if got := readGameScreen(t, b); slices.Equal(got.Scores, seen.Scores) {
				t.Fatalf("the capture %s changed no score on the page: %v", capture, got.Scores)
			}

			// An hour later she asks to take it back.
			s.Clock.Advance(time.Hour)
			p.click("#takeback-ask")
			if b.count("#takeback-waiting") != 1 || b.count("#takeback-ask") != 0 {
				t.Fatal("after asking, the page does not say carol waits for the answer")
			}
			if g := p.game(); g.TakebackBy != p.side || g.Ply != before.Ply+1 {
				t.Fatalf("the request is not stored: by %d at ply %d", g.TakebackBy, g.Ply)
			}

			// Bob accepts three hours later, from his own page.
			s.Clock.Advance(3 * time.Hour)
			bob := p.bob
			bob.Get(p.url)
			if !strings.Contains(bob.text("#takeback-asked"), "take back") {
				t.Fatal("bob is not shown carol's request")
			}
			bob.Submit(bob.Last.Find("#takeback-accept-form"), nil)
			bob.wantStatus(http.StatusOK)

			p.awaitTurn(before.Ply)
			g := p.game()
			if g.State != before.State || g.Score != before.Score || g.Ply != before.Ply {
				t.Fatalf("stored after the takeback: ply %d score %v, want ply %d score %v", g.Ply, g.Score, before.Ply, before.Score)
			}
			got := readGameScreen(t, b)
			if got.Clock != seen.Clock || got.Banks != seen.Banks || !slices.Equal(got.Scores, seen.Scores) || !slices.Equal(got.Board, seen.Board) {
				t.Fatalf("after the takeback the page shows\n%+v\nbefore the capture it showed\n%+v", got, seen)
			}
			if b.count("#takeback-waiting") != 0 || b.count("#takeback-ask") != 0 {
				t.Fatal("the page still shows the request, or offers a takeback of bob's move")
			}
			if n := b.count("#moves li"); n != before.Ply {
				t.Fatalf("the move list shows %d moves, want %d", n, before.Ply)
			}
		})
	}
}

// takebackGameOf is browserGameOf for a TRENCH single game with a time
// bank in which carol moves first (takebacks allowed: an unrated game).
func takebackGameOf(t *testing.T, s *server, b *tab, js bool) *player {
	t.Helper()
	b.signUp("carol")
	bob := s.newClient(t)
	bob.SignUp("bob")
	bob.Get("/challenges/new?game=trench")
	bob.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"1"}, "opponent": {"carol"},
		"clock": {"bank"}, "bank_initial": {"10"}, "bank_add": {"36"}, "bank_max": {"20"}})
	bob.wantStatus(http.StatusOK)
	id := b.acceptChallenge()
	p := &player{t: t, s: s, b: b, id: id, url: fmt.Sprintf("/games/%d", id), js: js, bob: bob}
	g := p.game()
	if !g.Takebacks || g.Clock.Kind != "bank" {
		t.Fatalf("the game has takebacks %v, clock %q", g.Takebacks, g.Clock.Kind)
	}
	p.side = g.SideOf(mustUser(t, s, "carol"))
	return p
}

// readScreen is what a player reads on the game page: the clock, the
// banks, the scores and the units on the board.
type readScreen struct {
	Clock, Banks string
	Scores       []string
	Board        []string // "e4=/static/units.<hash>.svg#b1" per square
}

func readGameScreen(t *testing.T, b *tab) readScreen {
	t.Helper()
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[readScreen](`(() => {
		const text = sel => { const e = document.querySelector(sel); return e ? e.textContent.trim().replace(/\s+/g, ' ') : ""; };
		return {
			Clock: text('#clock'), Banks: text('#banks'),
			Scores: Array.from(document.querySelectorAll('.player .score'), e => e.textContent.trim()),
			Board: Array.from(document.querySelectorAll('#board .board-row > [data-click]'), e => {
				const u = e.querySelector('use');
				return e.dataset.click + '=' + (u ? u.getAttribute('href') : '');
			}),
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	return got
}
