package trenches

import "github.com/trench-games/trench/rules"

// Result returns the outcome of p (spec, "End and score"). When the side to
// move has no legal move the game is over: the other side wins with Reason
// rules.ReasonNoMove and scores the number of its pieces that have a legal
// move in this position as if it were its turn (0–8); the loser scores 0.
// While the game runs, Over is false, Winner is rules.NoSide and Score
// holds each side's current number of pieces with a legal move (the score
// that side would have if the game ended now with its win).
func (p Position) Result() rules.Result {
	if !p.HasLegalMove() {
		winner := p.turn.Other()
		var r rules.Result
		r.Over, r.Winner, r.Reason = true, winner, rules.ReasonNoMove
		r.Score[winner] = p.Mobile(winner).Len()
		return r
	}
	return rules.Result{
		Winner: rules.NoSide,
		Score:  [2]int{p.Mobile(rules.Side0).Len(), p.Mobile(rules.Side1).Len()},
	}
}

// Concede returns the result when side resigns (timeout false, Reason
// rules.ReasonResigned) or runs out of time (timeout true, Reason
// rules.ReasonTimeout): the other side wins and the score is 0–0, as the
// spec records such wins "by resignation" or "by time" rather than by
// pieces. For an invalid side the winner is rules.NoSide.
func Concede(side rules.Side, timeout bool) rules.Result {
	r := rules.Result{Over: true, Winner: side.Other(), Reason: rules.ReasonResigned}
	if timeout {
		r.Reason = rules.ReasonTimeout
	}
	return r
}

// Armistice returns a drawn result (Winner rules.NoSide, Reason
// rules.ReasonArmistice, score 0–0). The rules of Trenches know no agreed
// end and Engine.HasArmistice is false, so the game flow never offers one;
// the result exists only so that a forced end (e.g. by an administrator)
// has a defined outcome.
func Armistice() rules.Result {
	return rules.Result{Over: true, Winner: rules.NoSide, Reason: rules.ReasonArmistice}
}
