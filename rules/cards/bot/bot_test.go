package bot_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trench-games/trench/rules"
	rbot "github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/cards"
	_ "github.com/trench-games/trench/rules/cards/bot"
)

func player(t *testing.T) rbot.Player {
	t.Helper()
	p, ok := rbot.Lookup("cards")
	if !ok {
		t.Fatal("no player registered for cards")
	}
	return p
}

// games calls each for every position of n random games of variant
// (uniformly random moves, seeded).
func games(t *testing.T, variant string, n int, seed int64, each func(st *cards.State)) {
	t.Helper()
	for g := range n {
		st, err := cards.New(variant, seed+int64(g))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(seed), uint64(g)))
		for !st.Result().Over {
			each(st)
			legal := st.Legal(st.ToMove())
			if st, err = st.ApplyMove(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		each(st)
	}
}

// Every level answers every position where its side is to act with a
// legal move, in short and long games, and only evaluates otherwise.
func TestEveryLevelPlaysLegalMoves(t *testing.T) {
	p := player(t)
	for _, variant := range []string{cards.VariantShort, cards.VariantLong} {
		n := map[string]int{cards.VariantShort: 6, cards.VariantLong: 2}[variant]
		games(t, variant, n, 100, func(st *cards.State) {
			for _, level := range rbot.Levels {
				for _, side := range []rules.Side{rules.Side0, rules.Side1} {
					req := rbot.Request{Level: level, Seed: int64(st.Ply()), Side: side, Budget: rbot.Budget{Nodes: 300}}
					th, err := p.Think(st, req)
					if st.Result().Over {
						if !errors.Is(err, rbot.ErrNoMove) {
							t.Fatalf("%s %s: game over: err %v, want ErrNoMove", variant, level, err)
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s %s ply %d: %v", variant, level, st.Ply(), err)
					}
					if th.Expect < 0 || th.Expect > 1 {
						t.Fatalf("%s %s ply %d: Expect %v", variant, level, st.Ply(), th.Expect)
					}
					if side != st.ToMove() {
						if th.Move != "" {
							t.Fatalf("%s %s ply %d: side %d not to act played %q", variant, level, st.Ply(), side, th.Move)
						}
						continue
					}
					if !slices.Contains(st.Legal(side), th.Move) {
						t.Fatalf("%s %s ply %d (%s): %q is not legal (%v)", variant, level, st.Ply(), st.Phase(), th.Move, st.Legal(side))
					}
				}
			}
		})
	}
}

// The answer depends on the view of the computer's side only: a state
// whose hidden cards are redrawn from that view (another deal of the
// opponent's face-down cards, hand and deck, another order of the own
// deck) gets the same answer, over thousands of positions.
func TestHiddenCardsDoNotChangeTheAnswer(t *testing.T) {
	p := player(t)
	positions, differ := 0, 0
	check := func(st *cards.State) {
		if st.Result().Over {
			return
		}
		for _, side := range []rules.Side{rules.Side0, rules.Side1} {
			other, err := cards.Sample(st.ViewFor(side), rand.New(rand.NewPCG(uint64(st.Ply()), 5)))
			if err != nil {
				t.Fatal(err)
			}
			if other.Encode() != st.Encode() {
				differ++
			}
			level := rbot.PlayLevels[positions%3]
			if positions%7 == 0 {
				level = rbot.Greedy
			}
			req := rbot.Request{Level: level, Seed: int64(positions), Side: side, Budget: rbot.Budget{Nodes: 120}}
			a, errA := p.Think(st, req)
			b, errB := p.Think(other, req)
			if errA != nil || errB != nil {
				t.Fatalf("ply %d: %v, %v", st.Ply(), errA, errB)
			}
			if !slices.Equal(a.Best, b.Best) || a.Move != b.Move || a.Expect != b.Expect || a.Nodes != b.Nodes {
				t.Fatalf("%s ply %d side %d: %+v with the real cards, %+v with others\n%s\n%s",
					level, st.Ply(), side, a, b, st.Encode(), other.Encode())
			}
			positions++
		}
	}
	games(t, cards.VariantShort, 20, 300, check)
	games(t, cards.VariantLong, 6, 400, check)
	if positions < 2000 || differ < positions/2 {
		t.Errorf("%d positions, %d with other hidden cards; want thousands, most different", positions, differ)
	}
}

func TestDeterministic(t *testing.T) {
	p := player(t)
	st, _ := cards.New(cards.VariantShort, 9)
	for _, level := range rbot.Levels {
		req := rbot.Request{Level: level, Seed: 4, Side: st.ToMove(), Budget: rbot.Budget{Nodes: 5000}}
		a, err := p.Think(st, req)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if b, _ := p.Think(st, req); !slices.Equal(a.Best, b.Best) || a.Move != b.Move || a.Expect != b.Expect || a.Nodes != b.Nodes {
				t.Fatalf("%s: %+v then %+v", level, a, b)
			}
		}
	}
}

func TestStopIsHonored(t *testing.T) {
	p := player(t)
	st, _ := cards.New(cards.VariantLong, 2)
	calls := 0
	stop := func() bool { calls++; return calls >= 3 }
	th, err := p.Think(st, rbot.Request{Level: rbot.Hard, Seed: 1, Side: st.ToMove(),
		Budget: rbot.Budget{Nodes: 1 << 40, Stop: stop}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 3 || th.Nodes > 50_000 || !slices.Contains(st.Legal(st.ToMove()), th.Move) {
		t.Errorf("stop called %d times, %d nodes, move %q", calls, th.Nodes, th.Move)
	}
	// Evaluation only (the other side) stops too.
	calls = 0
	th, err = p.Think(st, rbot.Request{Level: rbot.Hard, Seed: 1, Side: st.ToMove().Other(),
		Budget: rbot.Budget{Nodes: 1 << 40, Stop: stop}})
	if err != nil || calls != 3 || th.Nodes > 50_000 || th.Move != "" {
		t.Errorf("evaluation: stop called %d times, %d nodes, move %q, err %v", calls, th.Nodes, th.Move, err)
	}
}

func TestLevelBudgets(t *testing.T) {
	p := player(t)
	st, _ := cards.New(cards.VariantShort, 5)
	var prev int64
	for _, level := range rbot.PlayLevels {
		th, err := p.Think(st, rbot.Request{Level: level, Seed: 1, Side: st.ToMove()})
		if err != nil {
			t.Fatal(err)
		}
		if th.Nodes <= prev {
			t.Errorf("%s searched %d nodes, not more than the level below (%d)", level, th.Nodes, prev)
		}
		prev = th.Nodes
		th, _ = p.Think(st, rbot.Request{Level: level, Seed: 1, Side: st.ToMove(), Budget: rbot.Budget{Nodes: 1000}})
		if th.Nodes < 1000 || th.Nodes > 1200 {
			t.Errorf("%s with 1000 nodes searched %d", level, th.Nodes)
		}
	}
}

func TestErrors(t *testing.T) {
	p := player(t)
	st, _ := cards.New(cards.VariantShort, 5)
	if _, err := p.Think(st, rbot.Request{Level: "expert", Side: st.ToMove()}); !errors.Is(err, rbot.ErrLevel) {
		t.Errorf("unknown level: %v, want ErrLevel", err)
	}
	if _, err := p.Think(st, rbot.Request{Level: rbot.Easy, Side: rules.NoSide}); err == nil {
		t.Error("a spectator got an answer")
	}
}

// Random plays bot.RandomMove's move.
func TestRandomIsRandomMove(t *testing.T) {
	p := player(t)
	games(t, cards.VariantShort, 2, 50, func(st *cards.State) {
		if st.Result().Over {
			return
		}
		want, _ := rbot.RandomMove(st, int64(st.Ply()))
		th, err := p.Think(st, rbot.Request{Level: rbot.Random, Seed: int64(st.Ply()), Side: st.ToMove()})
		if err != nil || th.Move != want {
			t.Fatalf("ply %d: %q, %v; want %q", st.Ply(), th.Move, err, want)
		}
	})
}

// Every level but random takes an attack that wins the game: Red has one
// card left outside its front trench, and Black's KS in F2 faces Red's
// face-up 5H (the attacks from F1 and F3 meet face-down cards that may
// tie or win).
func TestWinningAttackTaken(t *testing.T) {
	p := player(t)
	st, err := cards.Decode(cards.VariantShort,
		"c1 short 7 40 0 0 3S,KS,4S/9S,10S,-,-///AS,2S,5S,6S,7S,8S,JS,QS/-/--0 "+
			"AH,5H+,3H/4H,-,-,-///2H,6H,7H,8H,9H,10H,JH,QH,KH/r/--0 -")
	if err != nil {
		t.Fatal(err)
	}
	if next, err := st.ApplyMove("attack F2"); err != nil || next.Result().Winner != rules.Side0 {
		t.Fatalf("attack F2 does not win the game: %v %+v", err, next.Result())
	}
	for _, level := range []rbot.Level{rbot.Greedy, rbot.Easy, rbot.Medium, rbot.Hard} {
		for seed := range int64(5) {
			th, err := p.Think(st, rbot.Request{Level: level, Seed: seed, Side: rules.Side0})
			if err != nil || th.Move != "attack F2" {
				t.Errorf("%s seed %d: %q, %v; want attack F2", level, seed, th.Move, err)
			}
		}
	}
}

// Greedy attacks when it sees a battle it wins: Black's KS in F2 faces
// Red's face-up 5H.
func TestGreedyTakesAFreeCard(t *testing.T) {
	p := player(t)
	st, err := cards.Decode(cards.VariantShort,
		"c1 short 7 0 0 0 3S,KS,4S/9S,10S,JS,QS/AS,2S,5S,6S,7S,8S///-/--0 "+
			"AH,5H+,3H/4H,2H,6H,7H/8H,9H,10H,JH,QH,KH///r/--0 -")
	if err != nil {
		t.Fatal(err)
	}
	for seed := range int64(5) {
		th, err := p.Think(st, rbot.Request{Level: rbot.Greedy, Seed: seed, Side: rules.Side0})
		if err != nil || th.Move != "attack F2" {
			t.Errorf("seed %d: %q, %v; want attack F2", seed, th.Move, err)
		}
	}
}
