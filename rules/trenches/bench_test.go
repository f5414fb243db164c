package trenches

import (
	"slices"
	"testing"
)

// crowdedFEN is an early position (four plies from the start) with 1371
// legal moves: two Light Soldiers have moved to open ground.
const crowdedFEN = "3t2x2t/3s2s3/3S6/ts6st/10/10/TS6ST/10/6S2x/3T2T3 l"

func TestCrowdedPosition(t *testing.T) {
	p, err := ParsePosition(crowdedFEN)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.LegalMoves()); n != 1371 {
		t.Errorf("%d legal moves, want 1371", n)
	}
	if got, want := moveStrings(p.LegalMoves()), naiveParse(crowdedFEN).moves(); !slices.Equal(got, want) {
		t.Errorf("LegalMoves differ from the naive generator")
	}
}

func BenchmarkLegalMovesStart(b *testing.B) {
	p := Start()
	b.ReportAllocs()
	for b.Loop() {
		_ = p.LegalMoves()
	}
}

func BenchmarkLegalMovesCrowded(b *testing.B) {
	p, _ := ParsePosition(crowdedFEN)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.LegalMoves()
	}
}

func BenchmarkAppendLegalMovesCrowded(b *testing.B) {
	p, _ := ParsePosition(crowdedFEN)
	buf := make([]Move, 0, 2048)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.AppendLegalMoves(buf[:0])
	}
}

func BenchmarkCountLegalMovesCrowded(b *testing.B) {
	p, _ := ParsePosition(crowdedFEN)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.CountLegalMoves()
	}
}

func BenchmarkResultCrowded(b *testing.B) {
	p, _ := ParsePosition(crowdedFEN)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Result()
	}
}

func BenchmarkPerft2(b *testing.B) {
	p := Start()
	b.ReportAllocs()
	for b.Loop() {
		_ = Perft(p, 2)
	}
}

func BenchmarkApply(b *testing.B) {
	p := Start()
	m, _ := p.ParseMove("b4-b6/d8")
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Apply(m)
	}
}

func BenchmarkParsePosition(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = ParsePosition(crowdedFEN)
	}
}

func BenchmarkString(b *testing.B) {
	p, _ := ParsePosition(crowdedFEN)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.String()
	}
}

func BenchmarkStateLegal(b *testing.B) {
	s := NewState(Start())
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Legal(0)
	}
}
