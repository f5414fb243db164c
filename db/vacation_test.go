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

// TestVacationAcrossNewYear: each day of a vacation is charged to the
// calendar year (UTC) it falls in, and a vacation that would go past the
// new year's allowance ends when that is used up.
func TestVacationAcrossNewYear(t *testing.T) {
	store, _ := open(t)
	store.SetVacationDays(20)
	ctx := context.Background()
	u := users(t, store, "ann", "bob")
	ann, bob := u[0], u[1]
	newYear := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)

	// Ann leaves on 20 December at noon with her 20 days: 11.5 of them
	// fall in 2026, then 2027's 20 days run until 21 January.
	start := time.Date(2026, 12, 20, 12, 0, 0, 0, time.UTC)
	if err := store.StartVacation(ctx, ann.ID, start); err != nil {
		t.Fatal(err)
	}
	st, _ := store.Vacation(ctx, ann.ID, start)
	if want := newYear.Add(20 * day); !st.EndsBy.Equal(want) {
		t.Fatalf("a vacation from 20 December ends by %v, want %v", st.EndsBy, want)
	}
	// It lapsed; 2027's allowance is gone: no second vacation in a row.
	after := newYear.Add(21 * day)
	if st, _ := store.Vacation(ctx, ann.ID, after); st.On || st.Left != 0 {
		t.Fatalf("on 22 January: %+v, want no vacation and nothing left", st)
	}
	wantKind(t, store.StartVacation(ctx, ann.ID, after), db.KindConflict)

	// Bob used 15 days in June: on 29 December 5 are left, and the 3 days
	// to the new year come out of them; from 1 January 2027's allowance
	// pays. He is back on 2 January: 1 day of 2027 is used, 19 are left.
	june := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	if err := store.StartVacation(ctx, bob.ID, june); err != nil {
		t.Fatal(err)
	}
	if err := store.EndVacation(ctx, bob.ID, june.Add(15*day)); err != nil {
		t.Fatal(err)
	}
	dec29 := newYear.Add(-3 * day)
	if st, _ := store.Vacation(ctx, bob.ID, dec29); st.Left != 5*day {
		t.Fatalf("on 29 December bob has %v left, want 5 days", st.Left)
	}
	if err := store.StartVacation(ctx, bob.ID, dec29); err != nil {
		t.Fatal(err)
	}
	if st, _ := store.Vacation(ctx, bob.ID, dec29); !st.EndsBy.Equal(newYear.Add(20 * day)) {
		t.Fatalf("bob's vacation from 29 December ends by %v, want 21 January", st.EndsBy)
	}
	if err := store.EndVacation(ctx, bob.ID, newYear.Add(day)); err != nil {
		t.Fatal(err)
	}
	if st, _ := store.Vacation(ctx, bob.ID, newYear.Add(day)); st.Left != 19*day {
		t.Fatalf("back on 2 January bob has %v left, want 19 days", st.Left)
	}

	// With only 2026's allowance left and no new year in between, a
	// vacation ends when it is used up.
	if err := store.StartVacation(ctx, bob.ID, newYear.Add(10*day)); err != nil {
		t.Fatal(err)
	}
	if st, _ := store.Vacation(ctx, bob.ID, newYear.Add(10*day)); !st.EndsBy.Equal(newYear.Add(29 * day)) {
		t.Fatalf("bob's second 2027 vacation ends by %v, want 30 January (19 days)", st.EndsBy)
	}
}

// TestTimeBankExactToTheSecond plays forty moves, each at a moment with a
// fraction of a second, on a time bank: every bank is the whole seconds
// the clock says, with no second lost to rounding on any move.
func TestTimeBankExactToTheSecond(t *testing.T) {
	store, _ := open(t)
	store.SetVacationDays(0)
	ctx := context.Background()
	u := users(t, store, "ann", "bob")
	tc := db.TimeControl{Kind: "bank", BankInitial: 10 * day, BankAdd: 36 * time.Hour, BankMax: 60 * day}
	start := t0.Add(700 * time.Millisecond)
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: u[0].ID, Game: "trench", Variant: "single", Color: "0", Clock: tc}, start)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptChallenge(ctx, c.ID, u[1].ID, 1, start)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := rules.Lookup("trench")
	want := [2]time.Duration{10 * day, 10 * day}
	now := start
	for i := 0; i < 40; i++ {
		g, err := store.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != "active" {
			break
		}
		st, err := e.Decode(g.Variant, g.State)
		if err != nil {
			t.Fatal(err)
		}
		side := g.ToMove
		// An hour and a fraction of a second later, by the wall clock;
		// the clock counts whole seconds: one hour.
		now = now.Add(time.Hour + time.Duration(100+i*23%900)*time.Millisecond)
		turn := g.TurnStarted
		used := now.Truncate(time.Second).Sub(turn)
		g, err = store.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[side].ID, Ply: g.Ply, Move: st.Legal(side)[0]}, now)
		if err != nil {
			t.Fatal(err)
		}
		want[side] = min(want[side]-used+tc.BankAdd, tc.BankMax)
		if g.Bank[side] != want[side] {
			t.Fatalf("move %d: the bank of side %d is %v (%d s), want %v (%d s)", i+1, side, g.Bank[side], g.Bank[side]/time.Second, want[side], want[side]/time.Second)
		}
	}
}
