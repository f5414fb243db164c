package trench

import (
	"math/rand/v2"
	"testing"
)

// midgame is a position reached by random play, with units in and across
// the trench.
func midgame(b *testing.B) Position {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 1))
	p := Start()
	for i := 0; i < 30; i++ {
		ms := p.LegalMoves()
		p, _ = p.Apply(ms[rng.IntN(len(ms))])
	}
	return p
}

func BenchmarkLegalMovesStart(b *testing.B) {
	p := Start()
	b.ReportAllocs()
	for b.Loop() {
		_ = p.LegalMoves()
	}
}

func BenchmarkLegalMovesMidgame(b *testing.B) {
	p := midgame(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.LegalMoves()
	}
}

func BenchmarkApply(b *testing.B) {
	p := midgame(b)
	ms := p.LegalMoves()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, _ = p.Apply(ms[i%len(ms)])
		i++
	}
}

func BenchmarkPerft4(b *testing.B) {
	p := Start()
	b.ReportAllocs()
	for b.Loop() {
		if Perft(p, 4) != startPerft[4] {
			b.Fatal("wrong perft")
		}
	}
}

func BenchmarkPerft5(b *testing.B) {
	p := Start()
	b.ReportAllocs()
	for b.Loop() {
		if Perft(p, 5) != startPerft[5] {
			b.Fatal("wrong perft")
		}
	}
}

func BenchmarkParsePosition(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = ParsePosition(StartFEN)
	}
}

func BenchmarkString(b *testing.B) {
	p := midgame(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.String()
	}
}

func BenchmarkOutcome(b *testing.B) {
	p := midgame(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Outcome(RulesetBGA)
	}
}
