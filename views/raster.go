package views

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strconv"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
)

// PositionPNGSize is the width and height of PositionPNG's pictures, in
// pixels.
const PositionPNGSize = 320

// PositionPNG draws a TRENCH or Trenches position as a PNG picture of
// PositionPNGSize pixels square, for where an SVG image is not drawn (a
// push notification's image): the square view, Black (TRENCH) or Light
// (Trenches) at the bottom, the squares coloured as in PositionImage,
// a unit a disc of its side's colour with one dot a star, a Tank a
// square, a Soldier a disc, Debris a hatched square. False for any other
// view (the card table has no picture but its SVG image).
func PositionPNG(view any) ([]byte, bool, error) {
	const ss = 2 // drawn at twice the size, then averaged: smooth edges
	var n int
	var draw func(c *canvas, x, y, file, rank int)
	switch v := view.(type) {
	case trench.BoardView:
		n = 8
		draw = func(c *canvas, x, y, file, rank int) {
			c.square(x, y, hexColour(trenchFill(file, rank)))
			if u, ok := v.Position.At(trench.NewSquare(file, rank)); ok {
				c.unit(x, y, u.Side() == rules.Side0, false, u.Stars()) // Side0 is Black
			}
		}
	case trenches.BoardView:
		n = 10
		draw = func(c *canvas, x, y, file, rank int) {
			p := v.Position.At(trenches.NewSquare(file, rank))
			if p == trenches.Debris {
				c.debris(x, y)
				return
			}
			c.square(x, y, hexColour(trenchesFill(v, file, rank)))
			if p.Type() != trenches.NoPieceType {
				c.unit(x, y, p.Side() == rules.Side1, p.Type() == trenches.Tank, 0) // Side1 is Dark
			}
		}
	default:
		return nil, false, nil
	}
	c := &canvas{img: image.NewRGBA(image.Rect(0, 0, PositionPNGSize*ss, PositionPNGSize*ss)), cell: PositionPNGSize * ss / n}
	for _, sq := range imageSquares(n) {
		draw(c, sq.X, sq.Y, sq.File, sq.Rank)
	}
	out := image.NewRGBA(image.Rect(0, 0, PositionPNGSize, PositionPNGSize))
	for y := range PositionPNGSize {
		for x := range PositionPNGSize {
			var r, g, b int
			for dy := range ss {
				for dx := range ss {
					p := c.img.RGBAAt(x*ss+dx, y*ss+dy)
					r, g, b = r+int(p.R), g+int(p.G), b+int(p.B)
				}
			}
			k := ss * ss
			out.SetRGBA(x, y, color.RGBA{uint8(r / k), uint8(g / k), uint8(b / k), 255})
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out); err != nil {
		return nil, false, err
	}
	return buf.Bytes(), true, nil
}

// HasPNG reports whether the positions of the game of key ("trench")
// have a PositionPNG picture: TRENCH and Trenches, not the card game.
func HasPNG(key string) bool {
	return key == (trench.Engine{}).Key() || key == (trenches.Engine{}).Key()
}

// canvas is a picture being drawn, cell pixels a square.
type canvas struct {
	img  *image.RGBA
	cell int
}

// fill paints the pixels of square (x, y) for which in(dx, dy) holds,
// dx and dy the pixel's offset from the square's centre.
func (c *canvas) fill(x, y int, col color.RGBA, in func(dx, dy float64) bool) {
	half := float64(c.cell) / 2
	for py := range c.cell {
		for px := range c.cell {
			if in(float64(px)+0.5-half, float64(py)+0.5-half) {
				c.img.SetRGBA(x*c.cell+px, y*c.cell+py, col)
			}
		}
	}
}

func (c *canvas) square(x, y int, col color.RGBA) {
	c.fill(x, y, col, func(float64, float64) bool { return true })
}

// debris hatches square (x, y) as PositionImage's pattern does.
func (c *canvas) debris(x, y int) {
	stripe := float64(c.cell) / 5
	c.fill(x, y, hexColour("#6a5a43"), func(float64, float64) bool { return true })
	c.fill(x, y, hexColour("#5a4a35"), func(dx, dy float64) bool {
		d := dx + dy + 4*stripe
		return int(d/stripe)%2 == 0
	})
}

// unit draws a unit on square (x, y): dark or light, a square (a Tank)
// or a disc, with a ring of the other colour and stars dots.
func (c *canvas) unit(x, y int, dark, tank bool, stars int) {
	fill, ink := hexColour("#f4efe6"), hexColour("#2b2418")
	if dark {
		fill, ink = ink, fill
	}
	r := float64(c.cell) * 0.4
	inside := func(dx, dy float64, r float64) bool {
		if tank {
			return max(abs(dx), abs(dy)) <= r*0.85
		}
		return dx*dx+dy*dy <= r*r
	}
	c.fill(x, y, ink, func(dx, dy float64) bool { return inside(dx, dy, r) })
	c.fill(x, y, fill, func(dx, dy float64) bool { return inside(dx, dy, r*0.82) })
	if stars == 0 {
		return
	}
	// The stars: dots in a row (two rows past three).
	dot := r * 0.14
	gap := dot * 2.6
	row := func(count int) []float64 {
		xs := make([]float64, count)
		for i := range xs {
			xs[i] = (float64(i) - float64(count-1)/2) * gap
		}
		return xs
	}
	type spot struct{ x, y float64 }
	var spots []spot
	if stars <= 3 {
		for _, sx := range row(stars) {
			spots = append(spots, spot{sx, 0})
		}
	} else {
		for _, sx := range row(3) {
			spots = append(spots, spot{sx, -gap / 2})
		}
		for _, sx := range row(stars - 3) {
			spots = append(spots, spot{sx, gap / 2})
		}
	}
	c.fill(x, y, ink, func(dx, dy float64) bool {
		for _, s := range spots {
			if (dx-s.x)*(dx-s.x)+(dy-s.y)*(dy-s.y) <= dot*dot {
				return true
			}
		}
		return false
	})
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// hexColour reads "#rrggbb"; black for anything else.
func hexColour(s string) color.RGBA {
	if len(s) != 7 || s[0] != '#' {
		return color.RGBA{A: 255}
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return color.RGBA{A: 255}
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
}
