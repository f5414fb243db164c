package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/trench-games/trench/rules"
)

// rulesCommand runs `trench rules legal|apply|perft GAME POSITION …`.
// Output goes to stdout; an error is one line on stderr naming what is
// wrong, with exit status 1 and nothing on stdout.
func rulesCommand(stdout, stderr io.Writer, args []string) error {
	out, err := rulesOutput(args)
	if err != nil {
		fmt.Fprintln(stderr, "trench rules:", err)
		return exitError(1)
	}
	_, err = io.WriteString(stdout, out)
	return err
}

func rulesOutput(args []string) (string, error) {
	if len(args) >= 1 && args[0] == "replay" {
		return replayOutput(args[1:])
	}
	if len(args) < 3 {
		return "", fmt.Errorf("want: legal|apply|perft GAME POSITION …\n%s", usage)
	}
	verb, game, position := args[0], args[1], args[2]
	eng, ok := rules.Lookup(game)
	if !ok {
		return "", fmt.Errorf("unknown game %q (want trench, trenches or cards)", game)
	}
	st, err := eng.Decode("", position)
	if err != nil {
		return "", fmt.Errorf("position %q: %w", position, err)
	}
	switch verb {
	case "legal":
		if len(args) != 3 {
			return "", fmt.Errorf("legal takes GAME POSITION only")
		}
		// Legal ignores end conditions: once the game is over ToMove is
		// NoSide, but the position still has a side to move, and only that
		// side gets moves from Legal.
		moves := st.Legal(st.ToMove())
		if !st.ToMove().Valid() {
			moves = append(st.Legal(rules.Side0), st.Legal(rules.Side1)...)
		}
		if len(moves) == 0 {
			return "", nil
		}
		sort.Strings(moves)
		return strings.Join(moves, "\n") + "\n", nil
	case "apply":
		for _, m := range args[3:] {
			next, err := st.Apply(m)
			if err != nil {
				return "", fmt.Errorf("move %q: %w", m, err)
			}
			st = next
		}
		return st.Encode() + "\n", nil
	case "perft":
		if len(args) != 4 {
			return "", fmt.Errorf("perft takes GAME POSITION DEPTH")
		}
		depth, err := strconv.Atoi(args[3])
		if err != nil || depth < 0 || depth > 12 {
			return "", fmt.Errorf("depth %q: want a whole number from 0 to 12", args[3])
		}
		return strconv.FormatInt(st.Perft(depth), 10) + "\n", nil
	}
	return "", fmt.Errorf("unknown rules command %q (want legal, apply or perft)", verb)
}

// replayOutput checks the game record in the file named by args[0] ("-"
// for standard input) and returns its final position.
func replayOutput(args []string) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("replay takes one FILE (a game record; - reads standard input)")
	}
	var text []byte
	var err error
	if args[0] == "-" {
		text, err = io.ReadAll(io.LimitReader(os.Stdin, 16<<20))
	} else {
		text, err = os.ReadFile(args[0])
	}
	if err != nil {
		return "", err
	}
	rec, err := rules.ParseRecord(string(text))
	if err != nil {
		return "", fmt.Errorf("%s: %w", args[0], err)
	}
	st, err := rec.Replay()
	if err != nil {
		return "", fmt.Errorf("%s: %w", args[0], err)
	}
	return st.Encode() + "\n", nil
}
