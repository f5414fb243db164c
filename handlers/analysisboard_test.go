package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/rules"
)

// lineOf reads the line and the position (at) of an analysis board's
// address.
func lineOf(t *testing.T, addr string) ([]string, int) {
	t.Helper()
	u, err := url.Parse(addr)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	var line []string
	if l := q.Get("line"); l != "" {
		line = strings.Split(l, ",")
	}
	at := len(line)
	if a := q.Get("at"); a != "" {
		fmt.Sscan(a, &at)
	}
	return line, at
}

// tryMove makes one move on the analysis board c shows, clicking as a
// person does (a unit, then where it goes, then for a Trenches Soldier
// where its grenade lands), pick choosing among the squares. It returns
// the move, as the address now holds it.
func tryMove(t *testing.T, c *client, pick func(n int) int) string {
	t.Helper()
	before, at := lineOf(t, c.URL)
	for step := 0; step < 4; step++ {
		links := c.Last.Find(`#board a.target`)
		if links.Length() == 0 || step == 0 {
			links = c.Last.Find(`#board a.can-select`)
		}
		if links.Length() == 0 {
			html, _ := c.Last.Find("#analysis-board").Html()
			t.Fatalf("nothing to click on the analysis board: %.800s", html)
		}
		c.Click(links.Eq(pick(links.Length())))
		c.wantStatus(http.StatusOK)
		if u, _ := url.Parse(c.URL); u.Query().Get("sel") == "" {
			line, now := lineOf(t, c.URL)
			if now != at+1 || len(line) < now {
				t.Fatalf("after a move at %d of %q the board is at %d of %q", at, before, now, line)
			}
			return line[now-1]
		}
	}
	t.Fatal("no move after four clicks")
	return ""
}

// boardHTML is the position drawn (each square's name, classes and
// unit), for comparing two pages; the links' addresses are left out.
func boardHTML(t *testing.T, c *client) string {
	t.Helper()
	var out []string
	c.Last.Find("#board .board-row > [data-click]").Each(func(_ int, sq *goquery.Selection) {
		name, _ := sq.Attr("data-click")
		class, _ := sq.Attr("class")
		unit, _ := sq.Find("use").Attr("href")
		out = append(out, name+" "+class+" "+unit)
	})
	if len(out) == 0 {
		t.Fatal("no board")
	}
	return strings.Join(out, "\n")
}

// TestAnalysisBoardLine: on the analysis board of a running game (TRENCH
// and Trenches, with JavaScript on and off) a line of three moves is
// tried by clicking, stepped back and forward, branched into a second
// variation, and shared: its address shows a visitor the same position.
// The game itself does not move.
func TestAnalysisBoardLine(t *testing.T) {
	for _, game := range [][2]string{{"trench", "single"}, {"trenches", "standard"}} {
		for _, htmx := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/htmx=%v", game[0], htmx), func(t *testing.T) {
				s := startServer(t, "", nil)
				a, b := signedUpPair(t, s)
				id := challenge(t, a, b, game[0], game[1], "0")
				board := fmt.Sprintf("/games/%d/analysis", id)
				a.Get(fmt.Sprintf("/games/%d", id))
				if href, _ := a.Last.Find("#analysis-board-link").Attr("href"); href != board {
					t.Fatalf("the game page's analysis board link is %q, want %q", href, board)
				}
				a.HTMX = htmx
				a.Get(board)
				a.wantStatus(http.StatusOK)
				if a.Last.Find("#line-empty").Length() != 1 || a.Last.Find("#board-eval").Length() != 0 {
					t.Fatal("a fresh board should say how to try moves and show no evaluation of a running game")
				}
				var moves []string
				for i := 0; i < 3; i++ {
					moves = append(moves, tryMove(t, a, func(n int) int { return (i * 7) % n }))
					if got := a.Last.Find("#line-tree li").Length(); got != i+1 {
						t.Fatalf("after %d moves the line lists %d", i+1, got)
					}
					if htmx && a.Last.Find("nav.top").Length() != 0 {
						t.Fatal("with JavaScript the board's links should bring the fragment only")
					}
				}
				if a.Last.Find("#line-legal").Length() != 1 || !strings.Contains(a.text("#line-score"), "Score") {
					t.Fatal("the board does not say the legal moves and the score the line reaches")
				}
				if game[0] == "trench" && !strings.Contains(a.text("#line-quiet"), "without a capture") {
					t.Fatalf("the TRENCH board's quiet-ply count reads %q", a.text("#line-quiet"))
				}
				after3 := boardHTML(t, a)

				// Back one step, then forward again.
				a.Click(a.Last.Find("#line-back"))
				if line, at := lineOf(t, a.URL); at != 2 || len(line) != 3 {
					t.Fatalf("back: at %d of %q", at, line)
				}
				if !strings.Contains(a.text("#line-position"), "2 moves") || boardHTML(t, a) == after3 {
					t.Fatalf("back: the page shows %q", a.text("#line-position"))
				}
				a.Click(a.Last.Find("#line-forward"))
				if boardHTML(t, a) != after3 {
					t.Fatal("forward does not show the position after three moves again")
				}

				// A variation: back, another move; the first line stays in
				// the tree, one step up or down away.
				a.Click(a.Last.Find("#line-back"))
				other := tryMove(t, a, func(n int) int { return n - 1 })
				if other == moves[2] {
					t.Skip("the other move picked is the same; nothing to branch")
				}
				if got := a.Last.Find("#line-tree ol").Length(); got != 2 {
					t.Fatalf("the tree holds %d lines, want 2", got)
				}
				sib := a.Last.Find("#line-up")
				if sib.Length() == 0 {
					sib = a.Last.Find("#line-down")
				}
				if sib.Length() == 0 {
					t.Fatal("no step to the other variation")
				}
				a.Click(sib)
				if boardHTML(t, a) != after3 {
					t.Fatal("the other variation does not show the first line's position")
				}

				// Shared: the address shows the same to a visitor.
				share, _ := a.Last.Find("#line-share").Attr("href")
				v := s.newClient(t)
				v.Get(share)
				v.wantStatus(http.StatusOK)
				if boardHTML(t, v) != after3 || v.Last.Find("#line-tree ol").Length() != 2 {
					t.Fatalf("the shared address %s shows another position", share)
				}
				if g := s.game(t, id); g.Ply != 0 {
					t.Fatalf("trying moves played in the game: ply %d", g.Ply)
				}
			})
		}
	}
}

// TestAnalysisBoardBadLine: a malformed or illegal line is refused with a
// 400 that says which move, and the game is untouched.
func TestAnalysisBoardBadLine(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	g := s.game(t, id)
	st, _ := g.Decode()
	m1 := st.Legal(g.ToMove)[0]
	board := fmt.Sprintf("/games/%d/analysis", id)
	for _, c := range []struct{ query, want string }{
		{"?line=zz9", "Move 1 of the line"},
		{"?line=" + url.QueryEscape(m1+","+m1), "Move 2 of the line"},
		{"?line=" + url.QueryEscape(m1+",,"), "Move 2 of the line"},
		{"?line=" + url.QueryEscape(m1) + "&at=5", "not one of them"},
		{"?ply=7", "no ply"},
		{"?alt=" + url.QueryEscape(m1+",zz"), "variation 1"},
		{"?line=" + strings.Repeat("x,", 100) + "x", "too long"},
	} {
		a.Get(board + c.query)
		if a.Status != http.StatusBadRequest || !strings.Contains(a.Last.Text(), c.want) {
			t.Errorf("%s: status %d, page says %q; want 400 saying %q", c.query, a.Status, a.text(".flash, main"), c.want)
		}
	}
	if now := s.game(t, id); now.Ply != g.Ply || now.Status != g.Status {
		t.Fatalf("the game changed: ply %d, %s", now.Ply, now.Status)
	}
}

// TestAnalysisBoardEvaluation: a running game's board shows the rules
// only; once the game has ended it shows the computer's evaluation and
// best move, also from the review at ?ply=K, where the game page links to
// it.
func TestAnalysisBoardEvaluation(t *testing.T) {
	for _, game := range [][2]string{{"trench", "single"}, {"trenches", "standard"}} {
		t.Run(game[0], func(t *testing.T) {
			s := startServer(t, "", nil)
			a, b := signedUpPair(t, s)
			id := challenge(t, a, b, game[0], game[1], "0")
			playRandom(t, s, id, 4)
			board := fmt.Sprintf("/games/%d/analysis", id)
			a.Get(board)
			a.wantStatus(http.StatusOK)
			if a.Last.Find("#board-eval").Length() != 0 || a.Last.Find("#board .best").Length() != 0 {
				t.Fatal("a running game's analysis board shows the computer's evaluation")
			}
			g := s.game(t, id)
			mover := a
			if g.Side[g.ToMove].Name != a.Name {
				mover = b
			}
			mover.Post(fmt.Sprintf("/games/%d/resign", id), url.Values{"ply": {fmt.Sprint(g.Ply)}, "confirm": {"yes"}})
			if !s.game(t, id).Finished() {
				t.Fatal("the game did not end")
			}
			a.Get(fmt.Sprintf("/games/%d?ply=2", id))
			link := a.Last.Find("#analysis-board-link")
			if href, _ := link.Attr("href"); href != board+"?ply=2" {
				t.Fatalf("the review's analysis board link is %q", href)
			}
			a.Click(link)
			a.wantStatus(http.StatusOK)
			if !strings.Contains(a.text("#board-eval-text"), "expected to score") || !strings.Contains(a.text("#board-best"), "Best move") {
				t.Fatalf("the ended game's board shows no evaluation: %q %q", a.text("#board-eval-text"), a.text("#board-best"))
			}
			if a.Last.Find("#board .best").Length() == 0 {
				t.Fatal("the best move is not marked on the board")
			}
			if !strings.Contains(a.text("#line-position"), "ply 2") {
				t.Fatalf("the board does not start at ply 2: %q", a.text("#line-position"))
			}
		})
	}
}

// TestAnalysisBoardCards: the card game has no analysis board, and its
// page says why; the game page offers none.
func TestAnalysisBoardCards(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "cards", "short", "0")
	a.Get(fmt.Sprintf("/games/%d", id))
	if a.Last.Find("#analysis-board-link").Length() != 0 {
		t.Fatal("the card game's page links to an analysis board")
	}
	a.Get(fmt.Sprintf("/games/%d/analysis", id))
	a.wantStatus(http.StatusOK)
	if !strings.Contains(a.text("#analysis-unavailable"), "hidden") || a.Last.Find("#board").Length() != 0 {
		t.Fatalf("the card game's analysis page says %q", a.text("#analysis-unavailable"))
	}
}

// TestAnalysisBoardPlan: the waiting player plans a reply from the
// analysis board with one button; the line joins the plan (the same
// checks as the typed plan), and the reply is played when the opponent
// plays the planned move. The opponent's board shows no plan.
func TestAnalysisBoardPlan(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	g := s.game(t, id)
	if g.Side[0].Name != a.Name {
		t.Fatal("alice does not move first")
	}
	st, _ := g.Decode()
	legal := st.Legal(rules.Side0)
	x1, z1 := legal[0], legal[len(legal)-1]
	s1, _ := st.Apply(x1)
	y1 := s1.Legal(rules.Side1)[0]
	t1, _ := st.Apply(z1)
	w1 := t1.Legal(rules.Side1)[1]
	board := fmt.Sprintf("/games/%d/analysis", id)
	page := fmt.Sprintf("/games/%d", id)

	b.Get(board + "?line=" + url.QueryEscape(x1))
	if b.Last.Find("#plan-from-board").Length() != 0 || b.Last.Find("#plan-hint").Length() != 1 {
		t.Fatal("a line without bob's reply should not be offered for the plan")
	}
	for _, line := range [][]string{{x1, y1}, {z1, w1}} {
		b.Get(board + "?line=" + url.QueryEscape(strings.Join(line, ",")))
		form := b.Last.Find("#plan-from-board")
		if form.Length() != 1 {
			t.Fatal("the waiting player's board offers no plan button")
		}
		b.Submit(form, nil)
		b.wantStatus(http.StatusOK)
	}
	b.Get(page)
	if got := b.Last.Find("#plan-text").Text(); got != x1+" "+y1+"\n"+z1+" "+w1 {
		t.Fatalf("bob's plan reads %q", got)
	}
	// bob's board shows his plan as its lines.
	b.Get(board)
	b.Click(b.Last.Find("#plan-show"))
	b.wantStatus(http.StatusOK)
	if got := b.Last.Find("#line-tree ol").Length(); got != 2 || !strings.Contains(b.text("#plan-lines"), "2 planned") {
		t.Fatalf("bob's plan on the board: %d lines, %q", got, b.text("#plan-lines"))
	}
	// Another reply to x1 is refused as the typed plan would be; nothing
	// changes.
	y2 := s1.Legal(rules.Side1)[1]
	b.Post(page+"/plan", url.Values{"ply": {"0"}, "add": {x1 + " " + y2}})
	if b.Status != http.StatusBadRequest || !strings.Contains(b.Last.Text(), "two different replies") {
		t.Fatalf("a second reply to the same move: status %d", b.Status)
	}

	// alice's board carries no trace of the plan.
	a.Get(board)
	html, _ := a.Last.Html()
	for _, tr := range []string{"plan-from-board", "plan-hint", "plan-lines", "plan-show", "conditional", y1, w1} {
		if strings.Contains(html, tr) {
			t.Errorf("alice's analysis board holds %q", tr)
		}
	}

	a.Post(page+"/move", url.Values{"ply": {"0"}, "move": {x1}})
	a.wantStatus(http.StatusOK)
	if g := s.game(t, id); g.Ply != 2 || g.LastMove != y1 {
		t.Fatalf("after x1: ply %d, last move %q; want bob's planned %q", g.Ply, g.LastMove, y1)
	}
	if _, ok, err := s.DB.PlanOf(context.Background(), id, g.Side[1].ID); err != nil || ok {
		t.Fatalf("the plan is not used up (%v, %v)", ok, err)
	}
}

// TestScoresInThePlayersLanguage: the analysis board's score and the
// archive's scores use the player's language for what a score counts
// (German "Pkt.", "beweglich"), not the engines' English abbreviations.
func TestScoresInThePlayersLanguage(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	a.AcceptLanguage, b.AcceptLanguage = "de", "de"
	for game, want := range map[[2]string]string{{"trench", "single"}: "Pkt.", {"trenches", "standard"}: "beweglich"} {
		id := challenge(t, a, b, game[0], game[1], "0")
		a.Get(fmt.Sprintf("/games/%d/analysis", id))
		a.wantStatus(http.StatusOK)
		tryMove(t, a, func(n int) int { return 0 })
		got := a.text("#line-score")
		if !strings.Contains(got, want) || strings.Contains(got, "pts") || strings.Contains(got, "mobile") {
			t.Errorf("%s: the analysis board's score in German reads %q, want %q", game[0], got, want)
		}
	}
	finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 4)
	a.Get("/archive")
	a.wantStatus(http.StatusOK)
	if got := a.text("#archive tbody tr"); !strings.Contains(got, "Pkt.") || strings.Contains(got, "pts") {
		t.Errorf("the archive's TRENCH score in German reads %q", got)
	}
}
