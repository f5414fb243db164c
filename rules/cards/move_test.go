package cards

import (
	"slices"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

func TestShiftKinds(t *testing.T) {
	base := pos(t, VariantShort, 0, black13, red13)
	for _, tc := range []struct {
		side0, move, want string
	}{
		// neighbours in the front trench
		{black13, "shift F1 F2", "2S,AS,3S/4S,5S,6S,7S/8S,9S,10S,JS,QS,KS///s/--0"},
		{black13, "shift F2 F3", "AS,3S,2S/4S,5S,6S,7S/8S,9S,10S,JS,QS,KS///s/--0"},
		// front with the back slots it touches: Fi with Bi and Bi+1
		{black13, "shift F1 B1", "4S,2S,3S/AS,5S,6S,7S/8S,9S,10S,JS,QS,KS///s/--0"},
		{black13, "shift F1 B2", "5S,2S,3S/4S,AS,6S,7S/8S,9S,10S,JS,QS,KS///s/--0"},
		{black13, "shift F2 B3", "AS,6S,3S/4S,5S,2S,7S/8S,9S,10S,JS,QS,KS///s/--0"},
		{black13, "shift F3 B4", "AS,2S,7S/4S,5S,6S,3S/8S,9S,10S,JS,QS,KS///s/--0"},
		// neighbours in the back trench
		{black13, "shift B3 B4", "AS,2S,3S/4S,5S,7S,6S/8S,9S,10S,JS,QS,KS///s/--0"},
		// back card with a hand card: the back card goes to the (sorted) hand
		{black13, "shift B2 H:JS", "AS,2S,3S/4S,JS,6S,7S/5S,8S,9S,10S,QS,KS///s/--0"},
		// a face-up card keeps its flag inside the trenches
		{"AS+,2S,3S/4S,5S,6S,7S/8S,9S,10S,JS,QS,KS///-/--0", "shift F1 B2", "5S,2S,3S/4S,AS+,6S,7S/8S,9S,10S,JS,QS,KS///s/--0"},
		{"AS,2S,3S/4S,5S+,6S,7S/8S,9S,10S,JS,QS,KS///-/--0", "shift B2 B3", "AS,2S,3S/4S,6S,5S+,7S/8S,9S,10S,JS,QS,KS///s/--0"},
		// a face-up card that goes to the hand is private again; the hand card comes face down
		{"AS,2S,3S/4S,5S+,6S,7S/8S,9S,10S,JS,QS,KS///-/--0", "shift B2 H:8S", "AS,2S,3S/4S,8S,6S,7S/5S,9S,10S,JS,QS,KS///s/--0"},
		// into an empty back slot: from a neighbour, either way, or from the hand
		{"AS,2S,3S/4S,-,6S,7S+/8S,9S,10S,JS,QS,KS//5S/-/--0", "shift B1 B2", "AS,2S,3S/-,4S,6S,7S+/8S,9S,10S,JS,QS,KS//5S/s/--0"},
		{"AS,2S,3S/4S,-,6S,7S+/8S,9S,10S,JS,QS,KS//5S/-/--0", "shift B3 B2", "AS,2S,3S/4S,6S,-,7S+/8S,9S,10S,JS,QS,KS//5S/s/--0"},
		{"AS,2S,3S/4S,6S,-,7S+/8S,9S,10S,JS,QS,KS//5S/-/--0", "shift B4 B3", "AS,2S,3S/4S,6S,7S+,-/8S,9S,10S,JS,QS,KS//5S/s/--0"},
		{"AS,2S,3S/4S,-,6S,7S/8S,9S,10S,JS,QS,KS//5S/-/--0", "shift H:QS B2", "AS,2S,3S/4S,QS,6S,7S/8S,9S,10S,JS,KS//5S/s/--0"},
	} {
		s := base
		if tc.side0 != black13 {
			s = pos(t, VariantShort, 0, tc.side0, red13)
		}
		if !slices.Contains(s.Legal(rules.Side0), tc.move) {
			t.Errorf("%s not legal in %s", tc.move, tc.side0)
			continue
		}
		n := play(t, s, tc.move)
		wantSide(t, n, rules.Side0, tc.want)
		wantSide(t, n, rules.Side1, red13) // the opponent is untouched
		if n.turn != rules.Side1 || n.ply != 1 {
			t.Errorf("%s: turn %d ply %d", tc.move, n.turn, n.ply)
		}
		checkInvariants(t, n)
	}
	// The opening position has 2 front, 6 front–back, 3 back and 24
	// back–hand swaps.
	shifts := 0
	for _, m := range base.Legal(rules.Side0) {
		if strings.HasPrefix(m, "shift ") {
			shifts++
		}
	}
	if shifts != 35 {
		t.Errorf("%d shifts, want 35", shifts)
	}
}

func TestShiftIllegal(t *testing.T) {
	s := pos(t, VariantShort, 0, black13, red13)
	for _, m := range []string{
		"shift F1 F3", "shift F1 B3", "shift F1 B4", "shift F2 B1", "shift F2 B4", "shift F3 B1", "shift F3 B2",
		"shift B1 B3", "shift B1 B4", "shift B2 B4", // not adjacent
		"shift F1 F1", "shift B2 B2", // no-op
		"shift F2 F1", "shift B2 F1", "shift B2 B1", // a second spelling
		"shift B1 H:QH", "shift B1 H:AS", "shift B1 H:2C", // not in the hand
		"shift H:8S B1", // B1 is not empty
	} {
		illegal(t, s, m, rules.ErrIllegal)
	}
	for _, m := range []string{"shift F4 B1", "shift F0 B1", "shift B5 B4", "shift F1 B5", "shift F1 H:8S", "shift H:8S H:9S"} {
		illegal(t, s, m, rules.ErrNotation) // no such slot, or no such kind of shift
	}

	holes := pos(t, VariantShort, 0, "AS,2S,3S/-,5S,-,-/8S,9S,10S,JS,QS,KS//4S,6S,7S/-/--0", red13)
	for _, m := range []string{
		"shift F1 B1",   // would empty F1
		"shift F2 B3",   // would empty F2
		"shift B1 F1",   // would fill nothing and empty F1
		"shift B3 B4",   // both empty: nothing to move
		"shift B1 B2",   // B1 is empty: the move is written from B2
		"shift B1 H:8S", // no card in B1 to swap
		"shift B2 B4",   // not adjacent
	} {
		illegal(t, holes, m, rules.ErrIllegal)
	}
	for _, m := range holes.Legal(rules.Side0) {
		mv, _ := ParseMove(m)
		if mv.Kind == Shift && mv.A.Zone == Front && holes.p[0].at(mv.B).card == NoCard {
			t.Errorf("%s empties a front slot", m)
		}
	}
	wantIn := []string{"shift B2 B1", "shift B2 B3", "shift H:8S B1", "shift H:KS B4", "shift B2 H:8S", "shift F1 B2", "shift F2 B2"}
	for _, m := range wantIn {
		if !slices.Contains(holes.Legal(rules.Side0), m) {
			t.Errorf("%s missing from Legal", m)
		}
	}
}

func TestEveryLegalShiftChangesTheTable(t *testing.T) {
	for _, sides := range [][2]string{
		{black13, red13},
		{"AS,2S+,3S/-,5S,-,7S+/8S,9S,10S,JS,QS,KS//4S,6S/-/--0", red13},
	} {
		s := pos(t, VariantShort, 0, sides[0], sides[1])
		for _, m := range s.Legal(rules.Side0) {
			if !strings.HasPrefix(m, "shift") {
				continue
			}
			n := play(t, s, m)
			a, b := n.p[0], s.p[0]
			if a.front == b.front && a.back == b.back && slices.Equal(a.hand, b.hand) {
				t.Errorf("%s changes nothing", m)
			}
		}
	}
}

func TestRecon(t *testing.T) {
	two := pos(t, VariantShort, 0, black13, "AH+,2H,3H/4H,5H+,6H,7H/8H,9H,10H,JH,QH,KH///-/--0")
	var recons []string
	for _, m := range two.Legal(rules.Side0) {
		if strings.HasPrefix(m, "recon") {
			recons = append(recons, m)
		}
	}
	want := []string{"recon B1", "recon B3", "recon B4", "recon F2", "recon F3"}
	if !slices.Equal(recons, want) {
		t.Errorf("recon with 2 face-up: %v, want %v", recons, want)
	}
	illegal(t, two, "recon F1", rules.ErrIllegal) // already face up
	n := play(t, two, "recon B4")
	wantSide(t, n, rules.Side1, "AH+,2H,3H/4H,5H+,6H,7H+/8H,9H,10H,JH,QH,KH///-/--0")
	wantSide(t, n, rules.Side0, "AS,2S,3S/4S,5S,6S,7S/8S,9S,10S,JS,QS,KS///r/--0")
	if d := two.Describe("recon B4", rules.NoSide); d != "recon B4: 7H" {
		t.Errorf("Describe = %q", d)
	}

	three := pos(t, VariantShort, 0, black13, "AH+,2H,3H/4H,5H+,6H,7H+/8H,9H,10H,JH,QH,KH///-/--0")
	for _, m := range three.Legal(rules.Side0) {
		if strings.HasPrefix(m, "recon") {
			t.Errorf("%s legal with 3 face-up cards", m)
		}
	}
	illegal(t, three, "recon F2", rules.ErrIllegal)
	if v := three.ViewFor(rules.Side0); !slices.ContainsFunc(v.Forbidden, func(f Forbidden) bool { return f.Action == Recon }) {
		t.Errorf("Forbidden %v lacks recon", v.Forbidden)
	}
	// Face-up cards of one's own side do not count.
	own := pos(t, VariantShort, 0, "AS+,2S+,3S+/4S,5S,6S,7S/8S,9S,10S,JS,QS,KS///-/--0", red13)
	if !slices.Contains(own.Legal(rules.Side0), "recon F1") {
		t.Error("own face-up cards block recon")
	}
}

func TestNoRepeat(t *testing.T) {
	s := pos(t, VariantShort, 0, black13, red13)
	// The first action is free: all three kinds are legal.
	kinds := map[string]bool{}
	for _, m := range s.Legal(rules.Side0) {
		kinds[strings.Fields(m)[0]] = true
	}
	if len(kinds) != 3 {
		t.Fatalf("first action kinds %v", kinds)
	}
	if v := s.ViewFor(rules.Side0); len(v.Forbidden) != 0 {
		t.Errorf("Forbidden at the start: %v", v.Forbidden)
	}
	s = play(t, s, "shift F1 F2", "recon F1")
	// Side0 shifted: no shift now.
	illegal(t, s, "shift F1 F2", rules.ErrIllegal)
	for _, m := range s.Legal(rules.Side0) {
		if strings.HasPrefix(m, "shift") {
			t.Fatalf("%s legal after a shift", m)
		}
	}
	v := s.ViewFor(rules.Side1)
	if len(v.Forbidden) != 1 || v.Forbidden[0].Action != Shift || v.Forbidden[0].Reason == "" {
		t.Errorf("Forbidden = %+v", v.Forbidden)
	}
	// A recon, then a shift again is fine.
	s = play(t, s, "recon F1")
	illegal(t, s, "recon F2", rules.ErrIllegal) // Side1 reconned last
	s = play(t, s, "attack F1")                 // Side1: AH vs 2S (after the swap F1 holds 2S): 2 beats A
	for s.Phase() != PhaseAction || s.turn != rules.Side0 {
		s = play(t, s, s.Legal(s.turn)[0])
	}
	// Side0's previous action is still its recon: the refill did not reset it.
	illegal(t, s, "recon F2", rules.ErrIllegal)
	if s.p[1].last != Attack || s.p[0].last != Recon {
		t.Errorf("last actions %q %q", s.p[0].last, s.p[1].last)
	}
	s = play(t, s, "shift F1 F2")
	illegal(t, s, "attack F2", rules.ErrIllegal) // Side1 attacked last
	_ = play(t, s, "shift F1 F2")
}

// Black attacks F2 with KS against QH, and wins.
func TestAttackWin(t *testing.T) {
	s := pos(t, VariantShort, 0, "AS,KS,3S/4S,5S,6S,7S+/2S,8S,9S,10S,JS,QS///-/--0", "AH,QH+,3H/4H,5H,6H,7H/2H,8H,9H,10H,JH,KH///-/--0")
	if d := s.Describe("attack F2", rules.Side1); d != "attack F2: KS × QH, KS wins" {
		t.Errorf("Describe = %q", d)
	}
	n := play(t, s, "attack F2")
	// Both F2 slots are open; KS is in Black's hand, QH removed.
	wantSide(t, n, rules.Side0, "AS,-,3S/4S,5S,6S,7S+/2S,8S,9S,10S,JS,QS,KS///a/2-0")
	wantSide(t, n, rules.Side1, "AH,-,3H/4H,5H,6H,7H/2H,8H,9H,10H,JH,KH//QH/-/2-0")
	b, ok := n.LastBattle()
	if !ok || b.Attacker != rules.Side0 || b.Slot != 2 || b.Winner != rules.Side0 || b.Cards != [2]Card{NewCard(King, Spades), NewCard(Queen, Hearts)} {
		t.Errorf("battle %+v", b)
	}
	// Two adjacent back cards: the attacker chooses, now.
	if n.ToMove() != rules.Side0 || n.Phase() != PhaseRefillFront {
		t.Fatalf("to move %d phase %s", n.ToMove(), n.Phase())
	}
	wantLegal(t, n, "refill F2 B2", "refill F2 B3")
	illegal(t, n, "shift F1 B1", rules.ErrIllegal)
	illegal(t, n, "refill F2 B1", rules.ErrIllegal) // B1 does not touch F2
	n = play(t, n, "refill F2 B3")
	if n.Phase() != PhaseRefillBack || n.ToMove() != rules.Side0 {
		t.Fatalf("phase %s", n.Phase())
	}
	wantLegal(t, n, "refill B3 H:10S", "refill B3 H:2S", "refill B3 H:8S", "refill B3 H:9S", "refill B3 H:JS", "refill B3 H:KS", "refill B3 H:QS")
	n = play(t, n, "refill B3 H:KS")
	wantSide(t, n, rules.Side0, "AS,6S,3S/4S,5S,KS,7S+/2S,8S,9S,10S,JS,QS///a/--0")
	// Red refills at the start of its turn, before any action.
	if n.ToMove() != rules.Side1 || n.Phase() != PhaseRefillFront {
		t.Fatalf("to move %d phase %s", n.ToMove(), n.Phase())
	}
	wantLegal(t, n, "refill F2 B2", "refill F2 B3")
	illegal(t, n, "recon F1", rules.ErrIllegal)
	n = play(t, n, "refill F2 B2", "refill B2 H:2H")
	wantSide(t, n, rules.Side1, "AH,5H,3H/4H,2H,6H,7H/8H,9H,10H,JH,KH//QH/-/--0")
	if n.Phase() != PhaseAction || n.ToMove() != rules.Side1 || n.ply != 5 {
		t.Fatalf("phase %s to move %d ply %d", n.Phase(), n.ToMove(), n.ply)
	}
	checkInvariants(t, n)
}

func TestAttackLoseAndTie(t *testing.T) {
	// 2S beats AH (a 2 beats an Ace): Red attacks and loses.
	s := pos(t, VariantShort, 1, "2S,AS,3S/4S,5S,6S,7S/8S,9S,10S,JS,QS,KS///-/--0", red13)
	n := play(t, s, "attack F1")
	b, _ := n.LastBattle()
	if b.Winner != rules.Side0 || b.Attacker != rules.Side1 {
		t.Errorf("battle %+v", b)
	}
	if got := side(n, rules.Side1); !strings.Contains(got, "//AH/") {
		t.Errorf("AH not removed: %s", got)
	}
	// A tie: both cards go back to the hands, both sides refill.
	s = pos(t, VariantShort, 0, "AS,5S,3S/4S,2S,6S,7S/8S,9S,10S,JS,QS,KS///-/--0", "AH,5H,3H/4H,2H,6H,7H/8H,9H,10H,JH,QH,KH///-/--0")
	n = play(t, s, "attack F2")
	if d := s.Describe("attack F2", rules.Side0); d != "attack F2: 5S × 5H, tie" {
		t.Errorf("Describe = %q", d)
	}
	wantSide(t, n, rules.Side0, "AS,-,3S/4S,2S,6S,7S/5S,8S,9S,10S,JS,QS,KS///a/2-0")
	wantSide(t, n, rules.Side1, "AH,-,3H/4H,2H,6H,7H/5H,8H,9H,10H,JH,QH,KH///-/2-0")
	n = play(t, n, "refill F2 B2", "refill B2 H:5S", "refill F2 B3", "refill B3 H:KH")
	wantSide(t, n, rules.Side0, "AS,2S,3S/4S,5S,6S,7S/8S,9S,10S,JS,QS,KS///a/--0")
	wantSide(t, n, rules.Side1, "AH,6H,3H/4H,2H,KH,7H/5H,8H,9H,10H,JH,QH///-/--0")
	checkInvariants(t, n)
}

func TestRefillAdjacency(t *testing.T) {
	red := "AH,QH,3H/4H,5H,6H,7H/2H,8H,9H,10H,JH,KH///-/--0"
	t.Run("one adjacent", func(t *testing.T) {
		s := pos(t, VariantShort, 0, "AS,KS,3S/4S,-,6S+,7S/2S,8S,9S,10S,JS//5S,QS/-/--0", red)
		n := play(t, s, "attack F2")
		// The only adjacent card, 6S, slides forward at once, face up still.
		wantSide(t, n, rules.Side0, "AS,6S+,3S/4S,-,-,7S/2S,8S,9S,10S,JS,KS//5S,QS/a/-30")
		if n.Phase() != PhaseRefillBack || n.ToMove() != rules.Side0 {
			t.Fatalf("phase %s", n.Phase())
		}
		if d := s.Describe("attack F2", rules.Side1); d != "attack F2: KS × QH, KS wins; Black refill F2 B3 (forced)" {
			t.Errorf("Describe = %q", d)
		}
		n = play(t, n, "refill B3 H:JS")
		wantSide(t, n, rules.Side0, "AS,6S+,3S/4S,-,JS,7S/2S,8S,9S,10S,KS//5S,QS/a/--0")
	})
	t.Run("none adjacent", func(t *testing.T) {
		s := pos(t, VariantShort, 0, "AS,KS,3S/4S,-,-,7S/2S,8S,9S,10S,JS//5S,6S,QS/-/--0", red)
		n := play(t, s, "attack F2")
		wantLegal(t, n, "refill F2 B1", "refill F2 B4")
		n = play(t, n, "refill F2 B4")
		wantLegal(t, n, "refill B4 H:10S", "refill B4 H:2S", "refill B4 H:8S", "refill B4 H:9S", "refill B4 H:JS", "refill B4 H:KS")
	})
	t.Run("one far", func(t *testing.T) {
		s := pos(t, VariantShort, 0, "AS,KS,3S/-,-,-,7S/2S,8S,9S,10S,JS//4S,5S,6S,QS/-/--0", red)
		n := play(t, s, "attack F2")
		wantSide(t, n, rules.Side0, "AS,7S,3S/-,-,-,-/2S,8S,9S,10S,JS,KS//4S,5S,6S,QS/a/-40")
	})
	t.Run("empty back trench", func(t *testing.T) {
		s := pos(t, VariantShort, 0, "AS,KS,3S/-,-,-,-/8S,9S//2S,4S,5S,6S,7S,10S,JS,QS/-/--0", red)
		n := play(t, s, "attack F2")
		wantLegal(t, n, "refill F2 H:8S", "refill F2 H:9S", "refill F2 H:KS")
		n = play(t, n, "refill F2 H:9S")
		// Straight to the front, face down; no back slot was emptied, so
		// the turn passes to Red, who refills.
		wantSide(t, n, rules.Side0, "AS,9S,3S/-,-,-,-/8S,KS//2S,4S,5S,6S,7S,10S,JS,QS/a/--0")
		if n.ToMove() != rules.Side1 || n.Phase() != PhaseRefillFront {
			t.Errorf("to move %d phase %s", n.ToMove(), n.Phase())
		}
	})
	t.Run("empty back trench, one hand card", func(t *testing.T) {
		s := pos(t, VariantShort, 0, "AS,5S,3S/-,-,-,-/8S//2S,4S,6S,7S,9S,10S,JS,QS,KS/-/--0", red)
		n := play(t, s, "attack F2") // 5S loses to QH: 8S goes to F2 by force
		wantSide(t, n, rules.Side0, "AS,8S,3S/-,-,-,-///2S,4S,6S,7S,9S,10S,JS,QS,KS,5S/a/--0")
		if r := n.Result(); !r.Over || r.Winner != rules.Side1 || r.Reason != rules.ReasonFrontOnly || r.Score != [2]int{3, 13} {
			t.Errorf("result %+v", r)
		}
	})
}

func TestForcedRefillsAreAutomatic(t *testing.T) {
	// Black's 5S loses to KH. Black: only B2 touches F2, one hand card.
	// Red: only B3 touches F2, and KH comes back as its only hand card.
	s := pos(t, VariantShort, 0,
		"AS,5S,3S/-,4S,-,-/8S//2S,6S,7S,9S,10S,JS,QS,KS/-/--0",
		"AH,KH,3H/-,-,4H,-///2H,5H,6H,7H,8H,9H,10H,JH,QH/s/--0")
	n := play(t, s, "attack F2")
	wantSide(t, n, rules.Side0, "AS,4S,3S/-,8S,-,-///2S,6S,7S,9S,10S,JS,QS,KS,5S/a/--0")
	wantSide(t, n, rules.Side1, "AH,4H,3H/-,-,KH,-///2H,5H,6H,7H,8H,9H,10H,JH,QH/s/--0")
	if n.ply != 1 || n.ToMove() != rules.Side1 || n.Phase() != PhaseAction {
		t.Errorf("ply %d to move %d phase %s", n.ply, n.ToMove(), n.Phase())
	}
	for viewer, want := range map[rules.Side]string{
		rules.Side0:  "attack F2: 5S × KH, KH wins; Black refill F2 B2 (forced); Black refill B2 H:8S (forced); Red refill F2 B3 (forced); Red refill B3 H (forced)",
		rules.Side1:  "attack F2: 5S × KH, KH wins; Black refill F2 B2 (forced); Black refill B2 H (forced); Red refill F2 B3 (forced); Red refill B3 H:KH (forced)",
		rules.NoSide: "attack F2: 5S × KH, KH wins; Black refill F2 B2 (forced); Black refill B2 H (forced); Red refill F2 B3 (forced); Red refill B3 H (forced)",
		rules.Reveal: "attack F2: 5S × KH, KH wins; Black refill F2 B2 (forced); Black refill B2 H:8S (forced); Red refill F2 B3 (forced); Red refill B3 H:KH (forced)",
	} {
		if got := s.Describe("attack F2", viewer); got != want {
			t.Errorf("viewer %d:\n got %q\nwant %q", viewer, got, want)
		}
	}
	if n.Result().Over {
		t.Error("over too soon")
	}
	// Red shifted last time: no shift now, and no refill move either.
	wantNo := func(prefix string) {
		for _, m := range n.Legal(rules.Side1) {
			if strings.HasPrefix(m, prefix) {
				t.Errorf("%s legal", m)
			}
		}
	}
	wantNo("shift")
	wantNo("refill")
}

func TestLongGameDraw(t *testing.T) {
	black := "AS,5S,3S/4S,6S,7S,8S/2S,9S,10S,JS,QS,KS/AC,2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC//-/--0"
	red := "AH,KH,3H/4H,5H,6H,7H/2H,8H,9H,10H,JH,QH/AD,2D,3D,4D,5D,6D,7D,8D,9D,10D,JD,QD,KD//-/--0"
	t.Run("attacker loses", func(t *testing.T) {
		s := pos(t, VariantLong, 0, black, red)
		n := play(t, s, "attack F2", "refill F2 B2")
		if len(n.p[0].deck) != 13 {
			t.Fatal("drew before the refill ended")
		}
		d := n.Describe("refill B2 H:2S", rules.Side1)
		if d != "refill B2 H; Black draws a card" {
			t.Errorf("Describe = %q", d)
		}
		if d := n.Describe("refill B2 H:2S", rules.Side0); d != "refill B2 H:2S; Black draws AC" {
			t.Errorf("Describe = %q", d)
		}
		n = play(t, n, "refill B2 H:2S")
		wantSide(t, n, rules.Side0, "AS,6S,3S/4S,2S,7S,8S/9S,10S,JS,QS,KS,AC/2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC/5S/a/--0")
		// Red won: it refills, and does not draw.
		n = play(t, n, "refill F2 B3", "refill B3 H:KH")
		if len(n.p[1].deck) != 13 || len(n.p[1].hand) != 6 {
			t.Errorf("red deck %d hand %d", len(n.p[1].deck), len(n.p[1].hand))
		}
		checkInvariants(t, n)
	})
	t.Run("defender loses", func(t *testing.T) {
		s := pos(t, VariantLong, 1, black, red) // Red attacks F2: KH beats 5S
		n := play(t, s, "attack F2", "refill F2 B2", "refill B2 H:KH")
		// Black lost: it draws at the start of its turn, after its refill.
		if n.ToMove() != rules.Side0 || len(n.p[0].deck) != 13 {
			t.Fatalf("to move %d deck %d", n.ToMove(), len(n.p[0].deck))
		}
		n = play(t, n, "refill F2 B3", "refill B3 H:QS")
		if len(n.p[0].deck) != 12 || n.p[0].deck[0] != NewCard(Two, Clubs) || !slices.Contains(n.p[0].hand, NewCard(Ace, Clubs)) {
			t.Errorf("black after the draw: %s", side(n, 0))
		}
		if len(n.p[1].deck) != 13 {
			t.Error("the winner drew")
		}
		if n.Phase() != PhaseAction || n.ToMove() != rules.Side0 {
			t.Errorf("phase %s", n.Phase())
		}
		checkInvariants(t, n)
	})
	t.Run("tie", func(t *testing.T) {
		s := pos(t, VariantLong, 0, "AS,KS,3S/4S,6S,7S,8S/2S,5S,9S,10S,JS,QS/AC,2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC//-/--0", red)
		n := play(t, s, "attack F2", "refill F2 B2", "refill B2 H:KS", "refill F2 B2", "refill B2 H:KH")
		if len(n.p[0].deck) != 13 || len(n.p[1].deck) != 13 {
			t.Error("a draw after a tie")
		}
		checkInvariants(t, n)
	})
	t.Run("empty deck", func(t *testing.T) {
		s := pos(t, VariantLong, 0, "AS,5S,3S/4S,6S,7S,8S/2S,9S,10S,JS,QS,KS//AC,2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC/-/--0", red)
		n := play(t, s, "attack F2", "refill F2 B2", "refill B2 H:2S")
		if len(n.p[0].hand) != 5 {
			t.Errorf("hand %d", len(n.p[0].hand))
		}
	})
}

func TestEndCondition(t *testing.T) {
	black := "AS,KS,3S/4S,5S,6S,7S/2S,8S,9S,10S,JS,QS///-/--0"
	// Red's last card outside the front is 4H in B3.
	red := "AH,QH,3H/-,-,4H,-///2H,5H,6H,7H,8H,9H,10H,JH,KH/-/--0"
	s := pos(t, VariantShort, 0, black, red)
	if s.Result().Over {
		t.Fatal("over at once")
	}
	n := play(t, s, "attack F2", "refill F2 B2")
	if n.Result().Over {
		t.Fatal("over before Red's refill")
	}
	n = play(t, n, "refill B2 H:KS")
	// Red's refill is forced (4H slides to F2): Red keeps only its front trench.
	wantSide(t, n, rules.Side1, "AH,4H,3H/-,-,-,-///2H,5H,6H,7H,8H,9H,10H,JH,KH,QH/-/--0")
	r := n.Result()
	if !r.Over || r.Winner != rules.Side0 || r.Reason != rules.ReasonFrontOnly || r.Score != [2]int{13, 3} {
		t.Errorf("result %+v", r)
	}
	if n.ToMove() != rules.NoSide {
		t.Errorf("ToMove %d after the end", n.ToMove())
	}
	if v := n.ViewFor(rules.Side0); v.Phase != PhaseOver || v.ToMove != rules.NoSide || !v.Result.Over {
		t.Errorf("view phase %s", v.Phase)
	}
	// Movement rules go on past the end (for Perft).
	if len(n.Legal(n.turn)) == 0 || n.Perft(2) == 0 {
		t.Error("no moves past the end")
	}
	// A side that still has a hand card does not lose.
	red2 := "AH,QH,3H/-,-,4H,-/2H//5H,6H,7H,8H,9H,10H,JH,KH/-/--0"
	n = play(t, pos(t, VariantShort, 0, black, red2), "attack F2", "refill F2 B2", "refill B2 H:KS")
	if n.Result().Over {
		t.Error("over with a card in hand")
	}
	wantSide(t, n, rules.Side1, "AH,4H,3H/-,-,2H,-///5H,6H,7H,8H,9H,10H,JH,KH,QH/-/--0")
}

func TestConcedeArmistice(t *testing.T) {
	s, _ := New(VariantShort, 3)
	r := s.Concede(rules.Side1, false)
	if !r.Over || r.Winner != rules.Side0 || r.Reason != rules.ReasonResigned || r.Score != [2]int{13, 13} {
		t.Errorf("concede %+v", r)
	}
	r = s.Concede(rules.Side0, true)
	if !r.Over || r.Winner != rules.Side1 || r.Reason != rules.ReasonTimeout {
		t.Errorf("timeout %+v", r)
	}
	r = s.Armistice()
	if !r.Over || r.Winner != rules.NoSide || r.Reason != rules.ReasonArmistice {
		t.Errorf("armistice %+v", r)
	}
	if r := s.Result(); r.Over || r.Winner != rules.NoSide || r.Score != [2]int{13, 13} {
		t.Errorf("running result %+v", r)
	}
}
