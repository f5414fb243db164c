package trenches

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

func TestSquares(t *testing.T) {
	tests := []struct {
		sq         Square
		name       string
		file, rank int
	}{
		{A1, "a1", 0, 0}, {J1, "j1", 9, 0}, {A2, "a2", 0, 1}, {E5, "e5", 4, 4},
		{B4, "b4", 1, 3}, {A10, "a10", 0, 9}, {J10, "j10", 9, 9}, {D9, "d9", 3, 8},
	}
	for _, tc := range tests {
		if tc.sq.String() != tc.name || tc.sq.File() != tc.file || tc.sq.Rank() != tc.rank {
			t.Errorf("%d: %s %d %d, want %s %d %d", tc.sq, tc.sq, tc.sq.File(), tc.sq.Rank(), tc.name, tc.file, tc.rank)
		}
		if got := NewSquare(tc.file, tc.rank); got != tc.sq {
			t.Errorf("NewSquare(%d, %d) = %v", tc.file, tc.rank, got)
		}
	}
	for sq := range Square(NumSquares) {
		got, err := ParseSquare(sq.String())
		if err != nil || got != sq || !sq.Valid() {
			t.Errorf("ParseSquare(%q) = %v, %v", sq.String(), got, err)
		}
		b, err := sq.MarshalText()
		var back Square
		if err != nil || back.UnmarshalText(b) != nil || back != sq {
			t.Errorf("text round trip of %v: %s %v %v", sq, b, err, back)
		}
	}
	if NoSquare.Valid() || NoSquare.String() != "-" || Square(100).Valid() {
		t.Errorf("NoSquare")
	}
	for _, c := range [][2]int{{-1, 0}, {0, -1}, {10, 0}, {0, 10}} {
		if got := NewSquare(c[0], c[1]); got != NoSquare {
			t.Errorf("NewSquare(%d, %d) = %v", c[0], c[1], got)
		}
	}
	if _, err := NoSquare.MarshalText(); err == nil {
		t.Errorf("NoSquare.MarshalText succeeded")
	}
	for _, bad := range []string{"", "a", "1", "a0", "a11", "a01", "a100", "k1", "A1", "a-1", " a1", "a1 ", "aa", "a1a", "j11", "10a"} {
		if sq, err := ParseSquare(bad); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParseSquare(%q) = %v, %v; want ErrNotation", bad, sq, err)
		}
	}
}

func TestSquareSet(t *testing.T) {
	s := SquareSetOf(J10, A1, E5, NoSquare, H7, A1)
	if s.Len() != 4 || !s.Has(J10) || !s.Has(A1) || s.Has(B1) || s.Has(NoSquare) {
		t.Errorf("SquareSetOf: %v", s)
	}
	if got := s.String(); got != "{a1 e5 h7 j10}" {
		t.Errorf("String = %s", got)
	}
	if got := s.Without(E5).Without(J10); got != SquareSetOf(A1, H7) {
		t.Errorf("Without = %v", got)
	}
	u := SquareSetOf(A1, B2)
	if s.Union(u).Len() != 5 || s.Intersect(u) != SquareSetOf(A1) || s.Minus(u).Has(A1) {
		t.Errorf("set algebra")
	}
	if !(SquareSet{}).IsEmpty() || s.IsEmpty() || (SquareSet{}).Squares() != nil {
		t.Errorf("IsEmpty")
	}
	if allSquares.Len() != NumSquares || allSquares.Squares()[99] != J10 {
		t.Errorf("allSquares: %d", allSquares.Len())
	}
	b, err := json.Marshal(s)
	if err != nil || string(b) != `["a1","e5","h7","j10"]` {
		t.Errorf("MarshalJSON = %s, %v", b, err)
	}
	if b, _ := json.Marshal(SquareSet{}); string(b) != "[]" {
		t.Errorf("empty MarshalJSON = %s", b)
	}
	n := 0
	for range s.All() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("All does not stop")
	}
}

func TestPieces(t *testing.T) {
	tests := []struct {
		p      Piece
		side   rules.Side
		typ    PieceType
		letter string
	}{
		{Empty, rules.NoSide, NoPieceType, "."},
		{Debris, rules.NoSide, NoPieceType, "x"},
		{LightTank, rules.Side0, Tank, "T"},
		{LightSoldier, rules.Side0, Soldier, "S"},
		{DarkTank, rules.Side1, Tank, "t"},
		{DarkSoldier, rules.Side1, Soldier, "s"},
	}
	for _, tc := range tests {
		if tc.p.Side() != tc.side || tc.p.Type() != tc.typ || tc.p.String() != tc.letter {
			t.Errorf("%v: %v %v %q", tc.p, tc.p.Side(), tc.p.Type(), tc.p.String())
		}
		if tc.side.Valid() && NewPiece(tc.side, tc.typ) != tc.p {
			t.Errorf("NewPiece(%v, %v) = %v", tc.side, tc.typ, NewPiece(tc.side, tc.typ))
		}
	}
	if NewPiece(rules.NoSide, Tank) != Empty || NewPiece(rules.Side0, NoPieceType) != Empty {
		t.Errorf("NewPiece of invalid input")
	}
	if Tank.String() != "Tank" || Soldier.String() != "Soldier" || NoPieceType.String() != "" {
		t.Errorf("PieceType.String")
	}
}

func TestStartPosition(t *testing.T) {
	p := Start()
	if p.String() != StartFEN || p.Turn() != rules.Side0 {
		t.Fatalf("Start = %v", p)
	}
	want := map[Square]Piece{
		A4: LightTank, D1: LightTank, G1: LightTank, J4: LightTank,
		B4: LightSoldier, D2: LightSoldier, G2: LightSoldier, I4: LightSoldier,
		A7: DarkTank, D10: DarkTank, G10: DarkTank, J7: DarkTank,
		B7: DarkSoldier, D9: DarkSoldier, G9: DarkSoldier, I7: DarkSoldier,
	}
	for sq := range Square(NumSquares) {
		if got := p.At(sq); got != want[sq] {
			t.Errorf("At(%v) = %v, want %v", sq, got, want[sq])
		}
	}
	if p.At(NoSquare) != Empty || !p.Debris().IsEmpty() || p.Occupied().Len() != 16 || p.Tanks().Len() != 8 {
		t.Errorf("start sets")
	}
	if p.Pieces(rules.Side1, Soldier) != SquareSetOf(B7, D9, G9, I7) || !p.Pieces(rules.NoSide, Tank).IsEmpty() {
		t.Errorf("Pieces")
	}
	var zero Position
	if zero.String() != "10/10/10/10/10/10/10/10/10/10 l" {
		t.Errorf("zero Position = %v", zero)
	}
}

func TestPositionRoundTrip(t *testing.T) {
	for _, s := range []string{
		StartFEN,
		"10/10/10/10/10/10/10/10/10/10 l",
		"10/10/10/10/10/10/10/10/10/10 d",
		"xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx l",
		"TTTTSSSStt/ttssss4/10/10/10/10/10/10/10/10 d",
		"9T/8S1/7t2/6s3/5x4/4x5/3x6/2x7/1x8/x9 l",
		"3xt1t3/3s2s3/10/ts6st/T9/10/xS6ST/10/3S2S3/3T2T3 l",
		"1x1x1x1x1x/x1x1x1x1x1/10/10/10/10/10/10/10/10 d",
	} {
		p, err := ParsePosition(s)
		if err != nil {
			t.Errorf("ParsePosition(%q): %v", s, err)
			continue
		}
		if p.String() != s {
			t.Errorf("round trip %q → %q", s, p.String())
		}
		b, _ := p.MarshalText()
		var q Position
		if err := q.UnmarshalText(b); err != nil || q != p {
			t.Errorf("text round trip %q: %v", s, err)
		}
	}
}

func TestParsePositionErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", "no side to move"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3", "no side to move"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 w", `side to move "w"`},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 L", `side to move "L"`},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 ", `side to move ""`},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l ", `side to move "l "`},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3  l", `side to move " l"`},
		{" 3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l", `side to move "3t2t3/`},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3l d", "rank 1: bad character 'l'"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3 l", "has 9 ranks, want 10"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3/10 l", "has 11 ranks, want 10"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3/ l", "has 11 ranks, want 10"},
		{"3t2t3/3s2s3/9/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l", "rank 8 has 9 squares, want 10"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T4 l", "rank 1 is wider than 10 squares"},
		{"3t2t3/3s2s3/10/ts7st/10/10/TS6ST/10/3S2S3/3T2T3 l", "rank 7 is wider than 10 squares"},
		{"3t2t3/3s2s3/10/ts6stx/10/10/TS6ST/10/3S2S3/3T2T3 l", "rank 7 is wider than 10 squares"},
		{"3t2t3/3s2s3//ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l", "rank 8 has 0 squares, want 10"},
		{"3t2t3/3s2s3/55/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l", `"55" is not a number of empty squares`},
		{"3t2t3/3s2s3/010/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l", `"010" is not a number`},
		{"3t2t3/3s2s3/0xxxxxxxxxx/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l", `"0" is not a number`},
		{"3t2t3/3s2s3/11/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l", `"11" is not a number`},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3x l", "rank 1 is wider"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3K2T3 l", "rank 1: bad character 'K'"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T. l", "bad character '.'"},
		{"3t2t3/3s2s3/10/ts6st/10/1X8/TS6ST/10/3S2S3/3T2T3 l", "rank 5: bad character 'X'"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3\tl", "no side to move"},
		{"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3\u00a0l", "no side to move"},
		{"TTTTT5/10/10/10/10/10/10/10/10/10 l", "Light has 5 Tanks, at most 4"},
		{"SSSSS5/10/10/10/10/10/10/10/10/10 l", "Light has 5 Soldiers, at most 4"},
		{"ttttt5/10/10/10/10/10/10/10/10/10 l", "Dark has 5 Tanks, at most 4"},
		{"sssss5/10/10/10/10/10/10/10/10/10 d", "Dark has 5 Soldiers, at most 4"},
		{"ssss6/s9/10/10/10/10/10/10/10/10 d", "Dark has 5 Soldiers, at most 4"},
	}
	for _, tc := range tests {
		p, err := ParsePosition(tc.in)
		if err == nil {
			t.Errorf("ParsePosition(%q) = %v, want error", tc.in, p)
			continue
		}
		if !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParsePosition(%q): %v does not wrap ErrNotation", tc.in, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePosition(%q): %q does not contain %q", tc.in, err, tc.want)
		}
		if p != (Position{}) {
			t.Errorf("ParsePosition(%q) returned a partial position %v", tc.in, p)
		}
	}
}

func TestParseMove(t *testing.T) {
	good := []struct {
		in   string
		want Move
	}{
		{"a4-a6", Move{A4, A6, NoSquare, Tank}},
		{"b4-b6/d8", Move{B4, B6, D8, Soldier}},
		{"a10-j1", Move{A10, J1, NoSquare, Tank}},
		{"j10-a10/a1", Move{J10, A10, A1, Soldier}},
		{"a1-a1", Move{A1, A1, NoSquare, Tank}}, // well-formed, never legal
	}
	for _, tc := range good {
		m, err := ParseMove(tc.in)
		if err != nil || m != tc.want {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", tc.in, m, err, tc.want)
		}
		if m.String() != tc.in {
			t.Errorf("String of %q = %q", tc.in, m.String())
		}
	}
	bad := []struct {
		in, want string
	}{
		{"", `has no "-"`},
		{"a4a6", `has no "-"`},
		{"a4 a6", `has no "-"`},
		{"a4-", `bad landing square ""`},
		{"-a6", `bad start square ""`},
		{"a4-a6/", `bad grenade square ""`},
		{"a4-a6/d", `bad grenade square "d"`},
		{"a4-a6/d8/e9", `bad grenade square "d8/e9"`},
		{"a4-a6-a8", `bad landing square "a6-a8"`},
		{"k4-a6", `bad start square "k4"`},
		{"a0-a6", `bad start square "a0"`},
		{"a4-a11", `bad landing square "a11"`},
		{"a4-a06", `bad landing square "a06"`},
		{"A4-A6", `bad start square "A4"`},
		{"a4–a6", `has no "-"`},
		{" a4-a6", `bad start square " a4"`},
		{"a4-a6 ", `bad landing square "a6 "`},
		{"a4-a6/d8 ", `bad grenade square "d8 "`},
		{"a4 - a6", `bad start square "a4 "`},
		{"b4-b6/", `bad grenade square`},
		{"b4-b6d8", `bad landing square "b6d8"`},
		{"attack F2", `has no "-"`},
	}
	for _, tc := range bad {
		m, err := ParseMove(tc.in)
		if !errors.Is(err, rules.ErrNotation) || errors.Is(err, rules.ErrIllegal) {
			t.Errorf("ParseMove(%q) = %v, %v; want ErrNotation", tc.in, m, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q): %q does not contain %q", tc.in, err, tc.want)
		}
		// Position.ParseMove reports the same notation error.
		if _, err := Start().ParseMove(tc.in); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("Start().ParseMove(%q) = %v", tc.in, err)
		}
	}
}

// TestMoveRoundTrip prints and parses every legal move of positions along
// a game.
func TestMoveRoundTrip(t *testing.T) {
	p := Start()
	for ply := 0; ply < 30 && p.HasLegalMove(); ply++ {
		moves := p.LegalMoves()
		for _, m := range moves {
			s := m.String()
			if strings.Contains(s, "/") != (m.Type == Soldier) {
				t.Fatalf("%v: notation %q", m, s)
			}
			back, err := p.ParseMove(s)
			if err != nil || back != m {
				t.Fatalf("%v: ParseMove(%q) = %v, %v", p, s, back, err)
			}
		}
		p = p.Apply(moves[(ply*7919)%len(moves)])
	}
}
