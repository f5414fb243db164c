package rules_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
	_ "github.com/trench-games/trench/rules/trench"
)

func TestRecordRoundTripAndReplay(t *testing.T) {
	r := rules.Record{Game: "trench", Variant: "single", Seed: -7,
		Tags:  [][2]string{{"Black", `al"ice`}, {"White", "bob"}},
		Moves: []string{"d4-d5", "e5-e4"}}
	text := r.String()
	back, err := rules.ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	if back.String() != text || back.Tags[0][1] != `al"ice` || back.Seed != -7 {
		t.Fatalf("round trip:\n%s\nvs\n%s", back.String(), text)
	}
	st, err := back.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Encode(); got != "4RACG/4SRAC/4SSRA/3s1SSR/rss1S3/arss4/cars4/gcar4 b 2 0 0" {
		t.Fatalf("replay ends at %s", got)
	}
}

func TestRecordErrors(t *testing.T) {
	cases := map[string]string{
		"[Game \"trench\"]\n1. d4-d5\n3. e5-e4\n": "want move 2",
		"1. d4-d5\n":                                 "no [Game] tag",
		"[Game trench]\n":                            "not a quoted string",
		"[Game \"trench\"]\n[Game \"trench\"]\n":     "twice",
		"[Game \"trench\"]\n[Seed \"x\"]\n":          "seed",
		"[Game \"trench\"]\n1. d4-d5\n[Black \"a\"]": "after the moves",
	}
	for text, msg := range cases {
		if _, err := rules.ParseRecord(text); err == nil || !errors.Is(err, rules.ErrNotation) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want an error naming %q", text, err, msg)
		}
	}
	r := rules.Record{Game: "trench", Variant: "single", Moves: []string{"d4-d5", "d5-d8"}}
	if _, err := r.Replay(); err == nil || !strings.Contains(err.Error(), `move 2 "d5-d8"`) {
		t.Fatalf("illegal move 2: %v", err)
	}
	if _, err := (rules.Record{Game: "go"}).Replay(); err == nil {
		t.Fatal("an unknown game replayed")
	}
}
