package cards

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

func TestMoveRoundTripAndClicks(t *testing.T) {
	n, refills := 0, 0
	for _, variant := range []string{VariantShort, VariantLong} {
		randomGame(t, variant, 3, func(s *State, _ string, _ *State) {
			for _, m := range s.Legal(s.turn) {
				mv, err := ParseMove(m)
				if err != nil || mv.String() != m {
					t.Fatalf("ParseMove(%q) = %v, %v", m, mv, err)
				}
				clicks := s.Clicks(m)
				if mv.Kind == Refill {
					// The phase names the slot: one click, the card.
					if !slices.Equal(clicks, []string{mv.B.String()}) {
						t.Fatalf("in phase %s Clicks(%q) = %q, want only the card", s.Phase(), m, clicks)
					}
					refills++
				} else if strings.Join(clicks, " ") != m || len(clicks) < 2 || clicks[0] != string(mv.Kind) {
					t.Fatalf("Clicks(%q) = %q", m, clicks)
				}
				n++
			}
		})
	}
	if n < 1000 || refills < 20 {
		t.Errorf("only %d moves, %d refills", n, refills)
	}
	s, _ := New(VariantShort, 1)
	for m, want := range map[string][]string{
		"attack F2":      {"attack", "F2"},
		"shift B3 H:QS":  {"shift", "B3", "H:QS"},
		"recon F2":       {"recon", "F2"},
		"refill F2 B2":   {"refill", "F2", "B2"},
		"refill B2 H:7S": {"refill", "B2", "H:7S"},
		"shift H:10S B4": {"shift", "H:10S", "B4"},
		"attack F9":      nil,
	} {
		if got := s.Clicks(m); !slices.Equal(got, want) {
			t.Errorf("Clicks(%q) = %q, want %q", m, got, want)
		}
	}
}

func TestMalformedMoves(t *testing.T) {
	s, _ := New(VariantShort, 1)
	for _, m := range []string{
		"", " ", "shift", "attack", "recon", "refill",
		"shift F1", "shift F1 B2 B3", "attack F1 F2", "recon F1 F2", "refill F2",
		"SHIFT F1 B2", "Attack F1", "attack f1", "jump F1", "pass", "shift F1 b2",
		"shift  F1 B2", " attack F1", "attack F1 ", "attack\tF1", "attack F1\n",
		"attack F0", "attack F4", "attack F10", "recon B0", "recon B5", "shift B5 B4", "shift F1 X1",
		"attack B1", "attack H:QS", "recon H:QS",
		"shift H:QS H:KS", "shift F1 H:QS", "shift H:QS F1",
		"refill H:QS F1", "refill B1 F1", "refill F1 F2", "refill B1 B2",
		"shift B1 H:", "shift B1 H:1S", "shift B1 H:11S", "shift B1 H:QX", "shift B1 H:qs", "shift B1 H:QSS",
		"shift B1 H", "shift B1 QS", "shift B1 H:10", "attack F1;", "attack F1: 7S × QH",
	} {
		if _, err := ParseMove(m); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParseMove(%q) error %v, want ErrNotation", m, err)
		}
		illegal(t, s, m, rules.ErrNotation)
		if d := s.Describe(m, rules.Side1); d != "(unreadable move)" {
			t.Errorf("Describe(%q) = %q", m, d)
		}
		if s.Clicks(m) != nil {
			t.Errorf("Clicks(%q) not nil", m)
		}
	}
	// Well formed but not legal: ErrIllegal, and Describe still masks.
	illegal(t, s, "refill F2 B2", rules.ErrIllegal)
	if d := s.Describe("shift B1 H:KS", rules.Side1); d != "shift B1 H" {
		t.Errorf("Describe = %q", d)
	}
}

func TestDescribeMasksHandCards(t *testing.T) {
	s := pos(t, VariantShort, 0, "AS,2S,3S/4S,-,6S,7S/8S,9S,10S,JS,QS,KS//5S/-/--0", red13)
	for _, tc := range []struct{ move, own, other string }{
		{"shift B3 H:QS", "shift B3 H:QS", "shift B3 H"},
		{"shift H:10S B2", "shift H:10S B2", "shift H B2"},
		{"shift F1 B1", "shift F1 B1", "shift F1 B1"},
	} {
		for viewer, want := range map[rules.Side]string{rules.Side0: tc.own, rules.Reveal: tc.own, rules.Side1: tc.other, rules.NoSide: tc.other} {
			if got := s.Describe(tc.move, viewer); got != want {
				t.Errorf("Describe(%q, %d) = %q, want %q", tc.move, viewer, got, want)
			}
		}
	}
}

func TestMalformedEncodings(t *testing.T) {
	s, _ := New(VariantShort, 1)
	s = play(t, s, "recon F1", "attack F1")
	good := s.Encode()
	if want := "c1 short 1 2 1 1 -,AS,9S/4S,3S,8S,7S/2S,6S,10S,JS,QS,KS//5S/r/1-0 -,QH,2H/8H,4H,7H,10H/AH,3H,5H,6H,9H,JH,KH///a/1-0 1,1,5S,6H"; good != want {
		t.Fatalf("Encode = %q, want %q", good, want)
	}
	if _, err := Decode(VariantShort, good); err != nil {
		t.Fatal(err)
	}
	f := strings.Split(good, " ")
	with := func(i int, v string) string {
		g := slices.Clone(f)
		g[i] = v
		return strings.Join(g, " ")
	}
	sides := strings.Split(f[6], "/")
	withSide := func(i int, v string) string {
		g := slices.Clone(sides)
		g[i] = v
		return with(6, strings.Join(g, "/"))
	}
	for name, text := range map[string]string{
		"empty":              "",
		"short":              strings.Join(f[:8], " "),
		"long":               good + " x",
		"double space":       strings.Replace(good, " ", "  ", 1),
		"version":            with(0, "c2"),
		"variant":            with(1, "long"),
		"seed":               with(2, "x"),
		"seed plus":          with(2, "+1"),
		"ply":                with(3, "-1"),
		"ply zero padded":    with(3, "02"),
		"turn":               with(4, "2"),
		"acted":              with(5, "yes"),
		"side parts":         with(6, "AS"),
		"front count":        withSide(0, sides[0]+",-"),
		"bad card":           withSide(2, "ZZ"),
		"other's card":       withSide(1, strings.Replace(sides[1], "4S", "4H", 1)),
		"card twice":         withSide(3, "5S"),
		"card missing":       withSide(2, sides[2][strings.Index(sides[2], ",")+1:]),
		"hand unsorted":      withSide(2, "6S,2S,10S,JS,QS,KS"),
		"face-up empty":      withSide(0, strings.Replace(sides[0], "-", "-+", 1)),
		"last":               withSide(5, "x"),
		"refill length":      withSide(6, "--"),
		"refill slot":        withSide(6, "4-0"),
		"refill full slot":   withSide(6, "2-0"),
		"refill draw":        withSide(6, "--2"),
		"acted, no refill":   with(5, "0"),
		"refill out of turn": strings.Replace(with(5, "0"), "/a/1-0", "/a/--0", 1),
		"battle":             with(8, "x"),
		"battle attacker":    with(8, "2,1,5S,6H"),
		"battle slot":        with(8, "0,4,5S,6H"),
		"battle card owner":  with(8, "0,1,5H,6S"),
		"battle fields":      with(8, "0,1,5S"),
	} {
		if text == good {
			t.Fatalf("%s: no change", name)
		}
		if _, err := Decode(VariantShort, text); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("%s: Decode(%q) error %v, want ErrNotation", name, text, err)
		}
		if st, err := (Engine{}).Decode(VariantShort, text); err == nil || st != nil {
			t.Errorf("%s: Engine.Decode = %v, %v", name, st, err)
		}
	}
	if _, err := Decode("medium", strings.Replace(good, "short", "medium", 1)); !errors.Is(err, rules.ErrNotation) {
		t.Errorf("unknown variant: %v", err)
	}
}

func TestMalformedRecords(t *testing.T) {
	good := "[Game \"cards\"]\n[Variant \"short\"]\n[Seed \"42\"]\n1. attack F2\n"
	r, err := ParseRecord(good)
	if err != nil || r.Variant != VariantShort || r.Seed != 42 || !slices.Equal(r.Moves, []string{"attack F2"}) {
		t.Fatalf("ParseRecord = %+v, %v", r, err)
	}
	if r.String() != good {
		t.Errorf("String = %q", r.String())
	}
	for _, text := range []string{
		"",
		"[Variant \"short\"]\n[Seed \"42\"]\n",
		"[Game \"chess\"]\n[Variant \"short\"]\n[Seed \"42\"]\n",
		"[Game \"cards\"]\n[Variant \"medium\"]\n[Seed \"42\"]\n",
		"[Game \"cards\"]\n[Variant \"short\"]\n[Seed \"x\"]\n",
		"[Game \"cards\"]\n[Variant \"short\"]\n[Seed \"42\"]\n[Seed \"43\"]\n",
		"[Game \"cards\"]\n[Variant \"short\"]\n[Seed 42]\n",
		"[Game \"cards\"]\n[Variant \"short\"]\n[Seed \"42\"\n",
		"[Game \"cards\"]\n[Variant \"short\"]\n[Seed \"42\"]\n2. attack F2\n",
		"[Game \"cards\"]\n[Variant \"short\"]\n[Seed \"42\"]\nattack F2\n",
		"[Game \"cards\"]\n[Variant \"short\"]\n[Seed \"42\"]\n1. attack F9\n",
		"[Game \"cards\"]\n[Variant \"short\"]\n[Seed \"42\"]\n1. attack F2\n[Date \"x\"]\n",
	} {
		if _, err := ParseRecord(text); !errors.Is(err, rules.ErrNotation) {
			t.Errorf("ParseRecord(%q) error %v, want ErrNotation", text, err)
		}
	}
}
