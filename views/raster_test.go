package views

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
)

// TestPositionPNG: the PNG picture of each board's start is a square
// picture in which a square holding a Black unit is dark at its centre,
// one holding a White unit light, and an empty square has the board's
// colour; the card table has none.
func TestPositionPNG(t *testing.T) {
	decode := func(view any) image.Image {
		t.Helper()
		b, ok, err := PositionPNG(view)
		if err != nil || !ok {
			t.Fatalf("%T: %v %v", view, ok, err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if r := img.Bounds(); r.Dx() != PositionPNGSize || r.Dy() != PositionPNGSize {
			t.Fatalf("%T: %v", view, r)
		}
		return img
	}
	// centre is the colour at the middle of square (file, rank) of an n×n
	// board drawn with rank 0 at the bottom.
	centre := func(img image.Image, n, file, rank int) color.RGBA {
		cell := PositionPNGSize / n
		r, g, b, _ := img.At(file*cell+cell/2, (n-1-rank)*cell+cell/2-cell/4).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
	}
	light := func(c color.RGBA) bool { return int(c.R)+int(c.G)+int(c.B) > 3*200 }
	dark := func(c color.RGBA) bool { return int(c.R)+int(c.G)+int(c.B) < 3*70 }

	tr, err := trench.Engine{}.Start(rules.GameSpec{Variant: "single"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	tv := tr.View(rules.NoSide).(trench.BoardView)
	img := decode(tv)
	for i := range 64 {
		file, rank := i%8, i/8
		sq := trench.NewSquare(file, rank)
		got := centre(img, 8, file, rank)
		u, ok := tv.Position.At(sq)
		switch {
		case !ok:
			if got != hexColour(trenchFill(file, rank)) {
				t.Errorf("TRENCH %d,%d empty: %v", file, rank, got)
			}
		case u.Side() == rules.Side0 && !dark(got), u.Side() == rules.Side1 && !light(got):
			t.Errorf("TRENCH %d,%d %s: %v", file, rank, u, got)
		}
	}

	ts, err := trenches.Engine{}.Start(rules.GameSpec{Variant: "standard"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	sv := ts.View(rules.NoSide).(trenches.BoardView)
	img = decode(sv)
	pieces := 0
	for file := range 10 {
		for rank := range 10 {
			p := sv.Position.At(trenches.NewSquare(file, rank))
			got := centre(img, 10, file, rank)
			switch p.Side() {
			case rules.Side0:
				pieces++
				if !light(got) {
					t.Errorf("Trenches %d,%d Light: %v", file, rank, got)
				}
			case rules.Side1:
				pieces++
				if !dark(got) {
					t.Errorf("Trenches %d,%d Dark: %v", file, rank, got)
				}
			}
		}
	}
	if pieces == 0 {
		t.Fatal("no Trenches piece at the start")
	}
	if _, ok, _ := PositionPNG(cards.View{}); ok {
		t.Fatal("a picture of the card table")
	}
}
