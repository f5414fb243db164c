package trench

import (
	"fmt"

	"github.com/trench-games/trench/rules"
)

// Black and White are the two sides of TRENCH as sides of package rules:
// Black is Side0 and moves first; White is Side1.
const (
	Black = rules.Side0
	White = rules.Side1
)

// Square is one of the 64 squares of the board, numbered rank by rank from
// a1 = 0, b1 = 1, … h1 = 7, a2 = 8 … to h8 = 63 (index = 8×rank + file,
// both counted from 0). NoSquare (-1) stands for "no square".
// Spec: "Board and coordinates".
type Square int8

// NoSquare is the invalid square returned with parse errors.
const NoSquare Square = -1

// Named squares, for tests and callers that build positions by hand.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
	A2
	B2
	C2
	D2
	E2
	F2
	G2
	H2
	A3
	B3
	C3
	D3
	E3
	F3
	G3
	H3
	A4
	B4
	C4
	D4
	E4
	F4
	G4
	H4
	A5
	B5
	C5
	D5
	E5
	F5
	G5
	H5
	A6
	B6
	C6
	D6
	E6
	F6
	G6
	H6
	A7
	B7
	C7
	D7
	E7
	F7
	G7
	H7
	A8
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// NewSquare returns the square on file (0 = a … 7 = h) and rank (0 = rank 1
// … 7 = rank 8), or NoSquare when either is outside 0..7.
func NewSquare(file, rank int) Square {
	if file < 0 || file > 7 || rank < 0 || rank > 7 {
		return NoSquare
	}
	return Square(rank*8 + file)
}

// Valid reports whether sq is one of the 64 squares.
func (sq Square) Valid() bool { return sq >= 0 && sq < 64 }

// File returns the file of sq, 0 (a) to 7 (h).
func (sq Square) File() int { return int(sq) & 7 }

// Rank returns the rank of sq, 0 (rank 1) to 7 (rank 8).
func (sq Square) Rank() int { return int(sq) >> 3 }

// String returns the name of sq such as "d4", or "-" for an invalid square.
func (sq Square) String() string {
	if !sq.Valid() {
		return "-"
	}
	return string([]byte{byte('a' + sq.File()), byte('1' + sq.Rank())})
}

// MarshalText returns the name of sq ("d4", or "-" for NoSquare), so that
// squares encode as JSON strings.
func (sq Square) MarshalText() ([]byte, error) { return []byte(sq.String()), nil }

// UnmarshalText sets sq from a square name, or to NoSquare from "-".
// Errors wrap rules.ErrNotation.
func (sq *Square) UnmarshalText(b []byte) error {
	if string(b) == "-" {
		*sq = NoSquare
		return nil
	}
	s, err := ParseSquare(string(b))
	if err != nil {
		return err
	}
	*sq = s
	return nil
}

// ParseSquare parses a square name: a lowercase file letter a–h followed by
// a rank digit 1–8, e.g. "d4". Errors wrap rules.ErrNotation.
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("%w: square %q: want a file a-h and a rank 1-8, like d4", rules.ErrNotation, s)
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}

// InTrench reports whether sq lies on the trench, the diagonal where
// file + rank = 9 (counted from 1): a8 b7 c6 d5 e4 f3 g2 h1.
// Spec: "Board and coordinates".
func InTrench(sq Square) bool { return sq.Valid() && sq.File()+sq.Rank() == 7 }

// Territory returns the side whose territory sq lies in: Black for
// file + rank < 9 (the a1 corner, 28 squares), White for file + rank > 9
// (the h8 corner, 28 squares), and rules.NoSide for the trench and for an
// invalid square. Spec: "Board and coordinates".
func Territory(sq Square) rules.Side {
	if !sq.Valid() {
		return rules.NoSide
	}
	switch d := sq.File() + sq.Rank(); {
	case d < 7:
		return Black
	case d > 7:
		return White
	}
	return rules.NoSide
}

// Kind is the kind of a unit. Its value is its number of stars, which is
// also its maximum move length and its capture value.
// Spec: "Units and setup".
type Kind uint8

// The five kinds of units, in increasing rank. NoKind is the kind of an
// empty square.
const (
	NoKind   Kind = 0
	Soldier  Kind = 1
	Sergeant Kind = 2
	Captain  Kind = 3
	Colonel  Kind = 4
	General  Kind = 5
)

// Kinds lists the five kinds in increasing rank (Soldier first).
var Kinds = [5]Kind{Soldier, Sergeant, Captain, Colonel, General}

// Stars returns the stars of k: 1 (Soldier) to 5 (General); 0 for NoKind
// or an invalid kind.
func (k Kind) Stars() int {
	if k > General {
		return 0
	}
	return int(k)
}

// Count returns how many units of kind k an army has at the start:
// 6 Soldiers, 4 Sergeants, 3 Captains, 2 Colonels, 1 General (0 otherwise).
func (k Kind) Count() int {
	switch k {
	case Soldier:
		return 6
	case Sergeant:
		return 4
	case Captain:
		return 3
	case Colonel:
		return 2
	case General:
		return 1
	}
	return 0
}

// Letter returns the uppercase notation letter of k: S R A C G, or 0 for
// NoKind or an invalid kind.
func (k Kind) Letter() byte {
	if k == NoKind || k > General {
		return 0
	}
	return " SRACG"[k]
}

// String returns the English name of k ("Soldier" … "General"), or ""
// for NoKind.
func (k Kind) String() string {
	switch k {
	case Soldier:
		return "Soldier"
	case Sergeant:
		return "Sergeant"
	case Captain:
		return "Captain"
	case Colonel:
		return "Colonel"
	case General:
		return "General"
	}
	return ""
}

// KindFromLetter returns the kind whose notation letter is b (either case:
// S R A C G), or NoKind.
func KindFromLetter(b byte) Kind {
	switch b | 0x20 {
	case 's':
		return Soldier
	case 'r':
		return Sergeant
	case 'a':
		return Captain
	case 'c':
		return Colonel
	case 'g':
		return General
	}
	return NoKind
}

// Unit is a unit on the board: a kind and a side packed in one byte (the
// kind in the low three bits, bit 3 set for White). The zero value NoUnit is
// an empty square.
type Unit uint8

// NoUnit is the content of an empty square.
const NoUnit Unit = 0

const whiteBit Unit = 8

// NewUnit returns the unit of kind k belonging to side s (Black or White).
// It returns NoUnit for NoKind, an invalid kind or an invalid side.
func NewUnit(k Kind, s rules.Side) Unit {
	if k == NoKind || k > General {
		return NoUnit
	}
	switch s {
	case Black:
		return Unit(k)
	case White:
		return Unit(k) | whiteBit
	}
	return NoUnit
}

// Kind returns the kind of u (NoKind for NoUnit).
func (u Unit) Kind() Kind { return Kind(u & 7) }

// Side returns the side u belongs to (rules.NoSide for NoUnit).
func (u Unit) Side() rules.Side {
	if u == NoUnit {
		return rules.NoSide
	}
	return rules.Side(u >> 3)
}

// Stars returns the stars of u's kind (0 for NoUnit).
func (u Unit) Stars() int { return int(u & 7) }

// Letter returns u's notation letter: uppercase for White, lowercase for
// Black, or 0 for NoUnit.
func (u Unit) Letter() byte {
	if u == NoUnit {
		return 0
	}
	l := u.Kind().Letter()
	if u&whiteBit == 0 {
		l |= 0x20
	}
	return l
}

// String returns u's notation letter as a string ("s", "G", …), or "" for
// NoUnit.
func (u Unit) String() string {
	if u == NoUnit {
		return ""
	}
	return string([]byte{u.Letter()})
}

// Tables shared by the move generator, built once at init.

// zone is where a square lies relative to one side.
type zone uint8

const (
	zoneOwn zone = iota
	zoneTrench
	zoneEnemy
)

// The eight directions as (Δfile, Δrank) for Black. Index order matters
// only inside this package.
var dirVec = [8][2]int{
	{+1, 0}, {-1, 0}, {0, +1}, {0, -1}, // orthogonals
	{+1, +1}, {-1, -1}, // vertical: Black forward, Black backward
	{+1, -1}, {-1, +1}, // horizontal: along the trench
}

// ray holds the squares met walking from a square in one direction, nearest
// first.
type ray struct {
	n  int8
	sq [7]int8
}

var (
	zoneOf   [2][64]zone  // [side][square]
	rays     [64][8]ray   // [from][direction]
	dirsOf   [2][6][]int8 // [side][kind] → direction indices
	dirIndex map[[2]int]int8
)

func init() {
	for sq := Square(0); sq < 64; sq++ {
		switch Territory(sq) {
		case Black:
			zoneOf[0][sq], zoneOf[1][sq] = zoneOwn, zoneEnemy
		case White:
			zoneOf[0][sq], zoneOf[1][sq] = zoneEnemy, zoneOwn
		default:
			zoneOf[0][sq], zoneOf[1][sq] = zoneTrench, zoneTrench
		}
		for d, v := range dirVec {
			r := &rays[sq][d]
			f, k := sq.File()+v[0], sq.Rank()+v[1]
			for f >= 0 && f < 8 && k >= 0 && k < 8 {
				r.sq[r.n] = int8(NewSquare(f, k))
				r.n++
				f, k = f+v[0], k+v[1]
			}
		}
	}
	dirIndex = make(map[[2]int]int8, 8)
	for d, v := range dirVec {
		dirIndex[v] = int8(d)
	}
	// Movement vectors for Black (spec "Movement"); White negates them.
	black := map[Kind][][2]int{
		Soldier:  {{1, 0}, {-1, 0}, {0, 1}, {0, -1}},
		Sergeant: {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}},
		Captain:  {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}},
		Colonel:  {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}},
		General:  {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}},
	}
	for k, vs := range black {
		for _, v := range vs {
			dirsOf[0][k] = append(dirsOf[0][k], dirIndex[v])
			dirsOf[1][k] = append(dirsOf[1][k], dirIndex[[2]int{-v[0], -v[1]}])
		}
	}
}
