package lessons

import (
	"errors"
	"testing"

	"github.com/trench-games/trench/rules"
)

// TestEveryStepIsPlayable: every step's position parses and gives the
// learner a move, its goal is reached by a search over the legal moves
// within the moves allowed (and Play agrees), a legal first move exists
// that cannot reach it, and an illegal move is refused by the engine.
func TestEveryStepIsPlayable(t *testing.T) {
	if len(Courses()) != 3 {
		t.Fatalf("%d courses, want 3", len(Courses()))
	}
	for _, c := range Courses() {
		if _, ok := rules.Lookup(c.Game); !ok {
			t.Fatalf("%s: no such game", c.Game)
		}
		for n, s := range c.Steps {
			st, err := c.Start(n)
			if err != nil {
				t.Errorf("%s %d: position: %v", c.Game, n+1, err)
				continue
			}
			if st.Result().Over || len(st.Legal(st.ToMove())) == 0 {
				t.Errorf("%s %d: the learner has no move at the start", c.Game, n+1)
			}
			if s.Moves < 1 || s.Title == "" || s.Task == "" || s.Done == "" || len(s.Hint) == 0 {
				t.Errorf("%s %d: incomplete step %+v", c.Game, n+1, s)
			}
			sol, ok := c.Solution(n)
			if !ok {
				t.Errorf("%s %d: the goal cannot be reached in %d moves", c.Game, n+1, s.Moves)
				continue
			}
			a, err := c.Play(n, sol)
			if err != nil || !a.Reached || a.Over {
				t.Errorf("%s %d: playing %q: reached %v over %v err %v", c.Game, n+1, sol, a.Reached, a.Over, err)
			}
			wrong, ok := c.WrongMove(n)
			if !ok {
				t.Errorf("%s %d: no wrong move", c.Game, n+1)
			} else if a, _ := c.Play(n, []string{wrong}); a.Reached || !a.Over {
				t.Errorf("%s %d: wrong move %q: reached %v over %v", c.Game, n+1, wrong, a.Reached, a.Over)
			}
			if _, err := c.Play(n, []string{"zz9-zz8"}); !errors.Is(err, rules.ErrIllegal) && !errors.Is(err, rules.ErrNotation) {
				t.Errorf("%s %d: a malformed move gives %v", c.Game, n+1, err)
			}
			t.Logf("%s %d: solution %q, wrong %q", c.Game, n+1, sol, wrong)
		}
	}
}

// TestSolvedStepRefusesMore: once the goal is reached, a further move is
// refused.
func TestSolvedStepRefusesMore(t *testing.T) {
	c, _ := Lookup("trench")
	a, err := c.Play(0, []string{"c3-c4"})
	if err != nil || !a.Reached {
		t.Fatalf("c3-c4: %+v %v", a, err)
	}
	if _, err := c.Play(0, []string{"c3-c4", "c4-c5"}); !errors.Is(err, rules.ErrIllegal) {
		t.Fatalf("a move after the goal: %v", err)
	}
}
