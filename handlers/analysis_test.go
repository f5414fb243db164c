package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
)

// analysisGames are the games the computer analyses: those with a
// computer player and no hidden information.
func analysisGames() []string {
	var out []string
	for _, key := range computerGames() {
		if e, _ := rules.Lookup(key); !rules.HidesInformation(e) {
			out = append(out, key)
		}
	}
	return out
}

// analysisOf reads game id's analysis from the store.
func (s *server) analysisOf(t *testing.T, id int64) db.Analysis {
	t.Helper()
	an, _, err := s.DB.Analysis(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return an
}

// queueAnalysis presses "Analyse" on the review of finished game id.
func queueAnalysis(t *testing.T, c *client, id int64) {
	t.Helper()
	c.Get(fmt.Sprintf("/games/%d", id))
	form := c.Last.Find("#analyse-form")
	if form.Length() == 0 {
		t.Fatalf("game %d's review has no Analyse button", id)
	}
	c.Submit(form, nil)
}

// TestAnalysis: "Analyse" queues a finished game (a player may have only
// a few waiting), the page shows the progress, and once done the review
// shows the evaluation graph (one point per ply linking to it), the
// mistakes in the move list and the best move where another was played.
func TestAnalysis(t *testing.T) {
	games := analysisGames()
	if len(games) == 0 {
		t.Fatal("no game can be analysed")
	}
	for _, game := range games {
		t.Run(game, func(t *testing.T) { testAnalysis(t, game) })
	}
}

func testAnalysis(t *testing.T, game string) {
	s := startComputerless(t, "", nil)
	a, b := signedUpPair(t, s)
	visitor := s.newClient(t)
	variant := mustEngine(t, game).Variants()[0].Key
	var ids []int64
	for i := 0; i < db.MaxQueuedAnalyses+1; i++ {
		ids = append(ids, finishByResign(t, s, "alice", "bob", "bob", game, variant, 10+i).ID)
	}
	id := ids[0]
	page := fmt.Sprintf("/games/%d", id)

	visitor.Get(page)
	if visitor.Last.Find("#analysis").Length() != 1 || visitor.Last.Find("#analyse").Length() != 0 {
		t.Fatal("a visitor should see the analysis panel without the Analyse button")
	}
	// An active game has no analysis.
	active := challenge(t, a, b, game, variant, "0")
	a.Get(fmt.Sprintf("/games/%d", active))
	if a.Last.Find("#analysis").Length() != 0 {
		t.Fatal("a game in progress offers an analysis")
	}
	a.Post(fmt.Sprintf("/games/%d/analysis", active), nil)
	a.wantStatus(http.StatusConflict)

	// Queued: the progress, waiting; the worker is not running yet.
	queueAnalysis(t, a, id)
	a.wantStatus(http.StatusOK)
	total := s.game(t, id).Ply + 1
	prog := a.Last.Find("#analysis-progress")
	if v, _ := prog.Attr("value"); v != "0" || attrOf(prog, "max") != strconv.Itoa(total) {
		t.Fatalf("progress %s of %s, want 0 of %d", v, attrOf(prog, "max"), total)
	}
	if a.Last.Find("#analysis-reload").Length() != 1 || a.Last.Find("#analyse").Length() != 0 {
		t.Fatal("a queued analysis should show a reload link and no Analyse button")
	}
	// With JavaScript the panel polls itself.
	a.HTMX = true
	a.get(fmt.Sprintf("/games/%d/analysis/panel", id), true)
	a.wantStatus(http.StatusOK)
	if trig, _ := a.Last.Find("#analysis").Attr("hx-trigger"); !strings.HasPrefix(trig, "every") || a.Last.Find("nav.top").Length() != 0 {
		t.Fatalf("the polled panel is not a self-updating fragment (trigger %q)", trig)
	}
	a.HTMX = false

	// A player may have only a few analyses waiting.
	for _, other := range ids[1:db.MaxQueuedAnalyses] {
		queueAnalysis(t, a, other)
		a.wantStatus(http.StatusOK)
	}
	queueAnalysis(t, a, ids[db.MaxQueuedAnalyses])
	a.wantStatus(http.StatusTooManyRequests)
	if !strings.Contains(a.Last.Text(), "waiting") {
		t.Fatal("the refusal does not say why")
	}
	if an := s.analysisOf(t, ids[db.MaxQueuedAnalyses]); an.State != "" {
		t.Fatalf("the refused analysis is %q", an.State)
	}
	// Bob may queue his own.
	queueAnalysis(t, b, ids[db.MaxQueuedAnalyses])
	b.wantStatus(http.StatusOK)

	runComputer(t, s)
	for _, other := range ids {
		waitFor(t, fmt.Sprintf("the analysis of game %d", other), func() bool { return s.analysisOf(t, other).State == "done" })
	}
	// The poll of a finished analysis reloads the page.
	a.HTMX = true
	a.get(fmt.Sprintf("/games/%d/analysis/panel", id), true)
	if a.Status != http.StatusNoContent || a.Header.Get("HX-Refresh") != "true" {
		t.Fatalf("the poll of a finished analysis: %d, HX-Refresh %q", a.Status, a.Header.Get("HX-Refresh"))
	}
	a.HTMX = false

	an := s.analysisOf(t, id)
	g := s.game(t, id)
	moves, err := s.DB.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(an.Plies) != total {
		t.Fatalf("%d evaluations stored for %d positions", len(an.Plies), total)
	}
	for k, p := range an.Plies {
		if p.Ply != k || p.Expect < 0 || p.Expect > 1 || k < g.Ply && p.Best == "" {
			t.Fatalf("evaluation %d: %+v", k, p)
		}
	}

	// The graph: one point per ply, each a link to it.
	visitor.Get(page)
	points := visitor.Last.Find("#eval-graph a.eval-point")
	if points.Length() != total {
		t.Fatalf("the graph has %d points, want %d", points.Length(), total)
	}
	points.Each(func(k int, p *goquery.Selection) {
		if href := attrOf(p, "href"); href != fmt.Sprintf("%s?ply=%d", page, k) {
			t.Fatalf("point %d links to %q", k, href)
		}
	})
	if visitor.Last.Find("#eval-graph circle.current").Length() != 1 {
		t.Fatal("the graph does not mark the position shown")
	}
	// The mistakes: the moves that lost at least the threshold for their
	// mover, by the stored evaluations.
	mistakes := 0
	for k := 1; k <= g.Ply; k++ {
		loss := an.Plies[k-1].Expect - an.Plies[k].Expect
		if moves[k-1].Side == rules.Side1 {
			loss = -loss
		}
		want := loss >= handlers.MistakeLoss-1e-9
		li := visitor.Last.Find(fmt.Sprintf(`#moves li[data-ply="%d"]`, k))
		if li.Length() != 1 {
			t.Fatalf("the move list has no ply %d", k)
		}
		if got := li.HasClass("mistake") && li.Find(".mistake-mark").Length() == 1; got != want {
			t.Errorf("ply %d (loss %.2f) marked a mistake: %v", k, loss, got)
		}
		if want {
			mistakes++
			if p := visitor.Last.Find(fmt.Sprintf(`#eval-graph a[data-ply="%d"] circle.mistake`, k)); p.Length() != 1 {
				t.Errorf("the graph does not mark ply %d a mistake", k)
			}
		}
	}
	t.Logf("%s: %d plies, %d mistakes", game, g.Ply, mistakes)
	if !strings.Contains(visitor.text("#analysis-mistakes"), "Mistakes:") {
		t.Fatal("no mistake count")
	}
	// Where the computer preferred another move: "best was …", drawn on
	// the board. Following the graph's point gets there.
	shown := false
	for k := 1; k <= g.Ply && !shown; k++ {
		if an.Plies[k-1].Best == moves[k-1].Move {
			continue
		}
		visitor.Get(page)
		visitor.Click(visitor.Last.Find(fmt.Sprintf(`#eval-graph a[data-ply="%d"]`, k)))
		visitor.wantStatus(http.StatusOK)
		if !strings.HasSuffix(visitor.URL, fmt.Sprintf("?ply=%d", k)) {
			t.Fatalf("the graph's point %d led to %s", k, visitor.URL)
		}
		if got := visitor.text("#analysis-best"); !strings.Contains(got, "Best was") {
			t.Fatalf("ply %d (played %s, best %s) says %q", k, moves[k-1].Move, an.Plies[k-1].Best, got)
		}
		if visitor.Last.Find("#board .best").Length() == 0 {
			t.Fatalf("ply %d: the best move is not drawn on the board", k)
		}
		shown = true
	}
	if !shown {
		t.Fatal("every move was the computer's best: nothing to show")
	}
	// Where the move played was the best, nothing is said.
	for k := 1; k <= g.Ply; k++ {
		if an.Plies[k-1].Best == moves[k-1].Move {
			visitor.Get(fmt.Sprintf("%s?ply=%d", page, k))
			if visitor.Last.Find("#analysis-best").Length() != 0 {
				t.Fatalf("ply %d was the best move but the page names another", k)
			}
			break
		}
	}
}

// TestNoAnalysisWithoutPlayer: a game whose kind the computer does not
// analyse (hidden cards, or no computer player) has no panel, and asking
// anyway is refused.
func TestNoAnalysisWithoutPlayer(t *testing.T) {
	s := startComputerless(t, "", nil)
	a, _ := signedUpPair(t, s)
	for _, e := range rules.Engines() {
		if _, ok := bot.Lookup(e.Key()); ok && !rules.HidesInformation(e) {
			continue
		}
		id := finishByResign(t, s, "alice", "bob", "bob", e.Key(), e.Variants()[0].Key, 4).ID
		a.Get(fmt.Sprintf("/games/%d", id))
		if a.Last.Find("#analysis").Length() != 0 {
			t.Errorf("%s: the review offers an analysis", e.Key())
		}
		a.Post(fmt.Sprintf("/games/%d/analysis", id), url.Values{})
		a.wantStatus(http.StatusBadRequest)
		if msg := a.text(".flash"); rules.HidesInformation(e) && msg != "Games with hidden cards are not analysed: the computer would have to see the cards." {
			t.Errorf("%s: the refusal reads %q", e.Key(), msg)
		}
		if an := s.analysisOf(t, id); an.State != "" {
			t.Errorf("%s: an analysis was queued", e.Key())
		}
	}
}

func mustEngine(t *testing.T, key string) rules.Engine {
	t.Helper()
	e, ok := rules.Lookup(key)
	if !ok {
		t.Fatalf("no engine %q", key)
	}
	return e
}

func attrOf(s *goquery.Selection, name string) string {
	v, _ := s.Attr(name)
	return v
}
