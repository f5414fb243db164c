package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

func TestCardRulesPageStatesRepetition(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	doc := c.Get("/rules/cards")
	if got := doc.Find("#rule-repetition").Text(); !strings.Contains(got, "third time") || !strings.Contains(got, "draw") {
		t.Errorf("the card game's rules page says nothing of repetition: %q", got)
	}
}

// startRated creates a rated challenge from creator (side 0) to opponent
// in the store and accepts it, returning the game id.
func startRated(t *testing.T, s *server, creator, opponent, game, variant string) int64 {
	t.Helper()
	ctx := context.Background()
	cu, _ := s.DB.UserByName(ctx, creator)
	ou, _ := s.DB.UserByName(ctx, opponent)
	ch, err := s.DB.CreateChallenge(ctx, db.NewChallenge{CreatorID: cu.ID, Game: game, Variant: variant, Color: "0", DaysPerMove: 3, Rated: true}, s.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.DB.AcceptChallenge(ctx, ch.ID, ou.ID, 5, s.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestResultsSpeakToTheReader: a result puts the reader's own score first
// ("You lost 0–80" to the loser, "You won 80–0" to the winner), names the
// winner to anyone else, and a profile names its player, not "You".
func TestResultsSpeakToTheReader(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	carol := s.newClient(t)
	carol.SignUp("carol")
	g := finishByResign(t, s, "alice", "bob", "alice", "trench", "single", 6)
	if g.Winner != rules.Side1 || g.Score[0] == g.Score[1] {
		t.Fatalf("game: %+v", g)
	}
	alice := fmt.Sprintf("%d–%d", g.Score[0], g.Score[1])
	bob := fmt.Sprintf("%d–%d", g.Score[1], g.Score[0])
	page := fmt.Sprintf("/games/%d", g.ID)
	for _, tc := range []struct {
		c    *client
		path string
		sel  string
		want string
	}{
		{a, page, "#status", "You lost " + alice},
		{b, page, "#status", "You won " + bob},
		{carol, page, "#status", "bob (White) won " + bob},
		{a, "/", "table.games", "You lost " + alice},
		{b, "/", "table.games", "You won " + bob},
		{a, "/players/bob", "table.games", "bob won " + bob},
		{a, "/players/bob", "table.games thead", "bob plays"},
		{b, "/players/alice", "table.games", "alice lost " + alice},
		{carol, "/archive", "#archive", "bob (White) won " + bob},
	} {
		tc.c.Get(tc.path)
		tc.c.wantStatus(http.StatusOK)
		got := strings.Join(strings.Fields(tc.c.text(tc.sel)), " ")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s on %s: %q does not say %q", tc.c.Name, tc.path, got, tc.want)
		}
		if strings.HasPrefix(tc.path, "/players/") && strings.Contains(got, "You") {
			t.Errorf("%s on %s speaks as the profile's owner: %q", tc.c.Name, tc.path, got)
		}
	}
}

// TestTrenchesWinByResignationHasNoScore: Trenches records a resignation
// or a timeout as such, not as a 0–0 score.
func TestTrenchesWinByResignationHasNoScore(t *testing.T) {
	s := startServer(t, "", nil)
	a, _ := signedUpPair(t, s)
	g := finishByResign(t, s, "alice", "bob", "bob", "trenches", "standard", 4)
	a.Get(fmt.Sprintf("/games/%d", g.ID))
	if got := a.text("#status"); got != "You won by resignation" {
		t.Errorf("status %q, want %q", got, "You won by resignation")
	}
	a.Get("/archive")
	row := strings.Join(strings.Fields(a.text("#archive tbody tr")), " ")
	if !strings.Contains(row, "won by resignation") || strings.Contains(row, "0 mobile – 0 mobile") || strings.Contains(row, "0–0") {
		t.Errorf("archive row %q", row)
	}
}

// TestMatchTotalsAreGamesOneAndTwo: the decider does not add to the
// official match's totals; it stands on its own line.
func TestMatchTotalsAreGamesOneAndTwo(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id1 := challenge(t, a, b, "trench", "match", "0")
	a.Get(fmt.Sprintf("/games/%d", id1))
	if h := a.text("h1"); !strings.HasSuffix(h, "· Game 1") {
		t.Errorf("game 1's heading %q does not say Game 1", h)
	}
	a.Get("/")
	if got := a.text("table.games"); !strings.Contains(got, "· Game 1") {
		t.Errorf("the dashboard does not say Game 1: %q", got)
	}
	resign(t, a, id1)
	id2 := gameIDOf(t, a.Last.Find("#next-game").AttrOr("href", ""))
	resign(t, b, id2) // 72–72: a decider
	a.Get(fmt.Sprintf("/games/%d", id2))
	id3 := gameIDOf(t, a.Last.Find("#next-game").AttrOr("href", ""))
	// Both move, then the decider's loser resigns.
	for range 2 {
		p, _ := whoMoves(t, s, id3, a, b)
		clickMove(t, p, id3, func(int) int { return 0 })
	}
	resign(t, b, id3)
	g3, _ := s.DB.Game(context.Background(), id3)
	a.Get(fmt.Sprintf("/games/%d", id3))
	if t0, t1 := a.text("#total-0"), a.text("#total-1"); t0 != "72 pts" || t1 != "72 pts" {
		t.Errorf("totals %q–%q, want 72–72 (game 1 + game 2)", t0, t1)
	}
	if a.Last.Find("#decider").Length() != 1 || !strings.Contains(a.text("#decider"), "Decider") {
		t.Error("the decider has no line of its own")
	}
	res := a.text("#match-result")
	var alice, bob int
	for i := range 2 {
		if g3.Side[i].Name == "alice" {
			alice = g3.Score[i]
		} else {
			bob = g3.Score[i]
		}
	}
	if want := fmt.Sprintf("alice wins the match in the decider, %d–%d", alice, bob); !strings.Contains(res, want) {
		t.Errorf("match result %q, want %q", res, want)
	}
}

// TestAbortedGameChangesNoRating: an armistice before both sides moved
// aborts the game: no rating changes, and results say "Aborted".
func TestAbortedGameChangesNoRating(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := startRated(t, s, "alice", "bob", "trench", "single")
	a.Post(fmt.Sprintf("/games/%d/armistice/offer", id), url.Values{"ply": {"0"}})
	b.Post(fmt.Sprintf("/games/%d/armistice/accept", id), url.Values{"ply": {"0"}})
	b.wantStatus(http.StatusOK)
	ctx := context.Background()
	for _, name := range []string{"alice", "bob"} {
		u, _ := s.DB.UserByName(ctx, name)
		r, err := s.DB.Rating(ctx, u.ID, "trench", s.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if r.Rating != 1500 || r.Games != 0 {
			t.Errorf("%s's rating after an aborted game: %+v", name, r)
		}
	}
	for _, path := range []string{fmt.Sprintf("/games/%d", id), "/", "/archive", "/players/alice"} {
		a.Get(path)
		if !strings.Contains(a.text("main"), "Aborted") {
			t.Errorf("%s does not say the game was aborted", path)
		}
	}
	if got := a.text("#records"); strings.Contains(got, "1") {
		t.Errorf("an aborted game counts in the record: %q", got)
	}
}

// TestArmisticeDeclinedAndTerms: the armistice controls say what an
// armistice decides (points counted in TRENCH, an agreed draw in the card
// game); a declined offer is shown to its maker, who may not offer again
// until they have moved.
func TestArmisticeDeclinedAndTerms(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	cards := challenge(t, a, b, "cards", "short", "0")
	p, _ := whoMoves(t, s, cards, a, b)
	p.Get(fmt.Sprintf("/games/%d", cards))
	if got := p.text("#side .controls"); !strings.Contains(got, "agreed draw") || strings.Contains(got, "points are counted") {
		t.Errorf("the card game's armistice control says %q", got)
	}

	id := challenge(t, a, b, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	for range 2 {
		p, _ := whoMoves(t, s, id, a, b)
		clickMove(t, p, id, func(int) int { return 0 })
	}
	p, g := whoMoves(t, s, id, a, b)
	other := a
	if p == a {
		other = b
	}
	ply := func() url.Values { return url.Values{"ply": {fmt.Sprint(g.Ply)}} }
	p.Get(page)
	p.Post(page+"/armistice/offer", ply())
	p.wantStatus(http.StatusOK)
	other.Get(page)
	if got := other.text("#armistice-offered"); !strings.Contains(got, "points are counted") {
		t.Errorf("the TRENCH offer reads %q", got)
	}
	other.Post(page+"/armistice/decline", ply())
	other.wantStatus(http.StatusOK)
	p.Get(page)
	if got := p.text("#armistice-declined"); !strings.Contains(got, "declined") {
		t.Errorf("the offer's maker is not told it was declined: %q", p.text("#side"))
	}
	if p.Last.Find(`form[action$="/armistice/offer"]`).Length() != 0 {
		t.Error("the offer's maker may offer again before moving")
	}
	p.Post(page+"/armistice/offer", ply())
	if p.Status != http.StatusConflict {
		t.Errorf("a second offer before moving: status %d, want 409", p.Status)
	}
	clickMove(t, p, id, func(int) int { return 0 })
	clickMove(t, other, id, func(int) int { return 0 })
	p.Get(page)
	if p.Last.Find(`form[action$="/armistice/offer"]`).Length() != 1 || p.Last.Find("#armistice-declined").Length() != 0 {
		t.Errorf("after moving, the maker cannot offer again: %q", p.text("#side"))
	}
}

// TestMoveListMarksThePiecesColours: the move list marks a move ● when
// the dark pieces made it and ○ for the light ones: TRENCH's Black moves
// first (●), Trenches' Light moves first (○).
func TestMoveListMarksThePiecesColours(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	for _, tc := range []struct{ game, variant, first, second string }{
		{"trench", "single", "●", "○"},
		{"trenches", "standard", "○", "●"},
	} {
		id := challenge(t, a, b, tc.game, tc.variant, "0")
		for range 2 {
			p, _ := whoMoves(t, s, id, a, b)
			clickMove(t, p, id, func(int) int { return 0 })
		}
		a.Get(fmt.Sprintf("/games/%d", id))
		li := a.Last.Find("#moves li")
		if li.Length() != 2 {
			t.Fatalf("%s: %d moves listed", tc.game, li.Length())
		}
		for i, want := range []string{tc.first, tc.second} {
			if got := strings.TrimSpace(li.Eq(i).Text()); !strings.HasPrefix(got, want) {
				t.Errorf("%s: move %d reads %q, want it marked %s", tc.game, i+1, got, want)
			}
		}
	}
}

// TestArchiveOfNoSuchPlayer: the archive filtered by a name nobody has is
// the archive with no games and a line saying so, not an error page.
func TestArchiveOfNoSuchPlayer(t *testing.T) {
	s := startServer(t, "", nil)
	v := s.newClient(t)
	v.Get("/archive?player=nobody")
	v.wantStatus(http.StatusOK)
	if got := v.text("#no-such-player"); !strings.Contains(got, "no player called nobody") {
		t.Errorf("no line saying there is no such player: %q", v.text("main"))
	}
	if v.Last.Find(`form input[name="player"]`).AttrOr("value", "") != "nobody" || v.Last.Find("#archive tbody tr").Length() != 0 {
		t.Error("the archive's filter form or its empty list is missing")
	}
}

// TestReviewStepsNeedNoEmojiFont: the review's steps are plain words with
// SVG icons, no characters a browser without an emoji font cannot draw.
func TestReviewStepsNeedNoEmojiFont(t *testing.T) {
	s := startServer(t, "", nil)
	a, _ := signedUpPair(t, s)
	g := finishByResign(t, s, "alice", "bob", "alice", "trench", "single", 4)
	a.Get(fmt.Sprintf("/games/%d?ply=2", g.ID))
	steps := a.Last.Find("#review .review-steps .button")
	if steps.Length() != 4 {
		t.Fatalf("%d review steps", steps.Length())
	}
	for i, want := range []string{"First", "Back", "Forward", "Last"} {
		step := steps.Eq(i)
		if got := strings.TrimSpace(step.Text()); got != want {
			t.Errorf("step %d reads %q, want %q", i+1, got, want)
		}
		if step.Find("svg path").Length() != 1 {
			t.Errorf("step %q has no SVG icon", want)
		}
	}
}

// TestNextGameWaitingAfterAMove: after a move, the answer offers the next
// game that waits for the player, as a plain link and in the panel htmx
// swaps in.
func TestNextGameWaitingAfterAMove(t *testing.T) {
	for _, htmx := range []bool{false, true} {
		s := startServer(t, "", nil)
		a, b := signedUpPair(t, s)
		a.HTMX = htmx
		id1 := challenge(t, a, b, "trench", "single", "0")
		id2 := challenge(t, a, b, "trenches", "standard", "0")
		a.Get(fmt.Sprintf("/games/%d", id1))
		if a.Last.Find("#next-waiting").Length() != 0 {
			t.Error("a link to another game while it is the player's move here")
		}
		clickMove(t, a, id1, func(int) int { return 0 })
		a.wantStatus(http.StatusOK)
		sel := "#side #next-waiting"
		if htmx {
			sel = `#side[hx-swap-oob] #next-waiting`
		}
		if href := a.Last.Find(sel).AttrOr("href", ""); href != fmt.Sprintf("/games/%d", id2) {
			t.Errorf("htmx %v: after the move the next game waiting is %q, want game %d", htmx, href, id2)
		}
		// Once nothing else waits, nothing is offered.
		clickMove(t, a, id2, func(int) int { return 0 })
		if a.Last.Find("#next-waiting").Length() != 0 {
			t.Errorf("htmx %v: a next game offered while none waits", htmx)
		}
	}
}

// TestBoardsReadInATextBrowser: every square and card place has a text
// label, so that a browser without pictures (w3m) shows the position and
// the moves.
func TestBoardsReadInATextBrowser(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	for _, tc := range []struct{ game, variant, sel, unit string }{
		{"trench", "single", "#board [data-click]", "Black General"},
		{"trenches", "standard", "#board [data-click]", "Light"},
		{"cards", "short", ".cards-table .cards-place", ""},
	} {
		id := challenge(t, a, b, tc.game, tc.variant, "0")
		p, _ := whoMoves(t, s, id, a, b)
		p.Get(fmt.Sprintf("/games/%d", id))
		places := p.Last.Find(tc.sel)
		if places.Length() == 0 {
			t.Fatalf("%s: no squares found", tc.game)
		}
		places.Each(func(i int, el *goquery.Selection) {
			if strings.TrimSpace(el.Text()) == "" {
				h, _ := goquery.OuterHtml(el)
				t.Errorf("%s: a square without text: %.200s", tc.game, h)
			}
		})
		text := p.text("#board")
		if !strings.Contains(text, tc.unit) {
			t.Errorf("%s: the board's text names no %s: %.300q", tc.game, tc.unit, text)
		}
		// A selectable unit, once clicked, shows its destinations as text.
		p.Click(p.Last.Find(`#board a[data-click]`).First())
		if tc.game != "cards" && !strings.Contains(p.text("#board"), "move here") {
			t.Errorf("%s: after selecting a unit the board's text shows no destination", tc.game)
		}
	}
}

// TestMatchesAreListed: the dashboard lists the player's matches with
// their totals and result; profiles and the archive list finished matches.
func TestMatchesAreListed(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	single := challenge(t, a, b, "trench", "single", "0")
	id1 := challenge(t, a, b, "trench", "match", "0")
	a.Get("/")
	if got := a.text("#matches"); !strings.Contains(got, "Game 1 in progress") || strings.Count(got, "Official match") != 1 {
		t.Errorf("the dashboard's matches: %q", got)
	}
	resign(t, a, id1)
	id2 := gameIDOf(t, a.Last.Find("#next-game").AttrOr("href", ""))
	resign(t, a, id2)
	resign(t, a, single)
	m, err := s.DB.Match(context.Background(), mustGame(t, s, id2).MatchID)
	if err != nil || m.Status != "finished" || m.Winner < 0 {
		t.Fatalf("match %+v, %v", m, err)
	}
	want := fmt.Sprintf("bob wins the match %d–%d", m.Totals[m.Winner], m.Totals[1-m.Winner])
	for _, tc := range []struct{ path, sel string }{
		{"/", "#matches"},
		{"/players/alice", "#finished-matches"},
		{"/archive", "#archive-matches"},
		{"/archive?player=bob", "#archive-matches"},
	} {
		b.Get(tc.path)
		b.wantStatus(http.StatusOK)
		rows := b.Last.Find(tc.sel + " tbody tr")
		if rows.Length() != 1 {
			t.Errorf("%s lists %d matches, want the one match (not the single game)", tc.path, rows.Length())
			continue
		}
		if got := strings.Join(strings.Fields(rows.Text()), " "); !strings.Contains(got, want) {
			t.Errorf("%s: the match reads %q, want %q", tc.path, got, want)
		}
	}
}

func mustGame(t *testing.T, s *server, id int64) db.Game {
	t.Helper()
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestRulesPagesDrawUnitsAndStart: each game's rules page shows its units
// as drawn on the board and a diagram of the starting position.
func TestRulesPagesDrawUnitsAndStart(t *testing.T) {
	s := startServer(t, "", nil)
	v := s.newClient(t)
	for _, tc := range []struct {
		game         string
		icons, units int // unit icons in the tables, units in the diagram
	}{
		{"trench", 10, 32},
		{"trenches", 4, 16},
		{"cards", 0, 0},
	} {
		v.Get("/rules/" + tc.game)
		v.wantStatus(http.StatusOK)
		if n := v.Last.Find("table .rules-units svg use").Length(); n != tc.icons {
			t.Errorf("%s: %d unit icons in the rules' tables, want %d", tc.game, n, tc.icons)
		}
		d := v.Last.Find("#start-diagram svg")
		if d.Length() != 1 {
			t.Errorf("%s: no diagram of the starting position", tc.game)
			continue
		}
		if n := d.Find("g use, svg > use").Length(); n != tc.units {
			t.Errorf("%s: the diagram shows %d units, want %d", tc.game, n, tc.units)
		}
		if tc.game == "cards" && d.Find(`rect[fill="url(#back)"]`).Length() != 14 {
			t.Errorf("cards: the diagram shows %d face-down cards, want 14", d.Find(`rect[fill="url(#back)"]`).Length())
		}
	}
}
