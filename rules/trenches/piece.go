package trenches

import "github.com/trench-games/trench/rules"

// PieceType is the kind of a piece: Tank or Soldier (spec, "Board, pieces,
// setup").
type PieceType uint8

// The piece types. NoPieceType is the type of an empty or Debris square.
const (
	NoPieceType PieceType = iota
	Tank
	Soldier
)

// String returns "Tank", "Soldier" or "" for NoPieceType.
func (t PieceType) String() string {
	switch t {
	case Tank:
		return "Tank"
	case Soldier:
		return "Soldier"
	}
	return ""
}

// Piece is the content of one square: empty, Debris, or a piece of a side.
type Piece uint8

// The contents of a square, with their letters in the position format.
const (
	Empty        Piece = iota // an empty square (a digit in the position format)
	Debris                    // x
	LightTank                 // T
	LightSoldier              // S
	DarkTank                  // t
	DarkSoldier               // s
)

// NewPiece returns the piece of side (rules.Side0 = Light, rules.Side1 =
// Dark) and type t; Empty when side or t is not valid.
func NewPiece(side rules.Side, t PieceType) Piece {
	if !side.Valid() || (t != Tank && t != Soldier) {
		return Empty
	}
	return LightTank + Piece(2*int(side)) + Piece(t-Tank)
}

// Side returns the owner of p: rules.Side0 (Light) or rules.Side1 (Dark);
// rules.NoSide for Empty and Debris.
func (p Piece) Side() rules.Side {
	switch p {
	case LightTank, LightSoldier:
		return rules.Side0
	case DarkTank, DarkSoldier:
		return rules.Side1
	}
	return rules.NoSide
}

// Type returns Tank or Soldier; NoPieceType for Empty and Debris.
func (p Piece) Type() PieceType {
	switch p {
	case LightTank, DarkTank:
		return Tank
	case LightSoldier, DarkSoldier:
		return Soldier
	}
	return NoPieceType
}

// String returns the piece's letter in the position format ("T", "S",
// "t", "s", "x"), or "." for an empty square.
func (p Piece) String() string {
	if int(p) < len(pieceLetters) {
		return pieceLetters[p : p+1]
	}
	return "?"
}

const pieceLetters = ".xTSts"

// sideName names a side as the spec does: "Light" or "Dark".
func sideName(s rules.Side) string {
	if s == rules.Side1 {
		return "Dark"
	}
	return "Light"
}
