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

	// Mobility: pieces that can move, and how freely. A Tank can move when
	// a neighbour is empty; a Soldier when it reaches a landing square from
	// which a grenade reaches an empty square that no Tank protects (with
	// its start square empty by then).
	prot := kingFill(b.pc[0][0].or(b.pc[1][0]), allSet)
	for side := range 2 {
		sign := 1 - 2*side
		for t := b.pc[side][0]; !t.empty(); {
			n := kingFill(bitOf(t.pop()), free).count()
			score += sign * w.tankLib[n]
			if n > 0 {
				score += sign * w.mobile
			}
		}
		for s := b.pc[side][1]; !s.empty(); {
			sq := bitOf(s.pop())
			land := queenFill(sq, free)
			score += sign * w.soldierLib * min(land.count(), w.soldierCap)
			if soldierMobile(sq, land, free, prot) {
				score += sign * w.mobile
			}
		}
	}
	return score
}

// soldierMobile reports whether the Soldier on sq, which reaches the
// landing squares land, has a legal move: a grenade from some landing
// square reaching an empty square outside prot (the squares next to a
// Tank), with sq empty once the Soldier has left. Throwing from each
// landing square in turn reaches the same squares as one fill from all of
// them, since the other landing squares are empty while the Soldier stands
// on one. From any landing square the grenade can fly back to sq, so only a
// Soldier next to a Tank needs the fill.
func soldierMobile(sq, land, free, prot set) bool {
	if land.empty() {
		return false
	}
	if sq.and(prot).empty() {
		return true
	}
	return !queenFill(land, free.or(sq)).andNot(prot).empty()
}

// mobileCount returns the number of side's pieces that have a legal move,
// as the evaluation counts them.
func mobileCount(b *board, side int) int {
	free := allSet.andNot(b.occupied())
	prot := kingFill(b.pc[0][0].or(b.pc[1][0]), allSet)
	n := 0
	for t := b.pc[side][0]; !t.empty(); {
		if !kingFill(bitOf(t.pop()), free).empty() {
			n++
		}
	}
	for s := b.pc[side][1]; !s.empty(); {
		sq := bitOf(s.pop())
		if soldierMobile(sq, queenFill(sq, free), free, prot) {
			n++
		}
	}
	return n
}
