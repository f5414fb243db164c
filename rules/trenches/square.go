package trenches

import (
	"fmt"

	"github.com/trench-games/trench/rules"
)

// Square is one of the 100 squares of the board, numbered 0–99 rank by
// rank from a1: the index is 10×rank + file with file a = 0 … j = 9 and
// rank 1 = 0 … rank 10 = 9, so a1 = 0, j1 = 9, a2 = 10 and j10 = 99.
type Square uint8

// NoSquare is the absent square, e.g. the grenade of a Tank move.
const NoSquare Square = 0xFF

// NumSquares is the number of squares on the board.
const NumSquares = 100

// The 100 squares by name, a1 = 0 up to j10 = 99.
const (
	A1, B1, C1, D1, E1, F1, G1, H1, I1, J1 Square = 10*iota + 0, 10*iota + 1, 10*iota + 2, 10*iota + 3, 10*iota + 4, 10*iota + 5, 10*iota + 6, 10*iota + 7, 10*iota + 8, 10*iota + 9
	A2, B2, C2, D2, E2, F2, G2, H2, I2, J2
	A3, B3, C3, D3, E3, F3, G3, H3, I3, J3
	A4, B4, C4, D4, E4, F4, G4, H4, I4, J4
	A5, B5, C5, D5, E5, F5, G5, H5, I5, J5
	A6, B6, C6, D6, E6, F6, G6, H6, I6, J6
	A7, B7, C7, D7, E7, F7, G7, H7, I7, J7
	A8, B8, C8, D8, E8, F8, G8, H8, I8, J8
	A9, B9, C9, D9, E9, F9, G9, H9, I9, J9
	A10, B10, C10, D10, E10, F10, G10, H10, I10, J10
)

// NewSquare returns the square on file (0 = a … 9 = j) and rank (0 = rank 1
// … 9 = rank 10); NoSquare when either is outside 0–9.
func NewSquare(file, rank int) Square {
	if file < 0 || file > 9 || rank < 0 || rank > 9 {
		return NoSquare
	}
	return Square(10*rank + file)
}

// Valid reports whether sq is one of the 100 board squares.
func (sq Square) Valid() bool { return sq < NumSquares }

// File returns the file of sq, 0 (a) to 9 (j).
func (sq Square) File() int { return int(sq) % 10 }

// Rank returns the rank of sq, 0 (rank 1) to 9 (rank 10).
func (sq Square) Rank() int { return int(sq) / 10 }

// String returns the square's name, "a1" … "j10", or "-" for a square
// outside the board (NoSquare).
func (sq Square) String() string {
	if !sq.Valid() {
		return "-"
	}
	return squareNames[sq]
}

// MarshalText encodes sq as its name; it fails for a square outside the
// board.
func (sq Square) MarshalText() ([]byte, error) {
	if !sq.Valid() {
		return nil, fmt.Errorf("trenches: square %d is off the board", sq)
	}
	return []byte(squareNames[sq]), nil
}

// UnmarshalText decodes a square name as ParseSquare does.
func (sq *Square) UnmarshalText(b []byte) error {
	s, err := ParseSquare(string(b))
	if err != nil {
		return err
	}
	*sq = s
	return nil
}

var squareNames [NumSquares]string

func init() {
	for sq := range Square(NumSquares) {
		squareNames[sq] = string(rune('a'+sq.File())) + fmt.Sprint(sq.Rank()+1)
	}
}

// ParseSquare parses a square name: a lower-case file letter a–j followed
// by a rank 1–10 without leading zero ("a1", "j10"). Errors wrap
// rules.ErrNotation.
func ParseSquare(s string) (Square, error) {
	sq, n := scanSquare(s)
	if n == 0 || n != len(s) {
		return NoSquare, fmt.Errorf("trenches: %q is not a square a1–j10: %w", s, rules.ErrNotation)
	}
	return sq, nil
}

// scanSquare reads a square name at the start of s and returns it with the
// number of bytes it takes; n = 0 when s does not start with one. The rank
// is read greedily, so "a10" is a10 and never a1 followed by "0".
func scanSquare(s string) (sq Square, n int) {
	if len(s) < 2 || s[0] < 'a' || s[0] > 'j' || s[1] < '1' || s[1] > '9' {
		return NoSquare, 0
	}
	file, rank := int(s[0]-'a'), int(s[1]-'1')
	n = 2
	if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
		if s[1] != '1' || s[2] != '0' {
			return NoSquare, 0
		}
		rank, n = 9, 3
	}
	return NewSquare(file, rank), n
}
