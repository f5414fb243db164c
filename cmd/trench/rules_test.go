package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

const start = "4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0"

func runRules(args ...string) (stdout, stderr string, status int) {
	var out, errb bytes.Buffer
	err := rulesCommand(&out, &errb, args)
	var exit exitError
	switch {
	case errors.As(err, &exit):
		status = int(exit)
	case err != nil:
		status = -1
	}
	return out.String(), errb.String(), status
}

func TestRulesLegal(t *testing.T) {
	out, _, status := runRules("legal", "trench", start)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if status != 0 || len(lines) != 14 {
		t.Fatalf("legal from the start: status %d, %d moves:\n%s", status, len(lines), out)
	}
	for i := 1; i < len(lines); i++ {
		if lines[i-1] >= lines[i] {
			t.Fatalf("not sorted byte-wise: %q before %q", lines[i-1], lines[i])
		}
	}
	if !strings.Contains(out, "d4-d5\n") {
		t.Fatal("d4-d5 missing")
	}
	out, _, _ = runRules("legal", "trenches", "3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l")
	if n := strings.Count(out, "\n"); n != 1184 {
		t.Fatalf("Trenches start: %d moves, want 1184", n)
	}
}

func TestRulesApply(t *testing.T) {
	out, errOut, status := runRules("apply", "trench", start, "d4-d5", "e5-e4")
	want := "4RACG/4SRAC/4SSRA/3s1SSR/rss1S3/arss4/cars4/gcar4 b 2 0 0\n"
	if status != 0 || errOut != "" || out != want {
		t.Fatalf("apply: status %d stdout %q stderr %q, want %q", status, out, errOut, want)
	}
	out, _, _ = runRules("apply", "trench", start)
	if out != start+"\n" {
		t.Fatalf("apply with no moves: %q", out)
	}
}

func TestRulesErrors(t *testing.T) {
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"apply", "trench", start, "d4-d5", "d5-d9"}, `"d5-d9"`},
		{[]string{"apply", "trench", start, "d4-d7"}, `"d4-d7"`},
		{[]string{"apply", "trench", "rubbish"}, "rubbish"},
		{[]string{"legal", "chess", start}, "chess"},
		{[]string{"legal", "trench", start + " extra"}, "position"},
		{[]string{"perft", "trench", start, "deep"}, "depth"},
		{[]string{"dance", "trench", start}, "dance"},
		{[]string{"legal"}, "want"},
	}
	for _, tc := range cases {
		out, errOut, status := runRules(tc.args...)
		if status != 1 || out != "" || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "\n") < 1 {
			t.Errorf("%v: status %d stdout %q stderr %q (want exit 1, nothing on stdout, a message naming %s)", tc.args, status, out, errOut, tc.msg)
		}
	}
}

func TestRulesPerft(t *testing.T) {
	for depth, want := range map[string]string{"0": "1\n", "1": "14\n", "2": "192\n"} {
		out, _, status := runRules("perft", "trench", start, depth)
		if status != 0 || out != want {
			t.Errorf("perft %s = %q, want %q", depth, out, want)
		}
	}
}

func TestRulesReplay(t *testing.T) {
	dir := t.TempDir()
	good := dir + "/good.txt"
	os.WriteFile(good, []byte("[Game \"trench\"]\n[Variant \"single\"]\n[Seed \"0\"]\n[Black \"alice\"]\n\n1. d4-d5\n2. e5-e4\n"), 0o600)
	out, errOut, status := runRules("replay", good)
	if status != 0 || out != "4RACG/4SRAC/4SSRA/3s1SSR/rss1S3/arss4/cars4/gcar4 b 2 0 0\n" {
		t.Fatalf("replay: %d %q %q", status, out, errOut)
	}
	bad := dir + "/bad.txt"
	os.WriteFile(bad, []byte("[Game \"trench\"]\n[Variant \"single\"]\n\n1. d4-d5\n2. e5-e4\n3. d5-d2\n"), 0o600)
	out, errOut, status = runRules("replay", bad)
	if status != 1 || out != "" || !strings.Contains(errOut, `move 3 "d5-d2"`) {
		t.Fatalf("a record with an illegal move: %d %q %q", status, out, errOut)
	}
	_, errOut, status = runRules("replay", dir+"/missing.txt")
	if status != 1 || errOut == "" {
		t.Fatal("a missing file was accepted")
	}
}

func TestRulesLegalIgnoresTheEnd(t *testing.T) {
	// White has no units left: the game is over, yet Black's moves are
	// still the legal moves of the position.
	out, errOut, status := runRules("legal", "trench", "8/8/8/8/rsss4/arss4/cars4/gcar4 b 0 0 0")
	if status != 0 || !strings.Contains(out, "a4-a5\n") {
		t.Fatalf("legal in an ended position: status %d, %q %q", status, out, errOut)
	}
}

func TestRulesLegalCards(t *testing.T) {
	// The usage names cards among the games: its positions name their
	// variant.
	pos := "c1 short 1 0 0 0 5S,AS,9S/4S,3S,8S,7S/2S,6S,10S,JS,QS,KS///-/--0 6H,QH,2H/8H,4H,7H,10H/AH,3H,5H,9H,JH,KH///-/--0 -"
	out, errOut, status := runRules("legal", "cards", pos)
	if status != 0 || !strings.Contains(out, "attack F1\n") {
		t.Fatalf("legal cards: status %d, %q %q", status, out, errOut)
	}
}

func TestUsageAndReadmeAgreeOnGames(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(usage, "GAME is trench, trenches or cards.") ||
		!strings.Contains(string(readme), "The game names (GAME) are `trench`, `trenches` and `cards`") {
		t.Error("the usage and the README name different games")
	}
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok && !strings.Contains(string(readme), "Go](https://go.dev/dl/) ("+v+" or newer") {
			t.Errorf("the README does not state the Go version go.mod needs (%s)", v)
		}
	}
}

func TestServeHelpIsNoError(t *testing.T) {
	if err := serve(context.Background(), []string{"--help"}); err != nil {
		t.Errorf("serve --help: %v", err)
	}
}

// TestReadmePositionsAreAccepted: every position the README shows as an
// example of a game's format is one the commands take.
func TestReadmePositionsAreAccepted(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "A position is one line of text")
	section, _, _ = strings.Cut(section, "\n## ")
	games := map[string]string{"**TRENCH**": "trench", "**Trenches**": "trenches", "**The card game**": "cards"}
	seen := 0
	for _, item := range strings.Split(section, "\n- ") {
		game := ""
		for k, v := range games {
			if strings.HasPrefix(item, k) {
				game = v
			}
		}
		if game == "" {
			continue
		}
		quoted := strings.Split(item, "`")
		pos := strings.Join(strings.Fields(quoted[len(quoted)-2]), " ")
		if out, errOut, status := runRules("legal", game, pos); status != 0 || out == "" {
			t.Errorf("the README's %s position %q: status %d, %q", game, pos, status, errOut)
		}
		seen++
	}
	if seen != 3 {
		t.Fatalf("the README shows %d positions of the three games' formats, want 3", seen)
	}
}
