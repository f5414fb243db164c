package trenches

import "github.com/trench-games/trench/rules"

// The eight Queen directions as (file, rank) steps. The first four increase
// the square index (so the nearest blocker on such a ray is its lowest
// square), the last four decrease it (nearest blocker = highest square).
var directions = [8][2]int{
	{1, 0}, {0, 1}, {1, 1}, {-1, 1}, // E N NE NW
	{-1, 0}, {0, -1}, {-1, -1}, {1, -1}, // W S SW SE
}

var (
	// rays[d][sq] holds the squares from sq (excluded) to the board edge in
	// direction d.
	rays [8][NumSquares]SquareSet
	// beyond[d][sq] is rays[d][sq] plus sq itself: what a blocker on sq
	// hides from a ray in direction d.
	beyond [8][NumSquares]SquareSet
	// neighbours[sq] holds the up to eight squares around sq.
	neighbours [NumSquares]SquareSet
)

func init() {
	for sq := range Square(NumSquares) {
		f, r := sq.File(), sq.Rank()
		for d, step := range directions {
			for i := 1; ; i++ {
				to := NewSquare(f+i*step[0], r+i*step[1])
				if to == NoSquare {
					break
				}
				rays[d][sq] = rays[d][sq].With(to)
			}
			beyond[d][sq] = rays[d][sq].With(sq)
			neighbours[sq] = neighbours[sq].With(NewSquare(f+step[0], r+step[1]))
		}
	}
}

// queenReach returns the squares a Queen on sq reaches over empty squares:
// along each of the eight lines up to, not including, the first square in
// occ or the board edge.
func queenReach(sq Square, occ SquareSet) SquareSet {
	var reach SquareSet
	for d := range 4 {
		r := rays[d][sq]
		if b := r.and(occ); !b.IsEmpty() {
			r = r.andNot(beyond[d][b.first()])
		}
		reach = reach.or(r)
	}
	for d := 4; d < 8; d++ {
		r := rays[d][sq]
		if b := r.and(occ); !b.IsEmpty() {
			r = r.andNot(beyond[d][b.last()])
		}
		reach = reach.or(r)
	}
	return reach
}

// LegalMoves returns the legal moves of the side to move (spec, "A turn"):
// every Tank move, and every Soldier move with each of its legal grenades.
// The order is deterministic (Tanks then Soldiers, each by square) but
// otherwise unspecified. The list is empty when the side to move has lost.
func (p Position) LegalMoves() []Move {
	return p.AppendLegalMoves(make([]Move, 0, p.CountLegalMoves()))
}

// AppendLegalMoves appends the legal moves of LegalMoves to dst and returns
// the extended slice; with a large enough dst it does not allocate.
func (p Position) AppendLegalMoves(dst []Move) []Move {
	us := p.turn
	occ := p.Occupied()
	for t := p.pieces[us][0]; !t.IsEmpty(); {
		from := t.pop()
		for to := queenReach(from, occ); !to.IsEmpty(); {
			dst = append(dst, Move{From: from, To: to.pop(), Grenade: NoSquare, Type: Tank})
		}
	}
	open := allSquares.andNot(p.Protected())
	for s := p.pieces[us][1]; !s.IsEmpty(); {
		from := s.pop()
		after := occ.andNot(bit(from))
		for to := queenReach(from, occ); !to.IsEmpty(); {
			land := to.pop()
			for g := queenReach(land, after).and(open); !g.IsEmpty(); {
				dst = append(dst, Move{From: from, To: land, Grenade: g.pop(), Type: Soldier})
			}
		}
	}
	return dst
}

// CountLegalMoves returns len(p.LegalMoves()) without building the list.
func (p Position) CountLegalMoves() int {
	us := p.turn
	occ := p.Occupied()
	n := 0
	for t := p.pieces[us][0]; !t.IsEmpty(); {
		n += queenReach(t.pop(), occ).Len()
	}
	open := allSquares.andNot(p.Protected())
	for s := p.pieces[us][1]; !s.IsEmpty(); {
		from := s.pop()
		after := occ.andNot(bit(from))
		for to := queenReach(from, occ); !to.IsEmpty(); {
			n += queenReach(to.pop(), after).and(open).Len()
		}
	}
	return n
}

// HasLegalMove reports whether the side to move has a legal move, i.e.
// whether it has not lost.
func (p Position) HasLegalMove() bool {
	return !p.mobile(p.turn, true).IsEmpty()
}

// Mobile returns the squares of side's pieces that have at least one legal
// move in this board as if it were side's turn: Tanks with an empty
// neighbouring square, Soldiers with a landing square that has a legal
// grenade. Its size is side's score when side wins (spec, "End and
// score"). Empty for an invalid side.
func (p Position) Mobile(side rules.Side) SquareSet {
	if !side.Valid() {
		return SquareSet{}
	}
	return p.mobile(side, false)
}

// mobile computes Mobile; with stopAtFirst, it stops at the first mobile piece.
func (p Position) mobile(side rules.Side, stopAtFirst bool) SquareSet {
	var out SquareSet
	occ := p.Occupied()
	for t := p.pieces[side][0]; !t.IsEmpty(); {
		from := t.pop()
		if !neighbours[from].andNot(occ).IsEmpty() {
			out = out.With(from)
			if stopAtFirst {
				return out
			}
		}
	}
	open := allSquares.andNot(p.Protected())
	for s := p.pieces[side][1]; !s.IsEmpty(); {
		from := s.pop()
		if p.soldierLandings(from, occ, open, true).IsEmpty() {
			continue
		}
		out = out.With(from)
		if stopAtFirst {
			return out
		}
	}
	return out
}

// soldierLandings returns the squares the Soldier on from may move to: those
// it reaches from which at least one grenade square in open is reachable
// once from is empty. With first it stops at the first one.
func (p Position) soldierLandings(from Square, occ, open SquareSet, first bool) SquareSet {
	var out SquareSet
	after := occ.andNot(bit(from))
	for to := queenReach(from, occ); !to.IsEmpty(); {
		land := to.pop()
		if !queenReach(land, after).and(open).IsEmpty() {
			out = out.With(land)
			if first {
				break
			}
		}
	}
	return out
}

// MovesFrom returns the landing squares of the legal moves of the piece on
// from, when it belongs to the side to move; for a Soldier only the squares
// from which it has a legal grenade. Empty otherwise.
func (p Position) MovesFrom(from Square) SquareSet {
	pc := p.At(from)
	if pc.Side() != p.turn {
		return SquareSet{}
	}
	occ := p.Occupied()
	if pc.Type() == Tank {
		return queenReach(from, occ)
	}
	return p.soldierLandings(from, occ, allSquares.andNot(p.Protected()), false)
}

// GrenadeTargets describes the grenades of the Soldier of the side to move
// on from once it has landed on to, for a board display (spec, "What the
// product must show"): open holds the legal grenade squares, blocked the
// squares a grenade would reach over empty squares but that are protected
// by a Tank (the display marks them differently). Both are empty when from
// does not hold a Soldier of the side to move or to is not reachable from
// from. An empty open means to is not a legal landing square (not in
// MovesFrom).
func (p Position) GrenadeTargets(from, to Square) (open, blocked SquareSet) {
	pc := p.At(from)
	if pc.Side() != p.turn || pc.Type() != Soldier {
		return SquareSet{}, SquareSet{}
	}
	occ := p.Occupied()
	if !queenReach(from, occ).Has(to) {
		return SquareSet{}, SquareSet{}
	}
	reach := queenReach(to, occ.andNot(bit(from)))
	prot := p.Protected()
	return reach.andNot(prot), reach.and(prot)
}

// IsLegal reports whether m is a legal move of the side to move.
func (p Position) IsLegal(m Move) bool { return p.check(m) == nil }

// check returns nil when m is legal and otherwise an error wrapping
// rules.ErrIllegal that says why.
func (p Position) check(m Move) error {
	if !m.From.Valid() || !m.To.Valid() {
		return rules.Refuse(rules.ErrIllegal, "trenches.off-board", m.String())
	}
	pc := p.At(m.From)
	if pc.Side() != p.turn {
		return rules.Refuse(rules.ErrIllegal, "trenches.no-piece", m.String(), rules.Term(sideName(p.turn)), m.From.String())
	}
	switch {
	case pc.Type() == Tank && (m.Type != Tank || m.Grenade != NoSquare):
		return rules.Refuse(rules.ErrIllegal, "trenches.tank-grenade", m.String(), m.From.String())
	case pc.Type() == Soldier && (m.Type != Soldier || !m.Grenade.Valid()):
		return rules.Refuse(rules.ErrIllegal, "trenches.soldier-grenade", m.String(), m.From.String())
	}
	occ := p.Occupied()
	if !queenReach(m.From, occ).Has(m.To) {
		return rules.Refuse(rules.ErrIllegal, "trenches.unreachable", m.String(), m.To.String(), m.From.String())
	}
	if pc.Type() == Tank {
		return nil
	}
	if !queenReach(m.To, occ.andNot(bit(m.From))).Has(m.Grenade) {
		return rules.Refuse(rules.ErrIllegal, "trenches.grenade-unreachable", m.String(), m.Grenade.String(), m.To.String())
	}
	if p.Protected().Has(m.Grenade) {
		return rules.Refuse(rules.ErrIllegal, "trenches.grenade-tank", m.String(), m.Grenade.String())
	}
	return nil
}

// Apply returns the position after m, which must be legal in p (from
// LegalMoves, ParseMove or checked with IsLegal); Apply does not check it.
// The piece on m.From moves to m.To; Debris appears on m.From for a Tank
// and on m.Grenade for a Soldier; the other side is to move.
func (p Position) Apply(m Move) Position {
	us := p.turn
	fb, tb := bit(m.From), bit(m.To)
	for t := range 2 {
		if set := p.pieces[us][t]; !set.and(fb).IsEmpty() {
			p.pieces[us][t] = set.andNot(fb).or(tb)
			if t == 0 {
				p.debris = p.debris.or(fb)
			} else {
				p.debris = p.debris.or(bit(m.Grenade))
			}
			break
		}
	}
	p.turn = us.Other()
	return p
}

// Perft counts the leaf nodes of the move tree of p to depth plies (1 for
// depth ≤ 0). Lost positions simply have no children.
func Perft(p Position, depth int) int64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	return perft(p, depth, bufs)
}

func perft(p Position, depth int, bufs [][]Move) int64 {
	if depth == 1 {
		return int64(p.CountLegalMoves())
	}
	moves := p.AppendLegalMoves(bufs[depth-1][:0])
	bufs[depth-1] = moves
	var n int64
	for _, m := range moves {
		n += perft(p.Apply(m), depth-1, bufs)
	}
	return n
}
