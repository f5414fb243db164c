package handlers

import (
	"testing"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
)

// BenchmarkNextSteps computes what each click on a board does for the
// player to move, after 20 plies, with nothing selected and with a unit
// or piece selected (as a selection click's answer does).
func BenchmarkNextSteps(b *testing.B) {
	for _, g := range []struct {
		e       rules.Engine
		variant string
	}{{trench.Engine{}, "single"}, {trenches.Engine{}, "standard"}} {
		st, err := g.e.Start(rules.GameSpec{Variant: g.variant}, 7)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < 20; i++ {
			if st, err = st.Apply(st.Legal(st.ToMove())[0]); err != nil {
				b.Fatal(err)
			}
		}
		legal := st.Legal(st.ToMove())
		first := st.Clicks(legal[len(legal)/2])[:1]
		href := func(sel []string) string { return selectionURL("/games/1", sel) }
		for _, sel := range [][]string{nil, first} {
			name := g.e.Key() + "/none"
			if sel != nil {
				name = g.e.Key() + "/selected"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if next, _ := nextSteps(st, legal, sel, href); len(next) == 0 {
						b.Fatal("no step")
					}
				}
			})
		}
	}
}
