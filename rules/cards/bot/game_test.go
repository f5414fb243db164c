package bot

import (
	"slices"
	"testing"

	"github.com/trench-games/trench/rules"
	rbot "github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/cards"
)

// normal is g with its hands sorted (a hand is a set).
func normal(g game) game {
	for t := range g.p {
		p := &g.p[t]
		slices.Sort(p.hand[:p.nh])
		clear(p.hand[p.nh:])
		clear(p.deck[p.nd:])
	}
	return g
}

func loaded(t *testing.T, st *cards.State) game {
	t.Helper()
	var g game
	if err := g.load(st.ViewFor(rules.Reveal)); err != nil {
		t.Fatal(err)
	}
	return g
}

// The playout copy of the rules makes the same moves, with the same
// consequences, as package cards, step by step through random games.
func TestGameFollowsTheRules(t *testing.T) {
	for _, variant := range []string{cards.VariantShort, cards.VariantLong} {
		for seed := int64(1); seed <= 60; seed++ {
			st, err := cards.New(variant, seed)
			if err != nil {
				t.Fatal(err)
			}
			r := rbot.NewRand(seed)
			for ply := 0; ply < 400 && !st.Result().Over; ply++ {
				g := loaded(t, st)
				var got []string
				for _, m := range g.legal(nil) {
					got = append(got, m.String())
				}
				slices.Sort(got)
				want := st.Legal(st.Turn())
				if !slices.Equal(got, want) {
					t.Fatalf("%s seed %d ply %d: moves %v, want %v\n%s", variant, seed, ply, got, want, st.Encode())
				}
				ms := g.legal(nil)
				m := ms[r.IntN(len(ms))]
				next, err := st.ApplyMove(m.String())
				if err != nil {
					t.Fatal(err)
				}
				g.play(m)
				if normal(g) != normal(loaded(t, next)) {
					t.Fatalf("%s seed %d ply %d: after %s\n got %+v\nwant %+v", variant, seed, ply, m, g, loaded(t, next))
				}
				if over, w := g.over(); over != next.Result().Over || over && rules.Side(w) != next.Result().Winner && !(w == -1 && next.Result().Winner == rules.NoSide) {
					t.Fatalf("%s seed %d ply %d: over %v %d, want %+v", variant, seed, ply, over, w, next.Result())
				}
				st = next
			}
		}
	}
}
