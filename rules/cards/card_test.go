package cards

import (
	"errors"
	"testing"

	"github.com/trench-games/trench/rules"
)

// battleTable is the battle rule written out: row = attacking rank,
// column = defending rank, both in the order A 2 3 4 5 6 7 8 9 10 J Q K;
// '+' the row's card wins, '-' it loses, '0' a tie.
var battleTable = [13]string{
	"0---------+++", // A: loses to 2–10, beats J Q K
	"+0--------+++", // 2: beats A, loses to 3–10, beats J Q K
	"++0----------", // 3
	"+++0---------", // 4
	"++++0--------", // 5
	"+++++0-------", // 6
	"++++++0------", // 7
	"+++++++0-----", // 8
	"++++++++0----", // 9
	"+++++++++0---", // 10
	"--++++++++0--", // J: loses to A and 2
	"--+++++++++0-", // Q
	"--++++++++++0", // K
}

func TestBattleTableEveryPair(t *testing.T) {
	n := 0
	for a := Ace; a <= King; a++ {
		row := battleTable[a-1]
		if len(row) != 13 {
			t.Fatalf("row %s has %d columns", a, len(row))
		}
		for b := Ace; b <= King; b++ {
			want := map[byte]int{'+': 1, '-': -1, '0': 0}[row[b-1]]
			got := Compare(a, b)
			if got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", a, b, got, want)
			}
			if got != ruleText(a, b) {
				t.Errorf("Compare(%s, %s) = %d, the rule says %d", a, b, got, ruleText(a, b))
			}
			if Compare(b, a) != -got {
				t.Errorf("Compare(%s, %s) not antisymmetric", a, b)
			}
			n++
		}
	}
	if n != 169 {
		t.Fatalf("checked %d pairs", n)
	}
}

// ruleText states the rule again, case by case, independently of the table.
func ruleText(a, b Rank) int {
	face := func(r Rank) bool { return r == Jack || r == Queen || r == King }
	switch {
	case a == b:
		return 0
	case a == Ace: // beats J, Q, K; loses to 2–10
		if face(b) {
			return 1
		}
		return -1
	case a == Two: // beats A, J, Q, K; loses to 3–10
		if b == Ace || face(b) {
			return 1
		}
		return -1
	case b == Ace || b == Two:
		return -ruleText(b, a)
	case a > b:
		return 1
	}
	return -1
}

func TestCardStringParse(t *testing.T) {
	seen := map[string]bool{}
	for c := Card(1); c <= 52; c++ {
		s := c.String()
		if seen[s] {
			t.Fatalf("duplicate %s", s)
		}
		seen[s] = true
		back, err := ParseCard(s)
		if err != nil || back != c {
			t.Fatalf("ParseCard(%q) = %v, %v; want %v", s, back, err, c)
		}
		if NewCard(c.Rank(), c.Suit()) != c {
			t.Fatalf("NewCard(%s)", s)
		}
	}
	for s, want := range map[string]Card{
		"AS": NewCard(Ace, Spades), "10H": NewCard(Ten, Hearts), "QH": NewCard(Queen, Hearts),
		"7D": NewCard(Seven, Diamonds), "KC": NewCard(King, Clubs), "2S": NewCard(Two, Spades),
	} {
		if got, err := ParseCard(s); err != nil || got != want || got.String() != s {
			t.Errorf("ParseCard(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "A", "1S", "11S", "0H", "AX", "as", "10", "QSS", "--", "T H", "10h"} {
		if _, err := ParseCard(s); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParseCard(%q) error %v, want ErrNotation", s, err)
		}
	}
	if NoCard.String() != "--" || NoCard.Valid() {
		t.Error("NoCard")
	}
	if NewCard(Queen, Hearts).Symbol() != "Q♥" || !NewCard(Queen, Hearts).Red() || NewCard(King, Clubs).Red() {
		t.Error("Symbol/Red")
	}
}

func TestSuitsPerSide(t *testing.T) {
	for _, tc := range []struct {
		variant string
		side    rules.Side
		suits   string
	}{
		{VariantShort, rules.Side0, "S"}, {VariantShort, rules.Side1, "H"},
		{VariantLong, rules.Side0, "SC"}, {VariantLong, rules.Side1, "HD"},
	} {
		got := ""
		for _, s := range suitsOf(tc.variant, tc.side) {
			got += s.String()
			if s.Side() != tc.side {
				t.Errorf("%s belongs to %d", s, s.Side())
			}
		}
		if got != tc.suits {
			t.Errorf("%s side %d: suits %s, want %s", tc.variant, tc.side, got, tc.suits)
		}
		if n := len(deckOf(tc.variant, tc.side)); n != 13*len(tc.suits) {
			t.Errorf("deck of %d cards", n)
		}
	}
}
