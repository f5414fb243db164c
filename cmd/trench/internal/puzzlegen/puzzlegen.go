// Package puzzlegen is `trench puzzles generate`: it runs the puzzle
// generator (rules/puzzles) over a database's finished games, or over
// games the computer plays against itself, stores or writes what it
// finds and reports the counts.
package puzzlegen

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/puzzles"
	_ "github.com/trench-games/trench/rules/trench/bot"
	_ "github.com/trench-games/trench/rules/trenches/bot"
)

// Usage is the command's synopsis.
const Usage = `trench puzzles generate [--db FILE] [--selfplay N [--level L] [--seed S] [--game G] [--out FILE]]`

// Options are the command's flags.
type Options struct {
	DB       string    // the database to read finished games from and store puzzles in
	SelfPlay int       // self-play games per game (0: read the database's games)
	Level    bot.Level // the self-play games' level
	Seed     int64
	Games    []string // engine keys
	Out      string   // a puzzle set file to write (self-play)
}

// selfPlayVariant is the variant self-play games are played in.
var selfPlayVariant = map[string]string{"trench": "single", "trenches": "standard"}

// Command runs `trench puzzles …` with args (after "puzzles").
func Command(ctx context.Context, stdout io.Writer, args []string) error {
	if len(args) == 0 || args[0] != "generate" {
		return fmt.Errorf("want: %s", Usage)
	}
	fs := flag.NewFlagSet("puzzles generate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o Options
	fs.StringVar(&o.DB, "db", "", "database file")
	fs.IntVar(&o.SelfPlay, "selfplay", 0, "self-play games per game")
	level := fs.String("level", "hard", "self-play level")
	fs.Int64Var(&o.Seed, "seed", 1, "seed")
	game := fs.String("game", "trench,trenches", "games, comma-separated")
	fs.StringVar(&o.Out, "out", "", "write the puzzles found by self-play to this file")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w\nusage: %s", err, Usage)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected %q\nusage: %s", fs.Arg(0), Usage)
	}
	l, err := bot.ParseLevel(*level)
	if err != nil {
		return err
	}
	o.Level = l
	for _, g := range strings.Split(*game, ",") {
		if !puzzles.HasPuzzles(g) {
			return fmt.Errorf("no puzzles for %q (want trench or trenches)", g)
		}
		o.Games = append(o.Games, g)
	}
	if o.DB == "" && (o.SelfPlay == 0 || o.Out == "") {
		return fmt.Errorf("want --db FILE, or --selfplay N with --out FILE\nusage: %s", Usage)
	}
	rep, err := Run(ctx, o, time.Now)
	if rep != nil && (err == nil || errors.Is(err, context.Canceled)) {
		// Stopped (Ctrl-C, SIGTERM) after a whole game: the games done so
		// far are reported.
		if err != nil {
			rep.Problems = append(rep.Problems, "stopped before the end")
		}
		if _, werr := io.WriteString(stdout, rep.String()); werr != nil {
			return werr
		}
	}
	return err
}

// Report is what a run found.
type Report struct {
	Games    map[string]int // games looked at, by engine key
	Elapsed  time.Duration
	Stats    puzzles.Stats
	ByGame   map[string]*puzzles.Stats // the same counts, by engine key
	Stored   int                       // new puzzles in the database
	Lengths  map[int]int               // puzzles by solver moves
	Themes   map[string]int            // puzzles by theme
	Puzzles  []puzzles.Puzzle
	Problems []string // games that could not be looked at, and why
}

func (r *Report) add(game string, ps []puzzles.Puzzle, st puzzles.Stats) {
	r.Stats.Add(st)
	if r.ByGame[game] == nil {
		r.ByGame[game] = &puzzles.Stats{}
	}
	r.ByGame[game].Add(st)
	for _, p := range ps {
		r.Lengths[p.SolverMoves()]++
		for _, t := range p.Themes {
			r.Themes[t]++
		}
	}
	r.Puzzles = append(r.Puzzles, ps...)
}

// Run generates puzzles as o says, reading the clock now only to report
// the time taken.
func Run(ctx context.Context, o Options, now func() time.Time) (*Report, error) {
	rep := &Report{Games: map[string]int{}, ByGame: map[string]*puzzles.Stats{}, Lengths: map[int]int{}, Themes: map[string]int{}}
	start := now()
	var store *db.DB
	if o.DB != "" {
		if _, err := os.Stat(o.DB); err != nil {
			return nil, fmt.Errorf("database %s: %w", o.DB, err)
		}
		s, err := db.Open(ctx, o.DB)
		if err != nil {
			return nil, err
		}
		defer s.Close()
		store = s
	}
	if o.SelfPlay > 0 {
		for _, game := range o.Games {
			g, err := puzzles.New(game, selfPlayVariant[game], o.Seed)
			if err != nil {
				return nil, err
			}
			for i := 0; i < o.SelfPlay && ctx.Err() == nil; i++ {
				states, err := puzzles.SelfPlay(game, selfPlayVariant[game], o.Level, o.Seed*1_000_000+int64(i))
				if err != nil {
					return nil, err
				}
				ps, st, err := g.Find(states)
				if err != nil {
					return nil, err
				}
				rep.Games[game]++
				rep.add(game, ps, st)
				if store != nil && len(ps) > 0 {
					n, err := store.AddPuzzles(ctx, 0, ps, now())
					if err != nil {
						return nil, err
					}
					rep.Stored += n
				}
			}
		}
		if o.Out != "" {
			f, err := os.Create(o.Out)
			if err != nil {
				return nil, err
			}
			head := fmt.Sprintf("%d puzzles from %d self-play games at %s, seed %d: trench puzzles generate --selfplay %d --level %s --seed %d",
				len(rep.Puzzles), rep.Games["trench"]+rep.Games["trenches"], o.Level, o.Seed, o.SelfPlay, o.Level, o.Seed)
			if err := errors.Join(puzzles.WriteSet(f, head, dedup(rep.Puzzles)), f.Close()); err != nil {
				return nil, err
			}
		}
	} else {
		for ctx.Err() == nil {
			g, ok, err := store.NextPuzzleScan(ctx)
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			ps, st, err := FromGame(ctx, store, g)
			if err != nil {
				rep.Problems = append(rep.Problems, fmt.Sprintf("game %d: %v", g.ID, err))
				ps = nil // recorded as looked at, with nothing found
			}
			n, err := store.AddPuzzles(ctx, g.ID, ps, now())
			if err != nil {
				return nil, err
			}
			rep.Games[g.Game]++
			rep.Stored += n
			rep.add(g.Game, ps, st)
		}
	}
	rep.Elapsed = now().Sub(start)
	return rep, ctx.Err()
}

// FromGame looks for puzzles in finished game g of store, seeded by the
// game's own seed, taking the values of its analysis where it has one.
func FromGame(ctx context.Context, store *db.DB, g db.Game) ([]puzzles.Puzzle, puzzles.Stats, error) {
	moves, err := store.Moves(ctx, g.ID)
	if err != nil {
		return nil, puzzles.Stats{}, err
	}
	ms := make([]string, len(moves))
	for i, m := range moves {
		ms[i] = m.Move
	}
	scores, err := store.AnalysisScores(ctx, g.ID)
	if err != nil {
		return nil, puzzles.Stats{}, err
	}
	return puzzles.FindInRecord(g.Game, g.Variant, g.StartState, ms, g.Seed, nil, scores)
}

// dedup keeps the first puzzle of each position.
func dedup(ps []puzzles.Puzzle) []puzzles.Puzzle {
	seen := map[string]bool{}
	var out []puzzles.Puzzle
	for _, p := range ps {
		if k := p.Game + " " + p.Position; !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// String is the report as the command prints it.
func (r *Report) String() string {
	var b strings.Builder
	games := r.Games["trench"] + r.Games["trenches"]
	per := time.Duration(0)
	if games > 0 {
		per = r.Elapsed / time.Duration(games)
	}
	fmt.Fprintf(&b, "games: %d (trench %d, trenches %d) in %s, %s a game\n", games, r.Games["trench"], r.Games["trenches"],
		r.Elapsed.Round(time.Second), per.Round(10*time.Millisecond))
	s := r.Stats
	fmt.Fprintf(&b, "positions searched: %d, candidates: %d\n", s.Positions, s.Candidates)
	fmt.Fprintf(&b, "puzzles: %d (new in the database: %d)\n", s.Accepted, r.Stored)
	share := func(n int) string {
		if s.Candidates == 0 {
			return "0%"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(s.Candidates))
	}
	fmt.Fprintf(&b, "rejected: not unique %d (%s of candidates), gain not realised %d (%s), re-check at 10x nodes failed %d (%s), too many moves %d (%s)\n",
		s.NotUnique, share(s.NotUnique), s.NoGain, share(s.NoGain), s.Recheck, share(s.Recheck), s.Skipped, share(s.Skipped))
	for _, g := range puzzles.Games {
		if gs := r.ByGame[g]; gs != nil {
			fmt.Fprintf(&b, "  %s: positions %d, candidates %d, puzzles %d, not unique %d, gain not realised %d, re-check failed %d, too many moves %d\n",
				g, gs.Positions, gs.Candidates, gs.Accepted, gs.NotUnique, gs.NoGain, gs.Recheck, gs.Skipped)
		}
	}
	var lens []string
	for n := 1; n <= 5; n++ {
		lens = append(lens, fmt.Sprintf("%d: %d", n, r.Lengths[n]))
	}
	fmt.Fprintf(&b, "lengths (solver moves): %s\n", strings.Join(lens, ", "))
	var themes []string
	for t, n := range r.Themes {
		themes = append(themes, fmt.Sprintf("%s: %d", t, n))
	}
	sort.Strings(themes)
	if len(themes) == 0 {
		themes = []string{"none"}
	}
	fmt.Fprintf(&b, "themes: %s\n", strings.Join(themes, ", "))
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "not looked at: %s\n", p)
	}
	return b.String()
}
