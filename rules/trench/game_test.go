package trench

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// wantEnded says, from the rules alone and the history of the game,
// whether a game that has just reached p is over and why.
func wantEnded(rs Ruleset, p Position, blackReachedOnPly, ply int) (bool, rules.Reason) {
	if p.Units(Black) == 0 || p.Units(White) == 0 {
		return true, rules.ReasonAllCaptured
	}
	score := p.Score(rs)
	if rs.Target > 0 {
		if !rs.EqualTurns && (score[0] >= rs.Target || score[1] >= rs.Target) {
			return true, rules.ReasonTarget
		}
		if rs.EqualTurns {
			if score[1] >= rs.Target {
				return true, rules.ReasonTarget
			}
			// Black reached the target one ply ago or earlier: White has
			// had its last move.
			if blackReachedOnPly >= 0 && ply > blackReachedOnPly {
				return true, rules.ReasonTarget
			}
		}
	}
	if p.Quiet() >= 50 {
		return true, rules.ReasonQuiet
	}
	return false, rules.ReasonNone
}

// TestRandomGames plays whole games through the rules.State interface under
// every ruleset and checks the invariants of the rules at every ply.
func TestRandomGames(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 30
	}
	e := Engine{}
	for _, rs := range []Ruleset{RulesetMatch, RulesetSingle, RulesetBGA, RulesetDecider} {
		t.Run(rs.Key, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(len(rs.Key))))
			reasons := map[rules.Reason]int{}
			equalTurns := 0
			for g := 0; g < games; g++ {
				st, err := e.Start(rules.GameSpec{Variant: rs.Key}, int64(g))
				if err != nil {
					t.Fatal(err)
				}
				blackReached := -1 // ply after which Black first had the target (BGA)
				for ply := 0; ; ply++ {
					s := st.(State)
					p := s.Position()
					if s.Ply() != ply {
						t.Fatalf("Ply() = %d, want %d", s.Ply(), ply)
					}
					// Notation round trips through the engine.
					back, err := e.Decode(rs.Key, s.Encode())
					if err != nil || back.(State).Position() != p {
						t.Fatalf("%s: Decode(Encode) failed: %v", s.Encode(), err)
					}
					// Stars captured are exactly the stars missing from the
					// opponent's army, and the scores follow.
					for _, side := range []rules.Side{Black, White} {
						if p.Stars(side) != ArmyStars-p.StarsOnBoard(side.Other()) {
							t.Fatalf("%s: %v has %d stars, opponent lost %d", p, side, p.Stars(side), ArmyStars-p.StarsOnBoard(side.Other()))
						}
					}
					res := s.Result()
					if res.Score != [2]int{p.Stars(Black) * rs.PointsPerStar, p.Stars(White) * rs.PointsPerStar} {
						t.Fatalf("%s: score %v", p, res.Score)
					}
					// Conceding gives the opponent the whole enemy army.
					mover := p.ToMove()
					c := s.Concede(mover, ply%2 == 0)
					if !c.Over || c.Winner != mover.Other() || c.Score[mover.Other()] != ArmyStars*rs.PointsPerStar || c.Score[mover] != res.Score[mover] {
						t.Fatalf("%s: Concede(%v) = %+v", p, mover, c)
					}
					if rs.EqualTurns && blackReached < 0 && res.Score[0] >= rs.Target && res.Score[1] < rs.Target {
						blackReached = ply
					}
					wantOver, wantReason := wantEnded(rs, p, blackReached, ply)
					if res.Over != wantOver || res.Reason != wantReason {
						t.Fatalf("%s (%s, ply %d): Result %+v, want over=%v %q", p, rs.Key, ply, res, wantOver, wantReason)
					}
					if res.Over {
						if st.ToMove() != rules.NoSide {
							t.Fatalf("game over but ToMove = %v", st.ToMove())
						}
						checkWinner(t, p, res)
						reasons[res.Reason]++
						if rs.EqualTurns && blackReached >= 0 && blackReached == ply-1 {
							equalTurns++
						}
						break
					}
					if ply > 3000 {
						t.Fatalf("game did not end: %s", p)
					}
					if st.ToMove() != mover {
						t.Fatalf("ToMove = %v, want %v", st.ToMove(), mover)
					}
					legal := st.Legal(mover)
					if len(legal) == 0 || st.Legal(mover.Other()) != nil {
						t.Fatalf("%s: Legal = %v", p, legal)
					}
					move := legal[rng.IntN(len(legal))]
					next, err := st.Apply(move)
					if err != nil {
						t.Fatalf("%s: Apply(%q): %v", p, move, err)
					}
					q := next.(State).Position()
					captured := p.Units(mover.Other()) - q.Units(mover.Other())
					if q.Units(mover) != p.Units(mover) || captured < 0 || captured > 5 {
						t.Fatalf("%s %s: unit counts %d→%d", p, move, p.Units(mover.Other()), q.Units(mover.Other()))
					}
					if q.Stars(mover)-p.Stars(mover) != p.StarsOnBoard(mover.Other())-q.StarsOnBoard(mover.Other()) || q.Stars(mover.Other()) != p.Stars(mover.Other()) {
						t.Fatalf("%s %s: stars %d→%d", p, move, p.Stars(mover), q.Stars(mover))
					}
					if strings.Contains(move, "x") != (captured > 0) {
						t.Fatalf("%s %s: %d captured", p, move, captured)
					}
					if captured > 1 && !InTrench(sq(t, move[:2])) {
						t.Fatalf("%s %s: %d captures from outside the trench", p, move, captured)
					}
					wantQuiet := p.Quiet() + 1
					if captured > 0 {
						wantQuiet = 0
					}
					if q.Quiet() != wantQuiet || q.ToMove() != mover.Other() {
						t.Fatalf("%s %s: quiet %d side %v", p, move, q.Quiet(), q.ToMove())
					}
					st = next
				}
			}
			t.Logf("%s: %d games, end reasons %v, BGA equal-turn finishes %d", rs.Key, games, reasons, equalTurns)
			if rs.Target > 0 && reasons[rules.ReasonTarget] == 0 {
				t.Errorf("no game reached the target")
			}
			if rs.Target == 0 && reasons[rules.ReasonAllCaptured]+reasons[rules.ReasonQuiet] != games {
				t.Errorf("match games must end by captures or the quiet rule: %v", reasons)
			}
			if rs.EqualTurns && equalTurns == 0 {
				t.Errorf("no BGA game ended after White's last move")
			}
		})
	}
}

func checkWinner(t *testing.T, p Position, res rules.Result) {
	t.Helper()
	want := rules.NoSide
	switch {
	case res.Reason == rules.ReasonAllCaptured && p.Units(White) == 0:
		want = Black
	case res.Reason == rules.ReasonAllCaptured && p.Units(Black) == 0:
		want = White
	case res.Score[0] > res.Score[1]:
		want = Black
	case res.Score[1] > res.Score[0]:
		want = White
	}
	if res.Winner != want {
		t.Fatalf("%s: winner %v, want %v (%+v)", p, res.Winner, want, res)
	}
}

// TestRandomMatches plays whole official matches: two games with colours
// swapped and, on equal totals, the decider.
func TestRandomMatches(t *testing.T) {
	e := Engine{}
	rng := rand.New(rand.NewPCG(11, 12))
	deciders := 0
	for m := 0; m < 60; m++ {
		var played []rules.MatchGame
		seed := int64(m)
		step := e.NextInMatch("match", played, seed)
		for !step.Done {
			st, err := e.Start(step.Next, seed)
			if err != nil {
				t.Fatal(err)
			}
			for !st.Result().Over {
				legal := st.Legal(st.ToMove())
				// Sometimes a player resigns or both agree to stop.
				if rng.IntN(400) == 0 {
					break
				}
				st, _ = st.Apply(legal[rng.IntN(len(legal))])
			}
			res := st.Result()
			if !res.Over {
				if rng.IntN(2) == 0 {
					res = st.Concede(st.(State).Position().ToMove(), false)
				} else {
					res = st.Armistice()
				}
			}
			played = append(played, rules.MatchGame{Spec: step.Next, Result: res})
			step = e.NextInMatch("match", played, seed)
			if len(played) > 3 {
				t.Fatal("match longer than three games")
			}
		}
		if len(played) < 2 || played[0].Spec != (rules.GameSpec{Variant: "match"}) || played[1].Spec != (rules.GameSpec{Variant: "match", Swapped: true}) {
			t.Fatalf("match games %+v", played)
		}
		// The match totals are those of games 1 and 2; a decider's score
		// stands on its own.
		two := [2]int{}
		for _, g := range played[:2] {
			if g.Spec.Swapped {
				two[0] += g.Result.Score[White]
				two[1] += g.Result.Score[Black]
			} else {
				two[0] += g.Result.Score[Black]
				two[1] += g.Result.Score[White]
			}
		}
		if step.Totals != two {
			t.Fatalf("totals %v, want %v (games 1 and 2)", step.Totals, two)
		}
		if len(played) == 3 {
			deciders++
			if two[0] != two[1] || played[2].Spec != (rules.GameSpec{Variant: "decider", Swapped: DeciderSwapped(seed)}) {
				t.Fatalf("decider after totals %v: %+v", two, played[2].Spec)
			}
		} else if two[0] == two[1] {
			t.Fatalf("equal totals %v without a decider", two)
		} else if (two[0] > two[1]) != (step.Winner == 0) {
			t.Fatalf("totals %v, winner %d", two, step.Winner)
		}
	}
	t.Logf("60 matches, %d deciders", deciders)
}
