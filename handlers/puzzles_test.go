package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/puzzles"
	"github.com/trench-games/trench/views"
)

// racePuzzle is a TRENCH puzzle of two solver moves: Black reaches the
// target of 50 first.
var racePuzzle = puzzles.Puzzle{Game: "trench", Variant: "single", Position: "c7/8/r7/3c4/8/2C5/a5G1/6C1 b 4 23 23",
	Solution: []string{"d5-g5", "g1-f1", "g5xg2"}, Themes: []string{puzzles.ThemeRace, puzzles.ThemeWin}}

// addRacePuzzle stores racePuzzle as found in a finished game between two
// new players and returns its id and that game.
func addRacePuzzle(t *testing.T, s *server) (int64, db.Game) {
	t.Helper()
	ctx := context.Background()
	s.newClient(t).SignUp("source1")
	s.newClient(t).SignUp("source2")
	g := finishByResign(t, s, "source1", "source2", "source2", "trench", "single", 6)
	if _, err := s.DB.AddPuzzles(ctx, g.ID, []puzzles.Puzzle{racePuzzle}, s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	p, ok, err := s.DB.NextPuzzle(ctx, db.PuzzleQuery{Game: "trench", Theme: puzzles.ThemeRace, Rating: 1500, Skip: starterRaceIDs(t, s)})
	if err != nil || !ok || p.Position != racePuzzle.Position {
		t.Fatalf("the race puzzle: %+v %v %v", p, ok, err)
	}
	return p.ID, g
}

// starterRaceIDs are the ids of the race puzzles other than racePuzzle.
func starterRaceIDs(t *testing.T, s *server) []int64 {
	var ids []int64
	for {
		p, ok, err := s.DB.NextPuzzle(context.Background(), db.PuzzleQuery{Game: "trench", Theme: puzzles.ThemeRace, Rating: 1500, Skip: ids})
		if err != nil {
			t.Fatal(err)
		}
		if !ok || p.Position == racePuzzle.Position {
			return ids
		}
		ids = append(ids, p.ID)
	}
}

// clickPuzzleMove makes move on the puzzle page c shows by clicking the
// board: links select, the click that completes the move submits the
// board's form; st is the position shown.
func clickPuzzleMove(t *testing.T, c *client, st rules.State, move string) {
	t.Helper()
	for _, click := range st.Clicks(move) {
		el := c.Last.Find(fmt.Sprintf(`#puzzle [data-click=%q]`, click)).First()
		switch {
		case el.Is("a"):
			c.Click(el)
		case el.Is(`button[name="move"]`):
			v, _ := el.Attr("value")
			c.Submit(c.Last.Find("#board"), url.Values{"move": {v}})
		default:
			html, _ := c.Last.Find("#puzzle").Html()
			t.Fatalf("nothing to click for %q of %q: %.1500s", click, move, html)
		}
		c.wantStatus(http.StatusOK)
	}
}

// showSolution presses "Show solution" on the puzzle page c shows.
func showSolution(t *testing.T, c *client) {
	t.Helper()
	form := c.Last.Find("#puzzle-solution-form")
	if form.Find(`button[name="solution"][value="1"]#puzzle-show-solution`).Length() != 1 {
		t.Fatal("no Show solution button")
	}
	c.Submit(form, url.Values{"solution": {"1"}})
	c.wantStatus(http.StatusOK)
}

func raceStart(t *testing.T) rules.State {
	st, err := racePuzzle.Start()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestPuzzleSolvedByClicksAndByTypedMove: a signed-in player solves a
// puzzle, the first move by clicks and the second typed in the move box,
// with JavaScript off and with htmx; the page says so, raises their
// puzzle rating and links to the finished game the puzzle came from.
func TestPuzzleSolvedByClicksAndByTypedMove(t *testing.T) {
	s := startServer(t, "", nil)
	id, src := addRacePuzzle(t, s)
	page := fmt.Sprintf("/puzzles/trench/%d", id)
	for _, htmx := range []bool{false, true} {
		t.Run(fmt.Sprintf("htmx=%v", htmx), func(t *testing.T) {
			c := s.newClient(t)
			name := fmt.Sprintf("solver%v", htmx)
			c.SignUp(name)
			c.Get(page)
			c.wantStatus(http.StatusOK)
			if got := c.text("#puzzle-task"); got != "Black to move: find the best move." {
				t.Fatalf("task %q", got)
			}
			if href, _ := c.Last.Find("#puzzle-source").Attr("href"); href != fmt.Sprintf("/games/%d", src.ID) {
				t.Fatalf("source link %q, want the finished game %d", href, src.ID)
			}
			c.HTMX = htmx
			st := raceStart(t)
			clickPuzzleMove(t, c, st, "d5-g5")
			if got := c.text("#puzzle-right"); got != "Right! Keep going." {
				html, _ := c.Last.Html()
				t.Fatalf("after d5-g5: %q %.2000s", got, html)
			}
			if htmx && c.Last.Find("nav.top").Length() > 0 {
				t.Fatal("htmx got a whole page")
			}
			if got := c.text("#puzzle-played"); !strings.Contains(got, "d5-g5") || !strings.Contains(got, "g1-f1") {
				t.Fatalf("played %q, want the move and the reply", got)
			}
			c.Submit(c.Last.Find("#puzzle-move-box"), url.Values{"move": {"g5xg2"}})
			c.wantStatus(http.StatusOK)
			if got := c.text("#puzzle-solved"); got != "Solved!" {
				t.Fatalf("after g5xg2: %q", got)
			}
			if got := c.text("#puzzle-rating-change"); !strings.Contains(got, "(+") {
				t.Fatalf("rating change %q", got)
			}
			u, _ := s.DB.UserByName(context.Background(), name)
			r, n, _ := s.DB.PuzzleRating(context.Background(), u.ID, "trench")
			if r.Rating <= 1500 || n != 1 {
				t.Fatalf("%s's puzzle rating %v after %d attempts", name, r.Rating, n)
			}
			// The next puzzle is another one.
			c.HTMX = false
			next, _ := c.Last.Find("#puzzle-next").Attr("href")
			c.Get(next)
			c.wantStatus(http.StatusOK)
			if c.Last.Find("#puzzle").Length() != 1 || strings.HasSuffix(c.URL, page) {
				t.Fatalf("next puzzle: %s", c.URL)
			}
		})
	}
}

// TestPuzzleWrongMoveShowsRefutationAndLowersRating: a wrong move shows
// the opponent's answer, fails the puzzle and lowers the player's rating;
// a move the rules refuse says why and rates nothing.
func TestPuzzleWrongMoveShowsRefutationAndLowersRating(t *testing.T) {
	s := startServer(t, "", nil)
	id, _ := addRacePuzzle(t, s)
	c := s.newClient(t)
	c.SignUp("wrongo")
	page := fmt.Sprintf("/puzzles/trench/%d", id)
	c.Get(page + "?try=d5-d9")
	c.wantStatus(http.StatusOK)
	if c.Last.Find("#puzzle-wrong").Length() != 1 || c.Last.Find("#puzzle-rating-change").Length() != 0 {
		t.Fatalf("a refused move: %q", c.text("#puzzle-outcome"))
	}
	st := raceStart(t)
	wrong := ""
	for _, m := range st.Legal(st.ToMove()) {
		if m != racePuzzle.Solution[0] {
			wrong = m
			break
		}
	}
	c.Get(page)
	clickPuzzleMove(t, c, st, wrong)
	got := c.text("#puzzle-wrong")
	if !strings.HasPrefix(got, "That is not the best move") || !strings.Contains(got, "White answers") {
		t.Fatalf("after %s: %q", wrong, got)
	}
	if retry, _ := c.Last.Find("#puzzle-retry").Attr("href"); retry != page {
		t.Fatalf("try again: %q", retry)
	}
	u, _ := s.DB.UserByName(context.Background(), "wrongo")
	r, n, _ := s.DB.PuzzleRating(context.Background(), u.ID, "trench")
	if r.Rating >= 1500 || n != 1 {
		t.Fatalf("rating %v after %d attempts", r.Rating, n)
	}
	// Solving it afterwards changes nothing.
	c.Get(page + "?line=d5-g5")
	c.HTMX = true
	c.Submit(c.Last.Find("#puzzle-move-box"), url.Values{"move": {"g5xg2"}})
	if c.text("#puzzle-solved") != "Solved!" || !strings.Contains(c.text("#puzzle-rating-change"), "only the first attempt counts") {
		t.Fatalf("solved after failing: %q", c.text("#puzzle-outcome"))
	}
	if r2, n2, _ := s.DB.PuzzleRating(context.Background(), u.ID, "trench"); r2 != r || n2 != 1 {
		t.Fatalf("rating changed to %v", r2.Rating)
	}
}

// TestPuzzleShowSolution: "Show solution" plays the line out move by move
// for a visitor, unrated.
func TestPuzzleShowSolution(t *testing.T) {
	s := startServer(t, "", nil)
	id, _ := addRacePuzzle(t, s)
	c := s.newClient(t)
	c.Get(fmt.Sprintf("/puzzles/trench/%d", id))
	c.HTMX = true
	for i := range racePuzzle.Solution {
		if i == 0 {
			showSolution(t, c)
		} else {
			link := c.Last.Find("a#puzzle-show-solution")
			if link.Length() != 1 {
				t.Fatalf("move %d: no link to the solution's next move", i+1)
			}
			c.Click(link)
			c.wantStatus(http.StatusOK)
		}
		if got := c.text("#puzzle-played"); !strings.Contains(got, racePuzzle.Solution[i]) {
			t.Fatalf("move %d: played %q", i+1, got)
		}
	}
	if c.Last.Find("#puzzle-show-solution").Length() != 0 || !strings.Contains(c.text("#puzzle-solution"), "d5-g5, g1-f1, g5xg2") {
		t.Fatalf("at the end: %q", c.text("#puzzle-outcome"))
	}
	if got := c.text("#puzzle-rating-change"); got != "Sign in to have your puzzles rated." {
		t.Fatalf("visitor: %q", got)
	}
	// The visitor's next puzzles of the theme are others, until none is
	// left: the cookie remembers those done.
	c.HTMX = false
	seen := map[string]bool{fmt.Sprintf("/puzzles/trench/%d", id): true}
	for i := 0; ; i++ {
		c.Get("/puzzles/trench?theme=race")
		c.wantStatus(http.StatusOK)
		if c.Last.Find("#puzzle-none").Length() == 1 {
			break
		}
		at := strings.SplitN(strings.TrimPrefix(c.URL, s.URL), "?", 2)[0]
		if seen[at] || i > 50 {
			t.Fatalf("%s given again to the visitor", at)
		}
		seen[at] = true
		showSolution(t, c)
	}
}

// TestPuzzlesNeverFromARunningGame: the puzzle job looks for puzzles in
// finished games and never in one being played; the database refuses a
// puzzle from a running game; a self-play puzzle links to no game.
func TestPuzzlesNeverFromARunningGame(t *testing.T) {
	s := startComputerless(t, "", nil)
	ctx := context.Background()
	for _, n := range []string{"pone", "ptwo", "pthree", "pfour"} {
		s.newClient(t).SignUp(n)
	}
	done := finishByResign(t, s, "pone", "ptwo", "ptwo", "trench", "single", 60)
	p3, _ := s.DB.UserByName(ctx, "pthree")
	p4, _ := s.DB.UserByName(ctx, "pfour")
	ch, _ := s.DB.CreateChallenge(ctx, db.NewChallenge{CreatorID: p3.ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, s.Clock.Now())
	runID, err := s.DB.AcceptChallenge(ctx, ch.ID, p4.ID, 5, s.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	running := playRandom(t, s, runID, 60)
	if running.Finished() {
		t.Fatal("the running game ended")
	}
	if _, err := s.DB.AddPuzzles(ctx, runID, []puzzles.Puzzle{racePuzzle}, s.Clock.Now()); db.KindOf(err) != db.KindConflict {
		t.Fatalf("a puzzle from a running game: %v", err)
	}
	before, _ := s.DB.CountPuzzles(ctx, "trench")
	stop := runComputer(t, s)
	waitFor(t, "the finished game looked at", func() bool {
		_, ok, err := s.DB.NextPuzzleScan(ctx)
		return err == nil && !ok
	})
	stop()
	after, _ := s.DB.CountPuzzles(ctx, "trench")
	if after <= before {
		t.Fatalf("no puzzle found in the finished game of 60 random plies (%d before, %d after)", before, after)
	}
	// Every puzzle comes from the finished game or from self-play.
	c := s.newClient(t)
	var skip []int64
	for {
		p, ok, err := s.DB.NextPuzzle(ctx, db.PuzzleQuery{Game: "trench", Rating: 1500, Skip: skip})
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		skip = append(skip, p.ID)
		if p.SourceGameID != 0 && p.SourceGameID != done.ID {
			t.Fatalf("puzzle %d comes from game %d", p.ID, p.SourceGameID)
		}
		if p.SourceGameID == 0 && len(skip) < 3 {
			c.Get(fmt.Sprintf("/puzzles/trench/%d", p.ID))
			c.wantStatus(http.StatusOK)
			if c.Last.Find("#puzzle-source").Length() != 0 {
				t.Fatalf("puzzle %d of self-play links to a game", p.ID)
			}
		}
	}
}

// TestPuzzlePagesInFrench: the puzzle pages, a wrong move, the solution,
// the home page's daily puzzle and the feed's hold no English sentence
// for a player reading French.
func TestPuzzlePagesInFrench(t *testing.T) {
	s := startServer(t, "", nil)
	id, _ := addRacePuzzle(t, s)
	c := s.newClient(t)
	c.AcceptLanguage = "fr"
	c.SignUp("francine")
	sentences := englishSentences(t, "fr")
	page := fmt.Sprintf("/puzzles/trench/%d", id)
	for _, p := range []string{"/", "/puzzles", "/puzzles/trenches", page, page + "?line=d5-g5", page + "?try=c5-c6", page + "?try=d5-d9",
		page + "?solution=3", page + "?line=d5-g5,g5xg2"} {
		doc := c.Get(p)
		c.wantStatus(http.StatusOK)
		text := visibleText(doc)
		for _, re := range sentences {
			if m := re.FindString(text); m != "" {
				t.Errorf("%s: English left: %q", p, m)
			}
		}
		for _, loc := range englishWords.FindAllStringIndex(text, 3) {
			t.Errorf("%s: English word: …%s…", p, text[max(loc[0]-30, 0):min(loc[1]+30, len(text))])
		}
	}
	ctx := views.WithLang(context.Background(), "fr")
	c.Get("/")
	if got := c.text("#daily-puzzle"); !strings.HasPrefix(got, views.T(ctx, "Daily puzzle")) {
		t.Fatalf("daily puzzle on the dashboard: %q", got)
	}
	daily, _ := c.Last.Find("#daily-puzzle a").First().Attr("href")
	// The feed has the same daily puzzle, in French.
	_, f := getFeed(t, feedURL(t, c))
	if len(f.Daily) != 1 || !strings.HasPrefix(f.Daily[0], views.T(ctx, "Daily puzzle")) || !strings.HasSuffix(f.Daily[0], s.URL+daily) {
		t.Fatalf("the feed's daily puzzle %q, want %s", f.Daily, daily)
	}
	// A visitor's home page shows it too.
	v := s.newClient(t)
	v.Get("/")
	if href, _ := v.Last.Find("#daily-puzzle a").First().Attr("href"); href != daily || v.Last.Find("#all-puzzles").AttrOr("href", "") != "/puzzles" {
		t.Fatalf("visitor's daily puzzle %q, want %q", href, daily)
	}
}

// TestPuzzleBadAddresses: an unknown game, puzzle or theme, a puzzle
// under another game's address, a solution move out of range and a line
// too long are refused with 4xx and change nothing.
func TestPuzzleBadAddresses(t *testing.T) {
	s := startServer(t, "", nil)
	id, _ := addRacePuzzle(t, s)
	c := s.newClient(t)
	c.SignUp("badder")
	long := strings.Repeat("a1-a2,", 600)
	for path, want := range map[string]int{
		"/puzzles/cards":                                    http.StatusNotFound,
		"/puzzles/trench?theme=bogus":                       http.StatusBadRequest,
		"/puzzles/trench/999999":                            http.StatusNotFound,
		"/puzzles/trench/abc":                               http.StatusNotFound,
		fmt.Sprintf("/puzzles/trenches/%d", id):             http.StatusNotFound,
		fmt.Sprintf("/puzzles/trench/%d?solution=9", id):    http.StatusBadRequest,
		fmt.Sprintf("/puzzles/trench/%d?theme=nope", id):    http.StatusBadRequest,
		fmt.Sprintf("/puzzles/trench/%d?line=%s", id, long): http.StatusBadRequest,
	} {
		c.Get(path)
		if c.Status != want {
			t.Errorf("%.60s: status %d, want %d", path, c.Status, want)
		}
	}
	u, _ := s.DB.UserByName(context.Background(), "badder")
	if _, n, _ := s.DB.PuzzleRating(context.Background(), u.ID, "trench"); n != 0 {
		t.Fatalf("%d attempts rated", n)
	}
}

// TestPuzzleIndexAndThemeFilter: /puzzles lists both games with their
// puzzles (the shipped ones from the first start) and the player's
// rating; choosing a theme leads to a puzzle of that theme, and once all
// of them are done the page says none is left.
func TestPuzzleIndexAndThemeFilter(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	c.SignUp("themer")
	c.Get("/puzzles")
	c.wantStatus(http.StatusOK)
	for _, g := range []string{"trench", "trenches"} {
		if got := c.text("#puzzles-" + g + " .hint"); got == "" || got == "Puzzles: 0" {
			t.Fatalf("%s: %q", g, got)
		}
		if got := c.text("#puzzles-" + g + " .puzzle-rating"); got != "Your puzzle rating: 1500 (puzzles tried: 0)" {
			t.Fatalf("%s rating: %q", g, got)
		}
	}
	for i := 0; ; i++ {
		c.Get("/puzzles/trenches?theme=blocking")
		c.wantStatus(http.StatusOK)
		if c.Last.Find("#puzzle-none").Length() == 1 {
			break
		}
		if !strings.Contains(c.text("#puzzle-themes"), "Blocking") {
			t.Fatalf("theme blocking gave %q", c.text("#puzzle-themes"))
		}
		if sel, _ := c.Last.Find(`#puzzle-theme-select option[selected]`).Attr("value"); sel != "blocking" {
			t.Fatalf("the theme chosen is %q", sel)
		}
		// Give up: the solution counts as failed, and the next is another.
		showSolution(t, c)
		if i > 100 {
			t.Fatal("the same puzzles come back")
		}
	}
}

// TestPuzzleAddressAloneRatesNothing: opening the address of a solved
// line, of a wrong move or of the solution (a link followed, a page
// prefetched) shows it and rates nothing; only a move sent from the page
// does. A move sent without the page's token, without a move, or one the
// rules refuse changes nothing either.
func TestPuzzleAddressAloneRatesNothing(t *testing.T) {
	s := startServer(t, "", nil)
	id, _ := addRacePuzzle(t, s)
	c := s.newClient(t)
	c.SignUp("peeker")
	u, _ := s.DB.UserByName(context.Background(), "peeker")
	page := fmt.Sprintf("/puzzles/trench/%d", id)
	st := raceStart(t)
	wrong := ""
	for _, m := range st.Legal(st.ToMove()) {
		if m != racePuzzle.Solution[0] {
			wrong = m
			break
		}
	}
	rated := func() int {
		t.Helper()
		_, n, err := s.DB.PuzzleRating(context.Background(), u.ID, "trench")
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for addr, shown := range map[string]string{
		page + "?line=d5-g5,g5xg2": "#puzzle-solved",
		page + "?line=" + wrong:    "#puzzle-wrong",
		page + "?solution=1":       "#puzzle-solution",
	} {
		c.Get(addr)
		c.wantStatus(http.StatusOK)
		if c.Last.Find(shown).Length() != 1 {
			t.Fatalf("%s: no %s", addr, shown)
		}
		if n := rated(); n != 0 {
			t.Fatalf("%s rated %d attempts", addr, n)
		}
		if got := c.text("#puzzle-rating-change"); got != "Your puzzle rating: 1500 (puzzles tried: 0)" {
			t.Fatalf("%s: %q", addr, got)
		}
	}
	c.Get(page + "?line=d5-g5")
	c.PostRaw(page+"/move?line=d5-g5", url.Values{"move": {"g5xg2"}})
	if c.Status != http.StatusForbidden || rated() != 0 {
		t.Fatalf("a move without the page's token: %d, %d attempts rated", c.Status, rated())
	}
	c.Get(page + "?line=d5-g5")
	c.Post(page+"/move?line=d5-g5", url.Values{"move": {""}})
	if c.Status != http.StatusBadRequest || rated() != 0 {
		t.Fatalf("no move: %d, %d attempts rated", c.Status, rated())
	}
	c.Get(page + "?line=d5-g5")
	c.Post(page+"/move?line=d5-g5", url.Values{"move": {"a1-a9"}})
	if c.Status != http.StatusUnprocessableEntity || c.Last.Find("#puzzle-wrong").Length() != 1 || rated() != 0 {
		t.Fatalf("a refused move: %d, %q, %d attempts rated", c.Status, c.text("#puzzle-outcome"), rated())
	}
	c.Get(page + "?line=d5-g5")
	c.Post(page+"/move?line=d5-g5", url.Values{"move": {"g5xg2"}})
	c.wantStatus(http.StatusOK)
	if !strings.HasSuffix(c.URL, page+"?line=d5-g5%2Cg5xg2") || c.text("#puzzle-solved") != "Solved!" || !strings.Contains(c.text("#puzzle-rating-change"), "(+") || rated() != 1 {
		t.Fatalf("the move sent: at %s, %q, %d attempts rated", c.URL, c.text("#puzzle-outcome"), rated())
	}
}

// TestDailyPuzzleHoldsAllOfTheFirstDay: on a new server the daily puzzle
// is one of the shipped puzzles, and stays the same all day while the
// day's games add puzzles.
func TestDailyPuzzleHoldsAllOfTheFirstDay(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	daily := func() string {
		t.Helper()
		c.Get("/")
		c.wantStatus(http.StatusOK)
		href, ok := c.Last.Find("#daily-puzzle a").First().Attr("href")
		if !ok {
			t.Fatal("no daily puzzle on the home page")
		}
		return href
	}
	first := daily()
	// A puzzle of each game is added during the day.
	addRacePuzzle(t, s)
	shipped, err := puzzles.Starter()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range shipped {
		if p.Game == "trenches" && strings.HasSuffix(p.Position, "1T1xx1x2x l") {
			p.Position = strings.TrimSuffix(p.Position, "1T1xx1x2x l") + "1T1xx1x3 l" // one Debris fewer
			if _, err := s.DB.AddPuzzles(context.Background(), 0, []puzzles.Puzzle{p}, s.Clock.Now()); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if n, _ := s.DB.CountPuzzles(context.Background(), "trenches"); n != 1+countShipped(shipped, "trenches") {
		t.Fatalf("%d Trenches puzzles stored", n)
	}
	s.Clock.Advance(time.Hour)
	if got := daily(); got != first {
		t.Fatalf("after a puzzle was added, the daily puzzle went from %s to %s", first, got)
	}
}

func countShipped(ps []puzzles.Puzzle, game string) int {
	n := 0
	for _, p := range ps {
		if p.Game == game {
			n++
		}
	}
	return n
}

// TestPuzzleSearchGivesWayToTheComputer: the puzzle job holds the
// computer's only search slot while it looks at a finished game; a
// computer's move that then waits for the slot gets it at once, and the
// game is looked at again, to its end, once the slot is free.
func TestPuzzleSearchGivesWayToTheComputer(t *testing.T) {
	s := startComputerless(t, "", nil)
	ctx := context.Background()
	for _, n := range []string{"pone", "ptwo"} {
		s.newClient(t).SignUp(n)
	}
	done := finishByResign(t, s, "pone", "ptwo", "ptwo", "trench", "single", 100)
	stop := runComputer(t, s)
	waitFor(t, "the puzzle search under way", func() bool { return s.App.Searches() == 1 })
	start := time.Now()
	release, ok := s.App.TakeSearchSlot(ctx)
	if !ok {
		t.Fatal("no slot")
	}
	waited := time.Since(start)
	t.Logf("the computer's move waited %v for the slot", waited)
	g, pending, err := s.DB.NextPuzzleScan(ctx)
	if err != nil || !pending || g.ID != done.ID {
		t.Errorf("after the search gave way: next game %d (%v, %v), want the finished game %d still to look at", g.ID, pending, err, done.ID)
	}
	if waited > time.Second {
		t.Errorf("a computer's move waited %v for the slot the puzzle search held", waited)
	}
	release()
	waitFor(t, "the finished game looked at", func() bool {
		_, ok, err := s.DB.NextPuzzleScan(ctx)
		return err == nil && !ok
	})
	stop()
}

// TestNoPuzzleSearch: with Config.NoPuzzleSearch (serve
// --puzzle-search=false) the computer's worker never looks at a finished
// game for puzzles.
func TestNoPuzzleSearch(t *testing.T) {
	s := startComputerless(t, "", func(cfg *handlers.Config) { cfg.NoPuzzleSearch = true })
	ctx := context.Background()
	for _, n := range []string{"pone", "ptwo"} {
		s.newClient(t).SignUp(n)
	}
	done := finishByResign(t, s, "pone", "ptwo", "ptwo", "trench", "single", 60)
	stop := runComputer(t, s)
	// The worker makes a round every 50 ms: twenty of them.
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if n := s.App.Searches(); n != 0 {
			t.Fatalf("%d searches under way with no puzzle search", n)
		}
	}
	stop()
	if g, ok, err := s.DB.NextPuzzleScan(ctx); err != nil || !ok || g.ID != done.ID {
		t.Errorf("the finished game: next to look at %d (%v, %v), want it never looked at", g.ID, ok, err)
	}
}
