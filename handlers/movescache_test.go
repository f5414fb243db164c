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
	if n := m.kept.len(); n != maxCachedPositions {
		t.Errorf("%d positions kept, want %d", n, maxCachedPositions)
	}
}

// TestReplayCacheFollowsTakebacks: the state a game's moves lead to is
// the same replayed from a kept point as from the start, also after a
// takeback and another move in its place.
func TestReplayCacheFollowsTakebacks(t *testing.T) {
	e := trenches.Engine{}
	start, err := e.Start(rules.GameSpec{Variant: "standard"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	g := db.Game{ID: 1, Game: e.Key(), Variant: "standard", StartState: start.Encode()}
	play := func(moves []db.Move, n, pick int) []db.Move {
		st, err := stateAt(e, g, moves, len(moves))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			legal := st.Legal(st.ToMove())
			m := legal[(pick+i)%len(legal)]
			moves = append(moves, db.Move{Ply: len(moves) + 1, Move: m})
			if st, err = st.Apply(m); err != nil {
				t.Fatal(err)
			}
		}
		return moves
	}
	var r replayCache
	check := func(moves []db.Move) {
		t.Helper()
		for _, n := range []int{len(moves) - 1, len(moves), len(moves) / 2} {
			want, err := stateAt(e, g, moves, n)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.stateAfter(e, g, moves, n)
			if err != nil {
				t.Fatal(err)
			}
			if got.Encode() != want.Encode() {
				t.Fatalf("after %d of %d moves: %s, want %s", n, len(moves), got.Encode(), want.Encode())
			}
		}
		r.keep(g, moves[:len(moves)-1], mustState(t, e, g, moves, len(moves)-1))
	}
	moves := play(nil, 12, 3)
	check(moves)
	moves = play(moves, 1, 5)
	check(moves)
	// Two moves taken back, others played in their place.
	moves = play(moves[:len(moves)-2], 3, 11)
	check(moves)
}

func mustState(t *testing.T, e rules.Engine, g db.Game, moves []db.Move, n int) rules.State {
	t.Helper()
	st, err := stateAt(e, g, moves, n)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
