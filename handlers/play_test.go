package handlers_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

// challenge makes a challenge from a to b and has b accept it from the
// dashboard; it returns the first game's id.
func challenge(t *testing.T, a, b *client, game, variant, color string) int64 {
	t.Helper()
	a.Get("/challenges/new?game=" + game)
	a.wantStatus(http.StatusOK)
	a.Post("/challenges", url.Values{"game": {game}, "variant": {variant}, "color": {color}, "days": {"3"}, "opponent": {b.Name}})
	a.wantStatus(http.StatusOK)
	if a.Last.Find("#my-challenges tr[data-challenge]").Length() == 0 {
		t.Fatalf("the new challenge is not on %s's dashboard", a.Name)
	}
	b.Get("/")
	row := b.Last.Find("#open-challenges tr[data-challenge]").First()
	id, ok := row.Attr("data-challenge")
	if !ok {
		t.Fatalf("%s does not see the challenge", b.Name)
	}
	b.Post("/challenges/"+id+"/accept", nil)
	b.wantStatus(http.StatusOK)
	return gameIDOf(t, b.URL)
}

// clickMove plays one move the way a person does on the game page: click
// one of the selectable units, then one of its destinations. pick chooses
// among the candidates. It returns the move submitted.
func clickMove(t *testing.T, c *client, gameID int64, pick func(n int) int) string {
	t.Helper()
	page := fmt.Sprintf("/games/%d", gameID)
	c.Get(page)
	c.wantStatus(http.StatusOK)
	for step := 0; step < 8; step++ {
		buttons := c.Last.Find(`#board button[name="move"]`)
		if buttons.Length() > 0 { // a completing click (the card game's refill is one)
			b := buttons.Eq(pick(buttons.Length()))
			move, _ := b.Attr("value")
			c.Submit(c.Last.Find("#board"), url.Values{"move": {move}})
			return move
		}
		links := c.Last.Find(`#board a[data-click]`)
		if actions := c.Last.Find(`#cards-actions a[data-click]`); actions.Length() > 0 {
			links = actions // the card game: an action first
		}
		if step > 0 && c.Last.Find(`#board a[data-click].target`).Length() > 0 {
			links = c.Last.Find(`#board a[data-click].target`)
		}
		if links.Length() == 0 {
			html, _ := c.Last.Find("#game").Html()
			t.Fatalf("%s: nothing to click on the board of game %d: %.800s", c.Name, gameID, html)
		}
		c.Click(links.Eq(pick(links.Length())))
		c.wantStatus(http.StatusOK)
	}
	t.Fatalf("%s: no move after eight clicks", c.Name)
	return ""
}

func signedUpPair(t *testing.T, s *server) (*client, *client) {
	a, b := s.newClient(t), s.newClient(t)
	a.SignUp("alice")
	b.SignUp("bob")
	return a, b
}

// whoMoves returns the client to move in game id.
func whoMoves(t *testing.T, s *server, id int64, players ...*client) (*client, db.Game) {
	t.Helper()
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Finished() {
		return nil, g
	}
	for _, p := range players {
		if p.Name == g.Side[g.ToMove].Name {
			return p, g
		}
	}
	t.Fatalf("nobody to move in game %d", id)
	return nil, g
}

// TestPlayWholeGameByClicks plays whole games through the browser's
// clicks, one of each game: one player with JavaScript on (htmx's
// requests), the other with plain links and forms.
func TestPlayWholeGameByClicks(t *testing.T) {
	for _, tc := range []struct{ game, variant string }{
		{"trench", "single"},
		{"trenches", "standard"},
	} {
		t.Run(tc.game, func(t *testing.T) { playWholeGame(t, tc.game, tc.variant) })
	}
}

func playWholeGame(t *testing.T, game, variant string) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	b.HTMX = true
	id := challenge(t, a, b, game, variant, "0")
	rng := rand.New(rand.NewPCG(7, 7))
	pick := func(n int) int { return rng.IntN(n) }
	plies := 0
	for ; plies < 2000; plies++ {
		p, g := whoMoves(t, s, id, a, b)
		if p == nil {
			break
		}
		move := clickMove(t, p, id, pick)
		p.wantStatus(http.StatusOK)
		if p.HTMX {
			if p.Last.Find("html").Length() != 0 && p.Last.Find("nav.top").Length() != 0 {
				t.Fatal("an htmx move got a full page, want the #game fragment")
			}
			if p.Last.Find("#game").Length() != 1 {
				t.Fatal("an htmx move did not answer with the #game fragment")
			}
			if badge := p.Last.Find("#turn-badge[hx-swap-oob]"); badge.Text() != "0" {
				t.Fatalf("after moving in their only game the turn count is %q, want 0", badge.Text())
			}
			if _, hidden := p.Last.Find("#turn-badge[hx-swap-oob]").Attr("hidden"); !hidden {
				t.Fatal("with no game waiting, the navigation shows a badge with 0")
			}
		}
		after, err := s.DB.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if after.Ply != g.Ply+1 || after.LastMove != move {
			t.Fatalf("after %s: ply %d last %q, want ply %d last %q", move, after.Ply, after.LastMove, g.Ply+1, move)
		}
	}
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Finished() {
		t.Fatalf("game not over after %d plies", plies)
	}
	t.Logf("game over after %d plies: %s %d–%d", plies, g.Reason, g.Score[0], g.Score[1])
	// Both players see the result; the winner's page says so.
	assertResultShown(t, s, id, a, b)
	assertReplay(t, s, id)
}

func mustUser(t *testing.T, s *server, name string) int64 {
	u, err := s.DB.UserByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// storedGame reads game id, its moves and its start state from the
// server's database.
func storedGame(t *testing.T, s *server, id int64) (db.Game, []db.Move, rules.State) {
	t.Helper()
	ctx := context.Background()
	g, err := s.DB.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := s.DB.Moves(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := g.Engine()
	if err != nil {
		t.Fatal(err)
	}
	st, err := eng.Decode(g.Variant, g.StartState)
	if err != nil {
		t.Fatal(err)
	}
	return g, moves, st
}

// assertReplay checks that the stored position equals the replay of the
// stored moves from the stored start.
func assertReplay(t *testing.T, s *server, id int64) {
	t.Helper()
	g, moves, st := storedGame(t, s, id)
	var err error
	for i, m := range moves {
		if m.Ply != i+1 {
			t.Fatalf("move %d has ply %d", i+1, m.Ply)
		}
		if st, err = st.Apply(m.Move); err != nil {
			t.Fatalf("replay ply %d %s: %v", m.Ply, m.Move, err)
		}
	}
	if st.Encode() != g.State || len(moves) != g.Ply {
		t.Fatalf("stored state %q at ply %d, replay gives %q at %d", g.State, g.Ply, st.Encode(), len(moves))
	}
}

// resign resigns game id as c through the confirmation step.
func resign(t *testing.T, c *client, id int64) {
	t.Helper()
	c.Get(fmt.Sprintf("/games/%d", id))
	href, ok := c.Last.Find("#resign").Attr("href")
	if !ok {
		t.Fatalf("%s has no resign link", c.Name)
	}
	c.Get(href)
	form := c.Last.Find("#confirm-resign")
	if form.Length() == 0 {
		t.Fatal("no confirmation form")
	}
	c.Submit(form, url.Values{"confirm": {"yes"}})
	c.wantStatus(http.StatusOK)
}

// TestOfficialMatchWithDecider plays the official match through HTTP:
// game 1 and game 2 end by resignation so that the totals are equal, the
// decider starts by itself, and a move then an armistice ends it.
func TestOfficialMatchWithDecider(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	a.HTMX = true
	id1 := challenge(t, a, b, "trench", "match", "0") // alice is Black in game 1
	b.Get(fmt.Sprintf("/games/%d", id1))
	if got := b.Last.Find("#match tr").Length(); got < 2 {
		t.Fatalf("match panel rows = %d", got)
	}
	resign(t, a, id1) // alice resigns game 1: bob gets her 72 points
	g1, _ := s.DB.Game(context.Background(), id1)
	if !g1.Finished() || g1.Winner != rules.Side1 || g1.Score != [2]int{0, 72} {
		t.Fatalf("game 1 after resignation: %+v", g1)
	}
	next, ok := a.Last.Find("#next-game").Attr("href")
	if !ok {
		t.Fatal("no link to game 2 after game 1 ended")
	}
	id2 := gameIDOf(t, next)
	g2, _ := s.DB.Game(context.Background(), id2)
	if g2.Side[0].Name != "bob" || g2.Side[1].Name != "alice" || g2.Number != 2 {
		t.Fatalf("game 2 colours not swapped: %+v", g2.Side)
	}
	resign(t, b, id2) // bob resigns game 2: totals 72–72
	a.Get(fmt.Sprintf("/games/%d", id2))
	next, ok = a.Last.Find("#next-game").Attr("href")
	if !ok {
		t.Fatal("no decider after equal totals")
	}
	id3 := gameIDOf(t, next)
	g3, _ := s.DB.Game(context.Background(), id3)
	if g3.Variant != "decider" || g3.Number != 3 {
		t.Fatalf("third game is %q #%d, want the decider", g3.Variant, g3.Number)
	}
	p, _ := whoMoves(t, s, id3, a, b)
	rng := rand.New(rand.NewPCG(1, 2))
	clickMove(t, p, id3, func(n int) int { return rng.IntN(n) })
	p.wantStatus(http.StatusOK)
	// Armistice: offer, then the opponent accepts; points are counted.
	other := a
	if p == a {
		other = b
	}
	p.Get(fmt.Sprintf("/games/%d", id3))
	p.Post(fmt.Sprintf("/games/%d/armistice/offer", id3), url.Values{"ply": {"1"}})
	p.wantStatus(http.StatusOK)
	other.Get(fmt.Sprintf("/games/%d", id3))
	if !strings.Contains(other.text("#side"), "offers an armistice") {
		t.Fatal("the opponent does not see the armistice offer")
	}
	other.Post(fmt.Sprintf("/games/%d/armistice/accept", id3), url.Values{"ply": {"1"}})
	other.wantStatus(http.StatusOK)
	m, err := s.DB.Match(context.Background(), g3.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != "finished" || m.Winner != -1 {
		t.Fatalf("match after a drawn decider: %+v", m)
	}
	other.Get(fmt.Sprintf("/games/%d", id3))
	if got := other.text("#match-result"); !strings.Contains(got, "drawn") {
		t.Fatalf("match result shown: %q", got)
	}
}

// TestConcurrentSubmissionsMoveOnce submits the same move many times at
// once: exactly one is applied, the others get 409 and the current board.
func TestConcurrentSubmissionsMoveOnce(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	a.Get(fmt.Sprintf("/games/%d", id))
	tok, _ := a.Last.Find(`input[name="_csrf"]`).Attr("value")
	const n = 24
	codes := make(chan int, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		go func() {
			<-start
			form := url.Values{"ply": {"0"}, "move": {"d4-d5"}, "_csrf": {tok}}
			req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/games/%d/move", s.URL, id), strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("HX-Request", "true")
			res, err := a.http.Do(req)
			if err != nil {
				codes <- -1
				return
			}
			res.Body.Close()
			codes <- res.StatusCode
		}()
	}
	close(start)
	count := map[int]int{}
	for i := 0; i < n; i++ {
		count[<-codes]++
	}
	if count[http.StatusOK] != 1 || count[http.StatusConflict] != n-1 {
		t.Fatalf("status counts %v, want one 200 and %d × 409", count, n-1)
	}
	moves, err := s.DB.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 || moves[0].Move != "d4-d5" {
		t.Fatalf("stored moves %+v, want exactly d4-d5", moves)
	}
	assertReplay(t, s, id)
}

// TestRefusedActionsChangeNothing: every wrong submission gets a clear
// 4xx and leaves the game as it was.
func TestRefusedActionsChangeNothing(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	eve := s.newClient(t)
	eve.SignUp("eve")
	visitor := s.newClient(t)
	id := challenge(t, a, b, "trench", "single", "0") // alice (Black) moves first
	path := fmt.Sprintf("/games/%d/move", id)
	a.Get(fmt.Sprintf("/games/%d", id))
	b.Get(fmt.Sprintf("/games/%d", id))
	eve.Get(fmt.Sprintf("/games/%d", id))
	visitor.Get(fmt.Sprintf("/games/%d", id))
	visitor.wantStatus(http.StatusOK)
	cases := []struct {
		name string
		c    *client
		form url.Values
		want int
		msg  string
	}{
		{"not your turn", b, url.Values{"ply": {"0"}, "move": {"e5-e4"}}, http.StatusForbidden, "not your turn"},
		{"not your game", eve, url.Values{"ply": {"0"}, "move": {"d4-d5"}}, http.StatusForbidden, "not playing"},
		{"malformed move", a, url.Values{"ply": {"0"}, "move": {"d4-zz"}}, http.StatusBadRequest, "square"},
		{"illegal move", a, url.Values{"ply": {"0"}, "move": {"d4-d7"}}, http.StatusUnprocessableEntity, "illegal"},
		{"stale ply", a, url.Values{"ply": {"5"}, "move": {"d4-d5"}}, http.StatusConflict, "moved on"},
		{"no ply", a, url.Values{"move": {"d4-d5"}}, http.StatusBadRequest, "ply"},
		{"no move", a, url.Values{"ply": {"0"}}, http.StatusBadRequest, "No move"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Post(path, tc.form)
			tc.c.wantStatus(tc.want)
			if !strings.Contains(strings.ToLower(tc.c.Last.Text()), strings.ToLower(tc.msg)) {
				t.Errorf("answer does not mention %q", tc.msg)
			}
		})
	}
	// A signed-out visitor gets 401 (the visitor has a CSRF cookie from
	// the game page).
	visitor.Post(path, url.Values{"ply": {"0"}, "move": {"d4-d5"}})
	visitor.wantStatus(http.StatusUnauthorized)
	// Without the CSRF token: 403.
	a.PostRaw(path, url.Values{"ply": {"0"}, "move": {"d4-d5"}})
	a.wantStatus(http.StatusForbidden)
	// A 409 shows the current board and the reason.
	a.Get(fmt.Sprintf("/games/%d", id))
	a.Post(path, url.Values{"ply": {"3"}, "move": {"d4-d5"}})
	if a.Last.Find("#board").Length() != 1 || a.Last.Find("#game-message").Length() != 1 {
		t.Error("a stale submission does not show the current board with a message")
	}
	if g, _ := s.DB.Game(context.Background(), id); g.Ply != 0 {
		t.Fatalf("a refused action changed the game: ply %d", g.Ply)
	}
	// Bad ids and paths.
	for _, p := range []string{"/games/abc", "/games/999", "/games/-1", "/matches/77"} {
		a.Get(p)
		a.wantStatus(http.StatusNotFound)
	}
	// A finished game refuses moves with 409.
	resign(t, a, id)
	b.Get(fmt.Sprintf("/games/%d", id))
	b.Post(path, url.Values{"ply": {"0"}, "move": {"e5-e4"}})
	b.wantStatus(http.StatusConflict)
}

// TestTimeoutEndsGame: when the time to move runs out the player's
// vacation allowance is used first (their opponent sees it); when that is
// gone too, the background job ends the game as the rules count a timeout.
func TestTimeoutEndsGame(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	a.Get(fmt.Sprintf("/games/%d", id))
	if !strings.Contains(a.text("#clock"), "3 days") {
		t.Fatalf("clock shows %q, want 3 days", a.text("#clock"))
	}
	hour := time.Hour
	s.Clock.Advance(71 * hour)
	if n, err := s.DB.ExpireGames(context.Background(), s.Clock.Now()); err != nil || n != 0 {
		t.Fatalf("expired %d (%v) before the deadline", n, err)
	}
	s.Clock.Advance(2 * hour)
	if n, err := s.DB.ExpireGames(context.Background(), s.Clock.Now()); err != nil || n != 0 {
		t.Fatalf("expired %d (%v) although alice had vacation left", n, err)
	}
	b.Get(fmt.Sprintf("/games/%d", id))
	if notice := b.text(".vacation"); !strings.Contains(notice, "alice is on vacation") {
		t.Fatalf("bob does not see alice's vacation: %q", notice)
	}
	if !strings.Contains(b.text("#clock"), "stopped") {
		t.Fatalf("clock during the vacation: %q", b.text("#clock"))
	}
	s.Clock.Advance(20 * 24 * hour)
	if n, err := s.DB.ExpireGames(context.Background(), s.Clock.Now()); err != nil || n != 1 {
		t.Fatalf("expired %d (%v) after the deadline and the vacation, want 1", n, err)
	}
	g, _ := s.DB.Game(context.Background(), id)
	if g.Winner != rules.Side1 || g.Reason != rules.ReasonTimeout || g.Score[1] != 72 {
		t.Fatalf("after a timeout: winner %d reason %q score %v", g.Winner, g.Reason, g.Score)
	}
	a.Get(fmt.Sprintf("/games/%d", id))
	if !strings.Contains(a.text("#status"), "You lost") {
		t.Fatalf("status %q", a.text("#status"))
	}
}

// TestRestartKeepsEverything restarts the server on the same database in
// the middle of a game: players stay signed in and the game goes on.
func TestRestartKeepsEverything(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(n int) int { return rng.IntN(n) }
	for i := 0; i < 6; i++ {
		p, _ := whoMoves(t, s, id, a, b)
		clickMove(t, p, id, pick)
	}
	before, _ := s.DB.Game(context.Background(), id)
	s.Stop()
	s2 := startServer(t, s.Path, s.Clock)
	a.moveTo(s2)
	b.moveTo(s2)
	after, err := s2.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.State != before.State || after.Ply != 6 {
		t.Fatalf("after restart: ply %d state %q, want ply 6 %q", after.Ply, after.State, before.State)
	}
	a.Get("/")
	if !strings.Contains(a.text("nav.top"), "alice") {
		t.Fatal("alice is signed out after a restart")
	}
	for i := 0; i < 4; i++ {
		p, _ := whoMoves(t, s2, id, a, b)
		clickMove(t, p, id, pick)
		p.wantStatus(http.StatusOK)
	}
	assertReplay(t, s2, id)
}

// TestLivePoll: the poll answers 204 while nothing changed and the fresh
// fragment once the opponent moved.
func TestLivePoll(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	b.HTMX = true
	b.Get(fmt.Sprintf("/games/%d", id))
	poll, ok := b.Last.Find("#poll").Attr("hx-get")
	if !ok {
		t.Fatal("no poll on an active game page")
	}
	b.get(poll, true)
	b.wantStatus(http.StatusNoContent)
	clickMove(t, a, id, func(int) int { return 0 })
	b.get(poll, true)
	b.wantStatus(http.StatusOK)
	if !strings.Contains(b.text("#status"), "Your move") {
		t.Fatalf("after the opponent's move the page says %q", b.text("#status"))
	}
	if b.Last.Find(`#board a[data-click]`).Length() == 0 {
		t.Fatal("the refreshed board offers no unit to move")
	}
}
