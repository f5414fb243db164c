package trenches

import (
	"encoding/json"
	"iter"
	"math/bits"
	"strings"
)

// SquareSet is a set of board squares, a 100-bit bitboard: bit i stands for
// Square(i), squares 0–63 in the low word and 64–99 in the high word. The
// zero value is the empty set. It is a small value type; operations return
// new sets.
type SquareSet struct {
	lo, hi uint64
}

// hiMask keeps the 36 bits of the high word that are board squares.
const hiMask = 1<<(NumSquares-64) - 1

// allSquares is the set of all 100 squares.
var allSquares = SquareSet{^uint64(0), hiMask}

// SquareSetOf returns the set holding the given squares; squares off the
// board are ignored.
func SquareSetOf(sqs ...Square) SquareSet {
	var s SquareSet
	for _, sq := range sqs {
		s = s.With(sq)
	}
	return s
}

// bit returns the set holding only sq, or the empty set when sq is off the
// board.
func bit(sq Square) SquareSet {
	switch {
	case sq < 64:
		return SquareSet{1 << sq, 0}
	case sq < NumSquares:
		return SquareSet{0, 1 << (sq - 64)}
	}
	return SquareSet{}
}

// Has reports whether sq is in s.
func (s SquareSet) Has(sq Square) bool {
	if sq < 64 {
		return s.lo&(1<<sq) != 0
	}
	return s.hi&(1<<(sq-64)) != 0 // zero for sq ≥ 128; sq 100–127 are never set
}

// With returns s with sq added (s itself when sq is off the board).
func (s SquareSet) With(sq Square) SquareSet { return s.or(bit(sq)) }

// Without returns s with sq removed.
func (s SquareSet) Without(sq Square) SquareSet { return s.andNot(bit(sq)) }

// Union returns the squares in s or t.
func (s SquareSet) Union(t SquareSet) SquareSet { return s.or(t) }

// Intersect returns the squares in both s and t.
func (s SquareSet) Intersect(t SquareSet) SquareSet { return s.and(t) }

// Minus returns the squares in s but not in t.
func (s SquareSet) Minus(t SquareSet) SquareSet { return s.andNot(t) }

// IsEmpty reports whether s holds no square.
func (s SquareSet) IsEmpty() bool { return s.lo|s.hi == 0 }

// Len returns the number of squares in s.
func (s SquareSet) Len() int { return bits.OnesCount64(s.lo) + bits.OnesCount64(s.hi) }

// Squares returns the squares of s in increasing order (a1, b1, …, j10);
// nil for the empty set.
func (s SquareSet) Squares() []Square {
	if s.IsEmpty() {
		return nil
	}
	out := make([]Square, 0, s.Len())
	for sq := range s.All() {
		out = append(out, sq)
	}
	return out
}

// All yields the squares of s in increasing order.
func (s SquareSet) All() iter.Seq[Square] {
	return func(yield func(Square) bool) {
		for s.lo|s.hi != 0 {
			if !yield(s.pop()) {
				return
			}
		}
	}
}

// String lists the squares of s in increasing order, e.g. "{a1 c3 j10}".
func (s SquareSet) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for sq := range s.All() {
		if b.Len() > 1 {
			b.WriteByte(' ')
		}
		b.WriteString(sq.String())
	}
	b.WriteByte('}')
	return b.String()
}

// MarshalJSON encodes s as a JSON array of square names in increasing
// order, e.g. ["a1","c3"]; the empty set is [].
func (s SquareSet) MarshalJSON() ([]byte, error) {
	names := make([]string, 0, s.Len())
	for sq := range s.All() {
		names = append(names, sq.String())
	}
	return json.Marshal(names)
}

func (s SquareSet) or(t SquareSet) SquareSet     { return SquareSet{s.lo | t.lo, s.hi | t.hi} }
func (s SquareSet) and(t SquareSet) SquareSet    { return SquareSet{s.lo & t.lo, s.hi & t.hi} }
func (s SquareSet) andNot(t SquareSet) SquareSet { return SquareSet{s.lo &^ t.lo, s.hi &^ t.hi} }

// first returns the lowest square of s, which must not be empty.
func (s SquareSet) first() Square {
	if s.lo != 0 {
		return Square(bits.TrailingZeros64(s.lo))
	}
	return Square(64 + bits.TrailingZeros64(s.hi))
}

// last returns the highest square of s, which must not be empty.
func (s SquareSet) last() Square {
	if s.hi != 0 {
		return Square(127 - bits.LeadingZeros64(s.hi))
	}
	return Square(63 - bits.LeadingZeros64(s.lo))
}

// pop removes the lowest square of s, which must not be empty, and returns
// it.
func (s *SquareSet) pop() Square {
	if s.lo != 0 {
		sq := Square(bits.TrailingZeros64(s.lo))
		s.lo &= s.lo - 1
		return sq
	}
	sq := Square(64 + bits.TrailingZeros64(s.hi))
	s.hi &= s.hi - 1
	return sq
}
