package bot

import (
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trench"
)

// Scores are in hundredths of a star: a Soldier captured is 100.
const star = 100

// game is what the evaluation knows of the game being played: its ruleset
// and, in a match, the points carried over from the match's earlier games.
type game struct {
	pps         int  // points per star
	target      int  // points that end the game (0: none)
	targetStars int  // stars that reach the target (0: none)
	equalTurns  bool // BGA: White has one last move once Black reaches the target
	match       bool // a match game without target (games 1 and 2)
	decisive    bool // a match game whose end decides the match (game 2)
	carried     int  // Black's lead in the match totals before this game, in hundredths of a star
}

// newGame returns the game of ruleset r in which each side (index = Side)
// already holds carried points from the match's earlier games.
func newGame(r trench.Ruleset, carried [2]int) *game {
	g := &game{pps: max(r.PointsPerStar, 1), target: r.Target, equalTurns: r.EqualTurns}
	if g.target > 0 {
		g.targetStars = (g.target + g.pps - 1) / g.pps
	} else {
		g.match = true
		g.carried = (carried[0] - carried[1]) * star / g.pps
		// Game 1 starts with nothing carried; a lead or a deficit means
		// game 2, whose end settles the match on the totals.
		g.decisive = carried != [2]int{}
	}
	return g
}

// matchLead is the value of a finished match game with Black leading the
// totals by d hundredths of a star: the lead itself, and in the deciding
// game a win or a loss of the match (equal totals call a decider, even).
func (g *game) matchLead(d, ply int) int {
	if g.decisive {
		switch {
		case d > 0:
			return bot.Win - ply
		case d < 0:
			return -(bot.Win - ply)
		}
		return 0
	}
	switch {
	case d > 0:
		d += leadBonus
	case d < 0:
		d -= leadBonus
	}
	return d
}

// leadBonus is what being ahead on points at the end of game 1 of a match
// is worth beyond the lead itself.
const leadBonus = 2 * star

// terminal reports whether the game is over in b (spec "Points, end of a
// game, rulesets", in the order of trench.Position.Outcome, without the
// no-legal-move case which the search finds itself) and its value from
// Black's view: ±(bot.Win − ply) for a game won or lost, 0 for a draw, and
// in a match game without target the match value of the totals.
func (g *game) terminal(b *board, ply int) (int, bool) {
	switch {
	case b.units[0] == 0 && b.units[1] == 0:
		return g.onPoints(b, ply), true
	case b.units[0] == 0:
		if g.match {
			return g.onPoints(b, ply), true
		}
		return -(bot.Win - ply), true
	case b.units[1] == 0:
		if g.match {
			return g.onPoints(b, ply), true
		}
		return bot.Win - ply, true
	}
	if g.target > 0 {
		s0, s1 := b.stars[0]*g.pps, b.stars[1]*g.pps
		if g.equalTurns {
			if s1 >= g.target || (s0 >= g.target && b.side == 0) {
				return g.onPoints(b, ply), true
			}
		} else if s0 >= g.target || s1 >= g.target {
			return g.onPoints(b, ply), true
		}
	}
	if b.quiet >= trench.QuietLimit {
		return g.onPoints(b, ply), true
	}
	return 0, false
}

// finalTurnNear reports whether Black has reached the target under BGA's
// equal turns, where whose turn it is decides whether the game is over.
func (g *game) finalTurnNear(b *board) bool {
	return g.equalTurns && b.stars[0]*g.pps >= g.target
}

// onPoints is the value, from Black's view, of the game ending now with
// points counted.
func (g *game) onPoints(b *board, ply int) int {
	d := (b.stars[0] - b.stars[1]) * star
	if g.match {
		return g.matchLead(g.carried+d, ply)
	}
	switch {
	case d > 0:
		return bot.Win - ply
	case d < 0:
		return -(bot.Win - ply)
	}
	return 0
}

// Positional weights, in hundredths of a star, per kind (index = stars).
var (
	// inTrench is a unit holding the trench: it cannot be attacked from
	// the front and may capture several units leaving it.
	inTrench = [6]int{0, 30, 30, 32, 34, 30}
	// behind is a unit in the enemy territory: it attacks the trench from
	// behind.
	behind = [6]int{0, 20, 20, 18, 16, 10}
	// advance is earned per step towards the trench in the own territory.
	advance = [6]int{0, 5, 4, 3, 2, 0}
)

// evaluate returns the static value of b (a game not over) from Black's
// view.
func (g *game) evaluate(b *board) int {
	pos := 0
	for sq, u := range b.sq {
		if u == 0 {
			continue
		}
		side := int(u >> 3)
		k := u & 7
		v := 0
		switch t := int(toTrench[side][sq]); {
		case t == 0:
			v = inTrench[k]
		case t < 0:
			v = behind[k]
		default:
			v = advance[k] * (7 - t)
		}
		if side == 0 {
			pos += v
		} else {
			pos -= v
		}
	}
	var v int
	if g.match {
		v = g.carried + (b.stars[0]-b.stars[1])*star + pos
	} else {
		v = g.progress(b.stars[0]) - g.progress(b.stars[1]) + pos
	}
	// As the quiet counter nears the limit, the game is more and more
	// likely to end on the points as they stand.
	if q := b.quiet - quietFrom; q > 0 {
		end := g.onPoints(b, 0)
		end = min(max(end, -quietCap), quietCap)
		v += (end - v) * q / (trench.QuietLimit - quietFrom)
	}
	return v
}

// The quiet counter counts from quietFrom plies; a game about to end on
// points is worth at most quietCap.
const (
	quietFrom = 30
	quietCap  = 20 * star
)

// progress is the value of s captured stars in a game with a target: a
// star more is worth more the nearer it brings the side to the target.
func (g *game) progress(s int) int {
	s = min(s, g.targetStars)
	return s*star + s*s*60/g.targetStars
}
