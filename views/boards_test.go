package views

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// TestMoveOptionsOfTheSelectedPiece: past maxMoveOptions legal moves the
// move box lists only the moves of the piece selected ("a1" lists
// "a1-a2/b3", never "a10-…"), and nothing before a piece is selected.
func TestMoveOptionsOfTheSelectedPiece(t *testing.T) {
	var legal []string
	for i := 0; i < maxMoveOptions; i++ {
		legal = append(legal, fmt.Sprintf("a10-b%d/c1", i%10+1))
	}
	legal = append(legal, "a1-a2/b3", "a1-a3/b4")
	if got, some := moveOptions(Play{Legal: legal}); len(got) != 0 || !some {
		t.Errorf("before a selection the move box lists %d moves (left some out: %v), want none", len(got), some)
	}
	got, some := moveOptions(Play{Legal: legal, Selected: []string{"a1"}})
	if want := []string{"a1-a2/b3", "a1-a3/b4"}; !slices.Equal(got, want) || !some {
		t.Errorf("with a1 selected the move box lists %v, want %v", got, want)
	}
	few := []string{"c3-d4", "c3xe5"}
	if got, some := moveOptions(Play{Legal: few}); !slices.Equal(got, few) || some {
		t.Errorf("with %d legal moves the move box lists %v, want them all", len(few), got)
	}
}

// TestBoardStatusReadsTheLastMove: the live region says the last move,
// the side to move and the selection, in the language of the page.
func TestBoardStatusReadsTheLastMove(t *testing.T) {
	en := context.Background()
	p := Play{LastMoveText: "c3-d4", Selected: []string{"e5"}}
	if got, want := boardStatus(en, p, T(en, "White to move.")), "Last move c3-d4. White to move. Selected: e5."; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	fr := WithLang(en, "fr")
	if got, want := boardStatus(fr, Play{LastMoveText: "c3-d4"}, T(fr, "White to move.")), "Dernier coup\u00a0: c3-d4. Aux Blancs de jouer."; got != want {
		t.Errorf("French: %q, want %q", got, want)
	}
	if got := boardStatus(en, Play{}, T(en, "Black to move.")); got != "Black to move." {
		t.Errorf("before the first move: %q", got)
	}
}
