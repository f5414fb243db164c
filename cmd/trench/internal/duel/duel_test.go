package duel

import (
	"math"
	"strings"
	"testing"
)

func TestScoreAndElo(t *testing.T) {
	r := Result{Games: 200, Wins: 150, Draws: 20, Losses: 30}
	if got := r.Score(); got != 0.8 {
		t.Fatalf("score %v, want 0.8", got)
	}
	d, lo, hi := r.Elo()
	// 0.8 → 400·log10(4) ≈ 240.8 Elo.
	if math.Abs(d-240.8) > 0.1 {
		t.Fatalf("elo %v, want 240.8", d)
	}
	// Standard error: sqrt((150·0.04+20·0.09+30·0.64)/200/200) ≈ 0.02598;
	// the interval is the Elo of 0.8 ± 1.96·0.02598.
	if math.Abs(lo-elo(0.8-1.96*0.025981)) > 0.5 || math.Abs(hi-elo(0.8+1.96*0.025981)) > 0.5 || !(lo < d && d < hi) {
		t.Fatalf("interval %v..%v around %v", lo, hi, d)
	}
	even := Result{Games: 10, Wins: 3, Draws: 4, Losses: 3}
	if d, _, _ := even.Elo(); d != 0 {
		t.Fatalf("even score gives %v Elo", d)
	}
	sweep := Result{Games: 10, Wins: 10}
	if d, lo, _ := sweep.Elo(); !math.IsInf(d, 1) || !math.IsInf(lo, 1) {
		t.Fatalf("a clean sweep gives %v (low %v)", d, lo)
	}
	line := strings.SplitN(r.String(), "\n", 2)[0]
	if line != "games=200 wins=150 draws=20 losses=30 score=0.800 elo=+241 (95%: +190 to +303)" {
		t.Fatalf("report line %q", line)
	}
}

func TestMixSpreadsSeeds(t *testing.T) {
	seen := map[int64]bool{}
	for i := range int64(1000) {
		seen[mix(1, i)] = true
	}
	if len(seen) != 1000 {
		t.Fatalf("%d distinct seeds of 1000", len(seen))
	}
}
