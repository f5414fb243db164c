package views

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
)

// Board renders the board (or card table) of a game from the game's own
// view model (rules.State.View) and the game-independent Play. Each game
// adds one case here and one board component of its own.
func Board(view any, p Play) templ.Component {
	switch v := view.(type) {
	case trench.BoardView:
		return TrenchBoard(trenchBoard(v, p), p)
	case trenches.BoardView:
		return TrenchesBoard(trenchesBoard(v, p), p)
	case cards.View:
		return CardsTable(cardsTable(v, p), p)
	}
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return fmt.Errorf("views: no board for %T", view)
	})
}

// HasDiamond reports whether a game's board has the diamond view (and the
// toggle to the square view): TRENCH.
func HasDiamond(view any) bool {
	_, ok := view.(trench.BoardView)
	return ok
}

// HasImage reports whether a position of the game can be downloaded as an
// SVG image (see PositionImage).
func HasImage(view any) bool {
	switch view.(type) {
	case trench.BoardView, trenches.BoardView, cards.View:
		return true
	}
	return false
}

// Notes renders what a game shows under its board (TRENCH: the captured
// units); nothing for the others.
func Notes(view any) templ.Component {
	switch v := view.(type) {
	case trench.BoardView:
		return TrenchNotes(v)
	}
	return templ.NopComponent
}

// trenchCell is one square of a TRENCH board as drawn.
type trenchCell struct {
	Name     string
	Unit     trench.Unit
	HasUnit  bool
	Dark     bool
	Trench   bool
	Last     bool
	Best     bool // part of the best move the analysis found
	Selected bool
	Step     Step
	Target   bool   // a destination of the selected unit
	Capture  bool   // that destination captures
	Takes    string // what it captures, e.g. "captures f5, g6"
	Taken    bool   // a unit the selected unit's moves would capture
	// Ghost is the unit a pending move captures on this square (HasGhost),
	// drawn greyed.
	Ghost    trench.Unit
	HasGhost bool
}

// Class returns the CSS classes of the cell.
func (c trenchCell) Class() string {
	var cls []string
	add := func(ok bool, name string) {
		if ok {
			cls = append(cls, name)
		}
	}
	add(c.Trench, "trench")
	add(c.Last, "last")
	add(c.Best, "best")
	add(c.Selected, "selected")
	add(c.Target, "target")
	add(c.Capture, "capture")
	add(c.Taken, "taken")
	add(c.HasGhost, "pending-capture")
	add(c.Step.Href != "" && !c.Target, "can-select")
	return strings.Join(cls, " ")
}

// Label is the accessible name of the cell.
func (c trenchCell) Label() string {
	s := c.Name
	if c.HasUnit {
		s += ": " + sideName(c.Unit) + " " + c.Unit.Kind().String()
	}
	if c.HasGhost {
		s += " — captured: " + sideName(c.Ghost) + " " + c.Ghost.Kind().String()
	}
	if c.Target {
		if c.Capture {
			s += " — move here, " + c.Takes
		} else {
			s += " — move here"
		}
	}
	return s
}

func sideName(u trench.Unit) string {
	if u.Side() == 0 {
		return "Black"
	}
	return "White"
}

// trenchBoardVM is a TRENCH board ready to draw.
type trenchBoardVM struct {
	Cells []trenchCell // in drawing order, row by row
}

// trenchBoard lays out v's squares for the viewer: their side at the
// bottom (Black's a1 corner, or White's h8 corner).
func trenchBoard(v trench.BoardView, p Play) trenchBoardVM {
	var targets = map[string]trench.Move{}
	var taken = map[string]bool{}
	if len(p.Selected) == 1 {
		for _, m := range v.Moves {
			if m.From.String() == p.Selected[0] {
				targets[m.To.String()] = m
				for _, c := range m.Captures {
					taken[c.String()] = true
				}
			}
		}
	}
	// A pending move: the units it captures are those of the side not
	// moving that stood on a square before it and are gone after it.
	before, pending := p.Before.(trench.BoardView)
	whiteBottom := p.Viewer == 1
	cells := make([]trenchCell, 0, 64)
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			file, rank := col, 7-row
			if whiteBottom {
				file, rank = 7-col, row
			}
			sq := trench.NewSquare(file, rank)
			c := trenchCell{Name: sq.String(), Dark: (file+rank)%2 == 0, Trench: trench.InTrench(sq)}
			c.Unit, c.HasUnit = v.Position.At(sq)
			c.Last = p.InLastMove(c.Name)
			c.Best = p.InBest(c.Name)
			c.Selected = p.IsSelected(c.Name)
			c.Step = p.Next[c.Name]
			if m, ok := targets[c.Name]; ok {
				c.Target = true
				c.Capture = len(m.Captures) > 0
				if c.Capture {
					names := make([]string, len(m.Captures))
					for i, s := range m.Captures {
						names[i] = s.String()
					}
					c.Takes = "captures " + strings.Join(names, ", ")
				}
			}
			c.Taken = taken[c.Name]
			if u, ok := before.Position.At(sq); pending && ok && u.Side() != before.ToMove && (!c.HasUnit || c.Unit.Side() != u.Side()) {
				c.Ghost, c.HasGhost = u, true
			}
			cells = append(cells, c)
		}
	}
	return trenchBoardVM{Cells: cells}
}

// unitSprite is the sprite symbol of a unit: "b3" is a Black Captain.
func unitSprite(u trench.Unit) string {
	side := "b"
	if u.Side() == rules.Side1 {
		side = "w"
	}
	return "/static/units.svg#" + side + strconv.Itoa(u.Stars())
}

// capturedUnits lists, for a side, one entry per captured unit (its kind)
// for the captured-units panel.
func capturedUnits(v trench.BoardView, side int) []trench.Unit {
	var out []trench.Unit
	for i, n := range v.Captured[side] {
		for j := 0; j < n; j++ {
			out = append(out, trench.NewUnit(trench.Kind(i+1), rules.Side(side)))
		}
	}
	return out
}

// classAttr is a class attribute whose value is already made: rendered as
// is (escaped), without templ's parsing of class lists, which the 64 to 100
// squares of a board would pay for on every answer.
type classAttr string

// Items returns the one attribute, or none for no class.
func (c classAttr) Items() []templ.KeyValue[string, any] {
	if c == "" {
		return nil
	}
	return []templ.KeyValue[string, any]{{Key: "class", Value: string(c)}}
}
