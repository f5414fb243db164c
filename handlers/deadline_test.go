package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules"
)

// A move made after its deadline is refused at once and the game ends on
// time, without waiting for the once-a-minute job; with a vacation
// allowance the allowance covers it and the move counts.
func TestLateMoveEndsTheGameOnTime(t *testing.T) {
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.VacationDays = -1 })
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "bga", "0")
	mover, g := whoMoves(t, s, id, a, b)
	s.Clock.Advance(3*24*time.Hour + time.Minute)
	clickMove(t, mover, id, func(int) int { return 0 })
	if mover.Status != http.StatusConflict || !strings.Contains(mover.text("#game-message, .flash"), "time ran out") {
		t.Fatalf("late move: status %d, message %q", mover.Status, mover.text("#game-message, .flash"))
	}
	after, err := s.DB.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Ply != 0 || !after.Finished() || after.Winner != g.ToMove.Other() {
		t.Fatalf("after a late move: ply %d, finished %v, winner %d", after.Ply, after.Finished(), after.Winner)
	}
	assertResultShown(t, s, id, a, b)

	// With vacation days, the allowance pays for the lateness.
	s2 := startServer(t, "", nil)
	a2, b2 := signedUpPair(t, s2)
	id2 := challenge(t, a2, b2, "trench", "bga", "0")
	mover2, _ := whoMoves(t, s2, id2, a2, b2)
	s2.Clock.Advance(4 * 24 * time.Hour)
	clickMove(t, mover2, id2, func(int) int { return 0 })
	mover2.wantStatus(http.StatusOK)
	if g2, err := s2.DB.Game(t.Context(), id2); err != nil || g2.Ply != 1 || g2.Finished() || g2.Winner != rules.NoSide {
		t.Fatalf("a late move covered by vacation days: %+v, %v", g2.Ply, err)
	}
}
