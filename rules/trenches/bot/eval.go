package bot

import (
	"github.com/trench-games/trench/rules"
)

// Evaluation weights, in the unit of Score: a tenth of an empty square of
// territory.
type weights struct {
	queenSquare int // a square reached first by one side's Queen moves
	kingSquare  int // a square reached first by one side's King steps
	tieSquare   int // a square both reach equally soon, for the side to move
	mobile      int // a piece with a legal move
	tankLib     [9]int
	soldierLib  int // per square a Soldier reaches (capped at soldierCap)
	soldierCap  int
}

var defaultWeights = weights{
	queenSquare: 10,
	kingSquare:  4,
	tieSquare:   2,
	mobile:      60,
	tankLib:     [9]int{0, 12, 20, 25, 28, 30, 31, 32, 33},
	soldierLib:  3,
	soldierCap:  10,
}

// evaluate returns the static evaluation of b from Light's view (Score's
// unit). It assumes the side to move has a legal move.
func evaluate(b *board, w *weights) int {
	occ := b.occupied()
	free := allSet.andNot(occ)
	light := b.pc[0][0].or(b.pc[0][1])
	dark := b.pc[1][0].or(b.pc[1][1])
	score := 0
	stm := 1
	if b.pos.Turn() == rules.Side1 {
		stm = -1
	}

	// Territory by Queen moves: who reaches each empty square in fewer moves.
	var rl, rd set
	fl, fd := light, dark
	ties := 0
	for !fl.empty() || !fd.empty() {
		nl := queenFill(fl, free).andNot(rl)
		nd := queenFill(fd, free).andNot(rd)
		score += w.queenSquare * (nl.andNot(rd).andNot(nd).count() - nd.andNot(rl).andNot(nl).count())
		ties += nl.and(nd).count()
		rl, rd = rl.or(nl), rd.or(nd)
		fl, fd = nl, nd
	}
	score += stm * w.tieSquare * ties

	// Territory by King steps: who is closer in the near term.
	rl, rd = set{}, set{}
	fl, fd = light, dark
	for !fl.empty() || !fd.empty() {
		nl := kingFill(fl, free).andNot(rl)
		nd := kingFill(fd, free).andNot(rd)
		score += w.kingSquare * (nl.andNot(rd).andNot(nd).count() - nd.andNot(rl).andNot(nl).count())
		rl, rd = rl.or(nl), rd.or(nd)
		fl, fd = nl, nd
	}

	// Mobility: pieces that can move, and how freely.
	score += w.mobile * (b.pos.Mobile(rules.Side0).Len() - b.pos.Mobile(rules.Side1).Len())
	for side := range 2 {
		sign := 1 - 2*side
		for t := b.pc[side][0]; !t.empty(); {
			sq := t.pop()
			score += sign * w.tankLib[kingFill(bitOf(sq), free).count()]
		}
		for s := b.pc[side][1]; !s.empty(); {
			sq := s.pop()
			score += sign * w.soldierLib * min(queenFill(bitOf(sq), free).count(), w.soldierCap)
		}
	}
	return score
}
