package bot

import (
	"fmt"
	"math"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trenches"
)

// Game is the engine key the player is registered under.
const Game = "trenches"

func init() { bot.Register(Game, Player{}) }

// Player is the computer player of Trenches, a stateless value registered
// under the key "trenches". See the package doc for the search.
type Player struct{}

var _ bot.Player = Player{}

// config is how one level searches.
type config struct {
	maxDepth  int   // deepest iteration
	rootWidth int   // moves searched deeper than one ply at the root (0: all)
	width     int   // the same below the root
	nodes     int64 // node budget when Budget.Nodes is 0
	noise     int   // amplitude of the seeded noise added to each evaluation
}

// levels are the searching levels' settings.
var levels = map[bot.Level]config{
	bot.Easy:   {maxDepth: 1, nodes: 4_000, noise: 150},
	bot.Medium: {maxDepth: 2, rootWidth: 6, width: 6, nodes: 20_000, noise: 10},
	bot.Hard:   {maxDepth: 8, rootWidth: 12, width: 6, nodes: 200_000, noise: 2},
}

// NodeBudget returns the node budget level l uses when Budget.Nodes is 0;
// 0 for a level that does not search (random, greedy) or is unknown.
func NodeBudget(l bot.Level) int64 { return levels[l].nodes }

// Think answers req in st, which must be a trenches.State (see bot.Player).
// When req.Side is to move, Thought.Move is the chosen move; otherwise
// the position is only evaluated for the side to move and Move is empty
// (Best still holds the line expected from the side to move). Score is
// from Light's view in tenths of an empty square of territory (a mobile
// piece is worth about six squares); a proven result is ±(bot.Win less
// the plies to it). Errors: bot.ErrLevel (wrapped) for an unknown level,
// bot.ErrNoMove when req.Side is to move and has no legal move, and an
// error for a state of another game.
func (Player) Think(st rules.State, req bot.Request) (bot.Thought, error) {
	ts, ok := st.(trenches.State)
	if !ok {
		return bot.Thought{}, fmt.Errorf("trenches bot: state %T is not a Trenches state", st)
	}
	cfg, searching := levels[req.Level]
	if !searching && req.Level != bot.Random && req.Level != bot.Greedy {
		return bot.Thought{}, fmt.Errorf("trenches bot: %w %q", bot.ErrLevel, req.Level)
	}
	pos := ts.Position()
	b := newBoard(pos)
	toMove := req.Side == pos.Turn()
	if !pos.HasLegalMove() {
		if toMove {
			return bot.Thought{}, bot.ErrNoMove
		}
		v := -bot.Win
		if pos.Turn() == rules.Side1 {
			v = bot.Win
		}
		return bot.Thought{Expect: expect(v), Score: v, Nodes: 1}, nil
	}

	var th bot.Thought
	switch req.Level {
	case bot.Random:
		m, err := bot.RandomMove(st, req.Seed)
		if err != nil {
			return bot.Thought{}, err
		}
		th = staticThought(&b, m)
	case bot.Greedy:
		th = staticThought(&b, greedy(pos, req.Seed).String())
	default:
		s := newSearcher(cfg, &defaultWeights, req.Budget, req.Seed)
		res := s.search(&b)
		v := res.value
		if pos.Turn() == rules.Side1 {
			v = -v
		}
		th = bot.Thought{Expect: expect(v), Score: v, Depth: res.depth, Nodes: s.nodes}
		th.Best = make([]string, len(res.pv))
		for i, m := range res.pv {
			th.Best[i] = m.String()
		}
		th.Move = th.Best[0]
		s.release()
	}
	if !toMove {
		th.Move = ""
	}
	return th, nil
}

// staticThought is the answer of a one-ply player that chose move: the
// static evaluation of the position.
func staticThought(b *board, move string) bot.Thought {
	v := evaluate(b, &defaultWeights)
	return bot.Thought{Move: move, Expect: expect(v), Score: v, Best: []string{move}, Nodes: 1}
}

// greedy returns the move that leaves the opponent the fewest mobile
// pieces, ties drawn from seed. pos has a legal move.
func greedy(pos trenches.Position, seed int64) trenches.Move {
	rng := bot.NewRand(seed)
	opp := pos.Turn().Other()
	var best trenches.Move
	bestN, ties := math.MaxInt, 0
	for _, m := range pos.LegalMoves() {
		n := pos.Apply(m).Mobile(opp).Len()
		switch {
		case n < bestN:
			best, bestN, ties = m, n, 1
		case n == bestN:
			ties++
			if rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// expectScale is the Score difference that moves Expect from 0.5 to about
// 0.73.
const expectScale = 150

// expect maps a Score (Light's view) to the expected result for Light:
// exactly 0 or 1 for a finished game, within 0.001 of it for a proven
// result, and a logistic curve inside [0.02, 0.98] otherwise.
func expect(v int) float64 {
	switch {
	case v >= bot.Win:
		return 1
	case v <= -bot.Win:
		return 0
	case v > proven:
		return 1 - float64(bot.Win-v)/1e5
	case v < -proven:
		return float64(bot.Win+v) / 1e5
	}
	e := 1 / (1 + math.Exp(-float64(v)/expectScale))
	return min(max(e, 0.02), 0.98)
}
