package bot_test

import (
	"errors"
	"testing"
	"time"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	_ "github.com/trench-games/trench/rules/trench"
)

func TestParseLevel(t *testing.T) {
	for _, l := range bot.Levels {
		got, err := bot.ParseLevel(string(l))
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %q, %v", l, got, err)
		}
	}
	for _, s := range []string{"", "Hard", "expert"} {
		if _, err := bot.ParseLevel(s); !errors.Is(err, bot.ErrLevel) {
			t.Errorf("ParseLevel(%q) err = %v, want ErrLevel", s, err)
		}
	}
}

func TestRandomMoveIsLegalAndSeeded(t *testing.T) {
	eng, _ := rules.Lookup("trench")
	st, err := eng.Start(eng.FirstGame("single"), 1)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for seed := int64(0); seed < 64; seed++ {
		m, err := bot.RandomMove(st, seed)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := bot.RandomMove(st, seed); again != m {
			t.Fatalf("seed %d: %q then %q", seed, m, again)
		}
		if _, err := st.Apply(m); err != nil {
			t.Fatalf("seed %d: %q is not legal: %v", seed, m, err)
		}
		seen[m] = true
	}
	if len(seen) < 5 {
		t.Errorf("64 seeds gave only %d different moves out of %d", len(seen), len(st.Legal(st.ToMove())))
	}
}

func TestDeadline(t *testing.T) {
	now := int64(0)
	clock := func() time.Time { return time.Unix(now, 0) }
	stop := bot.Deadline(clock, 2*time.Second)
	if stop() {
		t.Fatal("stopped at once")
	}
	now = 2
	if !stop() {
		t.Fatal("not stopped after the time")
	}
}

func TestMatchScore(t *testing.T) {
	game1 := rules.MatchGame{Spec: rules.GameSpec{Variant: "match"}, Result: rules.Result{Over: true, Score: [2]int{30, 12}}}
	// Game 2 swaps colours: match player 0 (30 points) now plays Side1.
	if got := bot.MatchScore([]rules.MatchGame{game1}, rules.GameSpec{Variant: "match", Swapped: true}); got != [2]int{12, 30} {
		t.Fatalf("game 2: %v, want [12 30]", got)
	}
	game2 := rules.MatchGame{Spec: rules.GameSpec{Variant: "match", Swapped: true}, Result: rules.Result{Over: true, Score: [2]int{20, 2}}}
	// After game 2: player 0 has 30+2, player 1 has 12+20.
	if got := bot.MatchScore([]rules.MatchGame{game1, game2}, rules.GameSpec{Variant: "decider"}); got != [2]int{32, 32} {
		t.Fatalf("decider: %v, want [32 32]", got)
	}
	if got := bot.MatchScore(nil, rules.GameSpec{Variant: "single"}); got != [2]int{} {
		t.Fatalf("first game: %v", got)
	}
}
