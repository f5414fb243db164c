package trench

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

func TestStartPosition(t *testing.T) {
	if StartFEN != "4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0" {
		t.Fatalf("StartFEN = %q", StartFEN)
	}
	// The setup as the specification lists it, square by square.
	black := map[string]Kind{
		"a1": General, "a2": Colonel, "b1": Colonel, "a3": Captain, "b2": Captain, "c1": Captain,
		"a4": Sergeant, "b3": Sergeant, "c2": Sergeant, "d1": Sergeant,
		"b4": Soldier, "c3": Soldier, "d2": Soldier, "c4": Soldier, "d3": Soldier, "d4": Soldier,
	}
	white := map[string]Kind{
		"h8": General, "h7": Colonel, "g8": Colonel, "h6": Captain, "g7": Captain, "f8": Captain,
		"h5": Sergeant, "g6": Sergeant, "f7": Sergeant, "e8": Sergeant,
		"g5": Soldier, "f6": Soldier, "e7": Soldier, "f5": Soldier, "e6": Soldier, "e5": Soldier,
	}
	p := Start()
	for s := Square(0); s < 64; s++ {
		u, ok := p.At(s)
		var want Unit
		if k, in := black[s.String()]; in {
			want = NewUnit(k, Black)
		}
		if k, in := white[s.String()]; in {
			want = NewUnit(k, White)
		}
		if u != want || ok != (want != NoUnit) {
			t.Errorf("start %s: %q %v, want %q", s, u, ok, want)
		}
		// White is Black rotated 180°.
		if r, _ := p.At(63 - s); want != NoUnit && (r.Kind() != want.Kind() || r.Side() == want.Side()) {
			t.Errorf("start is not symmetric at %s", s)
		}
	}
	if p.ToMove() != Black || p.Quiet() != 0 || p.Stars(Black) != 0 || p.Stars(White) != 0 {
		t.Errorf("start counters: %v %d %d %d", p.ToMove(), p.Quiet(), p.Stars(Black), p.Stars(White))
	}
	if p.Units(Black) != 16 || p.Units(White) != 16 || p.StarsOnBoard(Black) != 36 || p.StarsOnBoard(White) != 36 {
		t.Errorf("start armies: %d %d units, %d %d stars", p.Units(Black), p.Units(White), p.StarsOnBoard(Black), p.StarsOnBoard(White))
	}
	if p.Missing(Black) != [5]int{} || p.Missing(White) != [5]int{} {
		t.Errorf("start Missing = %v %v", p.Missing(Black), p.Missing(White))
	}
	if p.String() != StartFEN || mustParse(t, StartFEN) != p {
		t.Errorf("start String = %q", p.String())
	}
	if _, ok := p.At(NoSquare); ok {
		t.Error("At(NoSquare) reported a unit")
	}
	if p.Stars(rules.NoSide) != 0 {
		t.Error("Stars(NoSide) != 0")
	}
}

func TestZeroPosition(t *testing.T) {
	var p Position
	if p.String() != "8/8/8/8/8/8/8/8 b 0 0 0" || p.ToMove() != Black {
		t.Errorf("zero Position = %q", p.String())
	}
	if p.LegalMoves() != nil || p.HasLegalMove() || Perft(p, 3) != 0 {
		t.Error("empty board has moves")
	}
}

var positionRoundTrips = []string{
	StartFEN,
	"8/8/8/8/8/8/8/8 b 0 0 0",
	"8/8/8/8/8/8/8/8 w 49 36 36",
	"G7/8/8/8/8/8/8/7g w 12 31 31",
	"4RACG/4SRAC/4SSRA/3sSSSR/rss5/arss4/cars4/gcar4 w 1 0 0",
	"1s1S1r1R/a1A1c1C1/g1G5/8/8/8/8/7s b 123456789 0 0",
	"SSSSSSRR/RRAAACCG/8/8/8/8/ssssssrr/rraaaccg b 50 0 0",
	"8/8/8/3c4/8/8/8/8 w 3 35 0",
}

func TestPositionRoundTrip(t *testing.T) {
	for _, fen := range positionRoundTrips {
		p, err := ParsePosition(fen)
		if err != nil {
			t.Errorf("ParsePosition(%q): %v", fen, err)
			continue
		}
		if got := p.String(); got != fen {
			t.Errorf("ParsePosition(%q).String() = %q", fen, got)
		}
	}
	// Fields read back exactly.
	p := mustParse(t, "G7/8/8/8/8/8/8/7g w 12 31 30")
	if p.ToMove() != White || p.Quiet() != 12 || p.Stars(Black) != 31 || p.Stars(White) != 30 {
		t.Errorf("fields: %v %d %d %d", p.ToMove(), p.Quiet(), p.Stars(Black), p.Stars(White))
	}
	if u, _ := p.At(A8); u != NewUnit(General, White) {
		t.Errorf("a8 = %q", u)
	}
	if u, _ := p.At(H1); u != NewUnit(General, Black) {
		t.Errorf("h1 = %q", u)
	}
}

var badPositions = []struct {
	fen, frag string
}{
	{"", "want 5 fields separated by single spaces, got 1"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0", "got 4"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0 0", "got 6"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4  b 0 0 0", "got 6"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0 ", "got 6"},
	{" 4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0", "got 6"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4\tb 0 0 0", "got 4"},
	{" b 0 0 0", "field 1 is empty"},
	{"8/8/8/8/8/8/8/8 b 0 0 ", "field 5 is empty"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4 b 0 0 0", "want 8 ranks separated by '/', got 7"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4/8 b 0 0 0", "got 9"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4/ b 0 0 0", "got 9"},
	{"5RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0", `rank 8 "5RACG": more than 8 squares`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar5 b 0 0 0", `rank 1 "gcar5": more than 8 squares`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4s b 0 0 0", `rank 1 "gcar4s": more than 8 squares`},
	{"3RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0", `rank 8 "3RACG": 7 squares, want 8`},
	{"4RACG/4SRAC/4SSRA/4SSSR//arss4/cars4/gcar4 b 0 0 0", `rank 4 "": 0 squares, want 8`},
	{"4RAXG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0", `rank 8 "4RAXG": unexpected character 'X'`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcak4 b 0 0 0", `unexpected character 'k'`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0"[:8] + "9" + "4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0"[9:], "unexpected character"},
	{"8/8/8/8/8/8/8/08 b 0 0 0", `rank 1 "08": unexpected character '0'`},
	{"8/8/8/8/8/8/8/9 b 0 0 0", `unexpected character '9'`},
	{"8/8/8/8/8/8/8/44 b 0 0 0", `rank 1 "44": two digits next to each other`},
	{"8/8/8/8/8/8/8/é7 b 0 0 0", "unexpected character"},
	{"8/8/8/8/8/8/ssssss2/s7 b 0 0 0", "Black has 7 units of kind Soldier; an army has 6"},
	{"8/8/8/8/8/8/8/rrrrr3 b 0 0 0", "Black has 5 units of kind Sergeant; an army has 4"},
	{"AAAA4/8/8/8/8/8/8/8 b 0 0 0", "White has 4 units of kind Captain; an army has 3"},
	{"CCC5/8/8/8/8/8/8/8 b 0 0 0", "White has 3 units of kind Colonel; an army has 2"},
	{"8/8/8/8/8/8/8/gg6 b 0 0 0", "Black has 2 units of kind General; an army has 1"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 x 0 0 0", `side to move "x": want b or w`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 B 0 0 0", `side to move "B"`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 bw 0 0 0", `side to move "bw"`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b -1 0 0", `quiet counter "-1": want a whole number 0 or more`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b +1 0 0", `quiet counter "+1"`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 1.5 0 0", `quiet counter "1.5"`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b abc 0 0", `quiet counter "abc"`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 01 0 0", `quiet counter "01": leading zero`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 1234567890 0 0", `quiet counter "1234567890": more than 9 digits`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 x 0", `black stars "x"`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 -3", `white stars "-3"`},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 1 0", "black stars 1: more than the 0 stars of White units off the board"},
	{"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 2", "white stars 2: more than the 0 stars of Black units off the board"},
	{"8/8/8/8/8/8/8/8 b 0 37 0", "black stars 37: more than the 36 stars"},
	{"8/8/8/8/8/8/8/g7 b 0 0 32", "white stars 32: more than the 31 stars of Black units off the board"},
}

func TestParsePositionErrors(t *testing.T) {
	for _, tc := range badPositions {
		p, err := ParsePosition(tc.fen)
		if err == nil {
			t.Errorf("ParsePosition(%q) = %q, want an error", tc.fen, p)
			continue
		}
		if !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParsePosition(%q) error %q does not wrap ErrNotation", tc.fen, err)
		}
		if !strings.Contains(err.Error(), tc.frag) {
			t.Errorf("ParsePosition(%q) error\n  %q\nlacks %q", tc.fen, err, tc.frag)
		}
		if p != (Position{}) {
			t.Errorf("ParsePosition(%q) returned a non-zero position with its error", tc.fen)
		}
	}
}

func TestMoveNotation(t *testing.T) {
	good := []struct {
		s        string
		from, to Square
		capture  bool
	}{
		{"d4-d5", D4, D5, false},
		{"e4xg6", E4, G6, true},
		{"a1-h8", A1, H8, false},
		{"h8xa1", H8, A1, true},
	}
	for _, g := range good {
		mt, err := ParseMove(g.s)
		if err != nil || mt != (MoveText{g.from, g.to, g.capture}) {
			t.Errorf("ParseMove(%q) = %+v, %v", g.s, mt, err)
		}
		if mt.String() != g.s {
			t.Errorf("ParseMove(%q).String() = %q", g.s, mt.String())
		}
		var caps []Square
		if g.capture {
			caps = []Square{g.to}
		}
		m := Move{From: g.from, To: g.to, Captures: caps}
		if m.String() != g.s || m.Text() != mt || m.IsCapture() != g.capture {
			t.Errorf("Move %+v String = %q", m, m.String())
		}
	}
	// Every square pair round trips.
	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			if a == b {
				continue
			}
			for _, c := range []bool{false, true} {
				mt := MoveText{a, b, c}
				back, err := ParseMove(mt.String())
				if err != nil || back != mt {
					t.Fatalf("round trip %+v → %q → %+v, %v", mt, mt.String(), back, err)
				}
			}
		}
	}
	if s := (MoveText{NoSquare, D4, true}).String(); s != "-x-" {
		t.Errorf("invalid MoveText String = %q", s)
	}
	bad := []struct{ s, frag string }{
		{"", "want <from>-<to> or <from>x<to>"},
		{"d4d5", "want <from>-<to>"},
		{"d4-d", "want <from>-<to>"},
		{"d4-d55", "want <from>-<to>"},
		{" d4-d5", "want <from>-<to>"},
		{"d4–d5", "want <from>-<to>"}, // en dash
		{"d4+d5", "separator '+'"},
		{"d4Xd5", "separator 'X'"},
		{"d4 d5", "separator ' '"},
		{"D4-D5", `bad from-square "D4"`},
		{"i4-d5", `bad from-square "i4"`},
		{"d9-d5", `bad from-square "d9"`},
		{"d0-d5", `bad from-square "d0"`},
		{"d4-d9", `bad to-square "d9"`},
		{"d4-z5", `bad to-square "z5"`},
		{"d4-d4", "from and to are the same square"},
		{"e4xe4", "same square"},
	}
	for _, b := range bad {
		_, err := ParseMove(b.s)
		if err == nil || !errors.Is(err, rules.ErrNotation) || !strings.Contains(err.Error(), b.frag) {
			t.Errorf("ParseMove(%q) error %v, want ErrNotation with %q", b.s, err, b.frag)
		}
		// The same through a position: still a notation error.
		if _, err := Start().ParseMove(b.s); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("Start().ParseMove(%q) error %v, want ErrNotation", b.s, err)
		}
	}
}

func TestParseMoveResolvesCaptures(t *testing.T) {
	p := setup(t, "b", "re4", "Sf5", "Sg6")
	m, err := p.ParseMove("e4xg6")
	if err != nil {
		t.Fatal(err)
	}
	if m.From != E4 || m.To != G6 || len(m.Captures) != 2 || m.Captures[0] != F5 || m.Captures[1] != G6 {
		t.Errorf("ParseMove(e4xg6) = %+v, want captures [f5 g6]", m)
	}
	m, err = p.ParseMove("e4-e6")
	if err != nil || m.Captures != nil || m.IsCapture() {
		t.Errorf("ParseMove(e4-e6) = %+v, %v", m, err)
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range positionRoundTrips {
		f.Add(s)
	}
	for _, b := range badPositions {
		f.Add(b.fen)
	}
	f.Add("8/8/8/8/8/8/8/8 w 0 0 0")
	f.Add("rsss4/8/8/8/8/8/8/4RACG b 7 0 0")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			if !errors.Is(err, rules.ErrNotation) {
				t.Fatalf("ParsePosition(%q) error %v does not wrap ErrNotation", s, err)
			}
			return
		}
		out := p.String()
		if out != s {
			t.Fatalf("ParsePosition(%q).String() = %q (the notation is canonical)", s, out)
		}
		q, err := ParsePosition(out)
		if err != nil || q != p {
			t.Fatalf("round trip of %q failed: %v", out, err)
		}
		// A parsed position is safe to play on.
		for _, m := range p.LegalMoves() {
			n, err := p.Apply(m)
			if err != nil {
				t.Fatalf("%s: Apply(%v): %v", s, m, err)
			}
			if back, err := ParsePosition(n.String()); err != nil || back != n {
				t.Fatalf("%s after %v: %q does not round trip: %v", s, m, n, err)
			}
		}
	})
}

func TestJSON(t *testing.T) {
	p := setup(t, "b", "re4", "Sf5", "Sg6")
	m, _ := p.ParseMove("e4xg6")
	v := struct {
		Position Position
		Move     Move
		None     Square
	}{p, m, NoSquare}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Position":"8/8/6S1/5S2/4r3/8/8/8 b 0 0 0","Move":{"From":"e4","To":"g6","Captures":["f5","g6"]},"None":"-"}`
	if string(b) != want {
		t.Errorf("json = %s\nwant %s", b, want)
	}
	var back struct {
		Position Position
		Move     Move
		None     Square
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Position != p || back.Move.String() != "e4xg6" || len(back.Move.Captures) != 2 || back.None != NoSquare {
		t.Errorf("json round trip = %+v", back)
	}
	if err := json.Unmarshal([]byte(`{"Position":"8/8 b 0 0 0"}`), &back); !errors.Is(err, rules.ErrNotation) {
		t.Errorf("bad position in JSON: %v", err)
	}
	var s Square
	if err := s.UnmarshalText([]byte("i9")); !errors.Is(err, rules.ErrNotation) {
		t.Errorf("bad square: %v", err)
	}
	if b := Start().Board(); b[A1] != NewUnit(General, Black) || b[H8] != NewUnit(General, White) || b[E4] != NoUnit {
		t.Error("Board() does not match the start")
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"d4-d5", "e4xg6", "a1-h8", "d4d5", "", "D4-D5", "d4-d4", "h8xa1", "é4-d5"} {
		f.Add(s)
	}
	positions := []Position{Start(), mustParse(f, "8/8/6S1/5S2/4r3/8/8/8 b 3 1 2"), mustParse(f, "5AC1/4SRAC/4SSRA/4SSSR/rss5/arss4/cars4/gc1r4 w 44 7 4")}
	f.Fuzz(func(t *testing.T, s string) {
		mt, err := ParseMove(s)
		if err == nil && mt.String() != s {
			t.Fatalf("ParseMove(%q).String() = %q", s, mt.String())
		}
		if err != nil && !errors.Is(err, rules.ErrNotation) {
			t.Fatalf("ParseMove(%q): %v", s, err)
		}
		for _, p := range positions {
			m, perr := p.ParseMove(s)
			switch {
			case err != nil:
				if !errors.Is(perr, rules.ErrNotation) {
					t.Fatalf("%s: ParseMove(%q) = %v, want ErrNotation", p, s, perr)
				}
			case perr != nil:
				if !errors.Is(perr, rules.ErrIllegal) || errors.Is(perr, rules.ErrNotation) {
					t.Fatalf("%s: ParseMove(%q) = %v, want ErrIllegal", p, s, perr)
				}
			default:
				if m.String() != s {
					t.Fatalf("%s: ParseMove(%q) = %v", p, s, m)
				}
				if _, err := p.Apply(m); err != nil {
					t.Fatalf("%s: Apply(%v): %v", p, m, err)
				}
			}
		}
	})
}
