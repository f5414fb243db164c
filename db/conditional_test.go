package db_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

func TestConditionalMoves(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, a, b := newGame(t, store, "trenches", "standard")
	if g.Side[0].ID != a.ID {
		a, b = b, a
	}
	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	// b plans: if a plays x1, reply y1, then if x2, y2; if a plays z1, reply w1.
	x1 := st.Legal(rules.Side0)[0]
	z1 := st.Legal(rules.Side0)[1]
	s1, _ := st.Apply(x1)
	y1 := s1.Legal(rules.Side1)[0]
	s2, _ := s1.Apply(y1)
	x2 := s2.Legal(rules.Side0)[0]
	s3, _ := s2.Apply(x2)
	y2 := s3.Legal(rules.Side1)[0]
	t1, _ := st.Apply(z1)
	w1 := t1.Legal(rules.Side1)[0]

	bad := []struct {
		lines [][]string
		want  string
	}{
		{[][]string{{x1}}, "give your reply"},
		{[][]string{{x1, x1}}, "move 2"},
		{[][]string{{"zz99", y1}}, "move 1"},
		{[][]string{{x1, y1}, {x1, s1.Legal(rules.Side1)[1]}}, "two different replies"},
	}
	for _, c := range bad {
		err := store.SetPlan(ctx, g.ID, b.ID, 0, c.lines, t0)
		if db.KindOf(err) != db.KindInvalid || !strings.Contains(err.Error(), c.want) {
			t.Errorf("plan %v: %v, want invalid mentioning %q", c.lines, err, c.want)
		}
	}
	if err := store.SetPlan(ctx, g.ID, a.ID, 0, [][]string{{y1, x1}}, t0); db.KindOf(err) != db.KindInvalid {
		t.Errorf("a plan by the player to move: %v, want invalid", err)
	}
	if err := store.SetPlan(ctx, g.ID, b.ID, 3, [][]string{{x1, y1}}, t0); db.KindOf(err) != db.KindConflict {
		t.Errorf("a plan against a stale ply: %v, want a conflict", err)
	}
	plan := [][]string{{x1, y1, x2, y2}, {z1, w1}}
	if err := store.SetPlan(ctx, g.ID, b.ID, 0, plan, t0); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := store.PlanOf(ctx, g.ID, a.ID); ok {
		t.Error("a has b's plan")
	}

	// a plays x1: b's reply y1 is played in the same transaction.
	after, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: a.ID, Ply: 0, Move: x1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if after.Ply != 2 || after.ToMove != rules.Side0 {
		t.Fatalf("after x1 the game is at ply %d with side %d to move; want ply 2, a to move (b replied)", after.Ply, after.ToMove)
	}
	moves, err := store.Moves(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 || moves[1].Move != y1 {
		t.Fatalf("moves %+v, want x1 then b's planned y1", moves)
	}
	p, ok, err := store.PlanOf(ctx, g.ID, b.ID)
	if err != nil || !ok || p.BasePly != 2 || len(p.Lines) != 1 || p.Lines[0][0] != x2 {
		t.Fatalf("b's plan after the reply: %+v %v %v; want the x2 line from ply 2", p, ok, err)
	}
	// a plays something else: the plan is cleared, nothing is replied.
	other := ""
	cur, _ := after.Decode()
	for _, m := range cur.Legal(rules.Side0) {
		if m != x2 {
			other = m
			break
		}
	}
	after, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: a.ID, Ply: 2, Move: other}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if after.Ply != 3 || after.ToMove != rules.Side1 {
		t.Fatalf("an unplanned move got a reply: ply %d", after.Ply)
	}
	if _, ok, _ := store.PlanOf(ctx, g.ID, b.ID); ok {
		t.Error("b's plan survived a move that matches no line")
	}

	// The card game has none.
	store2, _ := open(t)
	cg, ca, cb := newGame(t, store2, "cards", "short")
	waiting := ca
	if cg.Side[cg.ToMove].ID == ca.ID {
		waiting = cb
	}
	if err := store2.SetPlan(ctx, cg.ID, waiting.ID, 0, [][]string{{"a", "b"}}, t0); db.KindOf(err) != db.KindInvalid || !strings.Contains(err.Error(), "hidden") {
		t.Errorf("a plan in the card game: %v, want invalid (hidden cards)", err)
	}
}

// TestAddPlanLine: a line added to a plan joins the lines planned at the
// same position (once, however often it is added), under the checks of
// SetPlan; a plan left from an earlier position is replaced.
func TestAddPlanLine(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, a, b := newGame(t, store, "trench", "single")
	if g.Side[0].ID != a.ID {
		a, b = b, a
	}
	st, _ := g.Decode()
	x1, z1 := st.Legal(rules.Side0)[0], st.Legal(rules.Side0)[1]
	s1, _ := st.Apply(x1)
	y1, y2 := s1.Legal(rules.Side1)[0], s1.Legal(rules.Side1)[1]
	t1, _ := st.Apply(z1)
	w1 := t1.Legal(rules.Side1)[0]

	for _, line := range [][]string{{x1, y1}, {z1, w1}, {x1, y1}} {
		if err := store.AddPlanLine(ctx, g.ID, b.ID, 0, line, t0); err != nil {
			t.Fatal(err)
		}
	}
	p, ok, err := store.PlanOf(ctx, g.ID, b.ID)
	if err != nil || !ok || len(p.Lines) != 2 || p.Lines[0][1] != y1 || p.Lines[1][1] != w1 {
		t.Fatalf("the plan after three additions (one twice): %+v %v %v", p, ok, err)
	}
	for _, c := range []struct {
		line []string
		want string
	}{{[]string{x1, y2}, "two different replies"}, {[]string{x1}, "give your reply"}, {[]string{st.Legal(rules.Side0)[2], "zz9"}, "move 2"}} {
		if err := store.AddPlanLine(ctx, g.ID, b.ID, 0, c.line, t0); db.KindOf(err) != db.KindInvalid || !strings.Contains(err.Error(), c.want) {
			t.Errorf("adding %q: %v, want invalid mentioning %q", c.line, err, c.want)
		}
	}
	if err := store.AddPlanLine(ctx, g.ID, a.ID, 0, []string{y1, x1}, t0); db.KindOf(err) != db.KindInvalid {
		t.Errorf("a line added by the player to move: %v, want invalid", err)
	}
	if p2, _, _ := store.PlanOf(ctx, g.ID, b.ID); len(p2.Lines) != 2 {
		t.Fatalf("a refused line changed the plan: %+v", p2)
	}
}
