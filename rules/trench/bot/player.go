package bot

import (
	"fmt"
	"math"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trench"
)

// Game is the engine key the player is registered under.
const Game = "trench"

func init() { bot.Register(Game, Player{}) }

// Player is the computer player of TRENCH, a stateless value registered
// under the key "trench". See the package doc for the search.
type Player struct{}

var _ bot.Player = Player{}

// config is how one level searches.
type config struct {
	maxDepth int   // deepest iteration
	nodes    int64 // node budget when Budget.Nodes is 0
	noise    int   // amplitude of the seeded noise added to each evaluation, in hundredths of a star
	qDepth   int   // plies of captures searched at the horizon (0: until none is left)
	null     bool  // null-move pruning
}

// levels are the searching levels' settings.
var levels = map[bot.Level]config{
	bot.Easy:   {maxDepth: 1, nodes: 5_000, noise: 200, qDepth: 1},
	bot.Medium: {maxDepth: 20, nodes: 40_000, noise: 10, null: true},
	bot.Hard:   {maxDepth: maxPly / 2, nodes: 250_000, null: true},
}

// LevelNodes returns the node budget level l uses when Budget.Nodes is 0;
// 0 for a level that does not search (random, greedy) or is unknown.
func LevelNodes(l bot.Level) int64 { return levels[l].nodes }

// Think answers req in st, which must be a trench.State (see bot.Player).
// When req.Side is to move, Thought.Move is the chosen move; otherwise the
// position is only evaluated for the side to move and Move is empty (Best
// still holds the line expected from the side to move). Score is from
// Black's view in hundredths of a star; a proven result is ±(bot.Win less
// the plies to it), and in a match game it counts req.MatchScore. Errors:
// bot.ErrLevel (wrapped) for an unknown level, bot.ErrNoMove when the game
// is over or the side to move has no legal move and req.Side is that
// side, and an error for a state of another game.
func (Player) Think(st rules.State, req bot.Request) (bot.Thought, error) {
	ts, ok := st.(trench.State)
	if !ok {
		return bot.Thought{}, fmt.Errorf("trench bot: state %T is not a TRENCH state", st)
	}
	cfg, searching := levels[req.Level]
	if !searching && req.Level != bot.Random && req.Level != bot.Greedy {
		return bot.Thought{}, fmt.Errorf("trench bot: %w %q", bot.ErrLevel, req.Level)
	}
	pos := ts.Position()
	g := newGame(ts.Ruleset(), req.MatchScore)
	b := newBoard(pos)
	toMove := req.Side == pos.ToMove()
	if res := ts.Result(); res.Over {
		if toMove {
			return bot.Thought{}, bot.ErrNoMove
		}
		return finished(g, res), nil
	}

	var th bot.Thought
	switch req.Level {
	case bot.Random:
		m, err := bot.RandomMove(st, req.Seed)
		if err != nil {
			return bot.Thought{}, err
		}
		th = staticThought(g, &b, m)
	case bot.Greedy:
		th = staticThought(g, &b, greedy(&b, req.Seed).String())
	default:
		s := newSearcher(g, cfg, req.Budget, req.Seed)
		res := s.search(&b)
		v := res.value
		if b.side == 1 {
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

// finished is the answer for a game that is over: its exact result for
// Black, counting the match totals in a match game.
func finished(g *game, res rules.Result) bot.Thought {
	d := res.Score[0] - res.Score[1]
	winner := res.Winner
	if g.match {
		d = d*star/g.pps + g.carried
		switch {
		case d > 0:
			winner = trench.Black
		case d < 0:
			winner = trench.White
		default:
			winner = rules.NoSide
		}
	}
	th := bot.Thought{Expect: 0.5}
	switch winner {
	case trench.Black:
		th.Expect, th.Score = 1, bot.Win
	case trench.White:
		th.Expect, th.Score = 0, -bot.Win
	}
	if g.match && !g.decisive {
		// Game 1 of a match: the lead is carried to game 2, not a result.
		th.Score = g.matchLead(d, 0)
		th.Expect = expect(th.Score)
	}
	return th
}

// staticThought is the answer of a one-ply player that chose move: the
// static value of the position.
func staticThought(g *game, b *board, move string) bot.Thought {
	v := g.evaluate(b)
	return bot.Thought{Move: move, Expect: expect(v), Score: v, Best: []string{move}, Nodes: 1}
}

// greedy returns the move of b capturing the most stars, ties drawn from
// seed. The side to move has a legal move.
func greedy(b *board, seed int64) move {
	rng := bot.NewRand(seed)
	var best move
	bestGain, ties := -1, 0
	for _, m := range b.gen(nil, false) {
		switch g := int(m.gain); {
		case g > bestGain:
			best, bestGain, ties = m, g, 1
		case g == bestGain:
			ties++
			if rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// expectScale is the Score difference (four stars) that moves Expect from
// 0.5 to about 0.73.
const expectScale = 4 * star

// expect maps a Score (Black's view) to the expected result for Black:
// exactly 0 or 1 for a finished game, 0.999 or 0.001 for a proven result,
// and a logistic curve inside [0.02, 0.98] otherwise.
func expect(v int) float64 {
	switch {
	case v >= bot.Win:
		return 1
	case v <= -bot.Win:
		return 0
	case v > proven:
		return 0.999
	case v < -proven:
		return 0.001
	}
	e := 1 / (1 + math.Exp(-float64(v)/expectScale))
	return min(max(e, 0.02), 0.98)
}
