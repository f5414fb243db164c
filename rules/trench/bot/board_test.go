package bot

import (
	"slices"
	"testing"

	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trench"
)

// TestBoardMatchesRules plays random games and checks at every ply that
// the search's move generator, captures-only generator and apply agree
// with the rules: the same moves, the same positions after them, the
// same hash as a board built afresh.
func TestBoardMatchesRules(t *testing.T) {
	rng := bot.NewRand(11)
	for range 15 {
		p := trench.Start()
		for ply := 0; ply < 300 && !p.Outcome(trench.RulesetMatch).Over; ply++ {
			b := newBoard(p)
			var want []string
			for _, m := range p.LegalMoves() {
				want = append(want, m.String())
			}
			ms := b.gen(nil, false)
			var got, caps []string
			for _, m := range ms {
				got = append(got, m.String())
				if m.ncap > 0 {
					caps = append(caps, m.String())
				}
			}
			var gotCaps []string
			for _, m := range b.gen(nil, true) {
				gotCaps = append(gotCaps, m.String())
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: moves %v, want %v", p, got, want)
			}
			if !slices.Equal(gotCaps, caps) {
				t.Fatalf("%s: captures %v, want %v", p, gotCaps, caps)
			}
			for _, m := range ms {
				rm, err := p.ParseMove(m.String())
				if err != nil {
					t.Fatal(err)
				}
				q, _ := p.Apply(rm)
				c := b.apply(m)
				fresh := newBoard(q)
				fresh.gained = c.gained
				if c != fresh {
					t.Fatalf("%s: after %s the board differs from the rules' %s", p, m, q)
				}
				if !b.legal(m) {
					t.Fatalf("%s: %s not legal", p, m)
				}
			}
			if b.hasMove() != p.HasLegalMove() {
				t.Fatalf("%s: hasMove %v", p, b.hasMove())
			}
			rm := p.LegalMoves()
			p, _ = p.Apply(rm[rng.IntN(len(rm))])
		}
	}
}
