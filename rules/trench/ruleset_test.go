package trench

import (
	"testing"

	"github.com/trench-games/trench/rules"
)

func TestLookupRuleset(t *testing.T) {
	want := map[string]Ruleset{
		"":        {"match", "Official match (2 games)", 2, 0, false},
		"match":   {"match", "Official match (2 games)", 2, 0, false},
		"single":  {"single", "Official single game (to 50)", 2, 50, false},
		"bga":     {"bga", "BGA rules (to 25)", 1, 25, true},
		"decider": {"decider", "Match decider (to 40)", 2, 40, false},
	}
	for key, w := range want {
		r, ok := LookupRuleset(key)
		if !ok || r != w {
			t.Errorf("LookupRuleset(%q) = %+v, %v", key, r, ok)
		}
	}
	for _, key := range []string{"Match", "bga ", "x", "trench"} {
		if _, ok := LookupRuleset(key); ok {
			t.Errorf("LookupRuleset(%q) found a ruleset", key)
		}
	}
}

func over(w rules.Side, b, wh int, r rules.Reason) rules.Result {
	return rules.Result{Over: true, Winner: w, Score: [2]int{b, wh}, Reason: r}
}

func running(b, w int) rules.Result {
	return rules.Result{Winner: rules.NoSide, Score: [2]int{b, w}}
}

var outcomeTests = []struct {
	name  string
	rs    Ruleset
	fen   string
	want  rules.Result
	final bool // FinalTurn
}{
	{"start, match", RulesetMatch, StartFEN, running(0, 0), false},
	{"start, bga", RulesetBGA, StartFEN, running(0, 0), false},
	{"black has no units", RulesetMatch, "7G/8/8/8/8/8/8/8 b 3 10 36", over(White, 20, 72, rules.ReasonAllCaptured), false},
	{"black has no units, bga: before the target", RulesetBGA, "7G/8/8/8/8/8/8/8 b 3 10 36", over(White, 10, 36, rules.ReasonAllCaptured), false},
	{"white has no units", RulesetMatch, "8/8/8/8/8/8/8/g7 w 0 36 0", over(Black, 72, 0, rules.ReasonAllCaptured), false},
	{"all captured wins even with fewer points", RulesetMatch, "8/8/8/8/8/8/8/g7 w 0 1 31", over(Black, 2, 62, rules.ReasonAllCaptured), false},
	{"empty board, equal points: draw", RulesetMatch, "8/8/8/8/8/8/8/8 b 0 5 5", over(rules.NoSide, 10, 10, rules.ReasonAllCaptured), false},
	{"empty board, more points", RulesetMatch, "8/8/8/8/8/8/8/8 b 0 6 5", over(Black, 12, 10, rules.ReasonAllCaptured), false},
	{"single: black reaches 50", RulesetSingle, "7G/7C/8/8/8/8/8/g7 w 0 25 3", over(Black, 50, 6, rules.ReasonTarget), false},
	{"single: black at 48", RulesetSingle, "7G/7C/8/8/8/8/8/g7 w 0 24 3", running(48, 6), false},
	{"single: white reaches 50", RulesetSingle, "7G/8/8/8/8/8/8/g7 b 0 3 25", over(White, 6, 50, rules.ReasonTarget), false},
	{"single: target beats the quiet rule", RulesetSingle, "7G/7C/8/8/8/8/8/g7 w 50 25 3", over(Black, 50, 6, rules.ReasonTarget), false},
	{"match: no target", RulesetMatch, "7G/7C/8/8/8/8/8/g7 w 0 27 3", running(54, 6), false},
	{"decider: black reaches 40", RulesetDecider, "7G/7C/8/8/8/8/8/g7 w 0 20 3", over(Black, 40, 6, rules.ReasonTarget), false},
	{"decider: black at 38", RulesetDecider, "7G/7C/8/8/8/8/8/g7 w 0 19 3", running(38, 6), false},
	{"decider: white reaches 40", RulesetDecider, "7G/7C/8/8/8/8/8/g7 b 0 19 20", over(White, 38, 40, rules.ReasonTarget), false},
	{"bga: black reaches 25, white has a last move", RulesetBGA, "7G/7C/8/8/8/8/8/g7 w 0 25 3", running(25, 3), true},
	{"bga: after white's last move, black wins", RulesetBGA, "7G/7C/8/8/8/8/8/g7 b 1 25 3", over(Black, 25, 3, rules.ReasonTarget), false},
	{"bga: white's last move ties: draw", RulesetBGA, "7G/7C/8/8/8/8/8/g7 b 0 26 26", over(rules.NoSide, 26, 26, rules.ReasonTarget), false},
	{"bga: white's last move overtakes", RulesetBGA, "7G/7C/8/8/8/8/8/g7 b 0 25 27", over(White, 25, 27, rules.ReasonTarget), false},
	{"bga: white reaches 25 first: ends at once", RulesetBGA, "7G/7C/8/8/8/8/8/g7 b 0 10 25", over(White, 10, 25, rules.ReasonTarget), false},
	{"bga: white at 25 with white to move", RulesetBGA, "7G/7C/8/8/8/8/8/g7 w 0 10 25", over(White, 10, 25, rules.ReasonTarget), false},
	{"bga: black at 24", RulesetBGA, "7G/7C/8/8/8/8/8/g7 w 0 24 3", running(24, 3), false},
	{"bga: last move pending, quiet rule still applies", RulesetBGA, "7G/7C/8/8/8/8/8/g7 w 50 25 3", over(Black, 25, 3, rules.ReasonQuiet), false},
	{"quiet 50: points counted", RulesetMatch, "7G/8/8/8/8/8/8/g7 b 50 4 0", over(Black, 8, 0, rules.ReasonQuiet), false},
	{"quiet 50: white ahead", RulesetMatch, "7G/8/8/8/8/8/8/g7 w 50 4 5", over(White, 8, 10, rules.ReasonQuiet), false},
	{"quiet 50: equal points draw", RulesetMatch, StartFEN[:len(StartFEN)-5] + "50 0 0", over(rules.NoSide, 0, 0, rules.ReasonQuiet), false},
	{"quiet 60", RulesetSingle, "7G/8/8/8/8/8/8/g7 b 60 4 0", over(Black, 8, 0, rules.ReasonQuiet), false},
	{"quiet 49 runs on", RulesetMatch, "7G/8/8/8/8/8/8/g7 b 49 4 0", running(8, 0), false},
	{"all captured beats the quiet rule", RulesetMatch, "8/8/8/8/8/8/8/g7 w 50 36 0", over(Black, 72, 0, rules.ReasonAllCaptured), false},
}

func TestOutcome(t *testing.T) {
	for _, tc := range outcomeTests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.fen)
			if got := p.Outcome(tc.rs); got != tc.want {
				t.Errorf("Outcome(%s) of %s = %+v, want %+v", tc.rs.Key, tc.fen, got, tc.want)
			}
			if got := p.FinalTurn(tc.rs); got != tc.final {
				t.Errorf("FinalTurn = %v, want %v", got, tc.final)
			}
			if got := p.Score(tc.rs); got != tc.want.Score {
				t.Errorf("Score = %v, want %v", got, tc.want.Score)
			}
		})
	}
}

func TestOutcomeNoLegalMove(t *testing.T) {
	// No army of 16 can be left without a move (see
	// TestNoLegalMoveNeedsMoreThanAnArmy), so the board is built directly.
	var p Position
	for s := Square(0); s < 64; s++ {
		switch Territory(s) {
		case Black:
			p.board[s] = NewUnit(Soldier, Black)
		case rules.NoSide:
			p.board[s] = NewUnit(Soldier, White)
		}
	}
	p.stars = [2]int{2, 3}
	want := over(White, 4, 6, rules.ReasonNoMove)
	if got := p.Outcome(RulesetMatch); got != want {
		t.Errorf("Outcome = %+v, want %+v", got, want)
	}
	p.stars = [2]int{3, 3}
	if got := p.Outcome(RulesetBGA); got != over(rules.NoSide, 3, 3, rules.ReasonNoMove) {
		t.Errorf("Outcome = %+v, want a draw", got)
	}
	p.side = White // White's trench units can step back into White's empty territory
	if got := p.Outcome(RulesetMatch); got.Over {
		t.Errorf("White to move has moves, got %+v", got)
	}
}

func TestConcede(t *testing.T) {
	mid := mustParse(t, "7G/7C/8/8/8/8/8/g7 w 0 25 3")
	cases := []struct {
		name    string
		p       Position
		rs      Ruleset
		side    rules.Side
		timeout bool
		want    rules.Result
	}{
		{"black resigns at the start", Start(), RulesetMatch, Black, false, over(White, 0, 72, rules.ReasonResigned)},
		{"white times out at the start, bga", Start(), RulesetBGA, White, true, over(Black, 36, 0, rules.ReasonTimeout)},
		{"black resigns while ahead", mid, RulesetMatch, Black, false, over(White, 50, 6+10, rules.ReasonResigned)},
		{"white resigns while behind", mid, RulesetMatch, White, false, over(Black, 50+18, 6, rules.ReasonResigned)},
		{"white times out, single", mid, RulesetSingle, White, true, over(Black, 68, 6, rules.ReasonTimeout)},
		{"black times out, bga", mid, RulesetBGA, Black, true, over(White, 25, 3+5, rules.ReasonTimeout)},
		{"decider", mid, RulesetDecider, White, false, over(Black, 68, 6, rules.ReasonResigned)},
	}
	for _, c := range cases {
		if got := c.p.Concede(c.rs, c.side, c.timeout); got != c.want {
			t.Errorf("%s: Concede = %+v, want %+v", c.name, got, c.want)
		}
	}
	if got := mid.Concede(RulesetMatch, rules.NoSide, false); got != mid.Outcome(RulesetMatch) {
		t.Errorf("Concede(NoSide) = %+v", got)
	}
}

func TestArmistice(t *testing.T) {
	cases := []struct {
		fen  string
		rs   Ruleset
		want rules.Result
	}{
		{StartFEN, RulesetMatch, over(rules.NoSide, 0, 0, rules.ReasonArmistice)},
		{"7G/7C/8/8/8/8/8/g7 w 0 25 3", RulesetMatch, over(Black, 50, 6, rules.ReasonArmistice)},
		{"7G/7C/8/8/8/8/8/g7 w 0 25 3", RulesetBGA, over(Black, 25, 3, rules.ReasonArmistice)},
		{"7G/8/8/8/8/8/8/g7 b 10 3 4", RulesetSingle, over(White, 6, 8, rules.ReasonArmistice)},
		{"7G/8/8/8/8/8/8/g7 b 10 4 4", RulesetDecider, over(rules.NoSide, 8, 8, rules.ReasonArmistice)},
	}
	for _, c := range cases {
		if got := mustParse(t, c.fen).Armistice(c.rs); got != c.want {
			t.Errorf("Armistice(%s) of %s = %+v, want %+v", c.rs.Key, c.fen, got, c.want)
		}
	}
}
