package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

const day = 24 * time.Hour

// TestVacationStopsTheClock: a player on vacation does not lose on time;
// the days away are added to their deadline.
func TestVacationStopsTheClock(t *testing.T) {
	store, _ := open(t)
	store.SetVacationDays(0)
	ctx := context.Background()
	g, ann, bob := newGame(t, store, "trench", "single") // 2 days per move
	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0); err != nil {
		t.Fatal(err)
	}
	// With no allowance bob cannot go on vacation.
	wantKind(t, store.StartVacation(ctx, bob.ID, t0.Add(time.Hour)), db.KindConflict)
	store.SetVacationDays(10)
	if err := store.StartVacation(ctx, bob.ID, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	wantKind(t, store.StartVacation(ctx, bob.ID, t0.Add(2*time.Hour)), db.KindConflict)
	st, _ := store.Vacation(ctx, bob.ID, t0.Add(2*time.Hour))
	if !st.On || st.Auto || !st.EndsBy.Equal(t0.Add(time.Hour+10*day)) {
		t.Fatalf("vacation status %+v", st)
	}
	// Back after 3 days: 1 hour was used before, 47 hours are left.
	if err := store.EndVacation(ctx, bob.ID, t0.Add(time.Hour+3*day)); err != nil {
		t.Fatal(err)
	}
	g, _ = store.Game(ctx, g.ID)
	if want := t0.Add(5*day + time.Hour - time.Hour + time.Hour); !g.Deadline.Equal(t0.Add(2*day + 3*day)) {
		t.Fatalf("deadline %v, want %v (2 days + 3 on vacation)", g.Deadline, want)
	}
	if n, _ := store.ExpireGames(ctx, t0.Add(4*day)); n != 0 {
		t.Fatal("timed out although the clock stood still")
	}
	st, _ = store.Vacation(ctx, bob.ID, t0.Add(4*day))
	if st.On || st.Left != 7*day {
		t.Fatalf("after 3 days away: %+v, want 7 days left", st)
	}
	wantKind(t, store.EndVacation(ctx, bob.ID, t0.Add(4*day)), db.KindConflict)
	store.SetVacationDays(0)
	if n, _ := store.ExpireGames(ctx, t0.Add(5*day+time.Minute)); n != 1 {
		t.Fatal("no timeout once the time (vacation included) ran out")
	}
}

// TestVacationUsedBeforeATimeout: when the time runs out the allowance is
// used first; the game is lost on time only when it is gone too.
func TestVacationUsedBeforeATimeout(t *testing.T) {
	store, _ := open(t)
	store.SetVacationDays(3)
	ctx := context.Background()
	g, ann, _ := newGame(t, store, "trench", "single") // ann to move, 2 days
	if n, err := store.ExpireGames(ctx, t0.Add(2*day+time.Minute)); err != nil || n != 0 {
		t.Fatalf("expired %d (%v): the vacation was not used", n, err)
	}
	st, _ := store.Vacation(ctx, ann.ID, t0.Add(2*day+time.Minute))
	if !st.On || !st.Auto || !st.Since.Equal(t0.Add(2*day)) || !st.EndsBy.Equal(t0.Add(5*day)) {
		t.Fatalf("automatic vacation %+v, want from the deadline for 3 days", st)
	}
	if n, _ := store.ExpireGames(ctx, t0.Add(4*day)); n != 0 {
		t.Fatal("timed out during the vacation")
	}
	n, err := store.ExpireGames(ctx, t0.Add(5*day+time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("expired %d (%v) after the allowance, want 1", n, err)
	}
	g, _ = store.Game(ctx, g.ID)
	if g.Reason != rules.ReasonTimeout || g.Winner != rules.Side1 {
		t.Fatalf("result %q winner %d", g.Reason, g.Winner)
	}
	st, _ = store.Vacation(ctx, ann.ID, t0.Add(6*day))
	if st.On || st.Left != 0 {
		t.Fatalf("after the allowance ran out: %+v", st)
	}
	// A new year brings a new allowance.
	st, _ = store.Vacation(ctx, ann.ID, time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC))
	if st.Left != 3*day {
		t.Fatalf("next year's allowance %v", st.Left)
	}
}

// TestMovingEndsAnAutomaticVacation: a player back from an automatic
// vacation is charged only the days away.
func TestMovingEndsAnAutomaticVacation(t *testing.T) {
	store, _ := open(t)
	store.SetVacationDays(5)
	ctx := context.Background()
	g, ann, _ := newGame(t, store, "trench", "single")
	store.ExpireGames(ctx, t0.Add(2*day+time.Minute))
	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0.Add(3*day)); err != nil {
		t.Fatal(err)
	}
	st, _ := store.Vacation(ctx, ann.ID, t0.Add(3*day))
	if st.On || st.Left != 4*day {
		t.Fatalf("after moving: %+v, want off with 4 days left", st)
	}
}

// TestTimeBank plays moves on a time bank and checks each side's bank.
func TestTimeBank(t *testing.T) {
	store, _ := open(t)
	store.SetVacationDays(0)
	ctx := context.Background()
	u := users(t, store, "ann", "bob")
	tc := db.TimeControl{Kind: "bank", BankInitial: 10 * day, BankAdd: 36 * time.Hour, BankMax: 12 * day}
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: u[0].ID, Game: "trench", Variant: "single", Color: "0", Clock: tc}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if c.Clock != tc {
		t.Fatalf("challenge clock %+v", c.Clock)
	}
	id, err := store.AcceptChallenge(ctx, c.ID, u[1].ID, 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := store.Game(ctx, id)
	if g.Clock != tc || g.Bank != [2]time.Duration{10 * day, 10 * day} || !g.Deadline.Equal(t0.Add(10*day)) {
		t.Fatalf("new game clock %+v banks %v deadline %v", g.Clock, g.Bank, g.Deadline)
	}
	// ann takes 4 days: 10 - 4 + 1.5 = 7.5 days.
	g, err = store.PlayMove(ctx, db.Play{GameID: id, UserID: u[0].ID, Ply: 0, Move: "d4-d5"}, t0.Add(4*day))
	if err != nil {
		t.Fatal(err)
	}
	if g.Bank[0] != 7*day+12*time.Hour || !g.Deadline.Equal(t0.Add(14*day)) {
		t.Fatalf("after ann's move: banks %v deadline %v", g.Bank, g.Deadline)
	}
	// bob takes 1 hour: 10 days - 1 h + 36 h, capped at 12 days.
	g, err = store.PlayMove(ctx, db.Play{GameID: id, UserID: u[1].ID, Ply: 1, Move: "e5-e4"}, t0.Add(4*day+time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if g.Bank[1] != 11*day+11*time.Hour || !g.Deadline.Equal(t0.Add(4*day+time.Hour+7*day+12*time.Hour)) {
		t.Fatalf("after bob's move: banks %v deadline %v", g.Bank, g.Deadline)
	}
	// A bad bank is refused.
	_, err = store.CreateChallenge(ctx, db.NewChallenge{CreatorID: u[0].ID, Game: "trench", Variant: "single", Color: "0",
		Clock: db.TimeControl{Kind: "bank", BankInitial: 10 * day, BankMax: day}}, t0)
	wantKind(t, err, db.KindInvalid)
}
