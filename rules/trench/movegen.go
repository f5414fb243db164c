package trench

import (
	"fmt"

	"github.com/trench-games/trench/rules"
)

// maxMoves bounds the number of legal moves of one position: a General
// has at most 8×5 destinations, a Colonel 7×4, a Captain 6×3, a Sergeant
// 5×2 and a Soldier 4, so a full army has at most
// 40 + 2×28 + 3×18 + 4×10 + 6×4 = 214.
const maxMoves = 256

// imove is the move generator's compact move: the line from → to in
// direction dir, and how many enemy units it removes.
type imove struct {
	from, to, dir, ncap int8
}

// genFrom appends the legal moves of the unit on from (which must belong
// to the side to move) to out. This is the heart of the rules: spec
// "Movement" and "Captures". Walk each direction of the unit square by
// square, up to its stars:
//   - empty square: the move may end here; keep walking;
//   - own unit: the line is blocked;
//   - enemy unit: it depends on where the mover started:
//     trench — an enemy in the trench or in the mover's own territory
//     blocks; an enemy in the enemy territory is captured and the line
//     goes on (multi-capture when leaving the trench);
//     own territory — an enemy in the trench blocks (no attack from the
//     front); any other enemy is captured and the line ends;
//     enemy territory — the enemy is captured (even in the trench: attack
//     from behind) and the line ends.
//
// Only Colonel and General have the horizontal directions that run along
// the trench, so "only they can move along the trench" follows from the
// vectors; a line from the trench along the trench meets only trench
// squares, where an enemy always blocks.
func (p *Position) genFrom(from int8, out []imove) []imove {
	u := p.board[from]
	side := int(u >> 3)
	dist := int8(u & 7)
	start := zoneOf[side][from]
	zones := &zoneOf[side]
	for _, d := range dirsOf[side][u&7] {
		r := &rays[from][d]
		n := r.n
		if n > dist {
			n = dist
		}
		var ncap int8
	walk:
		for i := int8(0); i < n; i++ {
			s := r.sq[i]
			t := p.board[s]
			if t == NoUnit {
				out = append(out, imove{from, s, d, ncap})
				continue
			}
			if (t^u)&whiteBit == 0 {
				break // own unit
			}
			switch start {
			case zoneTrench:
				if zones[s] != zoneEnemy {
					break walk
				}
				ncap++
				out = append(out, imove{from, s, d, ncap})
			case zoneOwn:
				if zones[s] != zoneTrench {
					out = append(out, imove{from, s, d, 1})
				}
				break walk
			default:
				out = append(out, imove{from, s, d, 1})
				break walk
			}
		}
	}
	return out
}

// gen appends all legal moves of the side to move to out.
func (p *Position) gen(out []imove) []imove {
	mine := Unit(p.side) << 3
	for sq := int8(0); sq < 64; sq++ {
		if u := p.board[sq]; u != NoUnit && u&whiteBit == mine {
			out = p.genFrom(sq, out)
		}
	}
	return out
}

// apply plays m, which must come from gen on p, and returns the new
// position. Every enemy on the line (from, to] is removed: outside the
// trench-exit case only To can hold one, since any enemy met earlier ends
// or blocks the line.
func (p *Position) apply(m imove) Position {
	np := *p
	u := np.board[m.from]
	np.board[m.from] = NoUnit
	if m.ncap > 0 {
		stars := 0
		r := &rays[m.from][m.dir]
		for i := int8(0); ; i++ {
			s := r.sq[i]
			if t := np.board[s]; t != NoUnit {
				stars += int(t & 7)
				np.board[s] = NoUnit
			}
			if s == m.to {
				break
			}
		}
		np.stars[np.side] += stars
		np.quiet = 0
	} else {
		np.quiet++
	}
	np.board[m.to] = u
	np.side ^= 1
	return np
}

// toMove converts an internal move to a Move, taking the captured squares
// from the line; caps is the backing store to append them to.
func (p *Position) toMove(m imove, caps []Square) (Move, []Square) {
	mv := Move{From: Square(m.from), To: Square(m.to)}
	if m.ncap == 0 {
		return mv, caps
	}
	start := len(caps)
	r := &rays[m.from][m.dir]
	for i := int8(0); ; i++ {
		s := r.sq[i]
		if p.board[s] != NoUnit {
			caps = append(caps, Square(s))
		}
		if s == m.to {
			break
		}
	}
	mv.Captures = caps[start:len(caps):len(caps)]
	return mv, caps
}

func (p *Position) export(ms []imove) []Move {
	if len(ms) == 0 {
		return nil
	}
	n := 0
	for _, m := range ms {
		n += int(m.ncap)
	}
	out := make([]Move, len(ms))
	var caps []Square
	if n > 0 {
		caps = make([]Square, 0, n)
	}
	for i, m := range ms {
		out[i], caps = p.toMove(m, caps)
	}
	return out
}

// LegalMoves returns every legal move of the side to move under the
// movement and capture rules (spec "Movement", "Captures"), ordered by
// from-square (a1, b1 … h8), then by direction, then by distance. End
// conditions are not looked at: a finished game still has moves. It
// returns nil when there is none.
func (p Position) LegalMoves() []Move {
	var buf [maxMoves]imove
	return p.export(p.gen(buf[:0]))
}

// MovesFrom returns the legal moves of the unit on sq, or nil when sq is
// empty, invalid or holds a unit of the side not to move. A board view
// uses it to show the destinations of a selected unit with the units
// each move would capture.
func (p Position) MovesFrom(sq Square) []Move {
	if !sq.Valid() {
		return nil
	}
	u := p.board[sq]
	if u == NoUnit || u.Side() != p.side {
		return nil
	}
	var buf [64]imove
	return p.export(p.genFrom(int8(sq), buf[:0]))
}

// HasLegalMove reports whether the side to move has at least one legal
// move (cheaper than len(LegalMoves()) > 0).
func (p Position) HasLegalMove() bool {
	var buf [64]imove
	mine := Unit(p.side) << 3
	for sq := int8(0); sq < 64; sq++ {
		if u := p.board[sq]; u != NoUnit && u&whiteBit == mine {
			if len(p.genFrom(sq, buf[:0])) > 0 {
				return true
			}
		}
	}
	return false
}

// resolve finds the legal move of the side to move from → to.
func (p *Position) resolve(from, to Square) (imove, error) {
	if !from.Valid() || !to.Valid() {
		return imove{}, rules.Refuse(rules.ErrIllegal, "trench.off-board", from.String(), to.String())
	}
	u := p.board[from]
	if u == NoUnit {
		return imove{}, rules.Refuse(rules.ErrIllegal, "trench.no-unit", from.String())
	}
	if u.Side() != p.side {
		return imove{}, rules.Refuse(rules.ErrIllegal, "trench.not-yours", from.String(), rules.Term(sideName(u.Side())), rules.Term(u.Kind().String()), rules.Term(sideName(p.side)))
	}
	var buf [64]imove
	for _, m := range p.genFrom(int8(from), buf[:0]) {
		if m.to == int8(to) {
			return m, nil
		}
	}
	return imove{}, rules.Refuse(rules.ErrIllegal, "trench.cannot-reach", rules.Term(u.Kind().String()), from.String(), to.String())
}

// ParseMove reads a move in the notation ("d4-d5", "e4xg6") and returns
// the legal move of this position it names, with its captured squares.
// Errors wrap rules.ErrNotation when s is malformed (see the package-level
// [ParseMove]) and rules.ErrIllegal when s is well-formed but names no
// legal move: no unit of the side to move on the from-square, a
// destination the unit cannot reach, or the wrong separator ('-' for a
// move that captures, 'x' for one that does not).
func (p Position) ParseMove(s string) (Move, error) {
	t, err := ParseMove(s)
	if err != nil {
		return Move{}, err
	}
	m, err := p.resolve(t.From, t.To)
	if err != nil {
		return Move{}, fmt.Errorf("%w (move %s)", err, s)
	}
	if t.Capture != (m.ncap > 0) {
		mv, _ := p.toMove(m, nil)
		if m.ncap > 0 {
			return Move{}, rules.Refuse(rules.ErrIllegal, "trench.captures", s, mv.String())
		}
		return Move{}, rules.Refuse(rules.ErrIllegal, "trench.captures-none", s, mv.String())
	}
	mv, _ := p.toMove(m, nil)
	return mv, nil
}

// Apply plays m and returns the new position: the unit moves from m.From
// to m.To, every captured unit is removed, the side to move passes to the
// opponent, the quiet counter is reset to 0 by a capture and increased by
// 1 otherwise, and the mover's captured stars grow by the stars of the
// units it removed. m must be a legal move of p, as returned by
// [Position.LegalMoves] (its Captures must match the line exactly);
// otherwise the error wraps rules.ErrIllegal and p is returned unchanged.
// End conditions are not looked at.
func (p Position) Apply(m Move) (Position, error) {
	im, err := p.resolve(m.From, m.To)
	if err != nil {
		return p, err
	}
	want, _ := p.toMove(im, nil)
	if len(want.Captures) != len(m.Captures) {
		return p, rules.Refuse(rules.ErrIllegal, "trench.wrong-captures", want.String(), fmt.Sprint(want.Captures), fmt.Sprint(m.Captures))
	}
	for i := range want.Captures {
		if want.Captures[i] != m.Captures[i] {
			return p, rules.Refuse(rules.ErrIllegal, "trench.wrong-captures", want.String(), fmt.Sprint(want.Captures), fmt.Sprint(m.Captures))
		}
	}
	return p.apply(im), nil
}

// Perft counts the leaf nodes of the tree of legal moves of depth plies
// from pos (1 for depth 0; end conditions are not applied). It is the
// standard check of a move generator: from the start the counts for
// depths 1 to 6 are 14, 192, 3 894, 78 372, 1 840 956 and 42 978 674.
func Perft(pos Position, depth int) int64 {
	if depth <= 0 {
		return 1
	}
	return perft(pos, depth)
}

// perft takes its position by value: a pointer would make every child
// position escape to the heap through the recursion.
func perft(p Position, depth int) int64 {
	var buf [maxMoves]imove
	ms := p.gen(buf[:0])
	if depth == 1 {
		return int64(len(ms))
	}
	var n int64
	for _, m := range ms {
		n += perft(p.apply(m), depth-1)
	}
	return n
}
