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
