package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/trench-games/trench/cmd/trench/internal/duel"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	_ "github.com/trench-games/trench/rules/cards/bot"
	_ "github.com/trench-games/trench/rules/trench/bot"
	_ "github.com/trench-games/trench/rules/trenches/bot"
)

// botCommand runs `trench bot move|duel …`. A bad command line or position
// is one message on stderr and exit status 1, with nothing on stdout.
func botCommand(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var out string
	var err error
	switch {
	case len(args) > 0 && args[0] == "move":
		out, err = botMove(args[1:])
	case len(args) > 0 && args[0] == "duel":
		out, err = botDuel(ctx, stderr, args[1:])
	default:
		err = errors.New("want: bot move GAME POSITION … or bot duel --game GAME …")
	}
	if err != nil {
		fmt.Fprintln(stderr, "trench bot:", err)
		return exitError(1)
	}
	_, err = io.WriteString(stdout, out)
	return err
}

// parseInterspersed parses fs from args, allowing flags before, between
// and after the positional arguments, which it returns.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errors.New("no help here: see `trench help`")
			}
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// botMove prints the computer's move in a position:
// bot move trench|trenches|cards POSITION [--rules R] [--level L] [--movetime MS] [--nodes N] [--seed N].
func botMove(args []string) (string, error) {
	fs := flag.NewFlagSet("bot move", flag.ContinueOnError)
	variant := fs.String("rules", "", "TRENCH ruleset: match, single, bga or decider (default single)")
	levelName := fs.String("level", string(bot.Hard), "easy, medium, hard, random or greedy")
	movetime := fs.Int("movetime", 1000, "time limit in milliseconds")
	nodes := fs.Int64("nodes", 0, "node budget (deterministic with --seed)")
	seed := fs.Int64("seed", 0, "seed of the search's random choices")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 2 {
		return "", errors.New("want: bot move trench|trenches|cards POSITION [--rules R] [--level L] [--movetime MS] [--nodes N] [--seed N]")
	}
	game, position := pos[0], pos[1]
	if game != "trench" && game != "trenches" && game != "cards" {
		return "", fmt.Errorf("unknown game %q (want trench, trenches or cards)", game)
	}
	eng, _ := rules.Lookup(game)
	player, ok := bot.Lookup(game)
	if !ok {
		return "", fmt.Errorf("no computer player for %s", eng.Title())
	}
	if *variant == "" {
		*variant = eng.Variants()[0].Key
		if game == "trench" {
			*variant = "single"
		}
	}
	if !variantKnown(eng, *variant) {
		return "", fmt.Errorf("unknown rules %q for %s", *variant, eng.Title())
	}
	level, err := bot.ParseLevel(*levelName)
	if err != nil {
		return "", err
	}
	movetimeSet := false
	fs.Visit(func(f *flag.Flag) { movetimeSet = movetimeSet || f.Name == "movetime" })
	if movetimeSet && *nodes > 0 {
		return "", errors.New("give --movetime or --nodes, not both")
	}
	if *movetime <= 0 || *nodes < 0 {
		return "", errors.New("--movetime and --nodes must be positive")
	}
	// The engine's error names the position already.
	st, err := eng.Decode(*variant, position)
	if err != nil {
		return "", err
	}
	req := bot.Request{Level: level, Seed: *seed, Side: st.ToMove()}
	if *nodes > 0 {
		req.Budget.Nodes = *nodes
	} else {
		req.Budget.Stop = bot.Deadline(time.Now, time.Duration(*movetime)*time.Millisecond)
	}
	if !req.Side.Valid() || st.Result().Over {
		return "", fmt.Errorf("position %q: %w (the game is over)", position, bot.ErrNoMove)
	}
	th, err := player.Think(st, req)
	if err != nil {
		return "", fmt.Errorf("position %q: %w", position, err)
	}
	return th.Move + "\n", nil
}

// decider is not offered to challenges but is a ruleset the bot plays.
func variantKnown(eng rules.Engine, key string) bool {
	if eng.Key() == "trench" && key == "decider" {
		return true
	}
	_, ok := rules.VariantOf(eng, key)
	return ok
}

// botDuel plays computer levels against each other:
// bot duel --game G [--rules R] --a LEVEL --b LEVEL --games N [--movetime MS | --nodes N] [--seed N].
func botDuel(ctx context.Context, progress io.Writer, args []string) (string, error) {
	fs := flag.NewFlagSet("bot duel", flag.ContinueOnError)
	game := fs.String("game", "", "trench, trenches or cards")
	variant := fs.String("rules", "", "the game's rules (TRENCH: match, single, bga, decider; cards: short, long)")
	a := fs.String("a", "", "level of player A")
	b := fs.String("b", "", "level of player B")
	games := fs.Int("games", 100, "games to play (matches, for TRENCH's match rules)")
	movetime := fs.Int("movetime", 0, "time limit per move in milliseconds (default: the server's budget)")
	nodes := fs.Int64("nodes", 0, "node budget per move (deterministic)")
	seed := fs.Int64("seed", 1, "seed of the games")
	workers := fs.Int("workers", 0, "games played at once (default: one per core)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) > 0 {
		return "", fmt.Errorf("unexpected %q", strings.Join(pos, " "))
	}
	if *game == "" || *a == "" || *b == "" {
		return "", errors.New("want: bot duel --game trench|trenches|cards [--rules R] --a LEVEL --b LEVEL --games N [--movetime MS | --nodes N] [--seed N]")
	}
	if *movetime > 0 && *nodes > 0 {
		return "", errors.New("give --movetime or --nodes, not both")
	}
	if *movetime < 0 || *nodes < 0 {
		return "", errors.New("--movetime and --nodes must be positive")
	}
	if *workers < 0 {
		return "", errors.New("--workers must be positive (0: one per core)")
	}
	la, err := bot.ParseLevel(*a)
	if err != nil {
		return "", err
	}
	lb, err := bot.ParseLevel(*b)
	if err != nil {
		return "", err
	}
	if eng, ok := rules.Lookup(*game); ok && *variant != "" && !variantKnown(eng, *variant) {
		return "", fmt.Errorf("unknown rules %q for %s", *variant, eng.Title())
	}
	fmt.Fprintf(progress, "playing %d games of %s: %s against %s\n", *games, *game, la, lb)
	res, err := duel.Run(ctx, duel.Config{Game: *game, Variant: *variant, A: la, B: lb, Games: *games,
		Nodes: *nodes, MoveTime: time.Duration(*movetime) * time.Millisecond, Seed: *seed, Workers: *workers})
	if err != nil && ctx.Err() != nil && res.Games > 0 {
		// Stopped (Ctrl-C, SIGTERM): the games finished so far still count.
		fmt.Fprintf(progress, "stopped after %d of %d games\n", res.Games, *games)
		return res.String(), nil
	}
	if err != nil {
		return "", err
	}
	return res.String(), nil
}
