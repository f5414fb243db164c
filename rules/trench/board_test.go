package trench

import (
	"errors"
	"testing"

	"github.com/trench-games/trench/rules"
)

func TestSquares(t *testing.T) {
	names := "abcdefgh"
	for r := 0; r < 8; r++ {
		for f := 0; f < 8; f++ {
			s := NewSquare(f, r)
			want := string(names[f]) + string(rune('1'+r))
			if s.String() != want || int(s) != r*8+f || s.File() != f || s.Rank() != r || !s.Valid() {
				t.Errorf("NewSquare(%d,%d) = %d %q, want %d %q", f, r, s, s, r*8+f, want)
			}
			p, err := ParseSquare(want)
			if err != nil || p != s {
				t.Errorf("ParseSquare(%q) = %v, %v", want, p, err)
			}
		}
	}
	if A1 != 0 || H1 != 7 || A8 != 56 || H8 != 63 || D4 != NewSquare(3, 3) || E5.String() != "e5" {
		t.Errorf("named squares wrong: a1=%d h1=%d a8=%d h8=%d", A1, H1, A8, H8)
	}
	for _, c := range [][2]int{{-1, 0}, {0, -1}, {8, 0}, {0, 8}} {
		if s := NewSquare(c[0], c[1]); s != NoSquare {
			t.Errorf("NewSquare(%d,%d) = %d, want NoSquare", c[0], c[1], s)
		}
	}
	if NoSquare.String() != "-" || Square(64).String() != "-" || NoSquare.Valid() || Square(64).Valid() {
		t.Error("invalid squares must print as - and be invalid")
	}
	for _, bad := range []string{"", "a", "a0", "a9", "i1", "A1", "d44", " d4", "d4 ", "4d"} {
		s, err := ParseSquare(bad)
		if err == nil || !errors.Is(err, rules.ErrNotation) || s != NoSquare {
			t.Errorf("ParseSquare(%q) = %v, %v; want NoSquare and ErrNotation", bad, s, err)
		}
	}
}

func TestTrenchAndTerritories(t *testing.T) {
	trench := map[string]bool{"a8": true, "b7": true, "c6": true, "d5": true, "e4": true, "f3": true, "g2": true, "h1": true}
	var counts = map[rules.Side]int{}
	for s := Square(0); s < 64; s++ {
		if InTrench(s) != trench[s.String()] {
			t.Errorf("InTrench(%s) = %v", s, InTrench(s))
		}
		ter := Territory(s)
		counts[ter]++
		fr := s.File() + 1 + s.Rank() + 1
		want := rules.NoSide
		if fr < 9 {
			want = Black
		} else if fr > 9 {
			want = White
		}
		if ter != want {
			t.Errorf("Territory(%s) = %v, want %v", s, ter, want)
		}
	}
	if counts[Black] != 28 || counts[White] != 28 || counts[rules.NoSide] != 8 {
		t.Errorf("territory sizes %v, want 28/28/8", counts)
	}
	for _, c := range []struct {
		s    Square
		want rules.Side
	}{{A1, Black}, {H8, White}, {D4, Black}, {E5, White}, {D5, rules.NoSide}, {G1, Black}, {H2, White}, {A7, Black}, {B8, White}} {
		if got := Territory(c.s); got != c.want {
			t.Errorf("Territory(%s) = %v, want %v", c.s, got, c.want)
		}
	}
	if InTrench(NoSquare) || Territory(NoSquare) != rules.NoSide {
		t.Error("NoSquare is in no zone")
	}
}

func TestKinds(t *testing.T) {
	want := []struct {
		k      Kind
		stars  int
		count  int
		letter byte
		name   string
	}{
		{Soldier, 1, 6, 'S', "Soldier"},
		{Sergeant, 2, 4, 'R', "Sergeant"},
		{Captain, 3, 3, 'A', "Captain"},
		{Colonel, 4, 2, 'C', "Colonel"},
		{General, 5, 1, 'G', "General"},
	}
	units, stars := 0, 0
	for i, w := range want {
		if Kinds[i] != w.k || w.k.Stars() != w.stars || w.k.Count() != w.count || w.k.Letter() != w.letter || w.k.String() != w.name {
			t.Errorf("kind %d: got stars %d count %d letter %q name %q", w.k, w.k.Stars(), w.k.Count(), w.k.Letter(), w.k.String())
		}
		if KindFromLetter(w.letter) != w.k || KindFromLetter(w.letter|0x20) != w.k {
			t.Errorf("KindFromLetter(%q) = %v", w.letter, KindFromLetter(w.letter))
		}
		units += w.count
		stars += w.count * w.stars
	}
	if units != ArmySize || stars != ArmyStars || ArmyStars != 36 || ArmySize != 16 {
		t.Errorf("army: %d units, %d stars", units, stars)
	}
	for _, k := range []Kind{NoKind, 6, 7, 255} {
		if k.Stars() != 0 || k.Count() != 0 || k.Letter() != 0 || k.String() != "" {
			t.Errorf("invalid kind %d: %d %d %q %q", k, k.Stars(), k.Count(), k.Letter(), k.String())
		}
	}
	for _, b := range []byte{'K', 'x', '1', ' ', 0, 'B', 'N'} {
		if KindFromLetter(b) != NoKind {
			t.Errorf("KindFromLetter(%q) = %v", b, KindFromLetter(b))
		}
	}
}

func TestUnits(t *testing.T) {
	for _, k := range Kinds {
		b, w := NewUnit(k, Black), NewUnit(k, White)
		if b.Kind() != k || w.Kind() != k || b.Side() != Black || w.Side() != White || b.Stars() != k.Stars() || w.Stars() != k.Stars() {
			t.Errorf("NewUnit(%v): %v %v %v %v", k, b.Kind(), w.Kind(), b.Side(), w.Side())
		}
		if b.String() != string(k.Letter()|0x20) || w.String() != string(k.Letter()) || b.Letter() != k.Letter()|0x20 {
			t.Errorf("letters of %v: %q %q", k, b, w)
		}
		if b == w || b == NoUnit || w == NoUnit {
			t.Errorf("units of %v not distinct", k)
		}
	}
	if NoUnit.Kind() != NoKind || NoUnit.Side() != rules.NoSide || NoUnit.String() != "" || NoUnit.Letter() != 0 || NoUnit.Stars() != 0 {
		t.Error("NoUnit is not empty")
	}
	if NewUnit(NoKind, Black) != NoUnit || NewUnit(Soldier, rules.NoSide) != NoUnit || NewUnit(6, White) != NoUnit {
		t.Error("invalid NewUnit must give NoUnit")
	}
	if Black != rules.Side0 || White != rules.Side1 {
		t.Error("Black must be Side0, White Side1")
	}
}
