package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
)

func runBot(args ...string) (stdout, stderr string, status int) {
	var out, errb bytes.Buffer
	err := botCommand(context.Background(), &out, &errb, args)
	var exit exitError
	switch {
	case errors.As(err, &exit):
		status = int(exit)
	case err != nil:
		status = -1
	}
	return out.String(), errb.String(), status
}

const trenchesStart = "3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l"

// The command's contract: one legal move of the side to move, exit 0;
// the same answer every time with --nodes and --seed.
func TestBotMovePrintsALegalMove(t *testing.T) {
	for _, c := range []struct{ game, position, variant string }{
		{"trench", start, "single"}, {"trench", start, "bga"}, {"trench", start, "match"}, {"trench", start, "decider"},
		{"trenches", trenchesStart, ""},
	} {
		eng, _ := rules.Lookup(c.game)
		v := c.variant
		if v == "" {
			v = eng.Variants()[0].Key
		}
		st, err := eng.Decode(v, c.position)
		if err != nil {
			t.Fatal(err)
		}
		for _, level := range []string{"easy", "medium", "hard", "random", "greedy"} {
			args := []string{"move", c.game, c.position, "--level", level, "--nodes", "3000", "--seed", "7"}
			if c.variant != "" {
				args = append(args, "--rules", c.variant)
			}
			out, errOut, status := runBot(args...)
			if status != 0 || errOut != "" || !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
				t.Fatalf("%v: status %d stdout %q stderr %q", args, status, out, errOut)
			}
			move := strings.TrimSuffix(out, "\n")
			if _, err := st.Apply(move); err != nil {
				t.Fatalf("%v: %q is not legal: %v", args, move, err)
			}
			if again, _, _ := runBot(args...); again != out {
				t.Fatalf("%v: %q then %q with the same seed and nodes", args, out, again)
			}
		}
	}
	// The defaults (hard, 1000 ms) answer too.
	out, errOut, status := runBot("move", "trench", start, "--movetime", "200")
	if status != 0 || errOut != "" || out == "" {
		t.Fatalf("defaults: status %d stdout %q stderr %q", status, out, errOut)
	}
}

func TestBotMoveErrors(t *testing.T) {
	for _, args := range [][]string{
		{"move", "trench", "not a position"},
		{"move", "trench", start, "--level", "expert"},
		{"move", "trench", start, "--frobnicate"},
		{"move", "trench", start, "--rules", "blitz"},
		{"move", "trench", start, "--nodes", "-5"},
		{"move", "trench", start, "--nodes", "100", "--movetime", "100"},
		{"move", "chess", start},
		{"move", "trench"},
		{"move", "cards", "x"},
		// White has nothing left: Black has won, no move to make.
		{"move", "trench", "8/8/8/8/8/8/8/g7 w 0 0 0"},
		{"move", "trenches", "10/10/10/10/10/10/10/10/10/10 l"},
		{"duel", "--game", "trench", "--a", "hard"},
		{"duel", "--game", "trench", "--rules", "blitz", "--a", "easy", "--b", "random", "--games", "2"},
		{"duel", "--game", "trench", "--a", "hard", "--b", "easy", "--games", "2", "--nodes", "10", "--movetime", "10"},
		{"duel", "--game", "trench", "--a", "hard", "--b", "easy", "--games", "2", "--workers", "-1"},
		{"jump"},
	} {
		out, errOut, status := runBot(args...)
		if status != 1 || out != "" || !strings.HasPrefix(errOut, "trench bot: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: status %d stdout %q stderr %q, want exit 1 with one line on stderr", args, status, out, errOut)
		}
		if len(args) > 2 && args[0] == "move" && len(args[2]) > 2 && strings.Count(errOut, args[2]) > 1 {
			t.Errorf("%q: the error names the position more than once: %q", args, errOut)
		}
	}
}

// TestBotDuelDecider: the decider's rules (a TRENCH game to 40 that no
// challenge offers on its own) can be dueled too.
func TestBotDuelDecider(t *testing.T) {
	out, errOut, status := runBot("duel", "--game", "trench", "--rules", "decider", "--a", "easy", "--b", "random", "--games", "2", "--nodes", "200")
	if status != 0 || !strings.HasPrefix(out, "games=2 ") {
		t.Fatalf("decider duel: status %d stdout %q stderr %q", status, out, errOut)
	}
}

func TestBotDuelReport(t *testing.T) {
	for _, game := range []string{"trench", "trenches", "cards"} {
		out, errOut, status := runBot("duel", "--game", game, "--a", "random", "--b", "random", "--games", "4", "--nodes", "100")
		if _, ok := bot.Lookup(game); !ok {
			// A game without a computer player yet: one clear message.
			if status != 1 || out != "" || !strings.Contains(errOut, "trench bot: no computer player for ") {
				t.Fatalf("%s without a player: status %d stdout %q stderr %q", game, status, out, errOut)
			}
			continue
		}
		if status != 0 {
			t.Fatalf("%s: status %d stderr %q", game, status, errOut)
		}
		first := strings.SplitN(out, "\n", 2)[0]
		if !strings.HasPrefix(first, "games=4 wins=") || !strings.Contains(first, " score=") || !strings.Contains(first, " elo=") || !strings.Contains(first, "95%") {
			t.Fatalf("%s: report %q", game, out)
		}
	}
}
