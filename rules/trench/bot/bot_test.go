package bot_test

import (
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trench"
	tbot "github.com/trench-games/trench/rules/trench/bot"
)

func state(t *testing.T, fen string, r trench.Ruleset) trench.State {
	t.Helper()
	p, err := trench.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return trench.NewState(p, r)
}

func think(t *testing.T, st trench.State, req bot.Request) bot.Thought {
	t.Helper()
	th, err := tbot.Player{}.Think(st, req)
	if err != nil {
		t.Fatalf("%s: %v", st.Encode(), err)
	}
	return th
}

// positions returns positions of seeded random games, every few plies,
// until each game ends under r.
func positions(games int, r trench.Ruleset) []trench.State {
	rng := bot.NewRand(42)
	var out []trench.State
	for range games {
		st := trench.NewState(trench.Start(), r)
		for ply := 0; !st.Result().Over; ply++ {
			if ply%9 == 0 {
				out = append(out, st)
			}
			legal := st.Legal(st.ToMove())
			next, _ := st.Apply(legal[rng.IntN(len(legal))])
			st = next.(trench.State)
		}
	}
	return out
}

func TestRegistered(t *testing.T) {
	p, ok := bot.Lookup("trench")
	if !ok {
		t.Fatal("no player registered for trench")
	}
	if _, ok := p.(tbot.Player); !ok {
		t.Errorf("registered player is %T", p)
	}
}

// TestEveryLevelPlaysLegalMoves asks every level for a move in positions
// from the start to the end of random games under every ruleset.
func TestEveryLevelPlaysLegalMoves(t *testing.T) {
	var sts []trench.State
	for _, r := range []trench.Ruleset{trench.RulesetMatch, trench.RulesetSingle, trench.RulesetBGA, trench.RulesetDecider} {
		sts = append(sts, positions(1, r)...)
	}
	for _, level := range bot.Levels {
		for i, st := range sts {
			req := bot.Request{Level: level, Side: st.ToMove(), Seed: int64(i), MatchScore: [2]int{i % 7 * 2, i % 5 * 2}}
			if level != bot.Easy {
				req.Budget.Nodes = 2000 // keep the test fast
			}
			th := think(t, st, req)
			if _, err := st.Apply(th.Move); err != nil {
				t.Fatalf("%s in %s: move %q: %v", level, st.Encode(), th.Move, err)
			}
			if len(th.Best) == 0 || th.Best[0] != th.Move {
				t.Errorf("%s in %s: Best %v does not start with Move %q", level, st.Encode(), th.Best, th.Move)
			}
			var cur rules.State = st
			var err error
			for _, m := range th.Best {
				if cur, err = cur.Apply(m); err != nil {
					t.Fatalf("%s in %s: line %v: %v", level, st.Encode(), th.Best, err)
				}
			}
			if th.Expect < 0 || th.Expect > 1 {
				t.Errorf("%s in %s: Expect %v outside [0, 1]", level, st.Encode(), th.Expect)
			}
			if th.Nodes <= 0 || (req.Budget.Nodes > 0 && th.Nodes > req.Budget.Nodes) {
				t.Errorf("%s in %s: %d nodes for a budget of %d", level, st.Encode(), th.Nodes, req.Budget.Nodes)
			}
			if level == bot.Easy && th.Depth < 1 {
				t.Errorf("%s in %s: Depth %d", level, st.Encode(), th.Depth)
			}
		}
	}
}

// TestEasyIsNotRandom: easy wins more stars with its moves than random
// does, over many positions, yet does not always play the same move.
func TestEasyIsNotRandom(t *testing.T) {
	gain := func(st trench.State, move string) int {
		next, err := st.Apply(move)
		if err != nil {
			t.Fatal(err)
		}
		side := st.Position().ToMove()
		return next.(trench.State).Position().Stars(side) - st.Position().Stars(side)
	}
	var easy, random int
	for i, st := range positions(4, trench.RulesetSingle) {
		easy += gain(st, think(t, st, bot.Request{Level: bot.Easy, Side: st.ToMove(), Seed: int64(i)}).Move)
		random += gain(st, think(t, st, bot.Request{Level: bot.Random, Side: st.ToMove(), Seed: int64(i)}).Move)
	}
	if easy <= random {
		t.Errorf("easy's moves captured %d stars, random's %d", easy, random)
	}
	st := trench.NewState(trench.Start(), trench.RulesetSingle)
	seen := map[string]bool{}
	for seed := int64(0); seed < 12; seed++ {
		seen[think(t, st, bot.Request{Level: bot.Easy, Side: trench.Black, Seed: seed}).Move] = true
	}
	if len(seen) < 3 {
		t.Errorf("easy chose only %d different first moves over 12 seeds", len(seen))
	}
}

const middleFEN = "4RAC1/3S1RAG/4SS2/1a1SsR2/1ssSr3/r1sc4/c1r5/g1a5 b 3 4 6"

func TestDeterministic(t *testing.T) {
	st := state(t, middleFEN, trench.RulesetSingle)
	for _, level := range bot.Levels {
		req := bot.Request{Level: level, Side: trench.Black, Seed: 5, Budget: bot.Budget{Nodes: 5000}}
		first := think(t, st, req)
		var wg sync.WaitGroup
		got := make([]bot.Thought, 3)
		for i := range got {
			wg.Go(func() { got[i] = think(t, st, req) })
		}
		wg.Wait()
		for _, th := range got {
			if !reflect.DeepEqual(th, first) {
				t.Errorf("%s: %+v, then %+v", level, first, th)
			}
		}
	}
}

// In the decider (first to 40 points) Black, with 17 stars (34 points),
// wins at once by taking the Captain on a5 (3 stars) with the General.
// Under the single-game rules (to 50) the same capture only loses the
// General to the Sergeant on b6.
const targetFEN = "7G/8/1R6/A7/8/8/8/2s1g2s b 0 17 10"

func TestTakesTheWinningCapture(t *testing.T) {
	for _, level := range []bot.Level{bot.Medium, bot.Hard} {
		th := think(t, state(t, targetFEN, trench.RulesetDecider), bot.Request{Level: level, Side: trench.Black, Seed: 1})
		if th.Move != "e1xa5" || th.Score != bot.Win-1 || th.Expect < 0.99 {
			t.Errorf("%s, decider: %s score %d expect %v, want e1xa5 winning at once", level, th.Move, th.Score, th.Expect)
		}
	}
	// Under BGA's rules (to 25, equal turns) 22 stars and the Captain make
	// 25: White's last move takes the General back, 15 to 25, too few.
	bga := "7G/8/1R6/A7/8/8/8/2s1g2s b 0 22 10"
	th := think(t, state(t, bga, trench.RulesetBGA), bot.Request{Level: bot.Hard, Side: trench.Black, Seed: 1})
	if th.Move != "e1xa5" || th.Score != bot.Win-2 {
		t.Errorf("bga: %s score %d, want e1xa5 winning after White's last move", th.Move, th.Score)
	}
}

func TestTheTargetDecides(t *testing.T) {
	for _, level := range []bot.Level{bot.Medium, bot.Hard} {
		th := think(t, state(t, targetFEN, trench.RulesetSingle), bot.Request{Level: level, Side: trench.Black, Seed: 1, Budget: bot.Budget{Nodes: 50_000}})
		if th.Move == "e1xa5" || th.Score >= bot.Win-1000 {
			t.Errorf("%s, single: %s score %d: the capture gives the General away", level, th.Move, th.Score)
		}
	}
}

// White, with 24 stars (48 points), threatens the Soldier on a5 with the
// Sergeant on b6: losing it reaches 50. Only a5-a4 saves Black.
const threatFEN = "7G/8/1R6/s7/8/8/8/2s1g3 b 0 0 24"

func TestAvoidsTheLoss(t *testing.T) {
	for _, level := range []bot.Level{bot.Medium, bot.Hard} {
		st := state(t, threatFEN, trench.RulesetSingle)
		th := think(t, st, bot.Request{Level: level, Side: trench.Black, Seed: 1, Budget: bot.Budget{Nodes: 50_000}})
		if th.Move != "a5-a4" {
			t.Errorf("%s: %s, after which White takes the Soldier and reaches 50", level, th.Move)
		}
	}
}

// At 49 quiet plies any quiet move ends the game on points: Black, ahead,
// sees the win; with no quiet plies it does not.
func TestTheQuietLimitCounts(t *testing.T) {
	for _, c := range []struct {
		fen string
		won bool
	}{{"7G/8/8/8/8/8/8/2s1g2s b 49 5 2", true}, {"7G/8/8/8/8/8/8/2s1g2s b 0 5 2", false}} {
		st := state(t, c.fen, trench.RulesetSingle)
		th := think(t, st, bot.Request{Level: bot.Hard, Side: trench.Black, Seed: 1, Budget: bot.Budget{Nodes: 20000}})
		if won := th.Score == bot.Win-1; won != c.won {
			t.Errorf("%s: score %d, want a win at once: %v", c.fen, th.Score, c.won)
		}
	}
}

// In the second game of a match the totals count: the same position is
// worth more to Black with a lead carried from game 1.
func TestTheMatchScoreCounts(t *testing.T) {
	st := state(t, trench.StartFEN, trench.RulesetMatch)
	req := bot.Request{Level: bot.Medium, Side: trench.Black, Seed: 1, Budget: bot.Budget{Nodes: 3000}}
	even := think(t, st, req)
	req.MatchScore = [2]int{20, 0}
	ahead := think(t, st, req)
	req.MatchScore = [2]int{0, 20}
	behind := think(t, st, req)
	if !(behind.Expect < even.Expect && even.Expect < ahead.Expect) {
		t.Errorf("Expect behind %v, even %v, ahead %v", behind.Expect, even.Expect, ahead.Expect)
	}
	// A finished game 2 (White has no unit left) is a match won on the
	// totals only: 20 points of Black's against 30 carried by White.
	over := state(t, "8/8/8/8/8/8/8/g7 w 0 10 0", trench.RulesetMatch)
	th := think(t, over, bot.Request{Level: bot.Hard, Side: trench.Black, MatchScore: [2]int{0, 30}})
	if th.Move != "" || th.Expect != 0 {
		t.Errorf("finished game 2 behind on the totals: Move %q Expect %v, want \"\" and 0", th.Move, th.Expect)
	}
}

func TestBudgetIsHonoured(t *testing.T) {
	st := state(t, middleFEN, trench.RulesetSingle)
	th := think(t, st, bot.Request{Level: bot.Hard, Side: trench.Black, Seed: 1, Budget: bot.Budget{Nodes: 20_000}})
	if th.Nodes > 20_000 || th.Nodes < 19_000 {
		t.Errorf("searched %d nodes for a budget of 20000", th.Nodes)
	}
	calls := 0
	stop := func() bool { calls++; return true }
	th = think(t, st, bot.Request{Level: bot.Hard, Side: trench.Black, Budget: bot.Budget{Stop: stop}})
	if calls == 0 {
		t.Fatal("Stop was never called")
	}
	if th.Nodes > 5000 {
		t.Errorf("searched %d nodes after Stop said stop", th.Nodes)
	}
	if _, err := st.Apply(th.Move); err != nil {
		t.Errorf("stopped search gave %q: %v", th.Move, err)
	}
}

func TestNotToMoveOnlyEvaluates(t *testing.T) {
	st := state(t, trench.StartFEN, trench.RulesetSingle)
	th := think(t, st, bot.Request{Level: bot.Hard, Side: trench.White, Budget: bot.Budget{Nodes: 3000}})
	if th.Move != "" || len(th.Best) == 0 {
		t.Errorf("Move %q Best %v for the side not to move", th.Move, th.Best)
	}
	if th.Expect < 0.3 || th.Expect > 0.7 {
		t.Errorf("Expect %v at the start", th.Expect)
	}
}

func TestErrors(t *testing.T) {
	over := state(t, "8/8/8/8/8/8/8/g7 w 0 0 0", trench.RulesetSingle)
	for _, level := range bot.Levels {
		if _, err := (tbot.Player{}).Think(over, bot.Request{Level: level, Side: trench.White}); !errors.Is(err, bot.ErrNoMove) {
			t.Errorf("%s in a finished game: err = %v, want ErrNoMove", level, err)
		}
	}
	th := think(t, over, bot.Request{Level: bot.Hard, Side: trench.Black})
	if th.Move != "" || th.Expect != 1 || th.Score != bot.Win {
		t.Errorf("won game: Move %q Expect %v Score %d", th.Move, th.Expect, th.Score)
	}
	if _, err := (tbot.Player{}).Think(over, bot.Request{Level: "expert", Side: trench.White}); !errors.Is(err, bot.ErrLevel) {
		t.Errorf("unknown level: err = %v, want ErrLevel", err)
	}
}
