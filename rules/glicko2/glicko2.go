// Package glicko2 is the Glicko-2 rating system, as described
// in Mark Glickman's "Example of the Glicko-2 system": ratings,
// rating deviations (RD) and volatilities on the Glicko scale, updated
// once per rating period from the results of that period. It is pure: no
// I/O, no clock.
package glicko2

import "math"

// The starting point of a new player, and the system's constants.
const (
	DefaultRating     = 1500.0
	DefaultRD         = 350.0
	DefaultVolatility = 0.06
	// DefaultTau constrains how fast the volatility changes; Glickman
	// suggests values between 0.3 and 1.2.
	DefaultTau = 0.5
	// MaxRD is the largest RD a rating may have: a new player's. The RD
	// grows in a period without games, up to this bound.
	MaxRD = DefaultRD

	scale   = 173.7178 // Glicko-2 scale factor: 400 / ln(10)
	epsilon = 1e-6     // convergence tolerance of the volatility iteration
)

// Rating is a player's rating on the Glicko scale.
type Rating struct {
	Rating     float64 // r, 1500 for a new player
	RD         float64 // rating deviation, 350 for a new player
	Volatility float64 // σ, 0.06 for a new player
}

// New returns a new player's rating: 1500, RD 350, volatility 0.06.
func New() Rating {
	return Rating{Rating: DefaultRating, RD: DefaultRD, Volatility: DefaultVolatility}
}

// Outcome is one game of a rating period, from the rated player's side:
// the opponent's rating before the period and the score (1 a win, 0.5 a
// draw, 0 a loss).
type Outcome struct {
	Opponent Rating
	Score    float64
}

// Score values.
const (
	Win  = 1.0
	Draw = 0.5
	Loss = 0.0
)

// Rate returns p's rating after a rating period with the given outcomes
// (steps 1 to 8 of Glickman's description), with system constant tau. A
// period without games only widens the RD. The RD of the result is at
// most MaxRD.
func Rate(p Rating, outcomes []Outcome, tau float64) Rating {
	// Step 2: to the Glicko-2 scale.
	mu := (p.Rating - DefaultRating) / scale
	phi := p.RD / scale
	sigma := p.Volatility
	if len(outcomes) == 0 {
		return Rating{Rating: p.Rating, RD: math.Min(math.Sqrt(phi*phi+sigma*sigma)*scale, MaxRD), Volatility: sigma}
	}
	// Steps 3 and 4: the estimated variance v and the improvement Δ.
	var vInv, sum float64
	for _, o := range outcomes {
		muJ := (o.Opponent.Rating - DefaultRating) / scale
		gJ := g(o.Opponent.RD / scale)
		e := expected(mu, muJ, gJ)
		vInv += gJ * gJ * e * (1 - e)
		sum += gJ * (o.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility.
	sigma = volatility(delta, phi, v, sigma, tau)
	// Steps 6 and 7: the new RD and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	// Step 8: back to the Glicko scale.
	return Rating{Rating: mu*scale + DefaultRating, RD: math.Min(phi*scale, MaxRD), Volatility: sigma}
}

// Widen returns p after periods rating periods without games (a fraction
// counts as that part of a period): the RD grows to √(φ² + periods·σ²) on
// the Glicko-2 scale, as step 6 of Glickman's description does for a
// player who did not compete, at most MaxRD. The rating and volatility
// stay. periods ≤ 0 changes nothing.
func Widen(p Rating, periods float64) Rating {
	if periods <= 0 {
		return p
	}
	phi := p.RD / scale
	p.RD = math.Min(math.Sqrt(phi*phi+periods*p.Volatility*p.Volatility)*scale, MaxRD)
	return p
}

// Game rates one game between a and b, played as one rating period for
// both, scoreA being a's score (Win, Draw or Loss); each is rated against
// the other's rating before the game.
func Game(a, b Rating, scoreA, tau float64) (Rating, Rating) {
	return Rate(a, []Outcome{{Opponent: b, Score: scoreA}}, tau),
		Rate(b, []Outcome{{Opponent: a, Score: 1 - scoreA}}, tau)
}

// g reduces the weight of a result against an uncertain opponent.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is the expected score against an opponent at muJ.
func expected(mu, muJ, gJ float64) float64 {
	return 1 / (1 + math.Exp(-gJ*(mu-muJ)))
}

// volatility is step 5: the root of f by the Illinois algorithm, as the
// description gives it.
func volatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	d2, p2 := delta*delta, phi*phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		return ex*(d2-p2-v-ex)/(2*(p2+v+ex)*(p2+v+ex)) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if d2 > p2+v {
		B = math.Log(d2 - p2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < 1000 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 200; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
