package cards

import (
	"testing"

	"github.com/trench-games/trench/rules"
)

// cycle is eight plies after which the position of black13 against red13
// (side 0 to move) comes back: each side swaps its B1 with a hand card and
// back, and turns the opponent's B1 face up in between.
var cycle = []string{
	"shift B1 H:8S", "shift B1 H:8H", "recon B1", "recon B1",
	"shift B1 H:4S", "shift B1 H:4H", "recon B1", "recon B1",
}

func TestRepetitionDraw(t *testing.T) {
	s := pos(t, VariantShort, 0, black13, red13)
	var plies []string
	for len(plies) < 24 {
		plies = append(plies, cycle...)
	}
	// The position after ply 2 comes back after plies 10 and 18: the third
	// occurrence ends the game.
	for i, m := range plies[:18] {
		if r := s.Result(); r.Over {
			t.Fatalf("over before ply %d: %+v", i+1, r)
		}
		s = play(t, s, m)
		// The history survives being stored and read back.
		d, err := Decode(VariantShort, s.Encode())
		if err != nil {
			t.Fatalf("ply %d: Decode: %v", i+1, err)
		}
		if d.Repetitions() != s.Repetitions() || d.Result() != s.Result() {
			t.Fatalf("ply %d: stored state lost the history", i+1)
		}
		s = d
		if want := 1 + (i+1-2)/8; i+1 >= 2 && (i+1-2)%8 == 0 && s.Repetitions() != want {
			t.Errorf("ply %d: %d repetitions, want %d", i+1, s.Repetitions(), want)
		}
	}
	r := s.Result()
	if !r.Over || r.Winner != rules.NoSide || r.Reason != rules.ReasonRepetition || r.Score != [2]int{13, 13} {
		t.Fatalf("after ply 18: %+v, want a draw by repetition", r)
	}
	if s.ToMove() != rules.NoSide {
		t.Errorf("ToMove = %d after the end", s.ToMove())
	}
	// Legal and Apply ignore the end, as for every end condition.
	if len(s.Legal(s.Turn())) == 0 {
		t.Error("no legal moves under the movement rules")
	}
}

func TestRepetitionNeedsSideToAct(t *testing.T) {
	// The same cards with the other side to act (or another previous
	// action) are another position.
	s := pos(t, VariantShort, 0, black13, red13)
	s = play(t, s, cycle[:4]...)
	a := s.positionHash()
	other := s.clone()
	other.turn = other.turn.Other()
	if other.positionHash() == a {
		t.Error("the side to act is not part of the position")
	}
	other = s.clone()
	other.p[0].last = Attack
	if other.positionHash() == a {
		t.Error("the previous action is not part of the position")
	}
}

func TestRepetitionHistoryStartsAfresh(t *testing.T) {
	// A battle takes cards out of the game: no earlier position can come
	// back, and the history is dropped.
	s := pos(t, VariantShort, 0, black13, "3H,2H,AH/4H,5H,6H,7H/8H,9H,10H,JH,QH,KH///-/--0")
	s = play(t, s, cycle[:6]...)
	if len(s.seen) != 6 {
		t.Fatalf("history of %d positions after 6 plies", len(s.seen))
	}
	s = play(t, s, "attack F1")
	if s.score() == [2]int{13, 13} {
		t.Fatal("the battle took no card")
	}
	if s.seen != nil {
		t.Errorf("history of %d positions after a battle", len(s.seen))
	}
}

func TestOldStatesDecode(t *testing.T) {
	// States stored before the history existed have nine fields.
	old := "c1 short 1 2 1 1 -,AS,9S/4S,3S,8S,7S/2S,6S,10S,JS,QS,KS//5S/r/1-0 -,QH,2H/8H,4H,7H,10H/AH,3H,5H,6H,9H,JH,KH///a/1-0 1,1,5S,6H"
	s, err := Decode(VariantShort, old)
	if err != nil {
		t.Fatal(err)
	}
	if s.Repetitions() != 1 || s.Encode() != old {
		t.Errorf("old state: %d repetitions, encodes as %q", s.Repetitions(), s.Encode())
	}
	for _, bad := range []string{old + " 12", old + " zz", old + " 0000000000000001,", old + " 1 2"} {
		if _, err := Decode(VariantShort, bad); err == nil {
			t.Errorf("Decode(%q) accepted", bad[len(old):])
		}
	}
}
