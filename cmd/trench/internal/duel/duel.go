// Package duel plays computer players against each other to measure their
// strength: N games (or matches) between two levels, colours alternating,
// spread over the machine's cores, with the result as wins, draws and
// losses of the first player, its score and the Elo difference with a 95%
// interval, and the time and nodes each side's searches took.
package duel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
)

// MaxPlies ends a game that has not finished after this many plies; it is
// counted as a draw and reported in Result.Capped.
const MaxPlies = 2000

// Config is one duel.
type Config struct {
	Game    string // engine key: "trench", "trenches", "cards"
	Variant string // "" for the game's default (its first variant)
	A, B    bot.Level
	Games   int // games (or matches, for a match variant) to play
	// Nodes, when > 0, is each search's node budget (deterministic);
	// otherwise each search gets MoveTime, or when that is 0 the
	// server's budget (the level's own nodes, capped by bot.MoveCap).
	Nodes    int64
	MoveTime time.Duration
	Seed     int64
	Workers  int              // games played at once; 0 means GOMAXPROCS
	Now      func() time.Time // the clock of time budgets and timings; nil means time.Now
}

// Side is what one player of the duel did.
type Side struct {
	Level   bot.Level
	Moves   int
	Total   time.Duration // time spent thinking
	Longest time.Duration
	Nodes   int64
}

// Average is the mean time of one move.
func (s Side) Average() time.Duration {
	if s.Moves == 0 {
		return 0
	}
	return s.Total / time.Duration(s.Moves)
}

// NodesPerSecond is the search speed over the whole duel.
func (s Side) NodesPerSecond() float64 {
	if s.Total <= 0 {
		return 0
	}
	return float64(s.Nodes) / s.Total.Seconds()
}

// Result is the outcome of a duel, from A's point of view.
type Result struct {
	Games               int
	Wins, Draws, Losses int
	Capped              int // games drawn by MaxPlies
	Plies               int // plies played in all games
	A, B                Side
	Elapsed             time.Duration
}

// Score is A's score in [0, 1]: wins plus half the draws, per game.
func (r Result) Score() float64 {
	if r.Games == 0 {
		return 0
	}
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games)
}

// Elo returns the Elo difference of A over B implied by the score, and the
// bounds of its 95% confidence interval (normal approximation of the
// score's standard error over the games). A score of 0 or 1 gives ±Inf.
func (r Result) Elo() (diff, low, high float64) {
	n := float64(r.Games)
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	p := r.Score()
	dev := (float64(r.Wins)*(1-p)*(1-p) + float64(r.Draws)*(0.5-p)*(0.5-p) + float64(r.Losses)*p*p) / n
	se := math.Sqrt(dev / n)
	return elo(p), elo(p - 1.96*se), elo(p + 1.96*se)
}

func elo(p float64) float64 {
	switch {
	case p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/p-1)
}

// String is the duel's report: the result line, then one line per side.
func (r Result) String() string {
	d, lo, hi := r.Elo()
	s := fmt.Sprintf("games=%d wins=%d draws=%d losses=%d score=%.3f elo=%s (95%%: %s to %s)",
		r.Games, r.Wins, r.Draws, r.Losses, r.Score(), signed(d), signed(lo), signed(hi))
	if r.Capped > 0 {
		s += fmt.Sprintf(" capped=%d", r.Capped)
	}
	s += "\n"
	for _, x := range []struct {
		name string
		s    Side
	}{{"a", r.A}, {"b", r.B}} {
		s += fmt.Sprintf("%s=%s moves=%d avg_ms=%.1f max_ms=%.1f nodes_per_s=%.0f\n", x.name, x.s.Level, x.s.Moves,
			ms(x.s.Average()), ms(x.s.Longest), x.s.NodesPerSecond())
	}
	s += fmt.Sprintf("plies=%d elapsed=%s\n", r.Plies, r.Elapsed.Round(time.Millisecond))
	return s
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func signed(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", x)
}

// Run plays the duel. Errors: an unknown game, variant or level, a game
// without a computer player, or a player's error (reported with the
// position). Cancelling ctx stops it with ctx's error.
func Run(ctx context.Context, cfg Config) (Result, error) {
	eng, ok := rules.Lookup(cfg.Game)
	if !ok {
		return Result{}, fmt.Errorf("unknown game %q (want trench, trenches or cards)", cfg.Game)
	}
	player, ok := bot.Lookup(cfg.Game)
	if !ok {
		return Result{}, fmt.Errorf("no computer player for %s", eng.Title())
	}
	if cfg.Variant == "" {
		cfg.Variant = eng.Variants()[0].Key
	}
	if !knownVariant(eng, cfg.Variant) {
		return Result{}, fmt.Errorf("unknown rules %q for %s", cfg.Variant, eng.Title())
	}
	for _, l := range []bot.Level{cfg.A, cfg.B} {
		if _, err := bot.ParseLevel(string(l)); err != nil {
			return Result{}, err
		}
	}
	if cfg.Games <= 0 {
		return Result{}, errors.New("the number of games must be at least 1")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	start := cfg.Now()
	res := Result{A: Side{Level: cfg.A}, B: Side{Level: cfg.B}}
	var mu sync.Mutex
	var firstErr error
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				g, err := playMatch(ctx, eng, player, cfg, i)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				res.add(g)
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < cfg.Games; i++ {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	res.Elapsed = cfg.Now().Sub(start)
	if firstErr != nil {
		return res, firstErr
	}
	return res, ctx.Err()
}

// knownVariant says whether key is one of eng's rules: a variant a
// challenge may choose, or one the engine starts a game with (TRENCH's
// decider).
func knownVariant(eng rules.Engine, key string) bool {
	if _, ok := rules.VariantOf(eng, key); ok {
		return true
	}
	_, err := eng.Start(eng.FirstGame(key), 0)
	return err == nil && eng.FirstGame(key).Variant == key
}

// played is one match of the duel as A saw it.
type played struct {
	winner int // 0 = A, 1 = B, -1 = draw
	capped bool
	plies  int
	a, b   Side
}

func (r *Result) add(p played) {
	r.Games++
	switch p.winner {
	case 0:
		r.Wins++
	case 1:
		r.Losses++
	default:
		r.Draws++
	}
	if p.capped {
		r.Capped++
	}
	r.Plies += p.plies
	r.A.merge(p.a)
	r.B.merge(p.b)
}

func (s *Side) merge(o Side) {
	s.Moves += o.Moves
	s.Total += o.Total
	s.Nodes += o.Nodes
	s.Longest = max(s.Longest, o.Longest)
}

// playMatch plays duel game i: A is match player 0 in even games and
// match player 1 in odd ones, so colours alternate.
func playMatch(ctx context.Context, eng rules.Engine, player bot.Player, cfg Config, i int) (played, error) {
	seed := mix(cfg.Seed, int64(i))
	aPlayer := i % 2 // the match player A is
	p := played{a: Side{Level: cfg.A}, b: Side{Level: cfg.B}}
	var games []rules.MatchGame
	for {
		step := eng.NextInMatch(cfg.Variant, games, seed)
		if step.Done {
			switch step.Winner {
			case aPlayer:
				p.winner = 0
			case -1:
				p.winner = -1
			default:
				p.winner = 1
			}
			return p, nil
		}
		gameSeed := mix(seed, int64(len(games)+1))
		st, err := eng.Start(step.Next, gameSeed)
		if err != nil {
			return p, err
		}
		score := bot.MatchScore(games, step.Next)
		for !st.Result().Over {
			if err := ctx.Err(); err != nil {
				return p, err
			}
			if st.Ply() >= MaxPlies {
				p.capped = true
				break
			}
			side := st.ToMove()
			matchPlayer := int(side)
			if step.Next.Swapped {
				matchPlayer ^= 1
			}
			level, stats := cfg.B, &p.b
			if matchPlayer == aPlayer {
				level, stats = cfg.A, &p.a
			}
			req := bot.Request{Level: level, Seed: mix(gameSeed, int64(st.Ply())), Side: side, MatchScore: score}
			switch {
			case cfg.Nodes > 0:
				req.Budget.Nodes = cfg.Nodes
			case cfg.MoveTime > 0:
				req.Budget.Stop = bot.Deadline(cfg.Now, cfg.MoveTime)
			default:
				req.Budget.Stop = bot.Deadline(cfg.Now, bot.MoveCap(level))
			}
			began := cfg.Now()
			th, err := player.Think(st, req)
			took := cfg.Now().Sub(began)
			if err != nil {
				return p, fmt.Errorf("%s at ply %d of %q: %w", level, st.Ply(), st.Encode(), err)
			}
			stats.Moves++
			stats.Total += took
			stats.Nodes += th.Nodes
			stats.Longest = max(stats.Longest, took)
			next, err := st.Apply(th.Move)
			if err != nil {
				return p, fmt.Errorf("%s played %q at ply %d of %q: %w", level, th.Move, st.Ply(), st.Encode(), err)
			}
			st = next
			p.plies++
		}
		res := st.Result()
		if p.capped {
			res = rules.Result{Over: true, Winner: rules.NoSide, Score: res.Score}
		}
		games = append(games, rules.MatchGame{Spec: step.Next, Result: res})
		if p.capped {
			p.winner = -1
			return p, nil
		}
	}
}

// mix derives a seed from a seed and an index (SplitMix64).
func mix(seed, i int64) int64 {
	z := uint64(seed) + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return int64(z ^ (z >> 31))
}
