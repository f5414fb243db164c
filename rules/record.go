package rules

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// Record is a game record in plain text: tag lines, then the moves, one a
// line, numbered by ply:
//
//	[Game "trench"]
//	[Variant "single"]
//	[Seed "42"]
//	[Black "alice"]
//	[Result "Black won 52–32 (target reached)"]
//
//	1. d4-d5
//	2. e5-e4
//
// Game, Variant and (for games dealt at random) Seed are what a replay
// needs; the other tags are for people. Tag values are quoted with
// strconv.Quote rules (a `"` or `\` inside is escaped).
type Record struct {
	Game    string
	Variant string
	Seed    int64
	Tags    [][2]string // other tags, in order: name, value
	Moves   []string
}

// String writes the record in the format above.
func (r Record) String() string {
	var b strings.Builder
	tag := func(name, value string) { fmt.Fprintf(&b, "[%s %s]\n", name, strconv.Quote(value)) }
	tag("Game", r.Game)
	tag("Variant", r.Variant)
	tag("Seed", strconv.FormatInt(r.Seed, 10))
	for _, t := range r.Tags {
		tag(t[0], t[1])
	}
	b.WriteByte('\n')
	for i, m := range r.Moves {
		fmt.Fprintf(&b, "%d. %s\n", i+1, m)
	}
	return b.String()
}

// ParseRecord reads a record written by String (blank lines and lines
// starting with ";" are ignored; move numbers must run 1, 2, 3 …).
// Errors wrap ErrNotation and name the line.
func ParseRecord(text string) (Record, error) {
	var r Record
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, ";"):
			continue
		case strings.HasPrefix(line, "["):
			if len(r.Moves) > 0 {
				return Record{}, fmt.Errorf("%w: line %d: a tag after the moves", ErrNotation, n)
			}
			name, value, err := parseTag(line)
			if err != nil {
				return Record{}, fmt.Errorf("%w: line %d: %v", ErrNotation, n, err)
			}
			if seen[name] {
				return Record{}, fmt.Errorf("%w: line %d: tag %s given twice", ErrNotation, n, name)
			}
			seen[name] = true
			switch name {
			case "Game":
				r.Game = value
			case "Variant":
				r.Variant = value
			case "Seed":
				if r.Seed, err = strconv.ParseInt(value, 10, 64); err != nil {
					return Record{}, fmt.Errorf("%w: line %d: seed %q is not a whole number", ErrNotation, n, value)
				}
			default:
				r.Tags = append(r.Tags, [2]string{name, value})
			}
		default:
			num, move, ok := strings.Cut(line, ". ")
			if !ok || num != strconv.Itoa(len(r.Moves)+1) || strings.TrimSpace(move) == "" {
				return Record{}, fmt.Errorf("%w: line %d: want move %d as %q, got %q", ErrNotation, n, len(r.Moves)+1,
					strconv.Itoa(len(r.Moves)+1)+". <move>", line)
			}
			r.Moves = append(r.Moves, strings.TrimSpace(move))
		}
	}
	if err := sc.Err(); err != nil {
		return Record{}, fmt.Errorf("%w: %v", ErrNotation, err)
	}
	if r.Game == "" {
		return Record{}, fmt.Errorf("%w: the record has no [Game] tag", ErrNotation)
	}
	return r, nil
}

func parseTag(line string) (name, value string, err error) {
	if !strings.HasSuffix(line, "]") {
		return "", "", fmt.Errorf("tag %q does not end with ]", line)
	}
	name, quoted, ok := strings.Cut(line[1:len(line)-1], " ")
	if !ok || name == "" {
		return "", "", fmt.Errorf("tag %q: want [Name \"value\"]", line)
	}
	value, err = strconv.Unquote(quoted)
	if err != nil {
		return "", "", fmt.Errorf("tag %s: value %s is not a quoted string", name, quoted)
	}
	return name, value, nil
}

// Replay plays the record from the start of its game and returns the
// final state. Errors: an unknown game or variant; the first move that is
// malformed or illegal, named with its number (wrapping ErrNotation or
// ErrIllegal).
func (r Record) Replay() (State, error) {
	e, ok := Lookup(r.Game)
	if !ok {
		return nil, fmt.Errorf("%w: unknown game %q", ErrNotation, r.Game)
	}
	st, err := e.Start(GameSpec{Variant: r.Variant}, r.Seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotation, err)
	}
	for i, m := range r.Moves {
		next, err := st.Apply(m)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, m, err)
		}
		st = next
	}
	return st, nil
}
