package bot_test

import (
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trenches"
	tbot "github.com/trench-games/trench/rules/trenches/bot"
)

func think(t *testing.T, fen string, req bot.Request) bot.Thought {
	t.Helper()
	p, err := trenches.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	th, err := tbot.Player{}.Think(trenches.NewState(p), req)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return th
}

// positions returns positions of seeded random games, every few plies, up
// to each game's end.
func positions(games int) []trenches.Position {
	rng := bot.NewRand(42)
	var out []trenches.Position
	for range games {
		p := trenches.Start()
		for ply := 0; p.HasLegalMove(); ply++ {
			if ply%7 == 0 {
				out = append(out, p)
			}
			moves := p.LegalMoves()
			p = p.Apply(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

func TestRegistered(t *testing.T) {
	p, ok := bot.Lookup("trenches")
	if !ok {
		t.Fatal("no player registered for trenches")
	}
	if _, ok := p.(tbot.Player); !ok {
		t.Errorf("registered player is %T", p)
	}
}

// TestEveryLevelPlaysLegalMoves asks every level for a move in positions
// from the start to the end of random games and checks the answer.
func TestEveryLevelPlaysLegalMoves(t *testing.T) {
	ps := positions(3)
	for _, level := range bot.Levels {
		for i, p := range ps {
			st := trenches.NewState(p)
			req := bot.Request{Level: level, Side: p.Turn(), Seed: int64(i)}
			if level != bot.Easy {
				req.Budget.Nodes = 3000 // keep the test fast
			}
			th, err := tbot.Player{}.Think(st, req)
			if err != nil {
				t.Fatalf("%s in %s: %v", level, p, err)
			}
			if _, err := st.Apply(th.Move); err != nil {
				t.Fatalf("%s in %s: move %q: %v", level, p, th.Move, err)
			}
			if len(th.Best) == 0 || th.Best[0] != th.Move {
				t.Errorf("%s in %s: Best %v does not start with Move %q", level, p, th.Best, th.Move)
			}
			// The line must be playable move after move.
			var cur rules.State = st
			for _, m := range th.Best {
				if cur, err = cur.Apply(m); err != nil {
					t.Fatalf("%s in %s: line %v: %v", level, p, th.Best, err)
				}
			}
			if th.Expect < 0 || th.Expect > 1 {
				t.Errorf("%s in %s: Expect %v outside [0, 1]", level, p, th.Expect)
			}
			if th.Nodes <= 0 {
				t.Errorf("%s in %s: Nodes %d", level, p, th.Nodes)
			}
			if req.Budget.Nodes > 0 && th.Nodes > req.Budget.Nodes {
				t.Errorf("%s in %s: %d nodes over the budget of %d", level, p, th.Nodes, req.Budget.Nodes)
			}
			searching := level == bot.Easy || level == bot.Medium || level == bot.Hard
			if searching && th.Depth < 1 {
				t.Errorf("%s in %s: Depth %d", level, p, th.Depth)
			}
		}
	}
}

// TestEasyIsNotRandom: easy prefers moves that leave the opponent fewer
// mobile pieces than a random move does, over many positions.
func TestEasyIsNotRandom(t *testing.T) {
	var easyLeft, randomLeft int
	for i, p := range positions(3) {
		st := trenches.NewState(p)
		for _, level := range []bot.Level{bot.Easy, bot.Random} {
			th, err := tbot.Player{}.Think(st, bot.Request{Level: level, Side: p.Turn(), Seed: int64(i)})
			if err != nil {
				t.Fatal(err)
			}
			m, _ := p.ParseMove(th.Move)
			c := p.Apply(m)
			left := c.Mobile(c.Turn()).Len() - c.Mobile(p.Turn()).Len()
			if level == bot.Easy {
				easyLeft += left
			} else {
				randomLeft += left
			}
		}
	}
	if easyLeft >= randomLeft {
		t.Errorf("easy's moves leave a mobility balance of %d for the opponent, random's %d", easyLeft, randomLeft)
	}
}

func TestDeterministic(t *testing.T) {
	fen := "3t2x2t/3s2s3/3S6/ts6st/10/10/TS6ST/10/6S2x/3T2T3 l"
	for _, level := range bot.Levels {
		req := bot.Request{Level: level, Side: rules.Side0, Seed: 5, Budget: bot.Budget{Nodes: 4000}}
		first := think(t, fen, req)
		var wg sync.WaitGroup
		got := make([]bot.Thought, 3)
		for i := range got {
			wg.Go(func() { got[i] = think(t, fen, req) })
		}
		wg.Wait()
		for _, th := range got {
			if !reflect.DeepEqual(th, first) {
				t.Errorf("%s: %+v, then %+v", level, first, th)
			}
		}
	}
	// Another seed may choose differently, but from the same moves.
	a := think(t, fen, bot.Request{Level: bot.Easy, Side: rules.Side0, Seed: 1})
	seen := map[string]bool{a.Move: true}
	for seed := int64(2); seed < 12; seed++ {
		seen[think(t, fen, bot.Request{Level: bot.Easy, Side: rules.Side0, Seed: seed}).Move] = true
	}
	if len(seen) < 3 {
		t.Errorf("easy chose only %d different moves over 11 seeds", len(seen))
	}
}

// wins are positions where the side to move has a move that leaves the
// opponent no legal move (the number of such moves out of all in the
// comment).
var wins = []string{
	"xxtxtxxx1S/xxstxxtxxx/sxxxxxSxxx/xxxx1xxsxx/xSxxx1xxxx/1sxxx1xxT1/xxxx1xxS1x/TxxxTx1xxx/xx2xx4/3xT1x3 l",         // 1 of 12
	"1xxxxtxSxx/xxs1xtxx1x/stxxxxxxxx/xxx1xxxxsx/txx1x1xxxx/1xxx1xxx1T/xSxTxxsxSx/x1xx1xxxxx/1xxTxxS1xx/xx1xxxxTxx l", // 1 of 11
	"xxsx1xxxxx/Sxxxtstx1x/xxxxxxxx1x/x1xTxxxxxx/1xxxSxxxts/1xxxxxx1xx/xtxxxTxxTx/xSxxxxxxxx/Txxx1xSxxx/xxxxsxxxx1 d", // 1 of 4
	"sxxx1txt1x/xxSxx1xSxx/1xxxx1xtxx/xxxxxxxxxx/xxsxxxxxxt/T1xxxxxxxT/xxx1xxxxTx/1sxxx1xxxx/xxTxxsx2x/1xSxSxx1xx d",  // 1 of 6
	"xxtx1tx3/xx2sx1xxx/STxxxxsx1x/xsx1xxx2x/x1xxxxxxx1/tx2x1xxt1/xsxxx1xx1x/TSx1xx1xSx/xxx2xxxST/xx1x1xxTxx d",       // 1 of 15
	"xxTxxxxt1x/xxxx1xx1xx/xx1xx1xxxx/xx1sxxxxSx/txxxxx1xsx/x1sxxtxxxx/xxxxx1xx1x/xxxxxxxxSx/x2TxxxsST/1xtxxxTSxx d",  // 1 of 12
	"1xsxxSx3/xxxt1xxxxx/xxxxxxtxtx/xxxxxSxxsx/1xtxxxx1xx/xssx1xxxx1/x1xx1xx2x/xxxSxxxxx1/xTx2xT1xT/xxTxxSxx1x l",     // 1 of 10
	// Dark has only a Tank, almost boxed in on a10; b10 is reachable.
	"t3T5/xx8/10/10/10/10/TS6S1/10/3S2S3/3T2T3 l",
}

// avoids are positions where most moves let the opponent win at once.
var avoids = []string{
	"1xxxx1tSxx/xxs1xtxx1x/stxxxxxxxx/xxx1xxxxsx/txx1x1xxxx/1xxx1xxx1T/xSxTxxsxSx/x1xx1xxxxx/1xxTxxS1xx/xx1xxxxTxx d", // 2 of 3 lose
	"x1xxxxxxxx/x1xtx1xts1/xxxxxxxSxx/x1xtsxxxxx/xxxxxxxxt1/T1xx1xxxxx/xxsxxxxTxx/Sxxxxxxxx1/xxSsxxxxTx/xxSxTxxxx1 l", // 2 of 3 lose
	"xx1xxtx1x1/sxxtxxxxx1/xsxxxxxxxx/xtxxxxxT1x/TxxSxxxxtx/xxxxxxSxxx/xxxxxxxxsx/x1xSxTxxxx/xxxxsxSxxx/1T1x1xxxx1 l", // 2 of 3 lose
	"tsxxxtxsxx/xxx1sxxxx1/S1xxxtxxxs/xxxxxxxx1x/x1xx1xxSxt/xxx1xxxTSx/x1x2xxxxx/1Tx1xxxSxx/2xx1xxxxT/1x1xx1x1xT d",   // 2 of 3 lose
	"xstxttxxtx/xxxxsxxxx1/1xxxxxxxsx/xSxSxxSxxx/x1x1x1xx2/1xxxx1xx1x/xT1xxxxx1x/1xxxxx1xTx/xsSxx3xx/xxxxT1x1Tx d",    // 2 of 3 lose
	"3xt1xxxx/xx1x1xx2t/2xxxxxx2/xtxxxxxx1x/xxxxxxts2/1ssSxxxxxx/T1xxxx1xxx/1sxxxxxxx1/xxSxTxSxxx/xxSxTxxxxT l",       // 2 of 3 lose
	"xxsxtxxSxx/xxxxxxxtxx/xxxxxxxxx1/xsSxx2x1x/xtxxxxxxxx/t1xTxxTxxS/xxx1xxx1xx/1xSxsxxxxx/xxxxxxxxsx/x1xxT1xx1T d",  // 2 of 3 lose
	"xx1x1txSxx/xxxxxxstxx/txxxxxxxxx/xx1xx1xx1x/xxxxxxxsxt/Txx1xxxxx1/xSxxxxsTxx/xSxsxxxxxT/xx1xx1xx1T/1xxxx1xSxx l", // 3 of 4 lose
}

func TestHardFindsTheWin(t *testing.T) {
	for _, fen := range wins {
		p, _ := trenches.ParsePosition(fen)
		th := think(t, fen, bot.Request{Level: bot.Hard, Side: p.Turn(), Seed: 1})
		m, err := p.ParseMove(th.Move)
		if err != nil {
			t.Fatalf("%s: %q: %v", fen, th.Move, err)
		}
		if p.Apply(m).HasLegalMove() {
			t.Errorf("%s: played %s, which leaves the opponent a move", fen, th.Move)
		}
		want := 1.0
		if p.Turn() == rules.Side1 {
			want = 0
		}
		if d := th.Expect - want; d > 0.01 || d < -0.01 {
			t.Errorf("%s: Expect %v, want about %v", fen, th.Expect, want)
		}
		if th.Score != bot.Win-1 && th.Score != -(bot.Win-1) {
			t.Errorf("%s: Score %d, want ±%d", fen, th.Score, bot.Win-1)
		}
	}
}

func TestHardAvoidsTheLoss(t *testing.T) {
	for _, fen := range avoids {
		p, _ := trenches.ParsePosition(fen)
		th := think(t, fen, bot.Request{Level: bot.Hard, Side: p.Turn(), Seed: 1})
		m, err := p.ParseMove(th.Move)
		if err != nil {
			t.Fatalf("%s: %q: %v", fen, th.Move, err)
		}
		c := p.Apply(m)
		for _, r := range c.LegalMoves() {
			if !c.Apply(r).HasLegalMove() {
				t.Errorf("%s: played %s, after which %s wins", fen, th.Move, r)
				break
			}
		}
	}
}

func TestStopIsHonoured(t *testing.T) {
	calls := 0
	stop := func() bool { calls++; return true }
	th := think(t, trenches.StartFEN, bot.Request{Level: bot.Hard, Side: rules.Side0, Budget: bot.Budget{Stop: stop}})
	if calls == 0 {
		t.Fatal("Stop was never called")
	}
	if th.Nodes > 10_000 {
		t.Errorf("searched %d nodes after Stop said stop", th.Nodes)
	}
	p := trenches.Start()
	if _, err := p.ParseMove(th.Move); err != nil {
		t.Errorf("stopped search gave %q: %v", th.Move, err)
	}
}

func TestNotToMoveOnlyEvaluates(t *testing.T) {
	th := think(t, trenches.StartFEN, bot.Request{Level: bot.Hard, Side: rules.Side1, Budget: bot.Budget{Nodes: 3000}})
	if th.Move != "" {
		t.Errorf("Move = %q for the side not to move", th.Move)
	}
	if th.Expect <= 0 || th.Expect >= 1 {
		t.Errorf("Expect = %v at the start", th.Expect)
	}
	// A won position for Light, Dark to move: Dark's only Tank is boxed in.
	fen := "tx8/xx8/10/10/10/10/10/10/10/T9 d"
	th = think(t, fen, bot.Request{Level: bot.Medium, Side: rules.Side0})
	if th.Move != "" || th.Expect != 1 || th.Score != bot.Win {
		t.Errorf("finished game: Move %q Expect %v Score %d, want \"\", 1, %d", th.Move, th.Expect, th.Score, bot.Win)
	}
}

func TestErrors(t *testing.T) {
	p, _ := trenches.ParsePosition("tx8/xx8/10/10/10/10/10/10/10/T9 d")
	st := trenches.NewState(p)
	for _, level := range bot.Levels {
		if _, err := (tbot.Player{}).Think(st, bot.Request{Level: level, Side: rules.Side1}); !errors.Is(err, bot.ErrNoMove) {
			t.Errorf("%s with no legal move: err = %v, want ErrNoMove", level, err)
		}
	}
	if _, err := (tbot.Player{}).Think(trenches.NewState(trenches.Start()), bot.Request{Level: "expert", Side: rules.Side0}); !errors.Is(err, bot.ErrLevel) {
		t.Errorf("unknown level: err = %v, want ErrLevel", err)
	}
}
