package trenches

import (
	"fmt"

	"github.com/trench-games/trench/rules"
)

// Engine is Trenches as a rules.Engine, registered under the key
// "trenches". It is a stateless value.
type Engine struct{}

var _ rules.Engine = Engine{}

func init() { rules.Register(Engine{}) }

// VariantStandard is the key of the only variant: the spec's rules from
// StartFEN, one game per match.
const VariantStandard = "standard"

// Key returns "trenches".
func (Engine) Key() string { return "trenches" }

// Title returns "Trenches".
func (Engine) Title() string { return "Trenches" }

// SideNames returns {"Light", "Dark"}: Side0 is Light, who moves first.
func (Engine) SideNames() [2]string { return [2]string{"Light", "Dark"} }

// Variants returns the single variant {"standard", "Standard"}.
func (Engine) Variants() []rules.Variant {
	return []rules.Variant{{Key: VariantStandard, Title: "Standard"}}
}

// FirstGame returns the only game of a match: the variant itself ("" is
// read as "standard"), not swapped.
func (Engine) FirstGame(variant string) rules.GameSpec {
	if variant == "" {
		variant = VariantStandard
	}
	return rules.GameSpec{Variant: variant}
}

// checkVariant returns an error for a variant other than "standard" or "".
func checkVariant(variant string) error {
	if variant != VariantStandard && variant != "" {
		return fmt.Errorf("trenches: unknown variant %q", variant)
	}
	return nil
}

// Start returns the start state (StartFEN, Light to move); seed is
// ignored. Errors: a variant other than "standard" (or "").
func (Engine) Start(spec rules.GameSpec, seed int64) (rules.State, error) {
	if err := checkVariant(spec.Variant); err != nil {
		return nil, err
	}
	return State{pos: Start()}, nil
}

// Decode parses a state stored by State.Encode, i.e. a position in the
// spec's format (ParsePosition). The variant must be "standard" or "".
// Errors wrap rules.ErrNotation.
func (Engine) Decode(variant, s string) (rules.State, error) {
	if err := checkVariant(variant); err != nil {
		return nil, fmt.Errorf("%w: %w", err, rules.ErrNotation)
	}
	p, err := ParsePosition(s)
	if err != nil {
		return nil, err
	}
	return State{pos: p}, nil
}

// NextInMatch returns the first game while none is finished; after that
// the match is done: a match is one game. Winner is the match player who
// won it (-1 for a draw) and Totals the game's scores per match player
// (match player 0 plays Side0 unless the game was swapped).
func (e Engine) NextInMatch(variant string, games []rules.MatchGame, seed int64) rules.MatchStep {
	if len(games) == 0 {
		return rules.MatchStep{Next: e.FirstGame(variant)}
	}
	g := games[0]
	player := func(side rules.Side) int { // match player who played side
		if g.Spec.Swapped {
			side = side.Other()
		}
		return int(side)
	}
	step := rules.MatchStep{Done: true, Winner: -1}
	if g.Result.Winner.Valid() {
		step.Winner = player(g.Result.Winner)
	}
	step.Totals[player(rules.Side0)] = g.Result.Score[rules.Side0]
	step.Totals[player(rules.Side1)] = g.Result.Score[rules.Side1]
	return step
}

// HasArmistice returns false: the rules have no agreed end.
func (Engine) HasArmistice() bool { return false }

// FormatScore writes a Trenches score: the pieces that can still move,
// e.g. "3 mobile".
func (Engine) FormatScore(n int) string { return fmt.Sprintf("%d mobile", n) }

// DarkSide is Side1: Dark moves second.
func (Engine) DarkSide() rules.Side { return rules.Side1 }

// Unscored reports that a win by resignation or on time has no score (see
// Concede).
func (Engine) Unscored(r rules.Reason) bool {
	return r == rules.ReasonResigned || r == rules.ReasonTimeout
}
