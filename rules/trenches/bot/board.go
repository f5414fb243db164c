package bot

import (
	"math/bits"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/trenches"
)

// set is a 100-square bitboard in the same layout as trenches.SquareSet
// (bit i = square i, a1 = 0 … j10 = 99), kept here so that the evaluation
// can flood-fill the board with shifts.
type set struct{ lo, hi uint64 }

const hiMask = 1<<(trenches.NumSquares-64) - 1

var (
	allSet   = set{^uint64(0), hiMask}
	notFileA set // every square but file a
	notFileJ set // every square but file j
)

func init() {
	for sq := range trenches.Square(trenches.NumSquares) {
		if sq.File() != 0 {
			notFileA = notFileA.with(sq)
		}
		if sq.File() != 9 {
			notFileJ = notFileJ.with(sq)
		}
	}
}

func bitOf(sq trenches.Square) set {
	if sq < 64 {
		return set{1 << sq, 0}
	}
	if sq < trenches.NumSquares {
		return set{0, 1 << (sq - 64)}
	}
	return set{}
}

func (s set) with(sq trenches.Square) set { return s.or(bitOf(sq)) }
func (s set) or(t set) set                { return set{s.lo | t.lo, s.hi | t.hi} }
func (s set) and(t set) set               { return set{s.lo & t.lo, s.hi & t.hi} }
func (s set) andNot(t set) set            { return set{s.lo &^ t.lo, s.hi &^ t.hi} }
func (s set) empty() bool                 { return s.lo|s.hi == 0 }
func (s set) count() int                  { return bits.OnesCount64(s.lo) + bits.OnesCount64(s.hi) }

// shl and shr shift by n < 64 squares towards higher and lower indices.
func (s set) shl(n uint) set { return set{s.lo << n, s.hi<<n | s.lo>>(64-n)} }
func (s set) shr(n uint) set { return set{s.lo>>n | s.hi<<(64-n), s.hi >> n} }

// queenFill returns the squares a Queen on any square of gen reaches over
// the squares of free.
func queenFill(gen, free set) set {
	var out set
	fa, fj := free.and(notFileA), free.and(notFileJ)
	for t := gen.shl(1).and(fa); !t.empty(); t = t.shl(1).and(fa) {
		out = out.or(t)
	}
	for t := gen.shr(1).and(fj); !t.empty(); t = t.shr(1).and(fj) {
		out = out.or(t)
	}
	for t := gen.shl(10).and(free); !t.empty(); t = t.shl(10).and(free) {
		out = out.or(t)
	}
	for t := gen.shr(10).and(free); !t.empty(); t = t.shr(10).and(free) {
		out = out.or(t)
	}
	for t := gen.shl(11).and(fa); !t.empty(); t = t.shl(11).and(fa) {
		out = out.or(t)
	}
	for t := gen.shl(9).and(fj); !t.empty(); t = t.shl(9).and(fj) {
		out = out.or(t)
	}
	for t := gen.shr(9).and(fa); !t.empty(); t = t.shr(9).and(fa) {
		out = out.or(t)
	}
	for t := gen.shr(11).and(fj); !t.empty(); t = t.shr(11).and(fj) {
		out = out.or(t)
	}
	return out
}

// kingFill returns the squares of free next to a square of gen.
func kingFill(gen, free set) set {
	h := gen.or(gen.shl(1).and(notFileA)).or(gen.shr(1).and(notFileJ))
	return h.or(h.shl(10)).or(h.shr(10)).and(free)
}

// board mirrors a trenches.Position as bitboards, with its Zobrist hash.
type board struct {
	pos    trenches.Position
	pc     [2][2]set // [side][0 Tank, 1 Soldier]
	debris set
	hash   uint64
}

// Zobrist keys: fixed, derived from a constant (no global randomness).
var (
	zPiece  [2][2][trenches.NumSquares]uint64
	zDebris [trenches.NumSquares]uint64
	zTurn   uint64
)

func init() {
	x := uint64(0x2545f4914f6cdd1d)
	next := func() uint64 { // splitmix64
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for s := range 2 {
		for t := range 2 {
			for sq := range trenches.NumSquares {
				zPiece[s][t][sq] = next()
			}
		}
	}
	for sq := range trenches.NumSquares {
		zDebris[sq] = next()
	}
	zTurn = next()
}

func newBoard(p trenches.Position) board {
	b := board{pos: p}
	for sq := range trenches.Square(trenches.NumSquares) {
		pc := p.At(sq)
		switch pc {
		case trenches.Empty:
		case trenches.Debris:
			b.debris = b.debris.with(sq)
			b.hash ^= zDebris[sq]
		default:
			s, t := pc.Side(), int(pc.Type()-trenches.Tank)
			b.pc[s][t] = b.pc[s][t].with(sq)
			b.hash ^= zPiece[s][t][sq]
		}
	}
	if p.Turn() == rules.Side1 {
		b.hash ^= zTurn
	}
	return b
}

// apply returns the board after the legal move m.
func (b *board) apply(m trenches.Move) board {
	n := *b
	n.pos = b.pos.Apply(m)
	s := b.pos.Turn()
	t := 0
	d := m.From
	if m.Type == trenches.Soldier {
		t, d = 1, m.Grenade
	}
	n.pc[s][t] = n.pc[s][t].andNot(bitOf(m.From)).or(bitOf(m.To))
	n.debris = n.debris.with(d)
	n.hash ^= zPiece[s][t][m.From] ^ zPiece[s][t][m.To] ^ zDebris[d] ^ zTurn
	return n
}

func (b *board) occupied() set {
	return b.pc[0][0].or(b.pc[0][1]).or(b.pc[1][0]).or(b.pc[1][1]).or(b.debris)
}

// pop removes the lowest square of s, which must not be empty, and returns it.
func (s *set) pop() trenches.Square {
	if s.lo != 0 {
		sq := trenches.Square(bits.TrailingZeros64(s.lo))
		s.lo &= s.lo - 1
		return sq
	}
	sq := trenches.Square(64 + bits.TrailingZeros64(s.hi))
	s.hi &= s.hi - 1
	return sq
}
