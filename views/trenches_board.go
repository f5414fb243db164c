package views

import (
	"context"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/trenches"
)

// trenchesCell is one square of a Trenches board as drawn.
type trenchesCell struct {
	Name      string
	Piece     trenches.Piece
	Dark      bool
	Last      bool
	Best      bool // part of the best move the analysis found
	Selected  bool // the selected piece's square, or the Soldier's landing
	Vacated   bool // the square the selected Soldier left (a grenade may land here)
	Step      Step
	Landing   bool // a landing square of the selected piece
	Grenade   bool // a legal grenade square
	Protected bool // a square next to a Tank: no grenade may land here
}

// Class returns the CSS classes of the cell.
func (c trenchesCell) Class() string {
	var cls classList
	cls.add(c.Piece == trenches.Debris, "debris")
	cls.add(c.Last, "last")
	cls.add(c.Best, "best")
	cls.add(c.Selected, "selected")
	cls.add(c.Landing, "target")
	cls.add(c.Grenade, "target grenade") // not shown: CSS classes
	cls.add(c.Protected, "protected")
	cls.add(c.Step.Href != "" && !c.Landing, "can-select")
	return cls.String()
}

// Label is the accessible name of the cell in the words w of a language:
// the square (its name in the notation), what stands on it and what a
// click does, e.g. "c3, Light Soldier, select", "d5, throw the grenade
// here".
func (c trenchesCell) Label(w *boardWords) string {
	var parts labelParts
	parts.add(c.Name)
	switch {
	case c.Piece != trenches.Empty && int(c.Piece) < len(w.pieces):
		parts.add(w.pieces[c.Piece])
	case !c.Grenade && !c.Landing:
		parts.add(w.empty)
	}
	switch {
	case c.Grenade:
		parts.add(w.grenadeHere)
	case c.Landing:
		parts.add(w.moveHere)
	case c.Protected:
		parts.add(w.protectedHere)
	case c.Selected:
		parts.add(w.selected)
	case c.Step != (Step{}):
		parts.add(w.select_)
	}
	if c.Last {
		parts.add(w.lastMove)
	}
	return parts.String()
}

// square is the cell as drawn, its label in the words w.
func (c trenchesCell) square(w *boardWords) square {
	sq := square{Step: c.Step, Name: c.Name, Class: c.Class(), Label: c.Label(w),
		Labelled: c.Piece != trenches.Empty || c.Protected || c.Step != (Step{})}
	if int(c.Piece) < len(piecePictures) {
		sq.Inner = piecePictures[c.Piece]
	}
	return sq
}

// pieceName is a piece's side and type in the language of ctx: "Light
// Tank".
func pieceName(ctx context.Context, p trenches.Piece) string {
	switch p {
	case trenches.LightTank:
		return T(ctx, "Light Tank")
	case trenches.LightSoldier:
		return T(ctx, "Light Soldier")
	case trenches.DarkTank:
		return T(ctx, "Dark Tank")
	case trenches.DarkSoldier:
		return T(ctx, "Dark Soldier")
	}
	return ""
}

// trenchesBoardVM is a Trenches board ready to draw.
type trenchesBoardVM struct {
	View   trenches.BoardView
	Rows   [][]square // in drawing order, row by row
	Stage  string     // what the next click does, in words
	Status string     // the last move and the side to move, in words
	cells  []square   // Rows' backing array, from squaresFor
}

// trenchesBoard lays out v for the viewer (their side at the bottom) with
// the selection of p: the piece, then its landing squares, then (for a
// Soldier) the grenade squares, Tank-protected squares marked apart.
func trenchesBoard(ctx context.Context, v trenches.BoardView, p Play) trenchesBoardVM {
	pos := v.Position
	var from, to trenches.Square = trenches.NoSquare, trenches.NoSquare
	if len(p.Selected) > 0 {
		from, _ = trenches.ParseSquare(p.Selected[0])
	}
	if len(p.Selected) > 1 {
		to, _ = trenches.ParseSquare(p.Selected[1])
	}
	var landings, open, blocked trenches.SquareSet
	stage := ""
	switch {
	case !p.CanMove:
	case from == trenches.NoSquare:
		stage = T(ctx, "Choose a Tank or Soldier to move.")
	case to == trenches.NoSquare:
		landings = pos.MovesFrom(from)
		stage = T(ctx, "Choose where it goes.")
	default:
		open, blocked = pos.GrenadeTargets(from, to)
		stage = T(ctx, "Choose where the grenade lands (red squares are protected by a Tank).")
	}
	rows, cells := squaresFor(10, 10)
	words := wordsOf(ctx)
	flip := p.Viewer == rules.Side1
	for row := 0; row < 10; row++ {
		for col := 0; col < 10; col++ {
			file, rank := col, 9-row
			if flip {
				file, rank = 9-col, row
			}
			sq := trenches.NewSquare(file, rank)
			c := trenchesCell{Name: sq.String(), Piece: pos.At(sq), Dark: (file+rank)%2 == 0}
			c.Last = p.InLastMove(c.Name)
			c.Best = p.InBest(c.Name)
			c.Step = p.Next[c.Name]
			c.Landing = landings.Has(sq)
			c.Grenade = open.Has(sq)
			c.Protected = blocked.Has(sq)
			if to != trenches.NoSquare {
				// Draw the Soldier on its landing square while its grenade
				// is chosen.
				switch sq {
				case from:
					c.Piece, c.Vacated = trenches.Empty, true
				case to:
					c.Piece, c.Selected = pos.At(from), true
				}
			} else if sq == from {
				c.Selected = true
			}
			cells[row*10+col] = c.square(words)
		}
	}
	toMove := ""
	switch {
	case v.Result.Over || v.Viewer == rules.Reveal: // Reveal: the game has ended
		toMove = T(ctx, "The game is over.")
	case v.Turn == rules.Side1:
		toMove = T(ctx, "Dark to move.")
	default:
		toMove = T(ctx, "Light to move.")
	}
	return trenchesBoardVM{View: v, Rows: rows, Stage: stage, Status: boardStatus(ctx, p, toMove), cells: cells}
}

// pieceSprite is the sprite symbol of a piece: "lt" is a Light Tank, "ds"
// a Dark Soldier.
func pieceSprite(p trenches.Piece) string {
	id := "l"
	if p.Side() == rules.Side1 {
		id = "d"
	}
	if p.Type() == trenches.Tank {
		id += "t"
	} else {
		id += "s"
	}
	return unitsSprite + id
}
