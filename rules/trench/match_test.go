package trench

import (
	"testing"

	"github.com/trench-games/trench/rules"
)

func game(variant string, swapped bool, winner rules.Side, b, w int) rules.MatchGame {
	return rules.MatchGame{
		Spec:   rules.GameSpec{Variant: variant, Swapped: swapped},
		Result: rules.Result{Over: true, Winner: winner, Score: [2]int{b, w}, Reason: rules.ReasonQuiet},
	}
}

func TestNextInMatchOneGame(t *testing.T) {
	cases := []struct {
		name    string
		variant string
		games   []rules.MatchGame
		want    rules.MatchStep
	}{
		{"single: first game", "single", nil, rules.MatchStep{Next: rules.GameSpec{Variant: "single"}}},
		{"bga: first game", "bga", nil, rules.MatchStep{Next: rules.GameSpec{Variant: "bga"}}},
		{"single: black wins", "single", []rules.MatchGame{game("single", false, Black, 50, 12)},
			rules.MatchStep{Done: true, Winner: 0, Totals: [2]int{50, 12}}},
		{"single: white wins", "single", []rules.MatchGame{game("single", false, White, 8, 50)},
			rules.MatchStep{Done: true, Winner: 1, Totals: [2]int{8, 50}}},
		{"bga: white wins by resignation with fewer points", "bga", []rules.MatchGame{game("bga", false, White, 20, 30)},
			rules.MatchStep{Done: true, Winner: 1, Totals: [2]int{20, 30}}},
		{"bga: draw", "bga", []rules.MatchGame{game("bga", false, rules.NoSide, 26, 26)},
			rules.MatchStep{Done: true, Winner: -1, Totals: [2]int{26, 26}}},
	}
	for _, c := range cases {
		if got := NextInMatch(c.variant, c.games, 1); got != c.want {
			t.Errorf("%s: NextInMatch = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestNextInMatchOfficial(t *testing.T) {
	g1 := game("match", false, Black, 20, 10) // player 0 Black: 20, player 1: 10
	for _, variant := range []string{"match", ""} {
		if got := NextInMatch(variant, nil, 5); got != (rules.MatchStep{Next: rules.GameSpec{Variant: "match"}}) {
			t.Errorf("%q: first step = %+v", variant, got)
		}
		got := NextInMatch(variant, []rules.MatchGame{g1}, 5)
		want := rules.MatchStep{Next: rules.GameSpec{Variant: "match", Swapped: true}, Totals: [2]int{20, 10}}
		if got != want {
			t.Errorf("%q: after game 1 = %+v, want %+v", variant, got, want)
		}
	}
	cases := []struct {
		name string
		g2   rules.MatchGame
		want rules.MatchStep
	}{
		// In game 2 player 0 is White: Score[White] is theirs.
		{"player 0 wins on totals", game("match", true, White, 6, 30),
			rules.MatchStep{Done: true, Winner: 0, Totals: [2]int{50, 16}}},
		{"player 1 wins on totals though player 0 won game 1", game("match", true, Black, 40, 8),
			rules.MatchStep{Done: true, Winner: 1, Totals: [2]int{28, 50}}},
		{"player 0 wins on totals though losing game 2", game("match", true, Black, 14, 10),
			rules.MatchStep{Done: true, Winner: 0, Totals: [2]int{30, 24}}},
		{"resigned game 2 counts the whole army", game("match", true, Black, 72, 2),
			rules.MatchStep{Done: true, Winner: 1, Totals: [2]int{22, 82}}},
	}
	for _, c := range cases {
		if got := NextInMatch("match", []rules.MatchGame{g1, c.g2}, 5); got != c.want {
			t.Errorf("%s: NextInMatch = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestNextInMatchDecider(t *testing.T) {
	g1 := game("match", false, Black, 20, 10)
	g2 := game("match", true, Black, 20, 10) // player 1 Black: totals 30 / 30
	for seed := int64(0); seed < 50; seed++ {
		got := NextInMatch("match", []rules.MatchGame{g1, g2}, seed)
		want := rules.MatchStep{Next: rules.GameSpec{Variant: "decider", Swapped: DeciderSwapped(seed)}, Totals: [2]int{30, 30}}
		if got != want {
			t.Fatalf("seed %d: equal totals → %+v, want %+v", seed, got, want)
		}
		if again := NextInMatch("match", []rules.MatchGame{g1, g2}, seed); again != got {
			t.Fatalf("seed %d: the lot is not deterministic", seed)
		}
	}
	// The totals stay those of games 1 and 2: the decider's score stands
	// on its own (spec "Official match").
	cases := []struct {
		name string
		g3   rules.MatchGame
		want rules.MatchStep
	}{
		{"decider won by black, not swapped", game("decider", false, Black, 40, 12),
			rules.MatchStep{Done: true, Winner: 0, Totals: [2]int{30, 30}}},
		{"decider won by black, swapped", game("decider", true, Black, 40, 12),
			rules.MatchStep{Done: true, Winner: 1, Totals: [2]int{30, 30}}},
		{"decider won by white, swapped", game("decider", true, White, 4, 40),
			rules.MatchStep{Done: true, Winner: 0, Totals: [2]int{30, 30}}},
		{"decider won by resignation with fewer points", game("decider", false, White, 30, 20),
			rules.MatchStep{Done: true, Winner: 1, Totals: [2]int{30, 30}}},
		{"drawn decider: drawn match", game("decider", true, rules.NoSide, 8, 8),
			rules.MatchStep{Done: true, Winner: -1, Totals: [2]int{30, 30}}},
	}
	for _, c := range cases {
		if got := NextInMatch("match", []rules.MatchGame{g1, g2, c.g3}, 9); got != c.want {
			t.Errorf("%s: NextInMatch = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestDeciderLot(t *testing.T) {
	swapped := 0
	for seed := int64(-500); seed < 500; seed++ {
		a, b := DeciderSwapped(seed), DeciderSwapped(seed)
		if a != b {
			t.Fatalf("seed %d: lot differs between calls", seed)
		}
		if a {
			swapped++
		}
	}
	if swapped < 400 || swapped > 600 {
		t.Errorf("lot swapped %d times in 1000 seeds", swapped)
	}
}
