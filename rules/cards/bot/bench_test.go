package bot

import (
	"syscall"
	"testing"
	"time"

	rbot "github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/cards"
)

// cpuTime returns the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchmarkGame(b *testing.B, variant string, level rbot.Level) {
	var moves int
	var total, longest time.Duration
	var nodes int64
	for i := 0; b.Loop(); i++ {
		st, err := cards.New(variant, int64(i))
		if err != nil {
			b.Fatal(err)
		}
		for !st.Result().Over && st.Ply() < 1000 {
			t0 := cpuTime()
			th, err := Player{}.Think(st, rbot.Request{Level: level, Side: st.ToMove(), Seed: int64(i*1000 + moves)})
			d := cpuTime() - t0
			if err != nil {
				b.Fatal(err)
			}
			moves++
			total += d
			longest = max(longest, d)
			nodes += th.Nodes
			if st, err = st.ApplyMove(th.Move); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(moves), "cpu-ms/move")
	b.ReportMetric(float64(longest.Milliseconds()), "max-cpu-ms/move")
	b.ReportMetric(float64(nodes)/total.Seconds(), "nodes/cpu-s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}

// BenchmarkHardGame plays hard against itself from the start at its own
// node budget and reports the CPU time of a move (average and longest),
// which a busy machine distorts less than the wall time, and the speed.
func BenchmarkHardGame(b *testing.B)     { benchmarkGame(b, cards.VariantShort, rbot.Hard) }
func BenchmarkHardLongGame(b *testing.B) { benchmarkGame(b, cards.VariantLong, rbot.Hard) }
func BenchmarkMediumGame(b *testing.B)   { benchmarkGame(b, cards.VariantShort, rbot.Medium) }
