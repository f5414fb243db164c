package bot

import (
	"github.com/trench-games/trench/rules"
	"syscall"
	"testing"
	"time"

	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trenches"
)

// crowdedFEN is an early position with 1371 legal moves.
const crowdedFEN = "3t2x2t/3s2s3/3S6/ts6st/10/10/TS6ST/10/6S2x/3T2T3 l"

func BenchmarkEvaluate(b *testing.B) {
	p, _ := trenches.ParsePosition(crowdedFEN)
	bd := newBoard(p)
	for b.Loop() {
		_ = evaluate(&bd, &defaultWeights)
	}
}

// BenchmarkHard measures the hard level's search on the crowded position
// at its own node budget and reports nodes per second.
func BenchmarkHard(b *testing.B) {
	p, _ := trenches.ParsePosition(crowdedFEN)
	st := trenches.NewState(p)
	var nodes int64
	for b.Loop() {
		th, err := Player{}.Think(st, bot.Request{Level: bot.Hard, Side: p.Turn(), Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		nodes += th.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestMobileMatchesRules checks the evaluation's own count of mobile
// pieces against Position.Mobile over positions of random games.
func TestMobileMatchesRules(t *testing.T) {
	rng := bot.NewRand(3)
	for range 20 {
		p := trenches.Start()
		for p.HasLegalMove() {
			b := newBoard(p)
			for side := range 2 {
				if got, want := mobileCount(&b, side), p.Mobile(rules.Side(side)).Len(); got != want {
					t.Fatalf("%s: side %d has %d mobile pieces, want %d", p, side, got, want)
				}
			}
			moves := p.LegalMoves()
			p = p.Apply(moves[rng.IntN(len(moves))])
		}
	}
}

// cpuTime returns the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHardGame plays hard against itself from the start at its own
// node budget and reports the CPU time of a move (average and longest),
// which a busy machine distorts less than the wall time.
func BenchmarkHardGame(b *testing.B) {
	var moves int
	var total, longest time.Duration
	var nodes int64
	for i := 0; b.Loop(); i++ {
		st := trenches.NewState(trenches.Start())
		for p := st.Position(); p.HasLegalMove(); p = st.Position() {
			t0 := cpuTime()
			th, err := Player{}.Think(st, bot.Request{Level: bot.Hard, Side: p.Turn(), Seed: int64(i*1000 + moves)})
			d := cpuTime() - t0
			if err != nil {
				b.Fatal(err)
			}
			moves++
			total += d
			longest = max(longest, d)
			nodes += th.Nodes
			next, _ := st.Apply(th.Move)
			st = next.(trenches.State)
		}
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(moves), "cpu-ms/move")
	b.ReportMetric(float64(longest.Milliseconds()), "max-cpu-ms/move")
	b.ReportMetric(float64(nodes)/total.Seconds(), "nodes/cpu-s")
}
