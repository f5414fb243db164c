package cards

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trench-games/trench/rules"
)

// Record is a game record: the variant, the seed and the chosen moves in
// order. The automatic steps are not in it: they follow from the moves,
// so Replay rebuilds the game exactly. It holds the seed, so it is for the
// server and for the archive once the game has ended.
type Record struct {
	Variant string
	Seed    int64
	Moves   []string
}

// String writes the record:
//
//	[Game "cards"]
//	[Variant "short"]
//	[Seed "42"]
//	1. attack F2
//	2. refill F2 B3
func (r Record) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Game \"cards\"]\n[Variant %q]\n[Seed \"%d\"]\n", r.Variant, r.Seed)
	for i, m := range r.Moves {
		fmt.Fprintf(&b, "%d. %s\n", i+1, m)
	}
	return b.String()
}

// ParseRecord reads a record written by Record.String (blank lines are
// ignored). Errors wrap rules.ErrNotation.
func ParseRecord(text string) (Record, error) {
	var r Record
	bad := func(line int, why string) (Record, error) {
		return Record{}, fmt.Errorf("%w: record line %d: %s", rules.ErrNotation, line, why)
	}
	var game, variant, seed bool
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			if len(r.Moves) > 0 {
				return bad(i+1, "header after the moves")
			}
			key, val, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(line, "["), "]"), " ")
			if !ok || !strings.HasSuffix(line, "]") {
				return bad(i+1, "malformed header")
			}
			v, err := strconv.Unquote(val)
			if err != nil {
				return bad(i+1, "malformed header value")
			}
			switch {
			case key == "Game" && !game:
				if v != "cards" {
					return bad(i+1, "not a card game record")
				}
				game = true
			case key == "Variant" && !variant:
				if !knownVariant(v) {
					return bad(i+1, "unknown variant")
				}
				r.Variant, variant = v, true
			case key == "Seed" && !seed:
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return bad(i+1, "bad seed")
				}
				r.Seed, seed = n, true
			default:
				return bad(i+1, "unknown or repeated header "+key)
			}
			continue
		}
		num, mv, ok := strings.Cut(line, ". ")
		if !ok || num != strconv.Itoa(len(r.Moves)+1) {
			return bad(i+1, "want \"<n>. <move>\" with n in sequence")
		}
		if _, err := ParseMove(mv); err != nil {
			return bad(i+1, err.Error())
		}
		r.Moves = append(r.Moves, mv)
	}
	if !game || !variant || !seed {
		return Record{}, fmt.Errorf("%w: record: missing Game, Variant or Seed header", rules.ErrNotation)
	}
	return r, nil
}

// Replay plays the record from New(Variant, Seed) and returns the final
// state.
func (r Record) Replay() (*State, error) {
	s, err := New(r.Variant, r.Seed)
	if err != nil {
		return nil, err
	}
	for i, m := range r.Moves {
		if s, err = s.ApplyMove(m); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return s, nil
}

// Log returns the record's moves as viewer may read them, one line per
// move (see State.Describe): a player's own log leaves out the other
// side's hidden cards.
func (r Record) Log(viewer rules.Side) ([]string, error) {
	s, err := New(r.Variant, r.Seed)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(r.Moves))
	for i, m := range r.Moves {
		line := sideNames[s.turn] + ": " + s.Describe(m, viewer)
		if s, err = s.ApplyMove(m); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		out = append(out, line)
	}
	return out, nil
}
