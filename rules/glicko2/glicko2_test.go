package glicko2

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f ± %g", what, got, want, tol)
	}
}

// TestPaperExample is the worked example of "Example of the Glicko-2
// system": a player rated 1500 (RD 200, σ 0.06) beats a 1400 (RD 30),
// loses to a 1550 (RD 100) and to a 1700 (RD 300), τ = 0.5.
func TestPaperExample(t *testing.T) {
	p := Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	got := Rate(p, []Outcome{
		{Opponent: Rating{1400, 30, 0.06}, Score: Win},
		{Opponent: Rating{1550, 100, 0.06}, Score: Loss},
		{Opponent: Rating{1700, 300, 0.06}, Score: Loss},
	}, 0.5)
	near(t, "rating", got.Rating, 1464.06, 0.01)
	near(t, "RD", got.RD, 151.52, 0.01)
	near(t, "volatility", got.Volatility, 0.05999, 0.00001)
}

// TestPaperIntermediates checks steps 3 to 5 of the example on the
// Glicko-2 scale: v ≈ 1.7785, Δ ≈ −0.4834, σ′ ≈ 0.05999 (the paper rounds
// g and E to three or four places on the way, hence the tolerance).
func TestPaperIntermediates(t *testing.T) {
	mu, phi := 0.0, 200/scale
	var vInv, sum float64
	for _, o := range []struct{ r, rd, s float64 }{{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}} {
		gj := g(o.rd / scale)
		e := expected(mu, (o.r-1500)/scale, gj)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (o.s - e)
	}
	v := 1 / vInv
	near(t, "v", v, 1.7785, 0.001)
	near(t, "Δ", v*sum, -0.4834, 0.001)
	near(t, "σ′", volatility(v*sum, phi, v, 0.06, 0.5), 0.05999, 0.00001)
}

func TestDrawBetweenEqualsKeepsRatings(t *testing.T) {
	a, b := Game(New(), New(), Draw, DefaultTau)
	for _, r := range []Rating{a, b} {
		near(t, "rating", r.Rating, 1500, 1e-9)
		if r.RD >= DefaultRD {
			t.Errorf("RD %.2f after a game, want less than %v", r.RD, DefaultRD)
		}
	}
	if a != b {
		t.Errorf("a draw between equals rated them differently: %+v %+v", a, b)
	}
}

func TestDrawAgainstStrongerGains(t *testing.T) {
	weak, strong := Rating{1400, 80, 0.06}, Rating{1700, 80, 0.06}
	w, s := Game(weak, strong, Draw, DefaultTau)
	if w.Rating <= weak.Rating || s.Rating >= strong.Rating {
		t.Errorf("draw 1400 v 1700: %.1f → %.1f, %.1f → %.1f; want the weaker up, the stronger down", weak.Rating, w.Rating, strong.Rating, s.Rating)
	}
}

// TestSymmetric: between players with the same RD, what the winner gains
// the loser loses, and swapping who wins mirrors the change.
func TestSymmetric(t *testing.T) {
	a, b := Rating{1500, 120, 0.06}, Rating{1500, 120, 0.06}
	w, l := Game(a, b, Win, DefaultTau)
	near(t, "gain + loss", (w.Rating-a.Rating)+(l.Rating-b.Rating), 0, 1e-9)
	near(t, "RDs", w.RD, l.RD, 1e-9)
	l2, w2 := Game(a, b, Loss, DefaultTau)
	near(t, "mirrored winner", w2.Rating, w.Rating, 1e-9)
	near(t, "mirrored loser", l2.Rating, l.Rating, 1e-9)
	if w.Rating <= a.Rating || l.Rating >= b.Rating {
		t.Errorf("winner %.1f, loser %.1f from 1500", w.Rating, l.Rating)
	}
}

func TestNewPlayersFirstGame(t *testing.T) {
	w, l := Game(New(), New(), Win, DefaultTau)
	// Both start at 1500/350: the winner gains about 162 points.
	near(t, "winner", w.Rating, 1662.3, 0.5)
	near(t, "loser", l.Rating, 1337.7, 0.5)
	near(t, "RD", w.RD, 290.3, 0.5)
}

func TestNoGamesWidensRDUpToMax(t *testing.T) {
	p := Rating{1600, 100, 0.06}
	q := Rate(p, nil, DefaultTau)
	near(t, "rating", q.Rating, 1600, 0)
	near(t, "RD", q.RD, math.Sqrt(100*100+math.Pow(0.06*scale, 2)), 1e-9)
	if r := Rate(New(), nil, DefaultTau); r.RD != MaxRD {
		t.Errorf("RD %.3f, want at most %v", r.RD, MaxRD)
	}
}

// TestExtremes: lopsided results stay finite.
func TestExtremes(t *testing.T) {
	p := Rating{3000, 30, 0.06}
	for _, s := range []float64{Win, Draw, Loss} {
		r := Rate(p, []Outcome{{Opponent: Rating{100, 350, 0.2}, Score: s}}, 1.2)
		if math.IsNaN(r.Rating) || math.IsInf(r.Rating, 0) || math.IsNaN(r.RD) || math.IsNaN(r.Volatility) || r.RD <= 0 {
			t.Errorf("score %v: %+v", s, r)
		}
	}
}

// TestWiden: a player who does not play for t rating periods has their
// RD widened to √(φ² + t·σ²) on the Glicko-2 scale, worked by hand with
// φ = RD / 173.7178:
//   - RD 50, σ 0.06, 10 periods: φ² = 0.082842, + 10 × 0.0036 = 0.118842,
//     √ = 0.344735, × 173.7178 = 59.887.
//   - RD 200, σ 0.06, half a period: φ² = 1.325470, + 0.0018 = 1.327270,
//     √ = 1.152072, × 173.7178 = 200.136.
//   - RD 340, σ 0.06, 100 periods: 355.62 before the cap, so 350.
func TestWiden(t *testing.T) {
	for _, tc := range []struct{ rd, periods, want float64 }{
		{50, 10, 59.887}, {200, 0.5, 200.136}, {340, 100, 350}, {120, 0, 120},
	} {
		got := Widen(Rating{Rating: 1700, RD: tc.rd, Volatility: 0.06}, tc.periods)
		near(t, "RD", got.RD, tc.want, 0.001)
		if got.Rating != 1700 || got.Volatility != 0.06 {
			t.Errorf("widening changed the rating or volatility: %+v", got)
		}
	}
}
