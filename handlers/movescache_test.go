package handlers

import (
	"slices"
	"testing"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/trenches"
)

// TestMovesCacheGivesEachPositionItsMoves: the kept legal moves are those
// of the position asked about, never another's, and no more than
// maxCachedPositions positions are kept.
func TestMovesCacheGivesEachPositionItsMoves(t *testing.T) {
	e := trenches.Engine{}
	st, err := e.Start(rules.GameSpec{Variant: "standard"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	start := st
	var m movesCache
	for i := 0; i < 3*maxCachedPositions; i++ {
		side := st.ToMove()
		g := db.Game{Game: e.Key(), Variant: "standard", State: st.Encode()}
		want := st.Legal(side)
		for round := 0; round < 2; round++ { // computed, then kept
			got := m.of(g, st, side)
			if !slices.Equal(got.legal, want) || len(got.clicks) != len(want) {
				t.Fatalf("ply %d, round %d: %d moves kept, want the position's %d", i, round, len(got.legal), len(want))
			}
			for j, mv := range want {
				if !slices.Equal(got.clicks[j], st.Clicks(mv)) {
					t.Fatalf("ply %d: clicks of %s are %v, want %v", i, mv, got.clicks[j], st.Clicks(mv))
				}
			}
		}
		if st, err = st.Apply(want[i*7%len(want)]); err != nil {
			t.Fatal(err)
		}
		if st.Result().Over {
			st = start // another game, other positions
		}
	}
	if n := len(m.byKey); n != maxCachedPositions || n != len(m.order) {
		t.Errorf("%d positions kept (%d in order), want %d", n, len(m.order), maxCachedPositions)
	}
}
