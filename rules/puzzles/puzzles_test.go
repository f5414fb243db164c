package puzzles

import (
	"errors"
	"slices"
	"testing"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	_ "github.com/trench-games/trench/rules/trench/bot"
	_ "github.com/trench-games/trench/rules/trenches/bot"
)

// TestSolve: positions with one clearly best line give that line and its
// themes; positions where several moves are as good give none.
func TestSolve(t *testing.T) {
	for _, tc := range []struct {
		name, game, variant, pos string
		line                     []string // nil: rejected
		why                      string
		themes                   []string
	}{
		{name: "race to the target", game: "trench", variant: "single", pos: "c7/8/r7/3c4/8/2C5/a5G1/6C1 b 4 23 23",
			line: []string{"d5-g5", "g1-f1", "g5xg2"}, themes: []string{ThemeRace, ThemeWin}},
		{name: "double capture from the trench", game: "trench", variant: "single", pos: "r2S2C1/2A5/1RR1SSR1/a1ASS1S1/1s1sC2A/2s2G2/1a1s4/g1cc1ra1 w 7 2 6",
			line: []string{"f3-h1", "d1-f3", "h1xc1"}, themes: []string{ThemeDoubleCapture, ThemeTrenchCapture}},
		{name: "TRENCH start", game: "trench", variant: "single", pos: "", why: RejectNotUnique},
		{name: "blocking", game: "trenches", variant: "standard", pos: "3x2t1x1/1St1x1S2x/3x1xxx2/t1xxxx1x1x/3xsS1xt1/1T1xx5/x1xxxx1xTx/1sx2xxxs1/1x1T1sT1xx/xS1x2x1x1 l",
			line: []string{"f6-f5/f6"}, themes: []string{ThemeBlocking}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng, _ := rules.Lookup(tc.game)
			var st rules.State
			var err error
			if tc.pos == "" {
				st, err = eng.Start(rules.GameSpec{Variant: tc.variant}, 1)
			} else {
				st, err = eng.Decode(tc.variant, tc.pos)
			}
			if err != nil {
				t.Fatal(err)
			}
			g, err := New(tc.game, tc.variant, 1)
			if err != nil {
				t.Fatal(err)
			}
			p, why, err := g.Solve(st, 1)
			if err != nil {
				t.Fatal(err)
			}
			if tc.line == nil {
				if why != tc.why {
					t.Fatalf("rejected for %q, want %q (line %v)", why, tc.why, p.Solution)
				}
				return
			}
			if why != "" || !slices.Equal(p.Solution, tc.line) || !slices.Equal(p.Themes, tc.themes) {
				t.Fatalf("got %v %v (%q), want %v %v", p.Solution, p.Themes, why, tc.line, tc.themes)
			}
			if p.SolverMoves() != (len(tc.line)+1)/2 || !p.Check(0, tc.line[0]) || p.Check(1, tc.line[0]) || p.Check(0, "a1-a2") {
				t.Fatalf("solver moves %d, checks wrong", p.SolverMoves())
			}
			// The solution plays from the stored position.
			s, err := p.Start()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range p.Solution {
				if s, err = s.Apply(m); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestFindSelfPlay: a self-play game at the easy level is replayed the
// same from its seed and gives puzzles whose lines are legal, one to five
// solver moves long, each from a position of the game.
func TestFindSelfPlay(t *testing.T) {
	states, err := SelfPlay("trench", "single", bot.Easy, 3)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := SelfPlay("trench", "single", bot.Easy, 3)
	if len(again) != len(states) || again[len(again)-1].Encode() != states[len(states)-1].Encode() {
		t.Fatal("the same seed played another game")
	}
	g, _ := New("trench", "single", 1)
	ps, st, err := g.Find(states)
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions == 0 || st.Candidates < st.Accepted+st.NotUnique || len(ps) != st.Accepted || len(ps) == 0 {
		t.Fatalf("stats %+v, %d puzzles", st, len(ps))
	}
	for _, p := range ps {
		if p.SolverMoves() < 1 || p.SolverMoves() > 5 || len(p.Solution)%2 != 1 || states[p.Ply].Encode() != p.Position {
			t.Fatalf("puzzle %+v", p)
		}
	}
}

// TestNoCards: the card game has no puzzles.
func TestNoCards(t *testing.T) {
	if _, err := New("cards", "", 1); !errors.Is(err, ErrGame) {
		t.Fatalf("cards: %v", err)
	}
	if HasPuzzles("cards") || len(Themes("cards")) != 0 {
		t.Fatal("cards listed")
	}
}

// TestFindTakesKnownScores: the positions whose values an analysis gave
// are not searched again: a game whose analysis says every position is
// even gives no candidate, where its own scan finds puzzles.
func TestFindTakesKnownScores(t *testing.T) {
	states, err := SelfPlay("trench", "single", bot.Easy, 3)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := New("trench", "single", 1)
	g.Scores = map[int]int{}
	for i := range states {
		g.Scores[i] = 0
	}
	ps, st, err := g.Find(states)
	if err != nil || st.Candidates != 0 || len(ps) != 0 || st.Positions == 0 {
		t.Fatalf("with even scores: %+v, %d puzzles, %v", st, len(ps), err)
	}
}
