// Package puzzles finds puzzles in games of TRENCH and Trenches: positions
// where one move is clearly best, with a line of one to five moves of the
// solver, each the only good one, and the opponent's replies the engine's
// best. It is pure like the computer players it uses (rules/bot): it reads
// no clock, does no I/O and draws every random choice from a seed, so the
// same games, configuration and seed give the same puzzles. The card game
// has hidden cards and gives no puzzles.
//
// # How a puzzle is found
//
// Every position of a game is searched once with a small budget (Scan
// nodes), as the analysis does, unless the game's analysis already gave
// its value (Generator.Scores). A position is a candidate when the move
// that led to it lost at least Margin for the side that made it (the
// position is worth at least Margin more to the side to move, the solver,
// than the one before was to the opponent), or when the solver now has a
// proven win that it did not have before. For a candidate, every legal
// move of the solver is searched (Nodes each) and the best must beat the
// second by Margin, or be a proven win where the second is not: otherwise
// the candidate is rejected as not unique. The opponent then plays the
// engine's best reply (a search of Confirm nodes), and the line goes on
// while the solver's next move is unique in the same way, up to MaxSolver
// solver moves. The line must realise the gain it promised (Gain: stars
// in TRENCH, the opponent's mobile pieces in Trenches, or a won game), and
// each of the solver's moves is re-checked by a search at Confirm nodes
// (ten times Nodes by default), which must choose the same move.
package puzzles

import (
	"errors"
	"fmt"
	"slices"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
)

// Games are the engine keys that have puzzles, in the order pages list them.
var Games = []string{"trench", "trenches"}

// HasPuzzles reports whether game (an engine key) has puzzles.
func HasPuzzles(game string) bool { return slices.Contains(Games, game) }

// The themes a puzzle may carry, tagged from its solution.
const (
	// ThemeTrenchCapture: a solver's move captures from the trench
	// (TRENCH).
	ThemeTrenchCapture = "trench-capture"
	// ThemeDoubleCapture: a solver's move removes two or more units at
	// once (TRENCH).
	ThemeDoubleCapture = "double-capture"
	// ThemeRace: the line wins the game by reaching the target score
	// first, the race of TRENCH's single games.
	ThemeRace = "race"
	// ThemeBlocking: the line takes away moves from the opponent's pieces
	// (Trenches).
	ThemeBlocking = "blocking"
	// ThemeWin: the line ends the game with the solver's win.
	ThemeWin = "win"
)

// Themes lists every theme of game, in the order pages show them.
func Themes(game string) []string {
	switch game {
	case "trench":
		return []string{ThemeTrenchCapture, ThemeDoubleCapture, ThemeRace, ThemeWin}
	case "trenches":
		return []string{ThemeBlocking, ThemeWin}
	}
	return nil
}

// Puzzle is one puzzle: a position and the line that solves it.
type Puzzle struct {
	Game    string // engine key: "trench" or "trenches"
	Variant string // the variant the position is decoded with
	// Position is the state to solve, as rules.State.Encode writes it;
	// the side to move is the solver.
	Position string
	// Ply is the position's ply in the game it came from.
	Ply int
	// Solution is the line: the solver's moves at even indexes, the
	// opponent's replies at odd ones; it ends with a solver's move.
	Solution []string
	Themes   []string // sorted
}

// SolverMoves is the number of the solver's moves in the line (1 to 5).
func (p Puzzle) SolverMoves() int { return (len(p.Solution) + 1) / 2 }

// Config is how hard the generator looks. The zero values of the budgets
// mean the game's defaults (DefaultConfig).
type Config struct {
	Scan    int64 // nodes of the search of each position of a game
	Nodes   int64 // nodes of the search of each candidate move
	Confirm int64 // nodes of the opponent's reply and of the re-check
	// Margin is by how much the best move must beat every other one, in
	// the search's score units (hundredths of a star in TRENCH, tenths of
	// a square in Trenches).
	Margin int
	// MinGain is what the line must win, in the game's gain units (stars
	// in TRENCH, the opponent's mobile pieces in Trenches), unless it wins
	// the game.
	MinGain int
	// MaxMoves skips positions with more legal moves (each one is
	// searched).
	MaxMoves int
	// MaxSolver is the most solver moves in a line.
	MaxSolver int
}

// DefaultConfig returns the generator's settings for game: in TRENCH a
// margin of 3 stars, in Trenches of one mobile piece; re-checked at ten
// times the node budget of a candidate move.
func DefaultConfig(game string) Config {
	switch game {
	case "trenches":
		return Config{Scan: 4_000, Nodes: 600, Confirm: 6_000, Margin: 60, MinGain: 1, MaxMoves: 400, MaxSolver: 5}
	default:
		return Config{Scan: 8_000, Nodes: 2_000, Confirm: 20_000, Margin: 300, MinGain: 3, MaxMoves: 120, MaxSolver: 5}
	}
}

// Stats counts what the generator saw.
type Stats struct {
	Positions  int // positions searched
	Candidates int // positions where a move looked clearly best
	Accepted   int // puzzles found
	// NotUnique counts candidates rejected because a second move was
	// about as good at the first step.
	NotUnique int
	// NoGain counts candidates whose line did not realise its gain.
	NoGain int
	// Recheck counts lines that a search at Confirm nodes did not play
	// the same way.
	Recheck int
	Skipped int // candidates with more than MaxMoves legal moves
}

// Add adds o's counts to s.
func (s *Stats) Add(o Stats) {
	s.Positions += o.Positions
	s.Candidates += o.Candidates
	s.Accepted += o.Accepted
	s.NotUnique += o.NotUnique
	s.NoGain += o.NoGain
	s.Recheck += o.Recheck
	s.Skipped += o.Skipped
}

// proven is the score beyond which a search has proven a result.
const proven = bot.Win - 10_000

// ErrGame is returned for a game that has no puzzles.
var ErrGame = errors.New("this game has no puzzles")

// Generator finds puzzles in the games of one game with one player.
type Generator struct {
	Game    string
	Variant string
	Player  bot.Player
	Config  Config
	Seed    int64
	// Stop, when not nil, is every search's bot.Budget.Stop: once it says
	// so the searches end early and what Find returns means nothing.
	Stop func() bool
	// Scores are known values of the positions Find is given, by index,
	// from Side0's view in the player's units (a game analysis' scores):
	// Find takes them instead of its own scan of those positions.
	Scores map[int]int
}

// New returns the generator of game (an engine key) with its registered
// computer player and DefaultConfig. Errors: ErrGame (wrapped) for a game
// without puzzles or without a player.
func New(game, variant string, seed int64) (*Generator, error) {
	if !HasPuzzles(game) {
		return nil, fmt.Errorf("puzzles: %w: %q", ErrGame, game)
	}
	p, ok := bot.Lookup(game)
	if !ok {
		return nil, fmt.Errorf("puzzles: %w: no computer player for %q", ErrGame, game)
	}
	return &Generator{Game: game, Variant: variant, Player: p, Config: DefaultConfig(game), Seed: seed}, nil
}

// stopped says whether Stop says the searches are to end.
func (g *Generator) stopped() bool { return g.Stop != nil && g.Stop() }

// value is st's value for solver by a search of nodes (a finished game its
// exact result).
func (g *Generator) value(st rules.State, solver rules.Side, nodes int64, seed int64) (int, error) {
	th, err := g.Player.Think(st, bot.Request{Level: bot.Hard, Side: solver.Other(), Seed: seed, Budget: bot.Budget{Nodes: nodes, Stop: g.Stop}})
	if errors.Is(err, bot.ErrNoMove) {
		// The side to move has no move: it has lost (Trenches), or the game is drawn.
		if r := st.Result(); r.Winner == solver {
			return bot.Win, nil
		} else if r.Winner == solver.Other() {
			return -bot.Win, nil
		}
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if solver == rules.Side1 {
		return -th.Score, nil
	}
	return th.Score, nil
}

// best is the search's choice for the side to move of st at nodes.
func (g *Generator) best(st rules.State, nodes, seed int64) (string, error) {
	th, err := g.Player.Think(st, bot.Request{Level: bot.Hard, Side: st.ToMove(), Seed: seed, Budget: bot.Budget{Nodes: nodes, Stop: g.Stop}})
	if err != nil {
		return "", err
	}
	return th.Move, nil
}

// unique returns the solver's move of st when it beats every other move
// by the margin (or alone wins), with ok false otherwise.
func (g *Generator) unique(st rules.State, seed int64) (move string, ok bool, err error) {
	solver := st.ToMove()
	legal := st.Legal(solver)
	if len(legal) == 0 {
		return "", false, nil
	}
	best, second := -2*bot.Win, -2*bot.Win
	for i, m := range legal {
		if g.stopped() {
			return "", false, nil
		}
		next, err := st.Apply(m)
		if err != nil {
			return "", false, err
		}
		v, err := g.value(next, solver, g.Config.Nodes, seed+int64(i))
		if err != nil {
			return "", false, err
		}
		switch {
		case v > best:
			best, second, move = v, best, m
		case v > second:
			second = v
		}
	}
	if len(legal) == 1 {
		return move, false, nil // a forced move is no puzzle
	}
	if best >= proven && second < proven {
		return move, true, nil
	}
	return move, best-second >= g.Config.Margin && best > -proven, nil
}

// Find looks for puzzles in one game, given as its states after ply 0, 1,
// …, in order (states[i].Ply() need not be i: Ply is the index). A
// position found twice gives one puzzle. Errors come from the player or
// the rules (a state it cannot search).
func (g *Generator) Find(states []rules.State) ([]Puzzle, Stats, error) {
	var out []Puzzle
	var st Stats
	seen := map[string]bool{}
	prev := 0 // the previous position's value for its side to move
	for i, s := range states {
		if s.Result().Over || !s.ToMove().Valid() || g.stopped() {
			break
		}
		st.Positions++
		seed := g.Seed ^ int64(i)*0x2545f4914f6cdd1d
		v, known := g.Scores[i]
		if known {
			if s.ToMove() == rules.Side1 {
				v = -v
			}
		} else {
			var err error
			if v, err = g.value(s, s.ToMove(), g.Config.Scan, seed); err != nil {
				return out, st, err
			}
		}
		cand := i > 0 && ((v+prev >= g.Config.Margin && v >= g.Config.Margin/2) || (v >= proven && prev > -proven))
		prev = v
		if !cand || seen[s.Encode()] {
			continue
		}
		st.Candidates++
		if len(s.Legal(s.ToMove())) > g.Config.MaxMoves {
			st.Skipped++
			continue
		}
		p, why, err := g.Solve(s, g.Seed)
		if err != nil {
			return out, st, err
		}
		switch why {
		case "":
			p.Ply = i
			seen[p.Position] = true
			out = append(out, p)
			st.Accepted++
		case RejectNotUnique:
			st.NotUnique++
		case RejectNoGain:
			st.NoGain++
		case RejectRecheck:
			st.Recheck++
		}
	}
	return out, st, nil
}

// Why a position gives no puzzle (Solve's second result).
const (
	RejectNotUnique = "not unique"
	RejectNoGain    = "no gain"
	RejectRecheck   = "recheck"
)

// Solve builds the puzzle of position s: its line and themes, or the
// reason it is none (RejectNotUnique, RejectNoGain, RejectRecheck).
func (g *Generator) Solve(s rules.State, seed int64) (Puzzle, string, error) {
	p := Puzzle{Game: g.Game, Variant: g.Variant, Position: s.Encode()}
	solver := s.ToMove()
	states := []rules.State{s}
	cur := s
	for n := 0; n < g.Config.MaxSolver; n++ {
		m, ok, err := g.unique(cur, seed+int64(n)*7919)
		if err != nil {
			return p, "", err
		}
		if !ok {
			if n == 0 {
				return p, RejectNotUnique, nil
			}
			break
		}
		if cur, err = cur.Apply(m); err != nil {
			return p, "", err
		}
		p.Solution = append(p.Solution, m)
		states = append(states, cur)
		if cur.Result().Over || !cur.ToMove().Valid() || n == g.Config.MaxSolver-1 {
			break
		}
		reply, err := g.best(cur, g.Config.Confirm, seed+int64(n)*7919+1)
		if errors.Is(err, bot.ErrNoMove) {
			break
		}
		if err != nil {
			return p, "", err
		}
		next, err := cur.Apply(reply)
		if err != nil {
			return p, "", err
		}
		if next.Result().Over || !next.ToMove().Valid() {
			break // the reply ends the game: the line stops before it
		}
		// Only keep the reply when the solver's next move is unique.
		if m2, ok, err := g.unique(next, seed+int64(n+1)*7919); err != nil {
			return p, "", err
		} else if !ok {
			break
		} else {
			_ = m2
		}
		p.Solution = append(p.Solution, reply)
		states = append(states, next)
		cur = next
	}
	last := states[len(states)-1]
	won := last.Result().Over && last.Result().Winner == solver
	if !won && gain(s, last, solver) < g.Config.MinGain {
		return p, RejectNoGain, nil
	}
	// The re-check: a deeper search plays each solver move of the line.
	for i := 0; i < len(p.Solution); i += 2 {
		m, err := g.best(states[i], g.Config.Confirm, seed^0x5bd1e995+int64(i))
		if err != nil {
			return p, "", err
		}
		if m != p.Solution[i] {
			return p, RejectRecheck, nil
		}
	}
	p.Themes = themes(states, p.Solution, solver)
	return p, "", nil
}

// gain is what the solver won from first to last: the stars captured
// less those lost (TRENCH), or the opponent's mobile pieces taken away
// less the solver's own (Trenches).
func gain(first, last rules.State, solver rules.Side) int {
	switch a := first.(type) {
	case trench.State:
		b := last.(trench.State)
		pa, pb := a.Position(), b.Position()
		return (pb.Stars(solver) - pa.Stars(solver)) - (pb.Stars(solver.Other()) - pa.Stars(solver.Other()))
	case trenches.State:
		b := last.(trenches.State)
		pa, pb := a.Position(), b.Position()
		opp := solver.Other()
		return (pa.Mobile(opp).Len() - pb.Mobile(opp).Len()) - (pa.Mobile(solver).Len() - pb.Mobile(solver).Len())
	}
	return 0
}
