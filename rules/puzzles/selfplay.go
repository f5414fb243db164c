package puzzles

import (
	"fmt"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
)

// MaxPlies bounds a self-play game (both games end well before).
const MaxPlies = 400

// Opening is how many plies a self-play game starts with at the easy
// level, whose noise drawn from the seed makes every game its own.
const Opening = 8

// SelfPlay plays one game of game's variant, the computer at level
// against itself after Opening plies at the easy level, each move drawn
// from seed, and returns its states after
// ply 0, 1, … to the end. Errors: an unknown game, variant or level.
func SelfPlay(game, variant string, level bot.Level, seed int64) ([]rules.State, error) {
	eng, ok := rules.Lookup(game)
	if !ok {
		return nil, fmt.Errorf("puzzles: no game %q", game)
	}
	player, ok := bot.Lookup(game)
	if !ok {
		return nil, fmt.Errorf("puzzles: %w: no computer player for %q", ErrGame, game)
	}
	st, err := eng.Start(rules.GameSpec{Variant: variant}, seed)
	if err != nil {
		return nil, err
	}
	states := []rules.State{st}
	for ply := 0; ply < MaxPlies && !st.Result().Over && st.ToMove().Valid(); ply++ {
		l := level
		if ply < Opening {
			l = bot.Easy
		}
		th, err := player.Think(st, bot.Request{Level: l, Side: st.ToMove(), Seed: seed*1_000_003 + int64(ply)})
		if err != nil {
			return nil, fmt.Errorf("puzzles: self-play ply %d: %w", ply, err)
		}
		if st, err = st.Apply(th.Move); err != nil {
			return nil, fmt.Errorf("puzzles: self-play ply %d: %w", ply, err)
		}
		states = append(states, st)
	}
	return states, nil
}

// Replay returns the states of a game from its start state after each of
// moves (the start first). Errors: a move the rules refuse.
func Replay(start rules.State, moves []string) ([]rules.State, error) {
	st := start
	states := []rules.State{st}
	for i, m := range moves {
		var err error
		if st, err = st.Apply(m); err != nil {
			return nil, fmt.Errorf("puzzles: replay ply %d: %w", i+1, err)
		}
		states = append(states, st)
	}
	return states, nil
}

// Check plays line from the position of p and reports whether move is
// the solver's move expected at index i of the solution (i even). It is
// what a page asks of an attempt.
func (p Puzzle) Check(i int, move string) bool {
	return i >= 0 && i < len(p.Solution) && i%2 == 0 && p.Solution[i] == move
}

// Start decodes the puzzle's position. Errors: an unknown game, or a
// position that does not decode.
func (p Puzzle) Start() (rules.State, error) {
	eng, ok := rules.Lookup(p.Game)
	if !ok {
		return nil, fmt.Errorf("puzzles: no game %q", p.Game)
	}
	return eng.Decode(p.Variant, p.Position)
}
