package handlers_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
)

// TestCardsRefillIsOneClick: in the card game a refill with a choice is
// one click without JavaScript, the card that fills the slot: the table
// names the slot being refilled, marks the cards that can fill it and
// submits the refill from that card alone, with no Refill word and no
// slot to click first. Played over refills of a front and a back slot.
func TestCardsRefillIsOneClick(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := signedUpPair(t, s)
	ctx := context.Background()
	players := map[rules.Side]*client{}
	rng := rand.New(rand.NewPCG(5, 32))
	phases := map[cards.Phase]int{}
	for game := 0; game < 6 && (phases[cards.PhaseRefillFront] == 0 || phases[cards.PhaseRefillBack] == 0); game++ {
		id := startRated(t, s, "alice", "bob", "cards", "short")
		g, err := s.DB.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		players[g.SideOf(mustUser(t, s, "alice"))], players[g.SideOf(mustUser(t, s, "bob"))] = alice, bob
		page := fmt.Sprintf("/games/%d", id)
		for i := 0; i < 200 && !g.Finished(); i++ {
			st, err := g.Decode()
			if err != nil {
				t.Fatal(err)
			}
			cs := st.(*cards.State)
			legal := st.Legal(g.ToMove)
			phase := cs.Phase()
			if phase == cards.PhaseAction || len(legal) < 2 {
				// Attack when possible, to bring refills about.
				move := legal[rng.IntN(len(legal))]
				for _, m := range legal {
					if strings.HasPrefix(m, "attack ") {
						move = m
					}
				}
				if g, err = s.DB.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: move}, s.Clock.Now()); err != nil {
					t.Fatal(err)
				}
				continue
			}
			// A refill with a choice: the player opens the game page and
			// clicks until the refill is made.
			slot := cs.ViewFor(g.ToMove).RefillSlot
			c := players[g.ToMove]
			c.HTMX = false
			c.Get(page)
			c.wantStatus(http.StatusOK)
			stage := c.text("#stage")
			loads := 0
			for ; loads < 5; loads++ {
				board := c.Last.Find("#board")
				if b := board.Find(`.cards-table button[name="move"].target`); b.Length() > 0 {
					if b.Length() != len(legal) {
						t.Fatalf("%d cards are offered to refill %s, want %d (%v)", b.Length(), slot, len(legal), legal)
					}
					move, _ := b.Eq(rng.IntN(b.Length())).Attr("value")
					c.Submit(board, url.Values{"move": {move}})
					c.wantStatus(http.StatusOK)
					loads++
					break
				}
				link := board.Find(`#cards-actions a[data-click="refill"]`)
				if link.Length() == 0 {
					link = board.Find(`.cards-table a.target`)
				}
				if link.Length() == 0 {
					html, _ := board.Html()
					t.Fatalf("nothing to click to refill %s: %.2000s", slot, html)
				}
				c.Click(link.First())
				c.wantStatus(http.StatusOK)
			}
			after, err := s.DB.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if after.Ply != g.Ply+1 || !strings.HasPrefix(after.LastMove, "refill "+slot+" ") {
				t.Fatalf("after the clicks the game is at ply %d with %q, want the refill of %s", after.Ply, after.LastMove, slot)
			}
			if loads != 1 {
				t.Fatalf("refilling %s took %d page loads after the game page, want 1", slot, loads)
			}
			if want := "Refill " + slot + ": click the card that goes there."; stage != want {
				t.Fatalf("in phase %s the table says %q, want %q", phase, stage, want)
			}
			phases[phase]++
			g = after
		}
	}
	if phases[cards.PhaseRefillFront] == 0 || phases[cards.PhaseRefillBack] == 0 {
		t.Fatalf("refills played by click: %v, want front and back ones", phases)
	}
	t.Logf("refills played in one click each: %v", phases)
}
