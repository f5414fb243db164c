package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
)

// ask types text in c's move box and sends it, as Enter does; it returns
// what the live region then says.
func ask(t *testing.T, c *client, text string) string {
	t.Helper()
	box := c.Last.Find("#move-box")
	if box.Length() != 1 {
		t.Fatalf("%s: no move box on the page", c.Name)
	}
	c.Submit(box, url.Values{"move": {text}})
	c.wantStatus(http.StatusOK)
	return strings.Join(strings.Fields(c.Last.Find("#board-status").Text()), " ")
}

// TestMoveBoxAnswersQuestions: a player who types a question in the move
// box instead of a move ("where are my Colonels", "read rank 1", "what
// did they capture", "clock", "last move") hears the answer in the live
// region and reads it under the board, with and without JavaScript, in
// English and in French; the game does not change. Trenches answers too.
func TestMoveBoxAnswersQuestions(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := signedUpPair(t, s)
	id := challenge(t, alice, bob, "trench", "single", "0")
	if mover, _ := whoMoves(t, s, id, alice, bob); mover != alice {
		playRandom(t, s, id, 1)
	}
	playRandom(t, s, id, 2)
	g := gamePly(t, s, id)
	side := g.SideOf(mustUser(t, s, "alice"))
	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	v := st.View(side).(trench.BoardView)
	var colonels, rank1 []string
	for sq := trench.Square(0); sq < 64; sq++ {
		u, ok := v.Position.At(sq)
		if ok && u.Side() == side && u.Kind() == trench.Colonel {
			colonels = append(colonels, sq.String())
		}
		if ok && sq.Rank() == 0 {
			rank1 = append(rank1, sq.String())
		}
	}
	colour := map[rules.Side]string{rules.Side0: "Black", rules.Side1: "White"}[side]
	page := fmt.Sprintf("/games/%d", id)

	for _, js := range []bool{false, true} {
		alice.HTMX = js
		alice.Get(page)
		want := colour + " Colonel on " + strings.Join(colonels, ", ") + "."
		if got := ask(t, alice, "Where are my Colonels?"); got != want {
			t.Errorf("js=%v: the live region answers %q, want %q", js, got, want)
		}
		if got := alice.text("#move-answer"); got != want {
			t.Errorf("js=%v: the page shows the answer %q, want %q", js, got, want)
		}
		got := ask(t, alice, "read rank 1")
		if !strings.HasPrefix(got, "Rank 1: ") {
			t.Errorf("js=%v: read rank 1 answers %q", js, got)
		}
		for _, sq := range rank1 {
			if !strings.Contains(got, sq+" ") {
				t.Errorf("js=%v: read rank 1 answers %q, without %s", js, got, sq)
			}
		}
		if got := ask(t, alice, "what did they capture"); !strings.HasPrefix(got, "Your opponent has captured") {
			t.Errorf("js=%v: what did they capture answers %q", js, got)
		}
		if got := ask(t, alice, "clock"); got == "" || got != alice.text("#clock") {
			t.Errorf("js=%v: clock answers %q, the page's clock says %q", js, got, alice.text("#clock"))
		}
		if got := ask(t, alice, "last move"); !strings.HasPrefix(got, "Last move ") || !strings.Contains(got, g.LastMove) {
			t.Errorf("js=%v: last move answers %q, want %s", js, got, g.LastMove)
		}
		if after := gamePly(t, s, id); after.Ply != g.Ply || after.State != g.State {
			t.Fatalf("js=%v: asking changed the game (ply %d → %d)", js, g.Ply, after.Ply)
		}
	}

	// In French, the French words (and accents or not); the answer in French.
	alice.HTMX = false
	alice.Post("/language", url.Values{"lang": {"fr"}})
	alice.Get(page)
	frColour := map[rules.Side]string{rules.Side0: "noir", rules.Side1: "blanc"}[side]
	want := "Colonel " + frColour + " en " + strings.Join(colonels, ", ") + "."
	if got := ask(t, alice, "Où sont mes colonels ?"); got != want {
		t.Errorf("in French the live region answers %q, want %q", got, want)
	}
	if got := ask(t, alice, "lis la rangee 1"); !strings.HasPrefix(got, "Rangée 1 : ") {
		t.Errorf("in French read rank 1 answers %q", got)
	} else {
		t.Logf("lis la rangée 1: %s", got)
	}
	if got := ask(t, alice, "dernier coup"); !strings.HasPrefix(got, "Dernier coup : ") {
		t.Errorf("in French last move answers %q", got)
	}
	alice.Submit(alice.Last.Find("#move-box"), url.Values{"move": {"zz9"}})
	if alice.Status != http.StatusBadRequest && alice.Status != http.StatusUnprocessableEntity {
		t.Errorf("a text that is neither a move nor a question: status %d", alice.Status)
	}
	if after := gamePly(t, s, id); after.Ply != g.Ply {
		t.Fatalf("asking in French changed the game (ply %d → %d)", g.Ply, after.Ply)
	}

	// Trenches: where the Tanks are, and debris on a rank.
	tid := challenge(t, alice, bob, "trenches", "standard", "0")
	mover, _ := whoMoves(t, s, tid, alice, bob)
	tg := gamePly(t, s, tid)
	tst, _ := tg.Decode()
	ms := tg.SideOf(mustUser(t, s, mover.Name))
	tv := tst.View(ms).(trenches.BoardView)
	var tanks []string
	for _, row := range tv.Rows() {
		for _, sq := range row {
			if p := tv.Position.At(sq); p != trenches.Empty && p != trenches.Debris && p.Side() == ms && p.Type() == trenches.Tank {
				tanks = append(tanks, sq.String())
			}
		}
	}
	mover.HTMX = false
	mover.Post("/language", url.Values{"lang": {"en"}})
	mover.Get(fmt.Sprintf("/games/%d", tid))
	if got := ask(t, mover, "where are my tanks"); !strings.HasSuffix(got, " Tank on "+strings.Join(tanks, ", ")+".") {
		t.Errorf("Trenches: where are my tanks answers %q, want the Tanks on %v", got, tanks)
	}
	if got := ask(t, mover, "what did they capture"); !strings.HasPrefix(got, "Nothing is captured in Trenches") {
		t.Errorf("Trenches: what did they capture answers %q", got)
	}
}
