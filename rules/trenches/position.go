package trenches

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trench-games/trench/rules"
)

// StartFEN is the start position in the position format (spec, "Board,
// pieces, setup" and "Notation"): Light Tanks a4 d1 g1 j4 and Soldiers b4 d2
// g2 i4, Dark Tanks a7 d10 g10 j7 and Soldiers b7 d9 g9 i7, Light to move.
const StartFEN = "3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l"

// MaxPerType is the most pieces of one type a side may have: four Tanks and
// four Soldiers.
const MaxPerType = 4

// Position is an immutable game position: the contents of the 100 squares
// and the side to move. It carries no move number (every move adds exactly
// one Debris, so in a game from the start the number of Debris is the
// number of moves played). Positions are small values, compared with ==;
// the zero value is the empty board with Light to move.
type Position struct {
	pieces [2][2]SquareSet // [side][type-Tank]
	debris SquareSet
	turn   rules.Side
}

var startPosition = mustParse(StartFEN)

// Start returns the start position (StartFEN).
func Start() Position { return startPosition }

func mustParse(s string) Position {
	p, err := ParsePosition(s)
	if err != nil {
		panic(err)
	}
	return p
}

// Turn returns the side to move: rules.Side0 (Light) or rules.Side1 (Dark).
func (p Position) Turn() rules.Side { return p.turn }

// At returns the content of sq; Empty for a square off the board.
func (p Position) At(sq Square) Piece {
	b := bit(sq)
	switch {
	case b.IsEmpty():
		return Empty
	case !p.debris.and(b).IsEmpty():
		return Debris
	}
	for side := range 2 {
		for t := range 2 {
			if !p.pieces[side][t].and(b).IsEmpty() {
				return NewPiece(rules.Side(side), Tank+PieceType(t))
			}
		}
	}
	return Empty
}

// Pieces returns the squares of side's pieces of type t (empty for an
// invalid side or type).
func (p Position) Pieces(side rules.Side, t PieceType) SquareSet {
	if !side.Valid() || (t != Tank && t != Soldier) {
		return SquareSet{}
	}
	return p.pieces[side][t-Tank]
}

// Debris returns the squares holding Debris.
func (p Position) Debris() SquareSet { return p.debris }

// Tanks returns the squares of all Tanks of both sides.
func (p Position) Tanks() SquareSet { return p.pieces[0][0].or(p.pieces[1][0]) }

// Occupied returns the squares holding a piece or Debris: the squares no
// move or grenade may cross or land on.
func (p Position) Occupied() SquareSet {
	return p.pieces[0][0].or(p.pieces[0][1]).or(p.pieces[1][0]).or(p.pieces[1][1]).or(p.debris)
}

// Protected returns the squares protected by Tanks (spec, "A turn"): the
// eight neighbours of every Tank of either side, whatever they hold. A
// grenade may fly over them but never land on one.
func (p Position) Protected() SquareSet {
	var prot SquareSet
	for side := range 2 {
		for t := p.pieces[side][0]; !t.IsEmpty(); {
			prot = prot.or(neighbours[t.pop()])
		}
	}
	return prot
}

// String returns the position in the spec's format (spec, "Notation"):
// the ranks 10 down to 1 separated by "/", each from file a to j, with T/S
// for Light Tanks/Soldiers, t/s for Dark ones, x for Debris and a number
// 1–10 for a run of empty squares; then a space and the side to move, "l"
// or "d". ParsePosition(p.String()) == p.
func (p Position) String() string {
	var b strings.Builder
	b.Grow(64)
	for rank := 9; rank >= 0; rank-- {
		empty := 0
		for file := range 10 {
			pc := p.At(NewSquare(file, rank))
			if pc == Empty {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	if p.turn == rules.Side1 {
		b.WriteString(" d")
	} else {
		b.WriteString(" l")
	}
	return b.String()
}

// MarshalText encodes p as p.String().
func (p Position) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText decodes a position as ParsePosition does.
func (p *Position) UnmarshalText(b []byte) error {
	q, err := ParsePosition(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// ParsePosition parses a position in the spec's format (see
// Position.String), e.g. StartFEN. The text must be exact: ten ranks of
// exactly ten squares, runs of empty squares written as one number 1–10
// without leading zero, the letters T S t s x, one space, and "l" or "d";
// no other spaces. Each side may have at most four Tanks and four
// Soldiers (fewer is allowed, for studies). Every accepted text is
// canonical: ParsePosition(s).String() == s. Errors wrap rules.ErrNotation
// and say what is wrong.
func ParsePosition(s string) (Position, error) {
	var p Position
	board, side, ok := strings.Cut(s, " ")
	if !ok {
		return Position{}, notationErr("position %q has no side to move (want \"<board> l\" or \"<board> d\")", s)
	}
	switch side {
	case "l":
		p.turn = rules.Side0
	case "d":
		p.turn = rules.Side1
	default:
		return Position{}, notationErr("position %q: side to move %q is not \"l\" or \"d\"", s, side)
	}
	ranks := strings.Split(board, "/")
	if len(ranks) != 10 {
		return Position{}, notationErr("position %q has %d ranks, want 10", s, len(ranks))
	}
	for i, row := range ranks {
		rank := 9 - i
		file := 0
		for j := 0; j < len(row); {
			c := row[j]
			if c >= '0' && c <= '9' {
				k := j
				for k < len(row) && row[k] >= '0' && row[k] <= '9' {
					k++
				}
				num := row[j:k]
				n, err := strconv.Atoi(num)
				if err != nil || n < 1 || n > 10 || num[0] == '0' {
					return Position{}, notationErr("position %q: rank %d: %q is not a number of empty squares 1–10", s, rank+1, num)
				}
				file += n
				j = k
			} else {
				var pc Piece
				switch c {
				case 'T':
					pc = LightTank
				case 'S':
					pc = LightSoldier
				case 't':
					pc = DarkTank
				case 's':
					pc = DarkSoldier
				case 'x':
					pc = Debris
				default:
					return Position{}, notationErr("position %q: rank %d: bad character %q (want T S t s x or a digit)", s, rank+1, rune(c))
				}
				if file < 10 {
					sq := NewSquare(file, rank)
					if pc == Debris {
						p.debris = p.debris.With(sq)
					} else {
						p.pieces[pc.Side()][pc.Type()-Tank] = p.pieces[pc.Side()][pc.Type()-Tank].With(sq)
					}
				}
				file++
				j++
			}
			if file > 10 {
				return Position{}, notationErr("position %q: rank %d is wider than 10 squares", s, rank+1)
			}
		}
		if file < 10 {
			return Position{}, notationErr("position %q: rank %d has %d squares, want 10", s, rank+1, file)
		}
	}
	for side := range 2 {
		for t := range 2 {
			if n := p.pieces[side][t].Len(); n > MaxPerType {
				return Position{}, notationErr("position %q: %s has %d %ss, at most %d", s, sideName(rules.Side(side)), n, Tank+PieceType(t), MaxPerType)
			}
		}
	}
	return p, nil
}

// notationErr returns an error wrapping rules.ErrNotation.
func notationErr(format string, args ...any) error {
	return fmt.Errorf("trenches: "+format+": %w", append(args, rules.ErrNotation)...)
}
