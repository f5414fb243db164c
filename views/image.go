package views

import (
	"strings"

	"github.com/trench-games/trench/rules/cards"

	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
	"github.com/trench-games/trench/static"
)

// imageSquare is a square of an n×n image: its place in the grid (X, Y
// from the top left) and its file and rank (0-based), rank n at the top.
type imageSquare struct{ X, Y, File, Rank int }

func imageSquares(n int) []imageSquare {
	out := make([]imageSquare, 0, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			out = append(out, imageSquare{X: x, Y: y, File: x, Rank: n - 1 - y})
		}
	}
	return out
}

// spriteSymbols returns the <symbol> elements of static/units.svg, to put
// in a standalone image's <defs>.
func spriteSymbols() string {
	b, err := static.FS.ReadFile("units.svg")
	if err != nil {
		return ""
	}
	var out strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "<symbol") {
			out.WriteString(line)
		}
	}
	return out.String()
}

// unitSymbol is the sprite id of a TRENCH unit ("b3").
func unitSymbol(u trench.Unit) string {
	return strings.TrimPrefix(unitSprite(u), unitsSprite)
}

// pieceSymbol is the sprite id of a Trenches piece, "" for empty squares
// and debris.
func pieceSymbol(p trenches.Piece) string {
	if p == trenches.Empty || p == trenches.Debris {
		return ""
	}
	return strings.TrimPrefix(pieceSprite(p), unitsSprite)
}

func trenchFill(file, rank int) string {
	switch {
	case trench.InTrench(trench.NewSquare(file, rank)):
		return "#5a4630"
	case (file+rank)%2 == 0:
		return "#a68b5f"
	}
	return "#b99f73"
}

func trenchesFill(v trenches.BoardView, file, rank int) string {
	switch {
	case v.Position.At(trenches.NewSquare(file, rank)) == trenches.Debris:
		return "url(#debris)"
	case (file+rank)%2 == 0:
		return "#a68b5f"
	}
	return "#b99f73"
}

// imageSlot is a trench slot of the card table image and where it is
// drawn.
type imageSlot struct {
	Slot cards.SlotView
	X, Y int
}

// imageSlots places both sides' slots: Black's (side 0) at the bottom,
// front above back; Red's at the top, front below back; back slots in the
// gaps of the front ones.
func imageSlots(v cards.View) []imageSlot {
	const half = 35
	var out []imageSlot
	for side, rows := range [2][2]int{{215, 310}, {115, 20}} {
		front, back := rows[0], rows[1]
		for i, s := range v.Sides[side].Front {
			x := 65 + (2*i+1)*half
			out = append(out, imageSlot{Slot: s, X: x, Y: front})
		}
		for i, s := range v.Sides[side].Back {
			x := 65 + 2*i*half
			out = append(out, imageSlot{Slot: s, X: x, Y: back})
		}
	}
	return out
}

// cardInk is the colour of a card's rank and suit.
func cardInk(c cards.Card) string {
	if c.Red() {
		return "#c0392b"
	}
	return "#1f1b16"
}

// labelInk is the colour of a slot's name: dark on a face, light on a back
// or an empty slot.
func labelInk(s cards.SlotView) string {
	if s.Known && !s.Empty {
		return "#6b6255"
	}
	return "#f6f1e7"
}
