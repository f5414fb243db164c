package db

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeControl is how much time a player has to move.
//
//   - "move": DaysPerMove days for every move (the clock is full again
//     after each move).
//   - "bank": a time bank per player that starts at BankInitial; the time a
//     move takes is taken from it, BankAdd is added after each move, and it
//     never holds more than BankMax (Little Golem's 10 days, +36 h a move).
//
// Time a player spends on vacation does not count (see Vacation).
type TimeControl struct {
	Kind        string // "move" or "bank"
	DaysPerMove int
	BankInitial time.Duration
	BankAdd     time.Duration
	BankMax     time.Duration
}

// The time controls' limits: what a challenge may ask for.
const (
	maxBank    = 60 * 24 * time.Hour
	maxBankAdd = 7 * 24 * time.Hour
)

// Validate checks a time control a challenge asks for. Errors: KindInvalid.
func (tc TimeControl) Validate() error {
	switch tc.Kind {
	case "move":
		for _, d := range DaysPerMove {
			if d == tc.DaysPerMove {
				return nil
			}
		}
		if n := len(DaysPerMove); n > 1 {
			return Errorf(KindInvalid, "Time per move must be %s or %d days.", daysList(DaysPerMove[:n-1]), DaysPerMove[n-1])
		}
		return Errorf(KindInvalid, "Time per move must be %s days.", daysList(DaysPerMove))
	case "bank":
		switch {
		case tc.BankInitial < time.Hour || tc.BankInitial > maxBank:
			return Errorf(KindInvalid, "A time bank starts with 1 hour to 60 days.")
		case tc.BankAdd < 0 || tc.BankAdd > maxBankAdd:
			return Errorf(KindInvalid, "A time bank gains 0 to 7 days a move.")
		case tc.BankMax < tc.BankInitial || tc.BankMax > maxBank:
			return Errorf(KindInvalid, "A time bank's maximum must be at least its start and at most 60 days.")
		}
		return nil
	}
	return Errorf(KindInvalid, "Choose days per move or a time bank.")
}

// daysList writes numbers of days separated by commas: "1, 2, 3".
func daysList(days []int) string {
	var b strings.Builder
	for i, d := range days {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	return b.String()
}

// String describes the time control for players, e.g. "3 days per move"
// or "time bank: 10 days, +36 hours a move, up to 20 days".
func (tc TimeControl) String() string {
	if tc.Kind == "bank" {
		return fmt.Sprintf("time bank: %s, +%s a move, up to %s", span(tc.BankInitial), span(tc.BankAdd), span(tc.BankMax))
	}
	if tc.DaysPerMove == 1 {
		return "1 day per move"
	}
	return fmt.Sprintf("%d days per move", tc.DaysPerMove)
}

// span writes a duration in whole days or hours ("10 days", "36 hours").
func span(d time.Duration) string {
	h := int(d / time.Hour)
	switch {
	case h%24 == 0 && h/24 == 1:
		return "1 day"
	case h%24 == 0:
		return fmt.Sprintf("%d days", h/24)
	case h == 1:
		return "1 hour"
	}
	return fmt.Sprintf("%d hours", h)
}

// allowance is how long the side to move may take on this turn: the whole
// per-move time, or what is in its bank.
func (tc TimeControl) allowance(bank time.Duration) time.Duration {
	if tc.Kind == "bank" {
		return bank
	}
	return time.Duration(tc.DaysPerMove) * 24 * time.Hour
}

// afterMove returns the bank after a move that took used out of bank.
func (tc TimeControl) afterMove(bank, used time.Duration) time.Duration {
	if tc.Kind != "bank" {
		return bank
	}
	return min(max(bank-used, 0)+tc.BankAdd, tc.BankMax)
}

// Vacation is a period in which a player's clocks stop in every game.
// End is when it ended, or — while it lasts — when it will end at the
// latest (when the player's yearly allowance runs out).
type Vacation struct {
	Start time.Time
	End   time.Time
	Open  bool // not ended yet by the player
	Auto  bool // started by the server when the player's time ran out
}

// overlap returns how much of [from, to) lies inside the vacations.
func overlap(vs []Vacation, from, to time.Time) time.Duration {
	var d time.Duration
	for _, v := range vs {
		start, end := v.Start, v.End
		if start.Before(from) {
			start = from
		}
		if end.After(to) {
			end = to
		}
		if end.After(start) {
			d += end.Sub(start)
		}
	}
	return d
}

// used returns the time a turn started at start has used by now: the time
// passed less the time the player was on vacation.
func used(start, now time.Time, vs []Vacation) time.Duration {
	if !now.After(start) {
		return 0
	}
	return now.Sub(start) - overlap(vs, start, now)
}

// timeLeft returns how long the side to move still has on a turn started
// at start, with allowance for the whole turn (negative once it ran out).
func timeLeft(start, now time.Time, allowance time.Duration, vs []Vacation) time.Duration {
	return allowance - used(start, now, vs)
}

// vacationAt returns the vacation lasting at now, if any.
func vacationAt(vs []Vacation, now time.Time) (Vacation, bool) {
	for _, v := range vs {
		if !v.Start.After(now) && v.End.After(now) {
			return v, true
		}
	}
	return Vacation{}, false
}

// runsOut returns when a turn started at start with allowance runs out,
// seen from now: later if a vacation lasts now (the clock stands still
// until it ends), earlier never.
func runsOut(start, now time.Time, allowance time.Duration, vs []Vacation) time.Time {
	left := timeLeft(start, now, allowance, vs)
	if v, ok := vacationAt(vs, now); ok {
		return v.End.Add(left)
	}
	return now.Add(left)
}
