package handlers_test

import (
	"context"
	"fmt"
	"github.com/PuerkitoBio/goquery"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	// The computer players the server offers in these tests.
	_ "github.com/trench-games/trench/rules/cards/bot"
	_ "github.com/trench-games/trench/rules/trench/bot"
	_ "github.com/trench-games/trench/rules/trenches/bot"
)

// Small search budgets keep the computer's moves and analyses quick.
const (
	testMoveNodes     = 300
	testAnalysisNodes = 300
)

// computerGames are the engine keys of the games with a computer player.
func computerGames() []string {
	var out []string
	for _, e := range rules.Engines() {
		if _, ok := bot.Lookup(e.Key()); ok {
			out = append(out, e.Key())
		}
	}
	return out
}

// startWithComputer starts the app (on path, or a fresh file) with small
// search budgets, configure's changes, and the computer's worker running;
// it returns the server and a function that stops the worker (also
// called at the end of the test).
func startWithComputer(t *testing.T, path string, configure func(cfg *handlers.Config)) (*server, func()) {
	t.Helper()
	s := startComputerless(t, path, configure)
	return s, runComputer(t, s)
}

// startComputerless is startWithComputer without starting the worker.
func startComputerless(t *testing.T, path string, configure func(cfg *handlers.Config)) *server {
	t.Helper()
	return startServerWith(t, path, nil, func(cfg *handlers.Config, _ string) {
		cfg.MoveNodes, cfg.AnalysisNodes = testMoveNodes, testAnalysisNodes
		if configure != nil {
			configure(cfg)
		}
	})
}

// runComputer starts the computer's worker of s; the function returned
// stops it and waits until its searches have ended.
func runComputer(t *testing.T, s *server) func() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.App.ComputerLoop(ctx, 50*time.Millisecond)
	}()
	stop := sync.OnceFunc(func() { cancel(); <-done })
	t.Cleanup(stop)
	return stop
}

// waitFor polls cond until it holds, failing the test after 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// game reads game id from the store.
func (s *server) game(t *testing.T, id int64) db.Game {
	t.Helper()
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// waitHuman waits until game id is over or waits for human: their turn,
// with no armistice offer of theirs left unanswered.
func waitHuman(t *testing.T, s *server, id int64, human string) db.Game {
	t.Helper()
	var g db.Game
	waitFor(t, fmt.Sprintf("the computer's answer in game %d", id), func() bool {
		g = s.game(t, id)
		if g.Finished() {
			return true
		}
		me := rules.Side0
		if g.Side[1].Name == human {
			me = rules.Side1
		}
		return g.ToMove == me && g.ArmisticeBy != me
	})
	return g
}

// playComputer starts a game against the computer at level from the
// challenge page of game, with variant ("" for the first offered), the
// player taking color ("0", "1" or "random"; ignored where the rules fix
// the side), and returns its id.
func playComputer(t *testing.T, c *client, game, variant, level, color string) int64 {
	t.Helper()
	c.Get("/challenges/new?game=" + game)
	c.wantStatus(http.StatusOK)
	form := c.Last.Find("#play-computer")
	if form.Length() == 0 {
		t.Fatalf("the %s challenge page offers no game against the computer", game)
	}
	if variant == "" {
		variant, _ = form.Find(`select[name="variant"] option`).First().Attr("value")
	}
	extra := url.Values{"level": {level}, "variant": {variant}}
	if form.Find(`select[name="color"]`).Length() > 0 {
		extra.Set("color", color)
	}
	c.Submit(form, extra)
	c.wantStatus(http.StatusOK)
	return gameIDOf(t, c.URL)
}

// TestPlayTheComputer plays a whole game against the computer in each game
// that has a computer player: the game starts at once, the computer
// answers every move through the same guarded move path (a stale form is
// still refused), and the finished game is in the archive, on the
// computer's profile and has its record.
func TestPlayTheComputer(t *testing.T) {
	games := computerGames()
	if len(games) == 0 {
		t.Fatal("no computer player is registered")
	}
	for _, game := range games {
		t.Run(game, func(t *testing.T) {
			s, _ := startWithComputer(t, "", nil)
			a := s.newClient(t)
			a.SignUp("alice")
			id := playComputer(t, a, game, "", "easy", "0")
			g := s.game(t, id)
			if g.Finished() || g.Side[0].Name != "alice" && g.Side[1].Name != "alice" {
				t.Fatalf("game %d: %s v %s, finished %v", id, g.Side[0].Name, g.Side[1].Name, g.Finished())
			}
			computer := g.Side[1].Name
			if computer == "alice" {
				computer = g.Side[0].Name
			}
			if computer != "Computer · easy" {
				t.Fatalf("alice plays %q, want Computer · easy", computer)
			}
			if !strings.Contains(a.Last.Find("#game").Text()+a.Last.Find("main").Text(), computer) {
				t.Fatal("the game page does not name the computer")
			}
			rng := rand.New(rand.NewPCG(3, 3))
			pick := func(n int) int { return rng.IntN(n) }
			path := fmt.Sprintf("/games/%d/move", id)
			staleChecked, computerPlies := false, 0
			for i := 0; i < 1000; i++ {
				g = waitHuman(t, s, id, "alice")
				if g.Finished() {
					break
				}
				before := g.Ply
				move := clickMove(t, a, id, pick)
				a.wantStatus(http.StatusOK)
				after := waitHuman(t, s, id, "alice")
				if after.Ply <= before {
					t.Fatalf("alice's move %s at ply %d was not played", move, before)
				}
				computerPlies += after.Ply - before - 1
				if !staleChecked && !after.Finished() && after.Ply > before+1 {
					// The form alice moved with is stale now: refused, nothing changes.
					a.Get(fmt.Sprintf("/games/%d", id))
					a.Post(path, url.Values{"ply": {fmt.Sprint(before)}, "move": {move}})
					a.wantStatus(http.StatusConflict)
					if s.game(t, id).Ply != after.Ply {
						t.Fatal("a stale move changed the game")
					}
					staleChecked = true
				}
			}
			if !g.Finished() {
				t.Fatalf("game %d not over after ply %d", id, g.Ply)
			}
			if computerPlies == 0 || !staleChecked {
				t.Fatalf("the computer made %d plies (stale form checked: %v)", computerPlies, staleChecked)
			}
			t.Logf("%s: over after %d plies (%d by the computer): %s", game, g.Ply, computerPlies, g.Reason)
			assertResultShown(t, s, id, a)
			assertReplay(t, s, id)
			if ids := archiveIDs(t, a, ""); len(ids) == 0 || ids[0] != id {
				t.Fatalf("the archive lists %v, want game %d first", ids, id)
			}
			// The archive's link to the computer's profile (a name with a
			// space and a middle dot) is escaped and leads to it.
			link := a.Last.Find("#archive tbody tr a").FilterFunction(func(_ int, l *goquery.Selection) bool {
				return l.Text() == computer
			}).First()
			if href, _ := link.Attr("href"); href != "/players/"+url.PathEscape(computer) {
				t.Fatalf("the archive links the computer's profile as %q", href)
			}
			a.Click(link)
			a.wantStatus(http.StatusOK)
			if a.Last.Find(fmt.Sprintf(`a[href="/games/%d"]`, id)).Length() == 0 {
				t.Fatal("the computer's profile does not list the game")
			}
			a.Get(fmt.Sprintf("/games/%d/record", id))
			a.wantStatus(http.StatusOK)
		})
	}
}

// TestComputerCannotSignIn: the computer accounts have no password and a
// name sign-up refuses.
func TestComputerCannotSignIn(t *testing.T) {
	s := startComputerless(t, "", nil)
	c := s.newClient(t)
	for _, pw := range []string{"", "!", "correct horse"} {
		c.Get("/signin")
		c.Post("/signin", url.Values{"name": {"Computer · hard"}, "password": {pw}})
		if c.Status == http.StatusOK || strings.Contains(c.text("nav.top"), "Computer") {
			t.Fatalf("signing in as the computer with %q: status %d, nav %q", pw, c.Status, c.text("nav.top"))
		}
	}
	c.Get("/signup")
	c.Post("/signup", url.Values{"name": {"Computer · hard"}, "password": {"correct horse"}})
	if c.Status == http.StatusOK || strings.Contains(c.text("nav.top"), "Computer") {
		t.Fatalf("signed up as the computer: status %d", c.Status)
	}
	// Its profile is there like anyone's.
	c.Get("/players/" + url.PathEscape("Computer · hard"))
	c.wantStatus(http.StatusOK)
}

// TestComputerGameRatingResignRematch: a game against the computer
// changes no rating unless the server is told to rate them; resigning
// ends it; a rematch offer is accepted by the computer at once.
func TestComputerGameRatingResignRematch(t *testing.T) {
	game := "trenches"
	if _, ok := bot.Lookup(game); !ok {
		t.Fatal("no computer player for Trenches")
	}
	for _, rated := range []bool{false, true} {
		t.Run(fmt.Sprintf("rated=%v", rated), func(t *testing.T) {
			s, _ := startWithComputer(t, "", func(cfg *handlers.Config) { cfg.RateBotGames = rated })
			a := s.newClient(t)
			a.SignUp("alice")
			a.Get("/challenges/new?game=" + game)
			hint := a.text("#play-computer .hint")
			if rated != !strings.Contains(hint, "not rated") {
				t.Fatalf("the form says %q (rated %v)", hint, rated)
			}
			id := playComputer(t, a, game, "", "medium", "1") // the computer moves first
			g := waitHuman(t, s, id, "alice")
			if g.Ply != 1 || g.Side[0].Name != "Computer · medium" {
				t.Fatalf("the computer (%s) has not made the first move: ply %d", g.Side[0].Name, g.Ply)
			}
			clickMove(t, a, id, func(int) int { return 0 })
			waitHuman(t, s, id, "alice")
			resign(t, a, id)
			if g = s.game(t, id); !g.Finished() || g.Winner != rules.Side0 {
				t.Fatalf("after resigning: finished %v, winner %v", g.Finished(), g.Winner)
			}
			assertResultShown(t, s, id, a)
			hr, cr := profileRating(t, a, "alice", game), profileRating(t, a, "Computer · medium", game)
			if rated && (hr == 0 || cr == 0) || !rated && (hr != 0 || cr != 0) {
				t.Fatalf("rated %v: alice's rating %d, the computer's %d", rated, hr, cr)
			}
			a.Get(fmt.Sprintf("/games/%d", id))
			if got := a.text("#rated"); rated != (got == "Rated game") {
				t.Fatalf("the game says %q (rated %v)", got, rated)
			}
			submitForm(t, a, "/rematch/offer")
			a.wantStatus(http.StatusOK)
			var href string
			waitFor(t, "the computer to accept the rematch", func() bool {
				a.Get(fmt.Sprintf("/games/%d", id))
				href, _ = a.Last.Find("#rematch-game").Attr("href")
				return href != ""
			})
			a.Get(href)
			next := gameIDOf(t, a.URL)
			ng := s.game(t, next)
			if ng.Side[1].Name != "Computer · medium" || ng.Side[0].Name != "alice" || ng.Finished() {
				t.Fatalf("rematch: %s v %s, finished %v", ng.Side[0].Name, ng.Side[1].Name, ng.Finished())
			}
			a.Get(fmt.Sprintf("/games/%d", next))
			if got := a.text("#rated"); rated != (got == "Rated game") {
				t.Fatalf("the rematch says %q (rated %v)", got, rated)
			}
		})
	}
}

// TestPlayTheComputerRefusals: a level or game the computer does not
// play gets a 400 with the form again, and no game starts.
func TestPlayTheComputerRefusals(t *testing.T) {
	s := startComputerless(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	a.Get("/challenges/new?game=trenches")
	a.Post("/computer", url.Values{"game": {"trenches"}, "variant": {"standard"}, "level": {"grandmaster"}, "color": {"0"}})
	a.wantStatus(http.StatusBadRequest)
	if !strings.Contains(a.text("#play-computer .flash"), "level") {
		t.Fatalf("the refusal says %q", a.text("#play-computer .flash"))
	}
	a.Post("/computer", url.Values{"game": {"chess"}, "variant": {"standard"}, "level": {"easy"}, "color": {"0"}})
	a.wantStatus(http.StatusBadRequest)
	for _, e := range rules.Engines() {
		a.Get("/challenges/new?game=" + e.Key())
		_, has := bot.Lookup(e.Key())
		if offered := a.Last.Find("#play-computer").Length() == 1; offered != has {
			t.Errorf("%s: the computer is offered %v, has a player %v", e.Key(), offered, has)
		}
		if !has {
			a.Post("/computer", url.Values{"game": {e.Key()}, "variant": {e.Variants()[0].Key}, "level": {"easy"}, "color": {"0"}})
			a.wantStatus(http.StatusBadRequest)
			if a.Last.Find("#play-computer-elsewhere a").Length() == 0 {
				t.Errorf("%s: the page does not say which games the computer plays", e.Key())
			}
		}
	}
	if n, _ := s.DB.ActiveGames(context.Background(), mustUser(t, s, "alice")); len(n) != 0 {
		t.Fatalf("a refused start made %d games", len(n))
	}
}

// TestRestartMidComputerGameAndAnalysis stops the server while the
// computer is thinking and an analysis is half done, starts it again on
// the same database, and finds both finished with nothing lost.
func TestRestartMidComputerGameAndAnalysis(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trench.db")
	// The computer's move takes the hard level's own budget (seconds):
	// the server stops in the middle of it.
	s1, stop1 := startWithComputer(t, path, func(cfg *handlers.Config) {
		cfg.BotWorkers, cfg.MoveNodes, cfg.AnalysisNodes = 2, 0, 20_000
	})
	a, _ := signedUpPair(t, s1)
	fin := finishByResign(t, s1, "alice", "bob", "bob", "trenches", "standard", 6)
	queueAnalysis(t, a, fin.ID)
	a.wantStatus(http.StatusOK)
	id := playComputer(t, a, "trenches", "", "hard", "0")
	clickMove(t, a, id, func(int) int { return 0 })
	waitFor(t, "the analysis to start", func() bool { return s1.analysisOf(t, fin.ID).Done >= 1 })
	stop1()
	if g := s1.game(t, id); g.Ply != 1 {
		t.Fatalf("the computer answered before the stop (ply %d): make its search longer", g.Ply)
	}
	before := s1.analysisOf(t, fin.ID)
	if before.Done >= before.Total {
		t.Fatalf("the analysis finished before the stop (%d of %d): make it longer", before.Done, before.Total)
	}
	// The pages say so.
	a.Get(fmt.Sprintf("/games/%d", fin.ID))
	if v := attrOf(a.Last.Find("#analysis-progress"), "value"); v != strconv.Itoa(before.Done) {
		t.Fatalf("the progress shows %q, %d positions are done", v, before.Done)
	}
	if got := a.text("#analysis-status"); got != fmt.Sprintf("%d of %d positions evaluated.", before.Done, before.Total) {
		t.Fatalf("the analysis status says %q", got)
	}
	a.Get(fmt.Sprintf("/games/%d", id))
	if got := a.text("#status"); got != "The computer is thinking…" {
		t.Fatalf("while the computer is to move the page says %q", got)
	}
	s1.Stop()

	s2, _ := startWithComputer(t, path, nil)
	a.moveTo(s2)
	g := waitHuman(t, s2, id, "alice")
	if g.Ply != 2 {
		t.Fatalf("after the restart the game is at ply %d, want the computer's answer at 2", g.Ply)
	}
	assertReplay(t, s2, id)
	waitFor(t, "the analysis to finish", func() bool { return s2.analysisOf(t, fin.ID).State == "done" })
	after := s2.analysisOf(t, fin.ID)
	if len(after.Plies) != after.Total || after.Total != fin.Ply+1 {
		t.Fatalf("%d evaluations of %d positions for %d plies", len(after.Plies), after.Total, fin.Ply)
	}
	for k, p := range before.Plies {
		if q := after.Plies[k]; q.Expect != p.Expect || q.Best != p.Best {
			t.Fatalf("position %d changed across the restart: %+v, then %+v", k, p, q)
		}
	}
	a.Get(fmt.Sprintf("/games/%d", fin.ID))
	if a.Last.Find("#eval-graph a.eval-point").Length() != after.Total {
		t.Fatal("the finished analysis shows no complete graph")
	}
	a.Get(fmt.Sprintf("/games/%d", id))
	if got := a.text("#status"); !strings.HasPrefix(got, "Your move") {
		t.Fatalf("after the computer's move the page says %q", got)
	}
}

// TestComputerThinkingLiveUpdate: while the computer is to move the page
// says so and polls (a reload link without JavaScript); the computer's
// move then reaches the open page as a human opponent's does.
func TestComputerThinkingLiveUpdate(t *testing.T) {
	s := startComputerless(t, "", nil) // the worker starts later
	a := s.newClient(t)
	a.SignUp("alice")
	a.HTMX = true
	id := playComputer(t, a, "trenches", "", "easy", "0")
	clickMove(t, a, id, func(int) int { return 0 })
	a.wantStatus(http.StatusOK)
	if got := a.text("#status"); got != "The computer is thinking…" {
		t.Fatalf("after alice's move the page says %q", got)
	}
	poll := a.Last.Find("#poll")
	if attrOf(poll, "hx-trigger") != "every 1s" {
		t.Fatalf("the page polls %q while the computer thinks", attrOf(poll, "hx-trigger"))
	}
	if a.Last.Find(`#board a[data-click], #board button[name="move"]`).Length() != 0 {
		t.Fatal("alice can click a move while the computer is to move")
	}
	a.get(attrOf(poll, "hx-get"), true)
	a.wantStatus(http.StatusNoContent)

	plain := s.newClient(t) // a spectator without JavaScript
	plain.Get(fmt.Sprintf("/games/%d", id))
	if !strings.Contains(plain.Last.Find("noscript").Text(), "to see the computer's move") {
		t.Fatal("without JavaScript the page does not say to reload")
	}

	runComputer(t, s)
	waitHuman(t, s, id, "alice")
	a.get(attrOf(poll, "hx-get"), true)
	a.wantStatus(http.StatusOK)
	if got := a.text("#status"); !strings.HasPrefix(got, "Your move") {
		t.Fatalf("after the computer's move the live update says %q", got)
	}
	if a.Last.Find(`#board a[data-click]`).Length() == 0 {
		t.Fatal("the updated board offers nothing to move")
	}
	if attrOf(a.Last.Find("#poll"), "hx-trigger") != "every 4s" {
		t.Fatal("the page still polls fast on alice's turn")
	}
}

// TestComputerWorkersBound: with several games waiting for the computer
// at once, at most --bot-workers searches run together, and the pages
// answer while they run.
func TestComputerWorkersBound(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			s := startComputerless(t, "", func(cfg *handlers.Config) { cfg.BotWorkers, cfg.MoveNodes = workers, 20_000 })
			var ids []int64
			for i := range 4 {
				c := s.newClient(t)
				c.SignUp(fmt.Sprintf("player%d", i))
				ids = append(ids, playComputer(t, c, "trenches", "", "hard", "1")) // the computer moves first
			}
			viewer := s.newClient(t)
			runComputer(t, s)
			last := ids[len(ids)-1]
			start := time.Now()
			viewer.Get(fmt.Sprintf("/games/%d", last))
			took := time.Since(start)
			viewer.wantStatus(http.StatusOK)
			if s.game(t, last).Ply != 0 {
				t.Fatalf("the computer moved in the last game before its page answered (%v)", took)
			}
			if got := viewer.text("#status"); got != "The computer is thinking…" {
				t.Fatalf("the page says %q", got)
			}
			for _, id := range ids {
				waitFor(t, "the computer's first move", func() bool { return s.game(t, id).Ply == 1 })
			}
			if peak := s.App.PeakSearches(); peak != workers {
				t.Fatalf("%d searches ran at once with %d workers", peak, workers)
			}
			t.Logf("page answered in %v while the computer thought", took)
		})
	}
}

// armisticeGame is a game with an armistice and a computer player, and
// the key of its match variant; "" when there is none.
func armisticeGame() (game, match string) {
	for _, key := range computerGames() {
		e, _ := rules.Lookup(key)
		if !e.HasArmistice() {
			continue
		}
		for _, v := range e.Variants() {
			if v.Match {
				return key, v.Key
			}
		}
	}
	return "", ""
}

// strongMove is the move the test plays for side in game id: the hard
// level's choice at a small budget.
func strongMove(t *testing.T, s *server, id int64) string {
	t.Helper()
	g := s.game(t, id)
	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := bot.Lookup(g.Game)
	th, err := p.Think(st, bot.Request{Level: bot.Hard, Side: g.ToMove, Seed: int64(g.Ply), Budget: bot.Budget{Nodes: 5_000}})
	if err != nil {
		t.Fatal(err)
	}
	return th.Move
}

// TestComputerArmisticeAndMatch: the computer declines an armistice in
// an even position and accepts it once it is losing; in a match, the next
// game starts and the computer plays it.
func TestComputerArmisticeAndMatch(t *testing.T) {
	game, match := armisticeGame()
	if game == "" {
		t.Skip("no computer player for a game with an armistice and matches")
	}
	s, _ := startWithComputer(t, "", func(cfg *handlers.Config) { cfg.MoveNodes = 50 })
	a := s.newClient(t)
	a.SignUp("alice")
	single := ""
	for _, v := range mustEngine(t, game).Variants() {
		if !v.Match && single == "" {
			single = v.Key
		}
	}
	id := playComputer(t, a, game, single, "easy", "0")
	page := fmt.Sprintf("/games/%d", id)
	offer := func() db.Game {
		t.Helper()
		a.Get(page)
		form := a.Last.Find(`form[action$="/armistice/offer"]`)
		if form.Length() == 0 {
			t.Fatal("alice cannot offer an armistice")
		}
		a.Submit(form, nil)
		a.wantStatus(http.StatusOK)
		return waitHuman(t, s, id, "alice")
	}
	// At the start nobody is losing: declined, the game goes on.
	if g := offer(); g.Finished() || g.ArmisticeBy != rules.NoSide {
		t.Fatalf("the computer did not decline an armistice at the start: %s, offer by %v", g.Status, g.ArmisticeBy)
	}
	declined := 1
	for i := 0; i < 400; i++ {
		g := waitHuman(t, s, id, "alice")
		if g.Finished() {
			break
		}
		if i >= 6 && i%3 == 0 {
			st, _ := g.Decode()
			p, _ := bot.Lookup(game)
			th, err := p.Think(st, bot.Request{Level: bot.Hard, Side: g.ToMove, Budget: bot.Budget{Nodes: 5_000}})
			if err != nil {
				t.Fatal(err)
			}
			if th.Expect > 0.9 { // alice (side 0) is clearly winning
				if g = offer(); g.Finished() {
					break
				}
				declined++
			}
		}
		a.Get(page)
		a.Post(page+"/move", url.Values{"ply": {fmt.Sprint(g.Ply)}, "move": {strongMove(t, s, id)}})
		a.wantStatus(http.StatusOK)
	}
	g := s.game(t, id)
	if !g.Finished() || g.Reason != rules.ReasonArmistice {
		t.Fatalf("the game ended by %q after ply %d; the computer declined %d armistice offers", g.Reason, g.Ply, declined)
	}
	t.Logf("armistice accepted at ply %d (%d–%d) after %d declined", g.Ply, g.Score[0], g.Score[1], declined)
	assertResultShown(t, s, id, a)

	// A match: alice resigns its first game, the next starts and the
	// computer plays its side.
	id = playComputer(t, a, game, match, "easy", "0")
	first := s.game(t, id)
	resign(t, a, id)
	a.Get(fmt.Sprintf("/games/%d", id))
	next := a.Last.Find("#next-game")
	if next.Length() == 0 {
		t.Fatal("the finished first game of a match does not lead to the next")
	}
	a.Click(next)
	a.wantStatus(http.StatusOK)
	id2 := gameIDOf(t, a.URL)
	g2 := s.game(t, id2)
	if id2 == id || g2.MatchID != first.MatchID || g2.Number != 2 {
		t.Fatalf("the next game is %d (match %d, number %d)", id2, g2.MatchID, g2.Number)
	}
	for range 3 {
		g2 = waitHuman(t, s, id2, "alice")
		if g2.Finished() {
			break
		}
		clickMove(t, a, id2, func(int) int { return 0 })
	}
	if g2 = waitHuman(t, s, id2, "alice"); g2.Ply < 4 && !g2.Finished() {
		t.Fatalf("the match's second game is at ply %d after alice's three moves", g2.Ply)
	}
}

// TestNewcomerIsPointedAtTheComputer: on a server where nobody else is
// looking for a game, the visitor's home page and a new player's empty
// dashboard point to a game against the computer, and the link leads to
// the form that starts one.
func TestNewcomerIsPointedAtTheComputer(t *testing.T) {
	s := startComputerless(t, "", nil)
	v := s.newClient(t)
	v.Get("/")
	v.wantStatus(http.StatusOK)
	if got := v.text("main"); !strings.Contains(got, "or against the computer") {
		t.Errorf("the visitors' home page does not mention the computer: %q", got)
	}
	v.SignUp("newbie")
	v.Get("/")
	for _, sel := range []string{`#newcomer-computer a[href*="play-computer"]`, `#no-open-challenges a[href*="play-computer"]`} {
		link := v.Last.Find(sel)
		if link.Length() == 0 {
			t.Fatalf("the empty dashboard has no %s: %q", sel, v.text("#dashboard-body"))
		}
		if got := strings.TrimSpace(link.Text()); got != "Play the computer" {
			t.Errorf("%s reads %q", sel, got)
		}
	}
	v.Click(v.Last.Find(`#newcomer-computer a[href*="play-computer"]`))
	v.wantStatus(http.StatusOK)
	if v.Last.Find("form#play-computer").Length() == 0 {
		t.Fatal("the link does not lead to the form that starts a game against the computer")
	}
}

// TestComputerInThePlayersDirectory: the computer players are found in
// the players directory like anyone, and lead to their profiles.
func TestComputerInThePlayersDirectory(t *testing.T) {
	s := startComputerless(t, "", nil)
	v := s.newClient(t)
	v.Get("/players?q=comp")
	v.wantStatus(http.StatusOK)
	var found []string
	v.Last.Find("#players tr[data-player]").Each(func(_ int, r *goquery.Selection) {
		name, _ := r.Attr("data-player")
		found = append(found, name)
	})
	if len(found) != 3 || !slices.Contains(found, "Computer · hard") {
		t.Fatalf("the directory finds %q for \"comp\", want the three computer players", found)
	}
	v.Click(v.Last.Find(`#players tr[data-player="Computer · hard"] a`).First())
	v.wantStatus(http.StatusOK)
}

// TestComputerSharesItsSearches: with one player's many games waiting for
// the computer, another player's game is answered within the next few
// searches, not after all of the first player's.
func TestComputerSharesItsSearches(t *testing.T) {
	const many = 12
	s := startComputerless(t, "", func(cfg *handlers.Config) {
		cfg.BotWorkers, cfg.MoveNodes, cfg.ComputerGames = 1, 20_000, many
	})
	a := s.newClient(t)
	a.SignUp("alice")
	var alices []int64
	for range many {
		alices = append(alices, playComputer(t, a, "trenches", "", "hard", "1")) // the computer moves first
	}
	answered := func() int {
		n := 0
		for _, id := range alices {
			if s.game(t, id).Ply > 0 {
				n++
			}
		}
		return n
	}
	runComputer(t, s)
	waitFor(t, "the computer's first move", func() bool { return answered() >= 1 })
	b := s.newClient(t)
	b.SignUp("bob")
	bobs := playComputer(t, b, "trenches", "", "hard", "1")
	before := answered()
	if before > many-6 {
		t.Fatalf("the computer answered %d of alice's %d games before bob's started: make its searches longer", before, many)
	}
	waitFor(t, "the computer's move for bob", func() bool { return s.game(t, bobs).Ply > 0 })
	after := answered()
	if after > before+3 {
		t.Fatalf("bob's one game waited for %d of alice's searches (%d answered when it started, %d when it was answered)",
			after-before, before, after)
	}
	t.Logf("alice's games answered: %d when bob's started, %d when bob's was answered", before, after)
}

// TestComputerGamesCapped: a player with the most games in progress
// against the computer is refused another, in their language, until one
// ends; the computer declines their rematch offers meanwhile.
func TestComputerGamesCapped(t *testing.T) {
	s := startComputerless(t, "", func(cfg *handlers.Config) { cfg.ComputerGames = 2 })
	a := s.newClient(t)
	a.SignUp("alice")
	first := playComputer(t, a, "trenches", "", "easy", "0")
	playComputer(t, a, "trenches", "", "hard", "0")
	a.AcceptLanguage = "fr"
	a.Get("/challenges/new?game=trenches")
	form := a.Last.Find("#play-computer")
	variant, _ := form.Find(`select[name="variant"] option`).First().Attr("value")
	a.Submit(form, url.Values{"level": {"medium"}, "variant": {variant}, "color": {"0"}})
	a.wantStatus(http.StatusConflict)
	if got := a.text("#play-computer .flash"); !strings.Contains(got, "2 parties en cours contre l'ordinateur") {
		t.Fatalf("the refusal says %q", got)
	}
	if n, _ := s.DB.ActiveGames(context.Background(), mustUser(t, s, "alice")); len(n) != 2 {
		t.Fatalf("alice has %d games in progress, want 2", len(n))
	}
	// A game ends: alice may start another; her rematch offer in the
	// ended game, a third game, is declined.
	g := s.game(t, first)
	if _, err := s.DB.Resign(context.Background(), first, mustUser(t, s, "alice"), g.Ply, s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	playComputer(t, a, "trenches", "", "medium", "0")
	if _, err := s.DB.OfferRematch(context.Background(), g.MatchID, mustUser(t, s, "alice"), s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	runComputer(t, s)
	waitFor(t, "the computer's answer to the rematch", func() bool {
		r, err := s.DB.Rematch(context.Background(), g.MatchID)
		return err == nil && r.Status != "open"
	})
	if r, _ := s.DB.Rematch(context.Background(), g.MatchID); r.Status != "declined" {
		t.Fatalf("the rematch offer is %s", r.Status)
	}
	if n, _ := s.DB.ActiveGames(context.Background(), mustUser(t, s, "alice")); len(n) != 2 {
		t.Fatalf("alice has %d games in progress, want 2", len(n))
	}
}
