// Package bot holds what the computer players of the three games have in
// common: the levels, the budget of one search, the request and answer of
// a search, the registry of players by game, and the uniformly random
// reference player. Each game's player lives beside its rules
// (rules/trench/bot, rules/trenches/bot, rules/cards/bot) and registers
// itself here from its package init.
//
// Like the rules, the players are pure: they read no clock (a search stops
// when its node budget is spent or when Budget.Stop, which the caller
// supplies, says so), do no I/O and draw every random choice from
// Request.Seed. With a node budget and a seed, a search gives the same
// answer every time.
package bot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/trench-games/trench/rules"
)

// Level is how strongly a computer player plays. Easy, Medium and Hard are
// offered to players; Random and Greedy are reference players used only to
// measure the others.
type Level string

// The levels.
const (
	Easy   Level = "easy"
	Medium Level = "medium"
	Hard   Level = "hard"
	// Random plays a uniformly random legal move.
	Random Level = "random"
	// Greedy plays the best move by a one-ply rule of thumb (per game: the
	// most stars won now in TRENCH, the fewest mobile enemy pieces left in
	// Trenches, a winning attack if there is one in the card game), ties at
	// random.
	Greedy Level = "greedy"
)

// PlayLevels are the levels offered to players, weakest first.
var PlayLevels = []Level{Easy, Medium, Hard}

// Levels are every level, the play levels first.
var Levels = []Level{Easy, Medium, Hard, Random, Greedy}

// ErrLevel is returned for a level a player does not know.
var ErrLevel = errors.New("unknown level")

// ErrNoMove is returned when the side asked to move has no legal move (or
// the game is over).
var ErrNoMove = errors.New("no legal move")

// ParseLevel returns the level named s ("easy", "medium", "hard",
// "random", "greedy"). Errors wrap ErrLevel.
func ParseLevel(s string) (Level, error) {
	l := Level(s)
	if slices.Contains(Levels, l) {
		return l, nil
	}
	return "", fmt.Errorf("%w %q (want easy, medium, hard, random or greedy)", ErrLevel, s)
}

// Title is the level as shown to players, e.g. "hard".
func (l Level) Title() string { return string(l) }

// MoveTime is about the longest a search at level l takes with the
// level's own node budget on one free core: hard decides within 2 s (most
// of its moves take well under a second), medium within 1 s, easy within
// half a second.
func MoveTime(l Level) time.Duration {
	switch l {
	case Hard:
		return 2 * time.Second
	case Medium:
		return time.Second
	}
	return 500 * time.Millisecond
}

// MoveCapFactor is how many times its MoveTime a search of the server may
// run before the time cap stops it.
const MoveCapFactor = 10

// MoveCap is the time cap the server gives one search at level l:
// MoveCapFactor times MoveTime, so that the level's node budget, not the
// clock, ends the search even on a machine many times slower or busier
// than usual (the level keeps its strength and only answers later); the
// cap only keeps a stalled search from holding a worker for ever.
func MoveCap(l Level) time.Duration { return MoveCapFactor * MoveTime(l) }

// Budget bounds one search.
type Budget struct {
	// Nodes is the most positions the search may visit; 0 means the
	// level's own node budget (each game's player defines one per level).
	Nodes int64
	// Stop, when not nil, is polled during the search (every few thousand
	// nodes); once it returns true the search returns the best answer it
	// has. The server passes a deadline check here; a player never reads
	// the clock itself.
	Stop func() bool
}

// Deadline returns a Stop function that reports whether d has passed since
// the call, using now as the clock (time.Now in the server).
func Deadline(now func() time.Time, d time.Duration) func() bool {
	end := now().Add(d)
	return func() bool { return !now().Before(end) }
}

// Request is one question to a computer player.
type Request struct {
	Level  Level
	Budget Budget
	// Seed drives every random choice of the search.
	Seed int64
	// Side is the side the computer plays: the one whose view it gets in a
	// game with hidden information (the card game), and the one it moves
	// for. A player asked to think when Side is not to move only
	// evaluates (Thought.Move is empty).
	Side rules.Side
	// MatchScore is, in a match game, the points each side of this game
	// already holds from the match's earlier games (index = this game's
	// Side), as the match totals count them; zero otherwise.
	MatchScore [2]int
}

// Thought is a computer player's answer.
type Thought struct {
	// Move is the chosen move in the game's notation; empty when the
	// requested side is not to move.
	Move string
	// Expect is the expected result for Side0 (Black in TRENCH, Light in
	// Trenches) in [0, 1]: 1 a sure win for Side0, 0 a sure win for Side1,
	// 0.5 even or drawn.
	Expect float64
	// Score is the search's own evaluation from Side0's view, in units
	// each game's player documents; a proven result is ±(Win less the
	// plies to it).
	Score int
	// Best is the line the search expects, starting with Move (may be
	// empty).
	Best  []string
	Depth int   // the deepest completed iteration (0 for one-ply players)
	Nodes int64 // positions visited
}

// Win is the score of a proven win (less the plies to reach it).
const Win = 1_000_000

// Player is one game's computer player.
type Player interface {
	// Think answers req in st. For a game with hidden information the
	// player reads only st.View(req.Side). Errors: ErrLevel, ErrNoMove
	// (req.Side is to move but has no legal move).
	Think(st rules.State, req Request) (Thought, error)
}

var players = map[string]Player{}

// Register adds the player of game (an engine key: "trench", "trenches",
// "cards"); it panics on a duplicate (called from package init only).
func Register(game string, p Player) {
	if _, dup := players[game]; dup {
		panic(fmt.Sprintf("bot: player for %q registered twice", game))
	}
	players[game] = p
}

// Lookup returns the player registered for game.
func Lookup(game string) (Player, bool) {
	p, ok := players[game]
	return p, ok
}

// NewRand returns the random source of a search with seed.
func NewRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), uint64(seed)^0x9e3779b97f4a7c15))
}

// RandomMove returns a uniformly random legal move of the side to move in
// st, drawn from seed. Errors: ErrNoMove.
func RandomMove(st rules.State, seed int64) (string, error) {
	legal := st.Legal(st.ToMove())
	if len(legal) == 0 {
		return "", ErrNoMove
	}
	return legal[NewRand(seed).IntN(len(legal))], nil
}

// MatchScore returns Request.MatchScore for the next game of a match: the
// points each side of that game (index = its Side) holds from the match's
// finished games, as the match totals count them. Match player 0 played
// Side0 in game 1; a swapped game gives player 0 Side1.
func MatchScore(played []rules.MatchGame, next rules.GameSpec) [2]int {
	var totals [2]int // per match player
	for _, g := range played {
		for side := rules.Side0; side <= rules.Side1; side++ {
			totals[matchPlayer(side, g.Spec.Swapped)] += g.Result.Score[side]
		}
	}
	return [2]int{totals[matchPlayer(rules.Side0, next.Swapped)], totals[matchPlayer(rules.Side1, next.Swapped)]}
}

func matchPlayer(side rules.Side, swapped bool) int {
	if swapped {
		return int(side.Other())
	}
	return int(side)
}

// Table returns a table of n entries, all zero: tt's own array when it
// has room for them (cleared), else a new one. A search that keeps its
// searcher between searches reuses its transposition table this way.
func Table[T any](tt []T, n int) []T {
	if cap(tt) < n {
		return make([]T, n)
	}
	tt = tt[:n]
	clear(tt)
	return tt
}
