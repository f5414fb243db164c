// Package lessons holds the courses that teach the three games: each step
// is a position, a goal the rules engine checks, the number of moves the
// learner has, and its texts as message IDs (the English text, translated
// by the catalogues of views). The steps are data; the engines are used
// only through rules.Engine and rules.State. Pure: no I/O, no clock.
package lessons

import (
	"fmt"
	"slices"

	"github.com/trench-games/trench/rules"
	// The engines the courses are written for register themselves.
	_ "github.com/trench-games/trench/rules/cards"
	_ "github.com/trench-games/trench/rules/trench"
	_ "github.com/trench-games/trench/rules/trenches"
)

// Course is the lessons of one game.
type Course struct {
	Game    string // the engine's key: "trench", "trenches", "cards"
	Variant string // the variant the positions are read in
	Title   string // message ID, e.g. "Learn TRENCH"
	Intro   string // message ID: one sentence on what the course teaches
	Steps   []Step
	Final   Final // the game against the computer after the last step
}

// Step is one lesson: a position and a goal to reach from it.
type Step struct {
	Title    string // message ID, e.g. "The Soldier"
	Task     string // message ID: the goal as the learner reads it
	Done     string // message ID: why the right move was right
	Position string // the start, in the game's position notation (side to move = the learner)
	Moves    int    // the learner's moves allowed, 1 or more
	Goal     Goal
	// Replies are the opponent's replies, one after each of the learner's
	// moves; a missing, empty or illegal reply is the opponent's first
	// legal move (byte-wise).
	Replies []string
	// Hint are the clicks (squares, slots) the hint marks on the board.
	Hint []string
}

// Goal is what the engine checks. The move conditions (Moves, From, To)
// hold together for one of the learner's moves; Gain and Win hold in the
// position reached. A condition left empty or zero always holds.
type Goal struct {
	Moves []string // the move is one of these
	From  string   // the move's first click
	To    []string // the move's second click is one of these
	Gain  int      // the learner's score rose by at least Gain (the engine's units)
	Win   bool     // the game ended, won by the learner
}

// Courses returns the three courses, in the order they are offered.
func Courses() []Course { return []Course{trenchCourse, trenchesCourse, cardsCourse} }

// Lookup returns the course of game.
func Lookup(game string) (Course, bool) {
	for _, c := range Courses() {
		if c.Game == game {
			return c, true
		}
	}
	return Course{}, false
}

// Engine returns the course's engine. It panics when the game is not
// registered (a course names a game that does not exist).
func (c Course) Engine() rules.Engine {
	e, ok := rules.Lookup(c.Game)
	if !ok {
		panic("lessons: no engine " + c.Game)
	}
	return e
}

// Start returns the state step n (from 0) starts from. Errors: a position
// that does not parse (wrapping rules.ErrNotation), n out of range.
func (c Course) Start(n int) (rules.State, error) {
	if n < 0 || n >= len(c.Steps) {
		return nil, fmt.Errorf("lessons: %s has no step %d", c.Game, n+1)
	}
	return c.Engine().Decode(c.Variant, c.Steps[n].Position)
}

// Attempt is the learner's moves replayed on a step.
type Attempt struct {
	// States are the positions after each learner move and the replies
	// that follow it; States[0] is the start.
	States []rules.State
	// Played are the moves made between States[i] and States[i+1], the
	// learner's first, then the replies.
	Played  [][]string
	Reached bool // the goal is reached
	// Over: the step is over without the goal (a wrong move, the moves
	// used up or the game ended): the learner tries again.
	Over bool
}

// Last is the position the attempt reached.
func (a Attempt) Last() rules.State { return a.States[len(a.States)-1] }

// Learner is the side the learner plays: the side to move at the start.
func Learner(start rules.State) rules.Side { return start.ToMove() }

// Play replays the learner's moves on step n from start. A move the
// engine refuses is an error wrapping rules.ErrIllegal or
// rules.ErrNotation (the attempt holds the moves before it); so is a move
// after the step is over. Moves after the goal is reached are refused.
func (c Course) Play(n int, moves []string) (Attempt, error) {
	start, err := c.Start(n)
	if err != nil {
		return Attempt{}, err
	}
	step := c.Steps[n]
	a := Attempt{States: []rules.State{start}}
	side := Learner(start)
	base := start.Result().Score[side]
	matched := !step.Goal.hasMoveConditions()
	for i, m := range moves {
		if a.Reached || a.Over || i >= step.Moves {
			return a, fmt.Errorf("%w: the step is over", rules.ErrIllegal)
		}
		st := a.Last()
		next, err := st.Apply(m)
		if err != nil {
			return a, err
		}
		matched = matched || step.Goal.matches(st, m)
		if step.Goal.holds(next, side, base, matched) {
			a.States = append(a.States, next)
			a.Played = append(a.Played, []string{m})
			a.Reached = true
			continue
		}
		next, played := reply(next, side, step.Replies, i)
		a.States = append(a.States, next)
		a.Played = append(a.Played, append([]string{m}, played...))
		if !reachable(step.Goal, next, side, base, matched, step.Moves-i-1, step.Replies, i+1) {
			a.Over = true
		}
	}
	return a, nil
}

// hasMoveConditions reports whether g names the move to make.
func (g Goal) hasMoveConditions() bool { return len(g.Moves) > 0 || g.From != "" || len(g.To) > 0 }

// matches reports whether move m, made in st, meets g's move conditions.
func (g Goal) matches(st rules.State, m string) bool {
	if !g.hasMoveConditions() {
		return true
	}
	clicks := st.Clicks(m)
	if len(g.Moves) > 0 && !slices.Contains(g.Moves, m) {
		return false
	}
	if g.From != "" && (len(clicks) == 0 || clicks[0] != g.From) {
		return false
	}
	if len(g.To) > 0 && (len(clicks) < 2 || !slices.Contains(g.To, clicks[1])) {
		return false
	}
	return true
}

// holds reports whether g is reached in st, for side whose score was base
// at the start, matched telling whether a move met the move conditions.
func (g Goal) holds(st rules.State, side rules.Side, base int, matched bool) bool {
	if !matched {
		return false
	}
	res := st.Result()
	if g.Win && !(res.Over && res.Winner == side) {
		return false
	}
	return g.Gain <= 0 || res.Score[side]-base >= g.Gain
}

// reply plays the opponent's moves until side is to move again or the
// game is over: replies[i] when legal, else the first legal move.
func reply(st rules.State, side rules.Side, replies []string, i int) (rules.State, []string) {
	var played []string
	for k := 0; k < 8 && !st.Result().Over && st.ToMove() != side && st.ToMove().Valid(); k++ {
		legal := st.Legal(st.ToMove())
		if len(legal) == 0 {
			break
		}
		m := legal[0]
		if i < len(replies) && len(played) == 0 && slices.Contains(legal, replies[i]) {
			m = replies[i]
		}
		next, err := st.Apply(m)
		if err != nil {
			break
		}
		st = next
		played = append(played, m)
	}
	return st, played
}

// reachable reports whether g can still be reached from st within left
// learner moves (the i-th of the step comes next).
func reachable(g Goal, st rules.State, side rules.Side, base int, matched bool, left int, replies []string, i int) bool {
	if left <= 0 || st.Result().Over || st.ToMove() != side {
		return false
	}
	for _, m := range st.Legal(side) {
		next, err := st.Apply(m)
		if err != nil {
			continue
		}
		mm := matched || g.matches(st, m)
		if g.holds(next, side, base, mm) {
			return true
		}
		next, _ = reply(next, side, replies, i)
		if reachable(g, next, side, base, mm, left-1, replies, i+1) {
			return true
		}
	}
	return false
}

// Solution returns a sequence of learner moves that reaches step n's goal
// (found by a search over the legal moves), or false when none does.
func (c Course) Solution(n int) ([]string, bool) {
	start, err := c.Start(n)
	if err != nil {
		return nil, false
	}
	step := c.Steps[n]
	side := Learner(start)
	base := start.Result().Score[side]
	var find func(st rules.State, matched bool, i int) ([]string, bool)
	find = func(st rules.State, matched bool, i int) ([]string, bool) {
		if i >= step.Moves || st.Result().Over || st.ToMove() != side {
			return nil, false
		}
		for _, m := range st.Legal(side) {
			next, err := st.Apply(m)
			if err != nil {
				continue
			}
			mm := matched || step.Goal.matches(st, m)
			if step.Goal.holds(next, side, base, mm) {
				return []string{m}, true
			}
			next, _ = reply(next, side, step.Replies, i)
			if rest, ok := find(next, mm, i+1); ok {
				return append([]string{m}, rest...), true
			}
		}
		return nil, false
	}
	return find(start, !step.Goal.hasMoveConditions(), 0)
}

// WrongMove returns a legal first move from which step n's goal cannot be
// reached, or false when every first move can still reach it.
func (c Course) WrongMove(n int) (string, bool) {
	start, err := c.Start(n)
	if err != nil {
		return "", false
	}
	for _, m := range start.Legal(Learner(start)) {
		a, err := c.Play(n, []string{m})
		if err == nil && a.Over {
			return m, true
		}
	}
	return "", false
}

// Texts returns every message ID of the courses.
func Texts() []string {
	var out []string
	for _, c := range Courses() {
		out = append(out, c.Title, c.Intro, c.Final.Title, c.Final.Task)
		for _, s := range c.Steps {
			out = append(out, s.Title, s.Task, s.Done)
		}
	}
	return out
}
