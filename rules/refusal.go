package rules

import (
	"fmt"
	"sort"
)

// Term is a word of the games' vocabulary quoted in a refusal (a unit's
// kind such as "General", a side's name such as "White"): a reader's
// language translates it, where a square or a move's notation is shown
// as written.
type Term string

// MoveError is a game's refusal of a move: the reason as a code and the
// values its sentence quotes, so that each language can say it whole.
// It wraps ErrIllegal (a well-formed move that is not legal) or
// ErrNotation (text that is not a move). Error gives the English
// sentence: "illegal move: the General on a1 cannot reach a8".
type MoveError struct {
	// Kind is ErrIllegal or ErrNotation.
	Kind error
	// Code names the reason; RefusalText gives its English sentence.
	Code string
	// Args are the values the sentence quotes, in order: strings (squares,
	// moves, cards as written) and Terms.
	Args []any
}

// Refuse returns the refusal of kind (ErrIllegal or ErrNotation) for the
// reason code, quoting args. code must be one of RefusalCodes.
func Refuse(kind error, code string, args ...any) *MoveError {
	return &MoveError{Kind: kind, Code: code, Args: args}
}

// Error returns the kind's words and the English sentence of the reason.
func (e *MoveError) Error() string {
	return e.Kind.Error() + ": " + e.Reason()
}

// Reason returns the English sentence of the reason alone:
// "the General on a1 cannot reach a8".
func (e *MoveError) Reason() string { return fmt.Sprintf(RefusalText(e.Code), e.Args...) }

// Unwrap returns the kind, so that errors.Is(err, ErrIllegal) holds.
func (e *MoveError) Unwrap() error { return e.Kind }

// RefusalText returns the English sentence of a refusal's code, a format
// taking the refusal's Args ("" for an unknown code).
func RefusalText(code string) string { return refusals[code] }

// RefusalCodes returns every refusal's code, sorted.
func RefusalCodes() []string {
	out := make([]string, 0, len(refusals))
	for c := range refusals {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// refusals are the English sentences of the refusals of the three games,
// by code.
var refusals = map[string]string{
	// TRENCH
	"trench.form":           "move %q: want <from>-<to> or <from>x<to>, like d4-d5 or e4xg6",
	"trench.separator":      "move %q: separator '%s': want '-' (no capture) or 'x' (capture)",
	"trench.from-square":    "move %q: bad from-square %q",
	"trench.to-square":      "move %q: bad to-square %q",
	"trench.same-square":    "move %q: from and to are the same square",
	"trench.off-board":      "%s-%s: not a square of the board",
	"trench.no-unit":        "no unit on %s",
	"trench.not-yours":      "%[1]s holds a %[2]s %[3]s but %[4]s is to move",
	"trench.cannot-reach":   "the %s on %s cannot reach %s",
	"trench.captures":       "move %s captures; write %s",
	"trench.captures-none":  "move %s captures nothing; write %s",
	"trench.wrong-captures": "move %s captures %s, not %s",
	// Trenches
	"trenches.form":                "move %q has no \"-\" (want \"a4-a6\" or \"b4-b6/d8\")",
	"trenches.start-square":        "move %q: bad start square %q",
	"trenches.landing-square":      "move %q: bad landing square %q",
	"trenches.grenade-square":      "move %q: bad grenade square %q",
	"trenches.off-board":           "move %s leaves the board",
	"trenches.no-piece":            "%s: %s has no piece on %s",
	"trenches.tank-grenade":        "%s: the piece on %s is a Tank, which throws no grenade",
	"trenches.soldier-grenade":     "%s: the piece on %s is a Soldier, which must throw a grenade",
	"trenches.unreachable":         "%s: %s is not reachable from %s along a line of empty squares",
	"trenches.grenade-unreachable": "%s: grenade square %s is not reachable from %s along a line of empty squares",
	"trenches.grenade-tank":        "%s: grenade square %s is next to a Tank",
	// the card game
	"cards.form":              "move %q: want a word and one or two places, separated by single spaces",
	"cards.place":             "move %q: %q is not a place (F1, B1 or H: and a card)",
	"cards.slot":              "move %q: there is no slot %q",
	"cards.card":              "move %q: %q is not a card",
	"cards.shift-places":      "move %q: shift takes two places",
	"cards.shift-hand":        "move %q: a hand card shifts with a back slot only",
	"cards.recon-slot":        "move %q: recon takes one slot",
	"cards.attack-slot":       "move %q: attack takes one front slot",
	"cards.refill-places":     "move %q: refill takes two places",
	"cards.refill-form":       "move %q: refill is F<n> B<n>, F<n> H:<card> or B<n> H:<card>",
	"cards.word":              "move %q: unknown word",
	"cards.refill-first":      "%s: a refill comes first",
	"cards.nothing-to-refill": "%s: nothing to refill",
	"cards.same-action":       "%s: not the same action twice in a row",
	"cards.recon-three":       "%s: the opponent already has 3 face-up cards",
	"cards.write-it":          "%s: write it %s",
	"cards.not-now":           "%s is not a legal move now",
}
