package trench

import "github.com/trench-games/trench/rules"

// Move is a legal move resolved against a position: the unit on From walks
// one straight line to To, and Captures lists the squares of the enemy
// units it removes, in line order (nearest to From first). Captures is
// empty for a quiet move, holds one square for an ordinary capture (To
// itself), and may hold several squares for a unit leaving the trench
// (possibly not including To, when the unit ends on an empty square after
// capturing). Moves come from [Position.LegalMoves], [Position.MovesFrom]
// and [Position.ParseMove]; [Position.Apply] accepts only those.
// Spec: "Movement", "Captures".
type Move struct {
	From, To Square
	Captures []Square
}

// IsCapture reports whether m removes at least one enemy unit.
func (m Move) IsCapture() bool { return len(m.Captures) > 0 }

// Text returns the notation form of m (its squares and whether it
// captures).
func (m Move) Text() MoveText {
	return MoveText{From: m.From, To: m.To, Capture: len(m.Captures) > 0}
}

// String returns m in the move notation: "<from>-<to>" without capture,
// "<from>x<to>" with one or more captures, e.g. "d4-d5", "e4xg6".
// Spec: "Notation".
func (m Move) String() string { return m.Text().String() }

// MoveText is a move as written in the notation, not yet resolved against
// a position: two squares and whether the separator was 'x' (capture) or
// '-' (no capture). [Position.ParseMove] turns it into a [Move].
type MoveText struct {
	From, To Square
	Capture  bool
}

// String returns t in the move notation, e.g. "d4-d5" or "e4xg6".
func (t MoveText) String() string {
	sep := byte('-')
	if t.Capture {
		sep = 'x'
	}
	if !t.From.Valid() || !t.To.Valid() {
		return "-" + string(sep) + "-"
	}
	return string([]byte{
		byte('a' + t.From.File()), byte('1' + t.From.Rank()), sep,
		byte('a' + t.To.File()), byte('1' + t.To.Rank()),
	})
}

// ParseMove parses a move written "<from>-<to>" (no capture) or
// "<from>x<to>" (one or more captures), e.g. "d4-d5" or "e4xg6": exactly
// five characters, lowercase files, no spaces, two different squares. It
// does not look at any position (see [Position.ParseMove] for that).
// Errors wrap rules.ErrNotation.
func ParseMove(s string) (MoveText, error) {
	if len(s) != 5 {
		return MoveText{}, rules.Refuse(rules.ErrNotation, "trench.form", s)
	}
	var t MoveText
	switch s[2] {
	case '-':
	case 'x':
		t.Capture = true
	default:
		return MoveText{}, rules.Refuse(rules.ErrNotation, "trench.separator", s, s[2:3])
	}
	var err error
	if t.From, err = ParseSquare(s[:2]); err != nil {
		return MoveText{}, rules.Refuse(rules.ErrNotation, "trench.from-square", s, s[:2])
	}
	if t.To, err = ParseSquare(s[3:]); err != nil {
		return MoveText{}, rules.Refuse(rules.ErrNotation, "trench.to-square", s, s[3:])
	}
	if t.From == t.To {
		return MoveText{}, rules.Refuse(rules.ErrNotation, "trench.same-square", s)
	}
	return t, nil
}
