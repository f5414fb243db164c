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

// TestEveryFinalGameEnds: each course's final game starts from a legal
// position with the learner to move, the computer replies at easy, the
// same moves always give the same replies, a refused move is refused, and
// a game played to the end (the learner taking its first legal move) ends
// with a result within the bound on its moves.
func TestEveryFinalGameEnds(t *testing.T) {
	for _, c := range Courses() {
		st, err := c.FinalStart()
		if err != nil {
			t.Fatalf("%s: final position: %v", c.Game, err)
		}
		if c.Final.Title == "" || c.Final.Task == "" || st.Result().Over || len(st.Legal(st.ToMove())) == 0 {
			t.Fatalf("%s: the final game cannot start", c.Game)
		}
		var moves []string
		f, err := c.PlayFinal(nil)
		for err == nil && !f.Over() {
			legal := f.Last().Legal(f.Learner)
			if len(legal) == 0 {
				t.Fatalf("%s: the learner has no move in a game that goes on", c.Game)
			}
			moves = append(moves, legal[len(moves)%len(legal)])
			f, err = c.PlayFinal(moves)
		}
		if err != nil {
			t.Fatalf("%s: after %q: %v", c.Game, moves, err)
		}
		res := f.Last().Result()
		again, err := c.PlayFinal(moves)
		if err != nil || again.Last().Encode() != f.Last().Encode() {
			t.Fatalf("%s: replaying the same moves gives another game (%v)", c.Game, err)
		}
		computer := 0
		for _, p := range f.Played {
			computer += len(p) - 1
		}
		if computer == 0 {
			t.Fatalf("%s: the computer never moved", c.Game)
		}
		if _, err := c.PlayFinal(append(moves, moves[0])); !errors.Is(err, rules.ErrIllegal) {
			t.Fatalf("%s: a move after the end: %v", c.Game, err)
		}
		if _, err := c.PlayFinal([]string{"zz9-zz8"}); !errors.Is(err, rules.ErrIllegal) && !errors.Is(err, rules.ErrNotation) {
			t.Fatalf("%s: a malformed move: %v", c.Game, err)
		}
		t.Logf("%s: over after %d learner moves and %d of the computer's: winner %d, score %v, %s", c.Game, len(moves), computer, res.Winner, res.Score, res.Reason)
	}
}
