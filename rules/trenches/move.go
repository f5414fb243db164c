package trenches

import (
	"strings"

	"github.com/trench-games/trench/rules"
)

// Move is one turn (spec, "A turn"): the piece on From moves to To; a
// Tank (Type Tank, Grenade NoSquare) leaves Debris on From, a Soldier
// (Type Soldier) throws a grenade onto Grenade, which becomes Debris. Moves
// are plain values compared with ==; those from LegalMoves and ParseMove
// are always in this form.
type Move struct {
	From, To Square
	Grenade  Square    // NoSquare for a Tank move
	Type     PieceType // the moving piece's type: Tank or Soldier
}

// String returns the move in the spec's notation (spec, "Notation"):
// "a4-a6" for a Tank move, "b4-b6/d8" for a Soldier move.
func (m Move) String() string {
	var buf [11]byte
	return string(m.appendText(buf[:0]))
}

// appendText appends the notation of m to b.
func (m Move) appendText(b []byte) []byte {
	b = append(b, m.From.String()...)
	b = append(b, '-')
	b = append(b, m.To.String()...)
	if m.Type == Soldier {
		b = append(b, '/')
		b = append(b, m.Grenade.String()...)
	}
	return b
}

// ParseMove parses a move's notation without a position: "<from>-<to>" is
// a Tank move and "<from>-<to>/<grenade>" a Soldier move, with squares as
// in ParseSquare and nothing else (no spaces, no upper case). Errors wrap
// rules.ErrNotation. Use Position.ParseMove to check that the move is
// legal.
func ParseMove(s string) (Move, error) {
	m := Move{Grenade: NoSquare, Type: Tank}
	from, rest, ok := strings.Cut(s, "-")
	if !ok {
		return Move{}, rules.Refuse(rules.ErrNotation, "trenches.form", s)
	}
	to, grenade, soldier := strings.Cut(rest, "/")
	var err error
	if m.From, err = ParseSquare(from); err != nil {
		return Move{}, rules.Refuse(rules.ErrNotation, "trenches.start-square", s, from)
	}
	if m.To, err = ParseSquare(to); err != nil {
		return Move{}, rules.Refuse(rules.ErrNotation, "trenches.landing-square", s, to)
	}
	if soldier {
		if m.Grenade, err = ParseSquare(grenade); err != nil {
			return Move{}, rules.Refuse(rules.ErrNotation, "trenches.grenade-square", s, grenade)
		}
		m.Type = Soldier
	}
	return m, nil
}

// ParseMove parses a move's notation (see the function ParseMove) and
// checks it against p. Errors wrap rules.ErrNotation when s is malformed
// and rules.ErrIllegal when it is well-formed but not a legal move of the
// side to move, saying why: no own piece on the start square, a Tank move
// written with a grenade, a Soldier move written without one, a landing or
// grenade square that is not reachable, or a grenade next to a Tank.
func (p Position) ParseMove(s string) (Move, error) {
	m, err := ParseMove(s)
	if err != nil {
		return Move{}, err
	}
	if err := p.check(m); err != nil {
		return Move{}, err
	}
	return m, nil
}
