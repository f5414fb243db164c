package trenches

import "github.com/trench-games/trench/rules"

// BoardView is what a board renderer needs to draw a position (spec, "What
// the product must show"). The renderer reads squares with Position.At,
// the landing squares of a selected piece with Position.MovesFrom, and the
// grenade squares of a Soldier's landing square with
// Position.GrenadeTargets (open ones and Tank-protected ones apart).
type BoardView struct {
	Position Position
	// Viewer is the side the view was made for (rules.NoSide for a
	// spectator, rules.Reveal after the end); the board is the same for all.
	Viewer rules.Side
	// Turn is the side to move in Position (also when it has lost).
	Turn rules.Side
	// Protected holds the squares around every Tank, where no grenade may
	// land (Position.Protected).
	Protected SquareSet
	// Movable holds the pieces of the side to move that have a legal move
	// (the ones a player may select); empty once the game is over.
	Movable SquareSet
	// Result is Position.Result: Over, the winner and the score, or the
	// running score (pieces with a legal move per side).
	Result rules.Result
}

// NewBoardView returns the view of p for viewer.
func NewBoardView(p Position, viewer rules.Side) BoardView {
	return BoardView{
		Position:  p,
		Viewer:    viewer,
		Turn:      p.turn,
		Protected: p.Protected(),
		Movable:   p.Mobile(p.turn),
		Result:    p.Result(),
	}
}

// Rows returns the squares in display order for Light's point of view:
// row 0 is rank 10 and row 9 rank 1, each from file a to j.
func (v BoardView) Rows() [10][10]Square {
	var rows [10][10]Square
	for r := range 10 {
		for f := range 10 {
			rows[r][f] = NewSquare(f, 9-r)
		}
	}
	return rows
}
