package puzzles

import (
	"sort"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
)

// themes tags a line from its states (states[i] before line[i], one more
// state than moves) for the solver.
func themes(states []rules.State, line []string, solver rules.Side) []string {
	set := map[string]bool{}
	last := states[len(states)-1]
	if r := last.Result(); r.Over && r.Winner == solver {
		set[ThemeWin] = true
		if r.Reason == rules.ReasonTarget {
			set[ThemeRace] = true
		}
	}
	for i := 0; i < len(line); i += 2 {
		switch a := states[i].(type) {
		case trench.State:
			b := states[i+1].(trench.State)
			opp := solver.Other()
			if a.Position().Units(opp)-b.Position().Units(opp) >= 2 {
				set[ThemeDoubleCapture] = true
			}
			if t, err := trench.ParseMove(line[i]); err == nil && t.Capture && trench.InTrench(t.From) {
				set[ThemeTrenchCapture] = true
			}
		case trenches.State:
			b := states[i+1].(trenches.State)
			opp := solver.Other()
			if b.Position().Mobile(opp).Len() < a.Position().Mobile(opp).Len() {
				set[ThemeBlocking] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
