package trenches

import (
	"slices"
	"strings"

	"github.com/trench-games/trench/rules"
)

// State is a game of Trenches as a rules.State: an immutable position.
// Encode is exactly the position format (Position.String).
type State struct {
	pos Position
}

var _ rules.State = State{}

// NewState returns the state of position p.
func NewState(p Position) State { return State{pos: p} }

// Position returns the state's position.
func (s State) Position() Position { return s.pos }

// Encode returns the position in the spec's format (Position.String).
func (s State) Encode() string { return s.pos.String() }

// Ply returns the number of Debris on the board. Every move adds exactly
// one Debris and the start has none, so in a game from the start this is
// the number of moves played, also after Encode and Decode; it equals the
// number of Apply calls since Engine.Start. The game flow's own move count
// stays the authoritative ply.
func (s State) Ply() int { return s.pos.debris.Len() }

// ToMove returns the side to move, or rules.NoSide once it has no legal
// move (the game is over).
func (s State) ToMove() rules.Side {
	if !s.pos.HasLegalMove() {
		return rules.NoSide
	}
	return s.pos.turn
}

// Legal returns the legal moves in the spec's notation, sorted byte-wise,
// when viewer is the side to move (an empty list if it has lost); nil for
// any other viewer.
func (s State) Legal(viewer rules.Side) []string {
	if viewer != s.pos.turn {
		return nil
	}
	return sortedNotation(s.pos.LegalMoves())
}

// nameOrder[sq] is the rank of sq's name among all square names sorted
// byte-wise ("a1" < "a10" < "a2" < … < "j9").
var nameOrder [NumSquares]uint64

func init() {
	names := make([]string, NumSquares)
	for sq := range Square(NumSquares) {
		names[sq] = sq.String()
	}
	slices.Sort(names)
	for i, name := range names {
		sq, _ := ParseSquare(name)
		nameOrder[sq] = uint64(i)
	}
}

// sortedNotation returns the notation of moves sorted byte-wise. Comparing
// two moves' texts byte by byte is the same as comparing their (from, to,
// grenade) names in turn, as a square name is followed by "-", "/" or the
// end, all of which sort before the digits that could extend it; and all
// moves with the same start square are of the same piece type.
func sortedNotation(moves []Move) []string {
	keys := make([]uint64, len(moves))
	for i, m := range moves {
		var g uint64
		if m.Type == Soldier {
			g = 1 + nameOrder[m.Grenade]
		}
		keys[i] = nameOrder[m.From]<<40 | nameOrder[m.To]<<32 | g<<24 | uint64(i)
	}
	slices.Sort(keys)
	// One backing string for all the moves: each is at most 11 bytes.
	buf := make([]byte, 0, 11*len(moves))
	ends := make([]int, len(moves))
	for i, k := range keys {
		buf = moves[k&(1<<24-1)].appendText(buf)
		ends[i] = len(buf)
	}
	all := string(buf)
	out := make([]string, len(moves))
	start := 0
	for i, end := range ends {
		out[i] = all[start:end]
		start = end
	}
	return out
}

// Apply returns the state after move (see Position.ParseMove for the
// errors, which wrap rules.ErrNotation or rules.ErrIllegal).
func (s State) Apply(move string) (rules.State, error) {
	m, err := s.pos.ParseMove(move)
	if err != nil {
		return nil, err
	}
	return State{pos: s.pos.Apply(m)}, nil
}

// Result returns Position.Result.
func (s State) Result() rules.Result { return s.pos.Result() }

// Concede returns the package function Concede.
func (s State) Concede(side rules.Side, timeout bool) rules.Result {
	return Concede(side, timeout)
}

// Armistice returns the package function Armistice: a draw that the game
// flow never offers, since Engine.HasArmistice is false.
func (s State) Armistice() rules.Result { return Armistice() }

// Clicks splits a move into its squares: "a4-a6" → ["a4" "a6"],
// "b4-b6/d8" → ["b4" "b6" "d8"]; nil for text that is not a move.
func (s State) Clicks(move string) []string {
	if _, err := ParseMove(move); err != nil {
		return nil
	}
	return strings.FieldsFunc(move, func(r rune) bool { return r == '-' || r == '/' })
}

// View returns the BoardView of the state. Trenches has no hidden
// information, so every viewer sees the same board; viewer is recorded.
func (s State) View(viewer rules.Side) any { return NewBoardView(s.pos, viewer) }

// Describe returns move as written in the game log: its notation,
// normalised when it parses ("a4-a6", "b4-b6/d8"), otherwise unchanged.
func (s State) Describe(move string, viewer rules.Side) string {
	if m, err := ParseMove(move); err == nil {
		return m.String()
	}
	return move
}

// Perft returns Perft(s.Position(), depth).
func (s State) Perft(depth int) int64 { return Perft(s.pos, depth) }
