package trench

import "github.com/trench-games/trench/rules"

// Ruleset is one of the ways to count and end a game of TRENCH
// (spec "Points, end of a game, rulesets").
type Ruleset struct {
	// Key is the stable name stored with a game: "match", "single", "bga"
	// or "decider".
	Key string
	// Title is shown to players.
	Title string
	// PointsPerStar converts captured stars to points: 2 in the official
	// rules (a Soldier is worth 2 … a General 10), 1 in the BGA rules.
	PointsPerStar int
	// Target is the score in points that ends the game (0: none).
	Target int
	// EqualTurns is the BGA rule: when Black reaches the target, White
	// still plays one last move; when White reaches it first, the game
	// ends at once.
	EqualTurns bool
}

// The rulesets. RulesetMatch is used for games 1 and 2 of the official
// match, RulesetDecider for its third game when the totals are equal.
var (
	RulesetMatch   = Ruleset{Key: "match", Title: "Official match (2 games)", PointsPerStar: 2}
	RulesetSingle  = Ruleset{Key: "single", Title: "Official single game (to 50)", PointsPerStar: 2, Target: 50}
	RulesetBGA     = Ruleset{Key: "bga", Title: "BGA rules (to 25)", PointsPerStar: 1, Target: 25, EqualTurns: true}
	RulesetDecider = Ruleset{Key: "decider", Title: "Match decider (to 40)", PointsPerStar: 2, Target: 40}
)

// LookupRuleset returns the ruleset with the given key; "" means "match".
// The internal key "decider" is accepted too.
func LookupRuleset(key string) (Ruleset, bool) {
	switch key {
	case "", RulesetMatch.Key:
		return RulesetMatch, true
	case RulesetSingle.Key:
		return RulesetSingle, true
	case RulesetBGA.Key:
		return RulesetBGA, true
	case RulesetDecider.Key:
		return RulesetDecider, true
	}
	return Ruleset{}, false
}

// Score returns the points of each side (index = side) under r: the stars
// each side has captured times r.PointsPerStar.
func (p Position) Score(r Ruleset) [2]int {
	return [2]int{p.stars[0] * r.PointsPerStar, p.stars[1] * r.PointsPerStar}
}

// FinalTurn reports whether the side to move is playing the last move the
// BGA equal-turns rule grants: r has EqualTurns, Black has reached the
// target and White is to move (and the game is not otherwise over).
func (p Position) FinalTurn(r Ruleset) bool {
	if !r.EqualTurns || r.Target <= 0 || p.side != White {
		return false
	}
	s := p.Score(r)
	if s[0] < r.Target || s[1] >= r.Target {
		return false
	}
	return !p.Outcome(r).Over
}

// byScore fills in the winner of a finished game decided on points: the
// higher score wins, equal scores are a draw (rules.NoSide).
func byScore(score [2]int, reason rules.Reason) rules.Result {
	res := rules.Result{Over: true, Winner: rules.NoSide, Score: score, Reason: reason}
	switch {
	case score[0] > score[1]:
		res.Winner = Black
	case score[1] > score[0]:
		res.Winner = White
	}
	return res
}

// Outcome returns the result of the game in position p under r. The
// end conditions are checked in this order (spec "Points, end of a
// game, rulesets"):
//  1. a side has no units left (rules.ReasonAllCaptured): the side with
//     units wins (a board with no unit at all is decided on points);
//  2. the target is reached (rules.ReasonTarget): without EqualTurns, as
//     soon as either score is at least r.Target; with EqualTurns (BGA), when
//     White has reached it, or when Black has reached it and Black is to
//     move again (White has had its last move). The higher score wins,
//     equal scores draw;
//  3. QuietLimit (50) plies in a row without a capture (rules.ReasonQuiet):
//     points are counted;
//  4. the side to move has no legal move (rules.ReasonNoMove): points are
//     counted. No position with at most 16 units per side reaches this:
//     a unit without an orthogonal move needs own units on every square of
//     a whole territory (28 squares) around it; the check stays for
//     completeness.
//
// While none holds, Over is false, Winner is rules.NoSide and Score holds
// the running score. Score is always in r's points, index = side.
func (p Position) Outcome(r Ruleset) rules.Result {
	score := p.Score(r)
	var units [2]int
	for _, u := range p.board {
		if u != NoUnit {
			units[u>>3]++
		}
	}
	switch {
	case units[0] == 0 && units[1] == 0:
		return byScore(score, rules.ReasonAllCaptured)
	case units[0] == 0:
		return rules.Result{Over: true, Winner: White, Score: score, Reason: rules.ReasonAllCaptured}
	case units[1] == 0:
		return rules.Result{Over: true, Winner: Black, Score: score, Reason: rules.ReasonAllCaptured}
	}
	if r.Target > 0 {
		if r.EqualTurns {
			if score[1] >= r.Target || (score[0] >= r.Target && p.side == Black) {
				return byScore(score, rules.ReasonTarget)
			}
		} else if score[0] >= r.Target || score[1] >= r.Target {
			return byScore(score, rules.ReasonTarget)
		}
	}
	if p.quiet >= QuietLimit {
		return byScore(score, rules.ReasonQuiet)
	}
	if !p.HasLegalMove() {
		return byScore(score, rules.ReasonNoMove)
	}
	return rules.Result{Winner: rules.NoSide, Score: score}
}

// Armistice returns the result when both players agree to end the game in
// p: points are counted, the higher score wins, equal is a draw
// (rules.ReasonArmistice).
func (p Position) Armistice(r Ruleset) rules.Result {
	return byScore(p.Score(r), rules.ReasonArmistice)
}

// Concede returns the result when side resigns (timeout false,
// rules.ReasonResigned) or runs out of time (timeout true,
// rules.ReasonTimeout) in p: all of side's units still on the board count
// as captured by the opponent, whose score grows by their points under r,
// and the opponent wins whatever the scores. For an invalid side it
// returns p.Outcome(r).
func (p Position) Concede(r Ruleset, side rules.Side, timeout bool) rules.Result {
	if !side.Valid() {
		return p.Outcome(r)
	}
	score := p.Score(r)
	score[side.Other()] += p.StarsOnBoard(side) * r.PointsPerStar
	reason := rules.ReasonResigned
	if timeout {
		reason = rules.ReasonTimeout
	}
	return rules.Result{Over: true, Winner: side.Other(), Score: score, Reason: reason}
}
