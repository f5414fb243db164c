package cards

import (
	"fmt"
	"github.com/trench-games/trench/rules"
	"strings"
)

// Engine is the card game's rules.Engine.
type Engine struct{}

var _ rules.Engine = Engine{}

func init() { rules.Register(Engine{}) }

// Key returns "cards".
func (Engine) Key() string { return "cards" }

// Title returns the game's display name.
func (Engine) Title() string { return "Trench, the card game" }

// SideNames names the sides by suit colour: Side0 plays the black suits,
// Side1 the red ones.
func (Engine) SideNames() [2]string { return sideNames }

// Variants lists the short game (the default) and the long game.
func (Engine) Variants() []rules.Variant {
	return []rules.Variant{
		{Key: VariantShort, Title: "Short game (13 cards)"},
		{Key: VariantLong, Title: "Long game (26 cards)"},
	}
}

// FirstGame returns the only game of a match: a single game.
func (Engine) FirstGame(variant string) rules.GameSpec {
	return rules.GameSpec{Variant: variant}
}

// Start returns the start of a game. spec.Swapped does not change the
// game: Side0 is always the creator of the challenge with the black suits.
func (Engine) Start(spec rules.GameSpec, seed int64) (rules.State, error) {
	s, err := New(spec.Variant, seed)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Decode parses a state written by Encode; variant "" takes the variant
// the text names (its second field), as the command line does.
func (Engine) Decode(variant, s string) (rules.State, error) {
	if f := strings.Fields(s); variant == "" && len(f) > 1 {
		variant = f[1]
	}
	st, err := Decode(variant, s)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// NextInMatch ends the match after its single game; the winner is that
// game's, and the totals are its score (cards held).
func (e Engine) NextInMatch(variant string, games []rules.MatchGame, seed int64) rules.MatchStep {
	if len(games) == 0 {
		return rules.MatchStep{Next: e.FirstGame(variant)}
	}
	g := games[0]
	player := func(s rules.Side) int { // match player who played side s
		if g.Spec.Swapped {
			return int(s.Other())
		}
		return int(s)
	}
	step := rules.MatchStep{Done: true, Winner: -1}
	if g.Result.Winner.Valid() {
		step.Winner = player(g.Result.Winner)
	}
	for t := range 2 {
		step.Totals[player(rules.Side(t))] = g.Result.Score[t]
	}
	return step
}

// HasArmistice is true: the players may agree to a draw.
func (Engine) HasArmistice() bool { return true }

// ArmisticeTerms says that the card game's armistice is an agreed draw.
func (Engine) ArmisticeTerms() string { return "an agreed draw" }

// FormatScore writes a card game score: the cards a side still holds,
// e.g. "9 cards".
func (Engine) FormatScore(n int) string {
	if n == 1 {
		return "1 card"
	}
	return fmt.Sprintf("%d cards", n)
}

// CreatorSide is Side0: the player who created the challenge plays ♠
// (spec, "Cards and setup").
func (Engine) CreatorSide() rules.Side { return rules.Side0 }

// HidesInformation is true: cards are dealt face down and hands are
// private (spec, "Hidden information").
func (Engine) HidesInformation() bool { return true }
