package views

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/a-h/templ"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
	"github.com/trench-games/trench/static"
)

// Board renders the board (or card table) of a game from the game's own
// view model (rules.State.View) and the game-independent Play. Each game
// adds one case here and one board component of its own.
func Board(view any, p Play) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		switch v := view.(type) {
		case trench.BoardView:
			vm := trenchBoard(ctx, v, p)
			defer releaseSquares(vm.cells)
			return TrenchBoard(vm, p).Render(ctx, w)
		case trenches.BoardView:
			vm := trenchesBoard(ctx, v, p)
			defer releaseSquares(vm.cells)
			return TrenchesBoard(vm, p).Render(ctx, w)
		case cards.View:
			return CardsTable(cardsTable(ctx, v, p), p).Render(ctx, w)
		}
		return fmt.Errorf("views: no board for %T", view)
	})
}

// squarePool holds the squares of boards drawn before: each answer to a
// click or a move lays out a whole board (64 or 100 squares, about 10 KB)
// only to write it once.
var squarePool sync.Pool

// squaresFor returns n rows of n squares each (every square to be set)
// and their backing cells, from squarePool when it has room enough.
func squaresFor(nrows, ncols int) ([][]square, []square) {
	var cells []square
	if c, ok := squarePool.Get().(*[]square); ok && cap(*c) >= nrows*ncols {
		cells = (*c)[:nrows*ncols]
	} else {
		cells = make([]square, nrows*ncols)
	}
	rows := make([][]square, nrows)
	for r := range rows {
		rows[r] = cells[r*ncols : (r+1)*ncols : (r+1)*ncols]
	}
	return rows, cells
}

// releaseSquares gives cells (from squaresFor) back to squarePool once
// the board is written.
func releaseSquares(cells []square) {
	clear(cells)
	squarePool.Put(&cells)
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
	Target   bool // a destination of the selected unit
	Capture  bool // that destination captures
	// Takes lists what the move to this destination captures, nearest to
	// the selected unit first.
	Takes []trenchTaken
	Taken bool // a unit the selected unit's moves would capture
	// Ghost is the unit a pending move captures on this square (HasGhost),
	// drawn greyed.
	Ghost    trench.Unit
	HasGhost bool
}

// trenchTaken is one unit a move captures and its square.
type trenchTaken struct {
	Square string
	Unit   trench.Unit
}

// Class returns the CSS classes of the cell.
func (c trenchCell) Class() string {
	var cls classList
	cls.add(c.Trench, "trench")
	cls.add(c.Last, "last")
	cls.add(c.Best, "best")
	cls.add(c.Selected, "selected")
	cls.add(c.Target, "target")
	cls.add(c.Capture, "capture")
	cls.add(c.Taken, "taken")
	cls.add(c.HasGhost, "pending-capture")
	cls.add(c.Step.Href != "" && !c.Target, "can-select")
	return cls.String()
}

// Label is the accessible name of the cell in the language of ctx, whose
// words are w: the square (its name in the notation), what stands on it
// and what a click does, e.g. "d4, Black Soldier, select", "d5, move
// here, captures White Sergeant", "e2, empty".
func (c trenchCell) Label(ctx context.Context, w *boardWords) string {
	var parts labelParts
	parts.add(c.Name)
	switch {
	case c.HasUnit:
		parts.add(w.units[c.Unit])
	case !c.Target && !c.HasGhost:
		parts.add(w.empty)
	}
	if c.HasGhost {
		parts.add(T(ctx, "captured: %s", w.units[c.Ghost]))
	}
	switch {
	case c.Target:
		parts.add(w.moveHere)
		if len(c.Takes) == 1 && c.Takes[0].Square == c.Name {
			parts.add(T(ctx, "captures %s", w.taken[c.Takes[0].Unit]))
		} else if len(c.Takes) > 0 {
			names := make([]string, len(c.Takes))
			for i, t := range c.Takes {
				names[i] = T(ctx, "%[1]s on %[2]s", w.taken[t.Unit], t.Square)
			}
			parts.add(T(ctx, "captures %s", strings.Join(names, ", ")))
		}
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
func (c trenchCell) square(ctx context.Context, w *boardWords) square {
	sq := square{Step: c.Step, Name: c.Name, Class: c.Class(), Label: c.Label(ctx, w),
		Labelled: c.HasUnit || c.HasGhost || c.Step != (Step{})}
	if c.HasUnit {
		sq.Inner = unitPictures[c.Unit]
	}
	if c.HasGhost {
		sq.Inner += ghostPictures[c.Ghost]
	}
	return sq
}

// trenchTakenName is the name of unit u as the object of "captures …"
// in the language of ctx, in the case the language needs there
// ("den weißen Soldaten").
func trenchTakenName(ctx context.Context, u trench.Unit) string {
	white := u.Side() == rules.Side1
	switch u.Kind() {
	case trench.Soldier:
		if white {
			return T(ctx, "White Soldier|captured")
		}
		return T(ctx, "Black Soldier|captured")
	case trench.Sergeant:
		if white {
			return T(ctx, "White Sergeant|captured")
		}
		return T(ctx, "Black Sergeant|captured")
	case trench.Captain:
		if white {
			return T(ctx, "White Captain|captured")
		}
		return T(ctx, "Black Captain|captured")
	case trench.Colonel:
		if white {
			return T(ctx, "White Colonel|captured")
		}
		return T(ctx, "Black Colonel|captured")
	case trench.General:
		if white {
			return T(ctx, "White General|captured")
		}
		return T(ctx, "Black General|captured")
	}
	return trenchUnitName(ctx, u)
}

// trenchUnitName is a unit's side and kind in the language of ctx:
// "Black Soldier".
func trenchUnitName(ctx context.Context, u trench.Unit) string {
	white := u.Side() == rules.Side1
	switch u.Kind() {
	case trench.Soldier:
		if white {
			return T(ctx, "White Soldier")
		}
		return T(ctx, "Black Soldier")
	case trench.Sergeant:
		if white {
			return T(ctx, "White Sergeant")
		}
		return T(ctx, "Black Sergeant")
	case trench.Captain:
		if white {
			return T(ctx, "White Captain")
		}
		return T(ctx, "Black Captain")
	case trench.Colonel:
		if white {
			return T(ctx, "White Colonel")
		}
		return T(ctx, "Black Colonel")
	case trench.General:
		if white {
			return T(ctx, "White General")
		}
		return T(ctx, "Black General")
	}
	return ""
}

// trenchBoardVM is a TRENCH board ready to draw.
type trenchBoardVM struct {
	Rows   [][]square // in drawing order, row by row
	Status string     // the last move and the side to move, in words
	cells  []square   // Rows' backing array, from squaresFor
}

// trenchBoard lays out v's squares for the viewer: their side at the
// bottom (Black's a1 corner, or White's h8 corner).
func trenchBoard(ctx context.Context, v trench.BoardView, p Play) trenchBoardVM {
	// The selected unit's moves, by destination, and the units they
	// capture.
	var targets [64]*trench.Move
	var taken [64]bool
	if len(p.Selected) == 1 {
		for i := range v.Moves {
			m := &v.Moves[i]
			if m.From.Valid() && m.To.Valid() && trenchSquareNames[m.From] == p.Selected[0] {
				targets[m.To] = m
				for _, c := range m.Captures {
					if c.Valid() {
						taken[c] = true
					}
				}
			}
		}
	}
	// A pending move: the units it captures are those of the side not
	// moving that stood on a square before it and are gone after it.
	before, pending := p.Before.(trench.BoardView)
	whiteBottom := p.Viewer == 1
	words := wordsOf(ctx)
	rows, cells := squaresFor(8, 8)
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			file, rank := col, 7-row
			if whiteBottom {
				file, rank = 7-col, row
			}
			sq := trench.NewSquare(file, rank)
			c := trenchCell{Name: trenchSquareNames[sq], Dark: (file+rank)%2 == 0, Trench: trench.InTrench(sq)}
			c.Unit, c.HasUnit = v.Position.At(sq)
			c.Last = p.InLastMove(c.Name)
			c.Best = p.InBest(c.Name)
			c.Selected = p.IsSelected(c.Name)
			c.Step = p.Next[c.Name]
			if m := targets[sq]; m != nil {
				c.Target = true
				c.Capture = len(m.Captures) > 0
				for _, s := range m.Captures {
					u, _ := v.Position.At(s)
					c.Takes = append(c.Takes, trenchTaken{Square: trenchSquareName(s), Unit: u})
				}
			}
			c.Taken = taken[sq]
			if u, ok := before.Position.At(sq); pending && ok && u.Side() != before.ToMove && (!c.HasUnit || c.Unit.Side() != u.Side()) {
				c.Ghost, c.HasGhost = u, true
			}
			cells[row*8+col] = c.square(ctx, words)
		}
	}
	toMove := ""
	switch {
	case v.Result.Over || v.Viewer == rules.Reveal: // Reveal: the game has ended
		toMove = T(ctx, "The game is over.")
	case v.ToMove == rules.Side1:
		toMove = T(ctx, "White to move.")
	default:
		toMove = T(ctx, "Black to move.")
	}
	return trenchBoardVM{Rows: rows, Status: boardStatus(ctx, p, toMove), cells: cells}
}

// boardStatus is the text of a board's live region: the last move (in
// notation), the selection, then toMove ("White to move."), e.g. "Last
// move c3-d4. White to move.".
func boardStatus(ctx context.Context, p Play, toMove string) string {
	if p.Answer != "" {
		return p.Answer
	}
	var parts []string
	if p.LastMoveText != "" {
		parts = append(parts, T(ctx, "Last move %s.", p.LastMoveText))
	}
	if toMove != "" {
		parts = append(parts, toMove)
	}
	if len(p.Selected) > 0 {
		parts = append(parts, T(ctx, "Selected: %s.", strings.Join(p.Selected, ", ")))
	}
	return strings.Join(parts, " ")
}

// unitsSprite is the address of the units' sprite (static/units.svg),
// before a symbol's id.
var unitsSprite = static.URL("units.svg") + "#"

// unitSprite is the sprite symbol of a unit: "b3" is a Black Captain.
func unitSprite(u trench.Unit) string {
	side := "b"
	if u.Side() == rules.Side1 {
		side = "w"
	}
	return unitsSprite + side + strconv.Itoa(u.Stars())
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

// maxMoveOptions bounds the legal moves the move box lists (a Trenches
// position has a thousand): past it, only the moves of the unit or piece
// selected are listed, or none before one is.
const maxMoveOptions = 200

// moveOptions are the moves the move box lists: every legal move of p, or
// past maxMoveOptions those that start with the first click selected
// ("c3" lists "c3-d4", "c3xe5", not "c30…"); the bool reports whether
// some were left out.
func moveOptions(p Play) ([]string, bool) {
	if len(p.Legal) <= maxMoveOptions {
		return p.Legal, false
	}
	if len(p.Selected) == 0 {
		return nil, true
	}
	first := p.Selected[0]
	var out []string
	for _, m := range p.Legal {
		if strings.HasPrefix(m, first) && (len(m) == len(first) || !isAlnum(m[len(first)])) {
			out = append(out, m)
		}
	}
	if len(out) > maxMoveOptions {
		out = out[:maxMoveOptions]
	}
	return out, true
}

// moveListOptions writes the move box's options, one per move of moves:
// <option value="c3-d4">, its end tag left out as HTML allows (a
// Trenches list has up to maxMoveOptions of them).
func moveListOptions(moves []string) templ.Component {
	return handWritten(func(_ context.Context, sw *squareWriter) {
		for _, m := range moves {
			sw.raw(`<option value="`) // not shown: markup
			sw.text(m)
			sw.raw(`">`)
		}
	})
}

func isAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// capturedLabel names the units of side that are off the board, for a
// screen reader: "White Soldier, White Soldier, White Captain", or
// "none".
func capturedLabel(ctx context.Context, v trench.BoardView, side int) string {
	us := capturedUnits(v, side)
	if len(us) == 0 {
		return T(ctx, "none|captured")
	}
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = trenchUnitName(ctx, u)
	}
	return strings.Join(names, ", ")
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

// moveBoxMethod, moveBoxAction and moveBoxField say where the move box
// sends a typed move: POST .../move (field move) to play it, or, for a
// player who confirms moves, GET the game page with ?pending= to show it
// pending first.
func moveBoxMethod(p Play) string {
	if p.Confirm {
		return "get"
	}
	return "post"
}

func moveBoxAction(p Play) string {
	if p.Confirm {
		return p.GameURL
	}
	return moveAction(p)
}

// moveAction is where the board's form sends a move: p.MoveAction, else
// the game's move route.
func moveAction(p Play) string {
	if p.MoveAction != "" {
		return p.MoveAction
	}
	return p.GameURL + "/move"
}

func moveBoxField(p Play) string {
	if p.Confirm {
		return "pending"
	}
	return "move"
}
