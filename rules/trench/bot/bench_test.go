package bot

import (
	"syscall"
	"testing"
	"time"

	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trench"
)

// middleFEN is a middle-game position with units in and beyond the
// trench.
const middleFEN = "4RAC1/3S1RAG/4SS2/1a1SsR2/1ssSr3/r1sc4/c1r5/g1a5 b 3 4 6"

func BenchmarkEvaluate(b *testing.B) {
	p, err := trench.ParsePosition(middleFEN)
	if err != nil {
		b.Fatal(err)
	}
	bd := newBoard(p)
	g := newGame(trench.RulesetSingle, [2]int{})
	for b.Loop() {
		_ = g.evaluate(&bd)
	}
}

// BenchmarkHard measures the hard level's search on a middle-game
// position at its own node budget and reports nodes per second.
func BenchmarkHard(b *testing.B) {
	p, err := trench.ParsePosition(middleFEN)
	if err != nil {
		b.Fatal(err)
	}
	st := trench.NewState(p, trench.RulesetSingle)
	var nodes int64
	for b.Loop() {
		th, err := Player{}.Think(st, bot.Request{Level: bot.Hard, Side: p.ToMove(), Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		nodes += th.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// cpuTime returns the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHardGame plays hard against itself from the start at its own
// node budget under the single-game rules and reports the CPU time of a
// move (average and longest), which a busy machine distorts less than
// the wall time, and the depth reached.
func BenchmarkHardGame(b *testing.B) {
	var moves, depths int
	var total, longest time.Duration
	var nodes int64
	for i := 0; b.Loop(); i++ {
		var st = trench.NewState(trench.Start(), trench.RulesetSingle)
		for !st.Result().Over {
			p := st.Position()
			t0 := cpuTime()
			th, err := Player{}.Think(st, bot.Request{Level: bot.Hard, Side: p.ToMove(), Seed: int64(i*1000 + moves)})
			d := cpuTime() - t0
			if err != nil {
				b.Fatal(err)
			}
			moves++
			depths += th.Depth
			total += d
			longest = max(longest, d)
			nodes += th.Nodes
			next, err := st.Apply(th.Move)
			if err != nil {
				b.Fatal(err)
			}
			st = next.(trench.State)
		}
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(moves), "cpu-ms/move")
	b.ReportMetric(float64(longest.Milliseconds()), "max-cpu-ms/move")
	b.ReportMetric(float64(nodes)/total.Seconds(), "nodes/cpu-s")
	b.ReportMetric(float64(depths)/float64(moves), "depth/move")
	b.ReportMetric(float64(moves)/float64(b.N), "plies/game")
}
