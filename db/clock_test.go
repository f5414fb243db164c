package db

import (
	"testing"
	"time"
)

var c0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func h(n float64) time.Duration { return time.Duration(n * float64(time.Hour)) }

func TestTimeUsedLessVacations(t *testing.T) {
	vs := []Vacation{
		{Start: c0.Add(h(10)), End: c0.Add(h(20))},   // 10 h inside the turn
		{Start: c0.Add(-h(5)), End: c0.Add(h(2))},    // 2 h of it inside
		{Start: c0.Add(h(100)), End: c0.Add(h(200))}, // after now
	}
	now := c0.Add(h(30))
	if got := used(c0, now, vs); got != h(18) {
		t.Fatalf("used %v, want 18h (30 passed, 12 on vacation)", got)
	}
	if got := timeLeft(c0, now, h(24), vs); got != h(6) {
		t.Fatalf("left %v, want 6h", got)
	}
	if got := runsOut(c0, now, h(24), vs); !got.Equal(now.Add(h(6))) {
		t.Fatalf("runs out at %v", got)
	}
	if used(c0, c0.Add(-h(1)), nil) != 0 {
		t.Fatal("time used before the turn started")
	}
}

func TestRunsOutWhileOnVacation(t *testing.T) {
	// On vacation from hour 5 to hour 50: at hour 20 the turn has used 5 h
	// of 24; the clock resumes at 50, so it runs out at 50+19.
	vs := []Vacation{{Start: c0.Add(h(5)), End: c0.Add(h(50)), Open: true}}
	got := runsOut(c0, c0.Add(h(20)), h(24), vs)
	if !got.Equal(c0.Add(h(69))) {
		t.Fatalf("runs out at +%v, want +69h", got.Sub(c0))
	}
}

func TestTimeBankArithmetic(t *testing.T) {
	tc := TimeControl{Kind: "bank", BankInitial: h(240), BankAdd: h(36), BankMax: h(480)}
	if err := tc.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := tc.afterMove(h(240), h(100)); got != h(176) {
		t.Fatalf("240 - 100 + 36 = %v", got)
	}
	if got := tc.afterMove(h(470), h(1)); got != h(480) {
		t.Fatalf("capped at the maximum: %v", got)
	}
	if got := tc.afterMove(h(10), h(20)); got != h(36) {
		t.Fatalf("an overdrawn bank counts from zero: %v", got)
	}
	if got := tc.allowance(h(55)); got != h(55) {
		t.Fatalf("allowance %v", got)
	}
	if got := tc.String(); got != "time bank: 10 days, +36 hours a move, up to 20 days" {
		t.Fatalf("%q", got)
	}
	per := TimeControl{Kind: "move", DaysPerMove: 3}
	if per.allowance(0) != h(72) || per.afterMove(h(1), h(70)) != h(1) || per.String() != "3 days per move" {
		t.Fatal("per-move clock")
	}
	for _, bad := range []TimeControl{
		{Kind: "move", DaysPerMove: 4},
		{Kind: "bank", BankInitial: 0, BankMax: h(10)},
		{Kind: "bank", BankInitial: h(48), BankAdd: h(24 * 8), BankMax: h(100)},
		{Kind: "bank", BankInitial: h(48), BankMax: h(24)},
		{Kind: "hourglass"},
	} {
		if KindOf(bad.Validate()) != KindInvalid {
			t.Errorf("%+v accepted", bad)
		}
	}
}
