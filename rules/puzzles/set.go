package puzzles

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/trench-games/trench/rules"
)

// A puzzle set is text, one puzzle a line, five fields separated by tabs:
//
//	game	variant	position	solution	themes
//
// the solution's moves and the themes separated by spaces (themes may be
// empty). Lines starting with '#' and empty lines are comments. `trench
// puzzles generate --out FILE` writes one; the server ships Starter.

// WriteSet writes ps as a puzzle set to w, after a comment line head (if
// not empty).
func WriteSet(w io.Writer, head string, ps []Puzzle) error {
	bw := bufio.NewWriter(w)
	if head != "" {
		fmt.Fprintf(bw, "# %s\n", head)
	}
	for _, p := range ps {
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%s\n", p.Game, p.Variant, p.Position, strings.Join(p.Solution, " "), strings.Join(p.Themes, " "))
	}
	return bw.Flush()
}

// ParseSet reads a puzzle set, checking that each line's game has puzzles
// and that its solution plays from its position. Errors name the line.
func ParseSet(r io.Reader) ([]Puzzle, error) {
	var out []Puzzle
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("puzzles: line %d: %d fields, want 5", n, len(f))
		}
		p := Puzzle{Game: f[0], Variant: f[1], Position: f[2], Solution: strings.Fields(f[3]), Themes: strings.Fields(f[4])}
		if err := p.Valid(); err != nil {
			return nil, fmt.Errorf("puzzles: line %d: %w", n, err)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

// Valid checks that p's game has puzzles, its position decodes and its
// solution (1 to 5 solver moves) plays from it.
func (p Puzzle) Valid() error {
	if !HasPuzzles(p.Game) {
		return fmt.Errorf("%w: %q", ErrGame, p.Game)
	}
	if len(p.Solution) == 0 || len(p.Solution)%2 == 0 || p.SolverMoves() > 5 {
		return fmt.Errorf("a solution of %d moves", len(p.Solution))
	}
	st, err := p.Start()
	if err != nil {
		return err
	}
	for _, m := range p.Solution {
		if st, err = st.Apply(m); err != nil {
			return err
		}
	}
	return nil
}

//go:embed starter.txt
var starter string

// Starter returns the puzzles a new server starts with: a set generated
// by `trench puzzles generate --selfplay` and shipped in the binary.
func Starter() ([]Puzzle, error) { return ParseSet(strings.NewReader(starter)) }

// FindInRecord looks for puzzles in a finished game given as its record:
// game and variant (engine key and variant key), its start state as
// stored, and its moves. Errors: a game without puzzles, a record that
// does not replay, or the player's.
// stop, when not nil, ends the searches early (Generator.Stop); scores
// are the positions' values known from an analysis (Generator.Scores),
// nil for none.
func FindInRecord(game, variant, start string, moves []string, seed int64, stop func() bool, scores map[int]int) ([]Puzzle, Stats, error) {
	g, err := New(game, variant, seed)
	if err != nil {
		return nil, Stats{}, err
	}
	g.Stop, g.Scores = stop, scores
	eng, ok := rules.Lookup(game)
	if !ok {
		return nil, Stats{}, fmt.Errorf("puzzles: no game %q", game)
	}
	st, err := eng.Decode(variant, start)
	if err != nil {
		return nil, Stats{}, err
	}
	states, err := Replay(st, moves)
	if err != nil {
		return nil, Stats{}, err
	}
	return g.Find(states)
}
