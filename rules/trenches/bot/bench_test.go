package bot

import (
	"testing"

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
