package handlers_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

// TestCardsLiveRegionSaysWhatHappened: the card table's live region (what
// a screen reader announces) says what the opponent did on its turn: the
// battle of an attack with both cards and its outcome, the card a recon
// turned up, in the reader's language; the attacker hears its own battle
// too while it refills.
func TestCardsLiveRegionSaysWhatHappened(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := signedUpPair(t, s)
	ctx := context.Background()
	// play has bob take the action want as soon as he may, and the others
	// play anything else; it returns once bob has taken it.
	play := func(id int64, want string) {
		t.Helper()
		g, err := s.DB.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(id), 7))
		for i := 0; i < 400 && !g.Finished(); i++ {
			st, _ := g.Decode()
			legal := st.Legal(g.ToMove)
			var move string
			var others []string
			for _, m := range legal {
				switch {
				case g.ToMove == rules.Side1 && strings.HasPrefix(m, want):
					move = m
				case !strings.HasPrefix(m, "attack") && !strings.HasPrefix(m, "recon"):
					others = append(others, m)
				}
			}
			if move == "" {
				if len(others) == 0 {
					others = legal
				}
				move = others[rng.IntN(len(others))]
			}
			if g, err = s.DB.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: move}, s.Clock.Now()); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(move, want) && g.ToMove != rules.NoSide {
				return
			}
		}
		t.Fatalf("game %d: bob never could %s", id, want)
	}
	status := func(c *client, id int64) string {
		t.Helper()
		c.Get(fmt.Sprintf("/games/%d", id))
		return strings.Join(strings.Fields(c.Last.Find("#board-status").Text()), " ")
	}

	attack := startRated(t, s, "alice", "bob", "cards", "short")
	play(attack, "attack")
	if got := status(alice, attack); !strings.Contains(got, "Battle at F") || !strings.Contains(got, "your opponent attacked") ||
		!strings.Contains(got, " of ") || (!strings.Contains(got, "wins") && !strings.Contains(got, "tie")) {
		t.Errorf("after bob's attack alice's live region says %q, want the battle, its cards and its outcome", got)
	}
	if got := status(bob, attack); !strings.Contains(got, "Battle at F") || !strings.Contains(got, "you attacked") {
		t.Errorf("after his attack bob's live region says %q, want his battle", got)
	}

	recon := startRated(t, s, "alice", "bob", "cards", "short")
	play(recon, "recon")
	if got := status(alice, recon); !strings.Contains(got, "Your opponent turned up your ") || !strings.Contains(got, " of ") {
		t.Errorf("after bob's recon alice's live region says %q, want the card he turned up", got)
	}
	alice.Post("/language", map[string][]string{"lang": {"fr"}})
	if got := status(alice, recon); !strings.Contains(got, "Votre adversaire a retourné votre carte") {
		t.Errorf("in French, after bob's recon alice's live region says %q", got)
	}
}
