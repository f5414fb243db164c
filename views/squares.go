package views

import (
	"context"
	"html"
	"io"
	"strings"
	"sync"

	"github.com/a-h/templ"
	templruntime "github.com/a-h/templ/runtime"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
)

// square is one square of a board form as drawn, whatever the game: a
// cell of the board's grid.
type square struct {
	Step  Step   // what a click does: complete a move, extend the selection, or nothing
	Name  string // the square's name in the notation ("d4"), its data-click
	Class string // CSS classes, space-separated ("" for none)
	// Label is the accessible name: the square, what stands on it and
	// what a click does ("d4, Black Soldier, select").
	Label string
	// Labelled is true when the square holds something or may be clicked:
	// its label is then also its tooltip.
	Labelled bool
	// Inner is the picture on the square: markup made here (a sprite
	// constant), never text from a request or the database.
	Inner string
}

// boardRow draws one row of a board's grid: each square a submit button
// when the click completes a move, a link when it extends the selection,
// else a plain cell.
//
// Every square also carries its label as text, visually hidden (the
// picture says it), so that a text browser shows the position and the
// moves, and a screen reader reads the square, what is there and what a
// click does; a square with something on it or to click has the label as
// its tooltip too, for a mouse user who does not know the pictures.
//
// It is written by hand rather than in templ: a board has 64 to 100
// squares, and each answer to a click or a move draws all of them.
func boardRow(row []square) templ.Component {
	return handWritten(func(_ context.Context, sw *squareWriter) {
		for i := range row {
			sw.square(&row[i])
		}
	})
}

// handWritten is a component whose markup write writes with sw into
// templ's buffer (the first write error is the component's).
func handWritten(write func(ctx context.Context, sw *squareWriter)) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) (err error) {
		buf, existing := templruntime.GetBuffer(w)
		if !existing {
			defer func() {
				if rerr := templruntime.ReleaseBuffer(buf); err == nil {
					err = rerr
				}
			}()
		}
		sw := squareWriter{w: buf}
		write(ctx, &sw)
		return sw.err
	})
}

// squareWriter writes squares' markup, keeping the first write error.
type squareWriter struct {
	w   *templruntime.Buffer
	err error
}

func (s *squareWriter) raw(str string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(str)
	}
}

// text writes str escaped for HTML text or a quoted attribute value (as
// html.EscapeString does), the runs between the characters to escape
// straight from str.
func (s *squareWriter) text(str string) {
	last := 0
	for i := 0; i < len(str); i++ {
		var esc string
		switch str[i] {
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '&':
			esc = "&amp;"
		case '\'':
			esc = "&#39;"
		case '"':
			esc = "&#34;"
		default:
			continue
		}
		s.raw(str[last:i])
		s.raw(esc)
		last = i + 1
	}
	s.raw(str[last:])
}

func (s *squareWriter) square(c *square) {
	end := "</div>"
	switch {
	case c.Step.Move != "":
		s.raw(`<button type="submit" name="move" value="`) // not shown: markup
		s.text(c.Step.Move)
		s.raw(`"`)
		end = "</button>"
	case c.Step.Href != "":
		s.raw(`<a href="`)
		s.text(string(templ.SafeURL(c.Step.Href)))
		s.raw(`"`)
		end = "</a>"
	default:
		s.raw(`<div`)
	}
	if c.Class != "" {
		s.raw(` class="`)
		s.text(c.Class)
		s.raw(`"`)
	}
	s.raw(` role="gridcell" data-click="`)
	s.text(c.Name)
	if c.Step != (Step{}) || c.Labelled {
		s.raw(`" title="`)
		s.text(c.Label)
		s.raw(`">`)
		s.raw(c.Inner)
	} else {
		s.raw(`">`)
	}
	s.raw(`<span class="vh">`) // not shown: markup
	s.text(c.Label)
	s.raw(`</span>`)
	s.raw(end)
}

// classList collects CSS class names into one attribute value, made in
// one allocation.
type classList struct {
	names [8]string
	n     int
}

func (l *classList) add(ok bool, name string) {
	if ok && l.n < len(l.names) {
		l.names[l.n] = name
		l.n++
	}
}

func (l *classList) String() string { return strings.Join(l.names[:l.n], " ") }

// labelParts collects the parts of a square's label, joined with ", "
// in one allocation.
type labelParts struct {
	parts [8]string
	n     int
}

func (l *labelParts) add(part string) {
	if l.n < len(l.parts) {
		l.parts[l.n] = part
		l.n++
	}
}

func (l *labelParts) String() string { return strings.Join(l.parts[:l.n], ", ") }

// boardWords are the words of the squares' labels in one language,
// looked up in its catalogue once (the catalogues do not change while the
// server runs).
type boardWords struct {
	empty, moveHere, selected, select_, lastMove string
	// units are TRENCH's unit names by trench.Unit ("Black Soldier").
	units [16]string
	// taken are the same names as the object of "captures …", in the
	// grammatical case the language needs there ("den weißen Soldaten").
	taken [16]string
	// pieces are Trenches' piece names by trenches.Piece ("Light Tank",
	// "Debris").
	pieces                     [6]string
	grenadeHere, protectedHere string
}

var wordsByLang sync.Map // language code → *boardWords

// wordsOf returns the label words in the language of ctx.
func wordsOf(ctx context.Context) *boardWords {
	lang := Lang(ctx)
	if !IsLanguage(lang) {
		lang = "en" // T falls back to English for a code it does not know
	}
	if w, ok := wordsByLang.Load(lang); ok {
		return w.(*boardWords)
	}
	ctx = WithLang(context.Background(), lang)
	w := &boardWords{
		empty:         T(ctx, "empty|square"),
		moveHere:      T(ctx, "move here"),
		selected:      T(ctx, "selected"),
		select_:       T(ctx, "select"),
		lastMove:      T(ctx, "last move|square"),
		grenadeHere:   T(ctx, "throw the grenade here"),
		protectedHere: T(ctx, "protected by a Tank"),
	}
	for _, side := range []rules.Side{trench.Black, trench.White} {
		for _, k := range trench.Kinds {
			u := trench.NewUnit(k, side)
			w.units[u] = trenchUnitName(ctx, u)
			w.taken[u] = trenchTakenName(ctx, u)
		}
	}
	for p := range w.pieces {
		w.pieces[p] = pieceName(ctx, trenches.Piece(p))
	}
	w.pieces[trenches.Debris] = T(ctx, "Debris")
	wordsByLang.Store(lang, w)
	return w
}

// trenchSquareNames are the names of TRENCH's squares, by trench.Square.
var trenchSquareNames = func() (names [64]string) {
	for sq := trench.Square(0); sq < 64; sq++ {
		names[sq] = sq.String()
	}
	return names
}()

// trenchSquareName is sq's name ("d4"), without making a string each time.
func trenchSquareName(sq trench.Square) string {
	if sq.Valid() {
		return trenchSquareNames[sq]
	}
	return sq.String()
}

// unitPictures and ghostPictures are the markup of each unit's picture
// on a square, by trench.Unit: the unit itself, and the unit a pending
// move captures (greyed).
var unitPictures, ghostPictures = func() (units, ghosts [16]string) {
	for _, side := range []rules.Side{trench.Black, trench.White} {
		for _, k := range trench.Kinds {
			u := trench.NewUnit(k, side)
			href := html.EscapeString(unitSprite(u))
			units[u] = `<svg class="unit"><use href="` + href + `"/></svg>`        // not shown: markup
			ghosts[u] = `<svg class="unit ghost"><use href="` + href + `"/></svg>` // not shown: markup
		}
	}
	return units, ghosts
}()

// piecePictures is the markup of each Trenches piece's picture on a
// square, by trenches.Piece ("" for an empty square and Debris).
var piecePictures = func() (pics [6]string) {
	for _, p := range []trenches.Piece{trenches.LightTank, trenches.LightSoldier, trenches.DarkTank, trenches.DarkSoldier} {
		pics[p] = `<svg class="piece"><use href="` + html.EscapeString(pieceSprite(p)) + `"/></svg>` // not shown: markup
	}
	return pics
}()
