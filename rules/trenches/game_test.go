package trenches

import (
	"math/rand/v2"
	"testing"

	"github.com/trench-games/trench/rules"
)

// TestRandomGames plays seeded random games to the end and checks the
// invariants of every ply and the result at the end (spec, "End and
// score").
func TestRandomGames(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 100
	}
	rng := rand.New(rand.NewPCG(2024, 10))
	longest, lightWins := 0, 0
	for g := range games {
		p := Start()
		ply := 0
		for {
			s := p.String()
			if q, err := ParsePosition(s); err != nil || q != p {
				t.Fatalf("game %d ply %d: round trip of %s: %v", g, ply, s, err)
			}
			if p.Debris().Len() != ply {
				t.Fatalf("game %d ply %d: %d Debris", g, ply, p.Debris().Len())
			}
			for _, side := range []rules.Side{rules.Side0, rules.Side1} {
				if p.Pieces(side, Tank).Len() != 4 || p.Pieces(side, Soldier).Len() != 4 {
					t.Fatalf("game %d ply %d: piece count changed: %s", g, ply, s)
				}
			}
			if want := rules.Side(ply % 2); p.Turn() != want {
				t.Fatalf("game %d ply %d: %v to move", g, ply, p.Turn())
			}
			if p.Occupied().Len() != 16+ply {
				t.Fatalf("game %d ply %d: occupied %d", g, ply, p.Occupied().Len())
			}
			moves := p.LegalMoves()
			r := p.Result()
			if len(moves) == 0 {
				break
			}
			if r.Over || r.Winner != rules.NoSide {
				t.Fatalf("game %d ply %d: result %+v with %d moves", g, ply, r, len(moves))
			}
			if r.Score[p.Turn()] == 0 {
				t.Fatalf("game %d ply %d: running score %v for the side with moves", g, ply, r.Score)
			}
			p = p.Apply(moves[rng.IntN(len(moves))])
			ply++
		}
		// The side to move has lost.
		loser := p.Turn()
		winner := loser.Other()
		n := naiveParse(p.String())
		if len(n.moves()) != 0 || p.HasLegalMove() || p.CountLegalMoves() != 0 {
			t.Fatalf("game %d: loser %v can move in %s", g, loser, p)
		}
		r := p.Result()
		want := rules.Result{Over: true, Winner: winner, Reason: rules.ReasonNoMove}
		want.Score[winner] = len(n.mobile(winner == rules.Side1))
		if r != want {
			t.Fatalf("game %d: Result %+v, want %+v in %s", g, r, want, p)
		}
		if r.Score[winner] > 8 || ply > 84 {
			t.Fatalf("game %d: score %v after %d plies", g, r.Score, ply)
		}
		longest = max(longest, ply)
		if winner == rules.Side0 {
			lightWins++
		}
	}
	t.Logf("%d games, longest %d plies, Light won %d", games, longest, lightWins)
}

// TestResultEnd pins results of finished positions.
func TestResultEnd(t *testing.T) {
	tests := []struct {
		name string
		pos  Position
		want rules.Result
	}{
		{
			// Light's only piece is walled in; Dark's Tank and Soldier can
			// both move.
			"Light walled in",
			build("l", "Ta1", "xa2", "xb2", "xb1", "tj10", "se5"),
			rules.Result{Over: true, Winner: rules.Side1, Score: [2]int{0, 2}, Reason: rules.ReasonNoMove},
		},
		{
			// Dark to move with only a stuck Soldier: Light wins and scores
			// its free Tanks b1 and e5; its walled-in Soldiers j1 and j9
			// do not count.
			"Dark stuck, partial score",
			build("d", "sa1", "Tb1", "xa3", "xb3", "xc3", "xc2", "xc1", "Sj1", "xi1", "xi2", "xj2", "Te5", "Sj9", "xi10", "xj10", "xi9", "xi8", "xj8"),
			rules.Result{Over: true, Winner: rules.Side0, Score: [2]int{2, 0}, Reason: rules.ReasonNoMove},
		},
		{
			// Nobody can move: the side to move loses and the winner scores 0.
			"winner scores 0",
			build("l", "Ta1", "xa2", "xb2", "xb1", "tj10", "xj9", "xi9", "xi10"),
			rules.Result{Over: true, Winner: rules.Side1, Score: [2]int{0, 0}, Reason: rules.ReasonNoMove},
		},
		{
			"empty board, Dark to move",
			build("d"),
			rules.Result{Over: true, Winner: rules.Side0, Reason: rules.ReasonNoMove},
		},
		{
			"running start",
			Start(),
			rules.Result{Winner: rules.NoSide, Score: [2]int{8, 8}},
		},
		{
			"running, Light has one mobile piece",
			build("l", "Ta1", "tj10", "sa10", "se5"),
			rules.Result{Winner: rules.NoSide, Score: [2]int{1, 3}},
		},
	}
	for _, tc := range tests {
		if got := tc.pos.Result(); got != tc.want {
			t.Errorf("%s: Result() = %+v, want %+v (%v)", tc.name, got, tc.want, tc.pos)
		}
	}
}

func TestConcede(t *testing.T) {
	tests := []struct {
		side    rules.Side
		timeout bool
		want    rules.Result
	}{
		{rules.Side0, false, rules.Result{Over: true, Winner: rules.Side1, Reason: rules.ReasonResigned}},
		{rules.Side1, false, rules.Result{Over: true, Winner: rules.Side0, Reason: rules.ReasonResigned}},
		{rules.Side0, true, rules.Result{Over: true, Winner: rules.Side1, Reason: rules.ReasonTimeout}},
		{rules.Side1, true, rules.Result{Over: true, Winner: rules.Side0, Reason: rules.ReasonTimeout}},
		{rules.NoSide, false, rules.Result{Over: true, Winner: rules.NoSide, Reason: rules.ReasonResigned}},
	}
	for _, tc := range tests {
		if got := Concede(tc.side, tc.timeout); got != tc.want {
			t.Errorf("Concede(%v, %v) = %+v, want %+v", tc.side, tc.timeout, got, tc.want)
		}
	}
	want := rules.Result{Over: true, Winner: rules.NoSide, Reason: rules.ReasonArmistice}
	if got := Armistice(); got != want {
		t.Errorf("Armistice() = %+v", got)
	}
}
