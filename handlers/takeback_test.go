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
)

// TestTakebackChallengeForm: the form offers the takeback choice (off by
// default for a rated game, and says so), the list shows it, a bad
// choice is a 400 that creates nothing, and the card game says why it has
// none.
func TestTakebackChallengeForm(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	a.Get("/challenges/new?game=trench")
	a.wantStatus(http.StatusOK)
	if a.Last.Find("select#takebacks option").Length() != 3 || !strings.Contains(a.Last.Find("form[action=\"/challenges\"]").Text(), "Off by default in a rated game") {
		t.Fatal("the challenge form offers no takeback choice, or does not say rated games have none by default")
	}
	a.Get("/challenges/new?game=cards")
	if a.Last.Find("select#takebacks").Length() != 0 || !strings.Contains(a.text("#no-takebacks"), "card has been seen") {
		t.Fatal("the card game's form offers takebacks or does not say why not")
	}
	post := func(extra url.Values) {
		t.Helper()
		v := url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "days": {"3"}, "opponent": {b.Name}}
		for k, x := range extra {
			v[k] = x
		}
		a.Get("/challenges/new?game=trench")
		a.Post("/challenges", v)
	}
	post(url.Values{"takebacks": {"maybe"}})
	a.wantStatus(http.StatusBadRequest)
	au, _ := s.DB.UserByName(context.Background(), "alice")
	if cs, _ := s.DB.ChallengesBy(context.Background(), au.ID); len(cs) != 0 {
		t.Fatalf("a refused challenge was stored: %+v", cs)
	}
	post(url.Values{"rated": {"on"}})
	a.wantStatus(http.StatusOK)
	post(url.Values{"rated": {"on"}, "takebacks": {"on"}})
	a.wantStatus(http.StatusOK)
	post(nil)
	a.wantStatus(http.StatusOK)
	var marks []bool
	a.Last.Find("#my-challenges tr[data-challenge]").Each(func(_ int, r *goquery.Selection) {
		marks = append(marks, strings.Contains(r.Text(), "takebacks"))
	})
	// Newest first: unrated (default on), rated with takebacks, rated.
	if fmt.Sprint(marks) != "[true true false]" {
		t.Fatalf("takebacks marked on the challenges %v, want [true true false]", marks)
	}
}

// TestTakebackFlow: the player who just moved asks (with htmx), the
// opponent accepts (a plain form): the position is back; a second request
// is declined (htmx) and may not be made again for that move. A stranger
// gets a 403, bad input a 4xx, and neither changes the game.
func TestTakebackFlow(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := signedUpPair(t, s)
	carol := s.newClient(t)
	carol.SignUp("carol")
	id := challenge(t, alice, bob, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	ctx := context.Background()
	game := func() db.Game {
		t.Helper()
		g, err := s.DB.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	start := game()
	alice.Get(page)
	if alice.Last.Find("#takeback-ask").Length() != 0 {
		t.Fatal("a takeback is offered before any move")
	}
	clickMove(t, alice, id, func(int) int { return 0 })
	alice.wantStatus(http.StatusOK)
	moved := game()
	if moved.Ply != 1 {
		t.Fatalf("ply %d after alice's move", moved.Ply)
	}
	bob.Get(page)
	if bob.Last.Find("#takeback-ask").Length() != 0 {
		t.Fatal("bob is offered to take back alice's move")
	}

	// Refused requests change nothing.
	carol.Get(page)
	carol.Post(page+"/takeback/ask", url.Values{"ply": {"1"}})
	carol.wantStatus(http.StatusForbidden)
	alice.Get(page)
	alice.Post(page+"/takeback/ask", url.Values{"ply": {"one"}})
	alice.wantStatus(http.StatusBadRequest)
	alice.Get(page)
	alice.Post(page+"/takeback/now", url.Values{"ply": {"1"}})
	alice.wantStatus(http.StatusNotFound)
	bob.Get(page)
	bob.Post(page+"/takeback/accept", url.Values{"ply": {"1"}})
	bob.wantStatus(http.StatusConflict)
	if g := game(); g.Ply != 1 || g.State != moved.State || g.TakebackBy != -1 {
		t.Fatalf("a refused request changed the game: ply %d, asked by %d", g.Ply, g.TakebackBy)
	}

	// Alice asks with JavaScript on: the answer is the fragment.
	alice.HTMX = true
	alice.Get(page)
	alice.Submit(alice.Last.Find("#takeback-ask-form"), nil)
	alice.wantStatus(http.StatusOK)
	if alice.Last.Find("#game").Length() != 1 || alice.Last.Find("#takeback-waiting").Length() != 1 {
		t.Fatal("the htmx answer to the request is not the game saying it waits for the answer")
	}
	alice.HTMX = false
	// Bob, without JavaScript, sees the request and accepts it.
	bob.Get(page)
	if !strings.Contains(bob.text("#takeback-asked"), "take back") {
		t.Fatal("bob is not shown alice's request")
	}
	bob.Submit(bob.Last.Find("#takeback-accept-form"), nil)
	bob.wantStatus(http.StatusOK)
	if !strings.HasSuffix(bob.URL, page) {
		t.Fatalf("accepting without JavaScript did not come back to the game: %s", bob.URL)
	}
	if g := game(); g.Ply != 0 || g.State != start.State || g.Score != start.Score || g.ToMove != start.ToMove {
		t.Fatalf("after the takeback: ply %d state %q, want the start", g.Ply, g.State)
	}
	if bob.Last.Find("#takeback-asked").Length() != 0 || strings.Contains(bob.text("#status"), "Your move") {
		t.Fatal("bob's page still shows the request, or his turn")
	}
	alice.Get(page)
	if alice.text("#status") != "Your move" || alice.Last.Find("#moves li").Length() != 0 {
		t.Fatalf("alice's page after the takeback: %q, %d moves listed", alice.text("#status"), alice.Last.Find("#moves li").Length())
	}

	// Again; bob declines with JavaScript on.
	clickMove(t, alice, id, func(n int) int { return n - 1 })
	alice.Get(page)
	alice.Submit(alice.Last.Find("#takeback-ask-form"), nil)
	alice.wantStatus(http.StatusOK)
	bob.HTMX = true
	bob.Get(page)
	bob.Submit(bob.Last.Find("#takeback-decline-form"), nil)
	bob.wantStatus(http.StatusOK)
	if bob.Last.Find("#game").Length() != 1 || bob.Last.Find("#takeback-asked").Length() != 0 {
		t.Fatal("the htmx answer to declining is not the game without the request")
	}
	bob.HTMX = false
	alice.Get(page)
	if alice.Last.Find("#takeback-declined").Length() != 1 || alice.Last.Find("#takeback-ask").Length() != 0 {
		t.Fatal("alice is not told her request was declined, or may ask again")
	}
	alice.Post(page+"/takeback/ask", url.Values{"ply": {"1"}})
	alice.wantStatus(http.StatusConflict)
	if g := game(); g.Ply != 1 || g.TakebackDeclined != 1 {
		t.Fatalf("after the decline: ply %d, declined %d", g.Ply, g.TakebackDeclined)
	}
}

// TestTakebackCardGame: the card game's page says why there are no
// takebacks, and a forged request is refused.
func TestTakebackCardGame(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "cards", "short", "0")
	page := fmt.Sprintf("/games/%d", id)
	p, g := whoMoves(t, s, id, a, b)
	p.Get(page)
	if !strings.Contains(p.text("#takeback-unavailable"), "card has been seen") || p.Last.Find("#takeback-ask").Length() != 0 {
		t.Fatal("the card game's page does not say why there are no takebacks")
	}
	playRandom(t, s, id, 1)
	for _, c := range []*client{a, b} {
		c.Get(page)
		c.Post(page+"/takeback/ask", url.Values{"ply": {"1"}})
		if c.Status != http.StatusBadRequest && c.Status != http.StatusConflict {
			t.Fatalf("%s's forged request: status %d", c.Name, c.Status)
		}
	}
	if now, _ := s.DB.Game(context.Background(), id); now.Ply != g.Ply+1 || now.TakebackBy != -1 {
		t.Fatalf("a refused request changed the card game: ply %d", now.Ply)
	}
}
