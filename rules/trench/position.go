package trench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trench-games/trench/rules"
)

// StartFEN is the start position in the notation of [ParsePosition]:
// each army fills the 4×4 block of its corner, Black to move, no quiet
// plies, no stars captured. Spec: "Units and setup", "Notation".
const StartFEN = "4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0"

// ArmyStars is the total of the stars of one army: 6×1 + 4×2 + 3×3 + 2×4
// + 1×5 = 36.
const ArmyStars = 36

// ArmySize is the number of units of one army at the start.
const ArmySize = 16

// QuietLimit is the number of plies in a row without a capture that ends a
// game (25 for each side). Spec: "Points, end of a game, rulesets".
const QuietLimit = 50

// Position is an immutable game position: the 64 squares, the side to
// move, the quiet-ply counter (plies since the last capture) and the stars
// each side has captured in this game. It is a small comparable value
// (positions can be compared with ==); every method that changes something
// returns a new Position. The zero value is an empty board with Black to
// move.
type Position struct {
	board [64]Unit
	side  rules.Side
	quiet int
	stars [2]int
}

var startPos = func() Position {
	p, err := ParsePosition(StartFEN)
	if err != nil {
		panic(err)
	}
	return p
}()

// Start returns the start position (see [StartFEN]).
func Start() Position { return startPos }

// At returns the unit on sq and true, or NoUnit and false when sq is empty
// or invalid.
func (p Position) At(sq Square) (Unit, bool) {
	if !sq.Valid() || p.board[sq] == NoUnit {
		return NoUnit, false
	}
	return p.board[sq], true
}

// Board returns the 64 squares of p, indexed by Square (a1 = 0 … h8 = 63);
// NoUnit marks an empty square.
func (p Position) Board() [64]Unit { return p.board }

// MarshalText returns p in the position notation ([Position.String]), so
// that a Position encodes as a JSON string.
func (p Position) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText sets p from the position notation ([ParsePosition]).
// Errors wrap rules.ErrNotation and leave p unchanged.
func (p *Position) UnmarshalText(b []byte) error {
	q, err := ParsePosition(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// ToMove returns the side to move (Black or White).
func (p Position) ToMove() rules.Side { return p.side }

// Quiet returns the number of plies played since the last capture (or
// since the start).
func (p Position) Quiet() int { return p.quiet }

// Stars returns the stars captured so far in this game by side (0 for an
// invalid side).
func (p Position) Stars(side rules.Side) int {
	if !side.Valid() {
		return 0
	}
	return p.stars[side]
}

// Units returns how many units side has on the board.
func (p Position) Units(side rules.Side) int {
	n := 0
	for _, u := range p.board {
		if u != NoUnit && u.Side() == side {
			n++
		}
	}
	return n
}

// StarsOnBoard returns the total stars of side's units on the board
// (36 for a full army).
func (p Position) StarsOnBoard(side rules.Side) int {
	n := 0
	for _, u := range p.board {
		if u != NoUnit && u.Side() == side {
			n += u.Stars()
		}
	}
	return n
}

// Count returns how many units of kind k side has on the board.
func (p Position) Count(side rules.Side, k Kind) int {
	u := NewUnit(k, side)
	if u == NoUnit {
		return 0
	}
	n := 0
	for _, v := range p.board {
		if v == u {
			n++
		}
	}
	return n
}

// Missing returns, per kind (index = stars − 1: Soldier … General), how
// many of side's units are no longer on the board: the start count of the
// kind (6, 4, 3, 2, 1) minus those on the board.
func (p Position) Missing(side rules.Side) [5]int {
	var out [5]int
	for i, k := range Kinds {
		out[i] = k.Count() - p.Count(side, k)
	}
	return out
}

// String returns p in the position notation of the specification
// ("Notation"): five fields separated by single spaces,
// "<board> <side> <quiet> <black-stars> <white-stars>". The board lists
// ranks 8 down to 1 separated by '/', files a to h within a rank, a digit
// 1–8 for a run of empty squares, uppercase letters for White and
// lowercase for Black. [ParsePosition] reverses it.
func (p Position) String() string {
	var buf [96]byte
	b := buf[:0]
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			u := p.board[r*8+f]
			if u == NoUnit {
				empty++
				continue
			}
			if empty > 0 {
				b = append(b, byte('0'+empty))
				empty = 0
			}
			b = append(b, u.Letter())
		}
		if empty > 0 {
			b = append(b, byte('0'+empty))
		}
		if r > 0 {
			b = append(b, '/')
		}
	}
	b = append(b, ' ')
	if p.side == White {
		b = append(b, 'w')
	} else {
		b = append(b, 'b')
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.quiet), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.stars[0]), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.stars[1]), 10)
	return string(b)
}

func notationErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{rules.ErrNotation}, args...)...)
}

// maxCounterDigits bounds the length of the numeric fields.
const maxCounterDigits = 9

// ParsePosition parses a position written as [Position.String] writes it,
// e.g. [StartFEN]. The text must be canonical, so that parsing and writing
// it back gives the same text: exactly five fields separated by single
// spaces; eight ranks of exactly eight squares; digits 1–8 never next to
// each other; side "b" or "w"; counters written as decimal numbers of at
// most 9 digits without sign or leading zero. It also rejects positions no
// game can reach: more units of a kind than an army has (6 Soldiers,
// 4 Sergeants, 3 Captains, 2 Colonels, 1 General per side), and stars
// captured by a side exceeding the stars of the opponent's units that are
// off the board. Errors wrap rules.ErrNotation and say which field, rank
// or character is wrong.
func ParsePosition(s string) (Position, error) {
	var p Position
	if err := p.parse(s); err != nil {
		return Position{}, err
	}
	return p, nil
}

func (p *Position) parse(s string) error {
	fields := strings.Split(s, " ")
	if len(fields) != 5 {
		return notationErr("position %q: want 5 fields separated by single spaces, got %d", s, len(fields))
	}
	for i, f := range fields {
		if f == "" {
			return notationErr("position %q: field %d is empty (fields are separated by single spaces)", s, i+1)
		}
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return notationErr("board %q: want 8 ranks separated by '/', got %d", fields[0], len(ranks))
	}
	var counts [2][6]int
	for i, text := range ranks {
		rank := 7 - i
		file := 0
		prevDigit := false
		for j := 0; j < len(text); j++ {
			c := text[j]
			if c >= '1' && c <= '8' {
				if prevDigit {
					return notationErr("rank %d %q: two digits next to each other", rank+1, text)
				}
				prevDigit = true
				file += int(c - '0')
				if file > 8 {
					return notationErr("rank %d %q: more than 8 squares", rank+1, text)
				}
				continue
			}
			prevDigit = false
			k := KindFromLetter(c)
			if k == NoKind {
				return notationErr("rank %d %q: unexpected character %q (want S R A C G, s r a c g or 1-8)", rank+1, text, c)
			}
			if file >= 8 {
				return notationErr("rank %d %q: more than 8 squares", rank+1, text)
			}
			side := White
			if c >= 'a' {
				side = Black
			}
			p.board[rank*8+file] = NewUnit(k, side)
			counts[side][k]++
			file++
		}
		if file != 8 {
			return notationErr("rank %d %q: %d squares, want 8", rank+1, text, file)
		}
	}
	for _, side := range []rules.Side{Black, White} {
		for _, k := range Kinds {
			if counts[side][k] > k.Count() {
				return notationErr("board %q: %s has %d units of kind %s; an army has %d", fields[0], sideName(side), counts[side][k], k, k.Count())
			}
		}
	}
	switch fields[1] {
	case "b":
		p.side = Black
	case "w":
		p.side = White
	default:
		return notationErr("side to move %q: want b or w", fields[1])
	}
	var err error
	if p.quiet, err = parseCounter("quiet counter", fields[2]); err != nil {
		return err
	}
	if p.stars[0], err = parseCounter("black stars", fields[3]); err != nil {
		return err
	}
	if p.stars[1], err = parseCounter("white stars", fields[4]); err != nil {
		return err
	}
	for _, side := range []rules.Side{Black, White} {
		off := ArmyStars - p.StarsOnBoard(side.Other())
		if p.stars[side] > off {
			return notationErr("%s stars %d: more than the %d stars of %s units off the board", strings.ToLower(sideName(side)), p.stars[side], off, sideName(side.Other()))
		}
	}
	return nil
}

func parseCounter(name, s string) (int, error) {
	if len(s) > maxCounterDigits {
		return 0, notationErr("%s %q: more than %d digits", name, s, maxCounterDigits)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, notationErr("%s %q: want a whole number 0 or more", name, s)
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, notationErr("%s %q: leading zero", name, s)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, notationErr("%s %q: want a whole number 0 or more", name, s)
	}
	return n, nil
}

func sideName(s rules.Side) string {
	switch s {
	case Black:
		return "Black"
	case White:
		return "White"
	}
	return "nobody"
}
