package views

import (
	"strings"

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
	var cls []string
	add := func(ok bool, name string) {
		if ok {
			cls = append(cls, name)
		}
	}
	add(c.Piece == trenches.Debris, "debris")
	add(c.Last, "last")
	add(c.Best, "best")
	add(c.Selected, "selected")
	add(c.Landing, "target")
	add(c.Grenade, "target grenade")
	add(c.Protected, "protected")
	add(c.Step.Href != "" && !c.Landing, "can-select")
	return strings.Join(cls, " ")
}

// Label is the accessible name of the cell.
func (c trenchesCell) Label() string {
	s := c.Name
	switch {
	case c.Piece == trenches.Debris:
		s += ": debris"
	case c.Piece != trenches.Empty:
		s += ": " + pieceName(c.Piece)
	}
	switch {
	case c.Grenade:
		s += " — throw the grenade here"
	case c.Landing:
		s += " — move here"
	case c.Protected:
		s += " — protected by a Tank"
	}
	return s
}

func pieceName(p trenches.Piece) string {
	side := "Light"
	if p.Side() == rules.Side1 {
		side = "Dark"
	}
	return side + " " + p.Type().String()
}

// trenchesBoardVM is a Trenches board ready to draw.
type trenchesBoardVM struct {
	View  trenches.BoardView
	Cells []trenchesCell
	Stage string // what the next click does, in words
}

// trenchesBoard lays out v for the viewer (their side at the bottom) with
// the selection of p: the piece, then its landing squares, then (for a
// Soldier) the grenade squares, Tank-protected squares marked apart.
func trenchesBoard(v trenches.BoardView, p Play) trenchesBoardVM {
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
		stage = "Choose a Tank or Soldier to move."
	case to == trenches.NoSquare:
		landings = pos.MovesFrom(from)
		stage = "Choose where it goes."
	default:
		open, blocked = pos.GrenadeTargets(from, to)
		stage = "Choose where the grenade lands (red squares are protected by a Tank)."
	}
	cells := make([]trenchesCell, 0, 100)
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
			cells = append(cells, c)
		}
	}
	return trenchesBoardVM{View: v, Cells: cells, Stage: stage}
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
	return "/static/units.svg#" + id
}
