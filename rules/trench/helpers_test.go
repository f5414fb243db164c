package trench

import (
	"strings"
	"testing"
)

// setup builds a position from a side to move ("b" or "w") and units
// written <letter><square>, lowercase for Black and uppercase for White:
// "sd4" is a Black Soldier on d4, "Ge5" a White General on e5. The text is
// written here, independently of Position.String, and parsed.
func setup(t testing.TB, side string, units ...string) Position {
	t.Helper()
	return mustParse(t, setupFEN(t, side, 0, 0, 0, units...))
}

func setupFEN(t testing.TB, side string, quiet, bs, ws int, units ...string) string {
	t.Helper()
	var cell [8][8]byte // [rank][file]
	for _, u := range units {
		if len(u) != 3 {
			t.Fatalf("setup: bad unit %q", u)
		}
		f, r := int(u[1]-'a'), int(u[2]-'1')
		if f < 0 || f > 7 || r < 0 || r > 7 || cell[r][f] != 0 {
			t.Fatalf("setup: bad or duplicate square in %q", u)
		}
		cell[r][f] = u[0]
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			if cell[r][f] == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(cell[r][f])
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" " + side + " " + itoa(quiet) + " " + itoa(bs) + " " + itoa(ws))
	return b.String()
}

func mustParse(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParsePosition(fen)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", fen, err)
	}
	return p
}

func sq(t testing.TB, s string) Square {
	t.Helper()
	q, err := ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// moveLabel writes a move with its captured squares, e.g. "e4xg6(f5,g6)".
func moveLabel(m Move) string {
	s := m.String()
	if len(m.Captures) > 0 {
		var names []string
		for _, c := range m.Captures {
			names = append(names, c.String())
		}
		s += "(" + strings.Join(names, ",") + ")"
	}
	return s
}
