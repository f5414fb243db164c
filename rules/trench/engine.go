package trench

import (
	"errors"
	"fmt"
	"sort"

	"github.com/trench-games/trench/rules"
)

func init() { rules.Register(Engine{}) }

// ErrUnknownVariant is returned (wrapped) by [Engine.Start] and
// [Engine.Decode] for a variant key that is not "", "match", "single",
// "bga" or "decider".
var ErrUnknownVariant = errors.New("unknown variant")

// Engine is TRENCH as a rules.Engine, registered under the key "trench".
// It is a stateless value.
type Engine struct{}

var _ rules.Engine = Engine{}

// Key returns "trench".
func (Engine) Key() string { return "trench" }

// Title returns "TRENCH".
func (Engine) Title() string { return "TRENCH" }

// SideNames returns {"Black", "White"}: Side0 is Black, who moves first.
func (Engine) SideNames() [2]string { return [2]string{"Black", "White"} }

// Variants returns the rulesets a challenge can choose, the official match
// first (the default): "match", "single", "bga". The decider is not listed:
// the match logic starts it.
func (Engine) Variants() []rules.Variant {
	out := make([]rules.Variant, 0, 3)
	for _, r := range []Ruleset{RulesetMatch, RulesetSingle, RulesetBGA} {
		out = append(out, rules.Variant{Key: r.Key, Title: r.Title, Match: r == RulesetMatch})
	}
	return out
}

// FirstGame returns the first game of a match of variant ("" means
// "match"), with colours not swapped.
func (Engine) FirstGame(variant string) rules.GameSpec {
	if variant == "" {
		variant = RulesetMatch.Key
	}
	return rules.GameSpec{Variant: variant}
}

// Start returns the start position under the ruleset spec.Variant ("",
// "match", "single", "bga" or "decider"). The seed is ignored (TRENCH has
// no chance) and so is spec.Swapped: the state always has Black as Side0;
// the game flow maps players to sides. Errors wrap ErrUnknownVariant.
func (Engine) Start(spec rules.GameSpec, seed int64) (rules.State, error) {
	r, ok := LookupRuleset(spec.Variant)
	if !ok {
		return nil, fmt.Errorf("trench: %w %q", ErrUnknownVariant, spec.Variant)
	}
	return NewState(Start(), r), nil
}

// Decode parses a state stored by [State.Encode] (the position text of
// [ParsePosition]) for variant ("" means "match"). Errors wrap
// rules.ErrNotation (and ErrUnknownVariant for an unknown variant).
func (Engine) Decode(variant, s string) (rules.State, error) {
	r, ok := LookupRuleset(variant)
	if !ok {
		return nil, fmt.Errorf("%w: trench: %w %q", rules.ErrNotation, ErrUnknownVariant, variant)
	}
	p, err := ParsePosition(s)
	if err != nil {
		return nil, err
	}
	return NewState(p, r), nil
}

// NextInMatch is the package function [NextInMatch].
func (Engine) NextInMatch(variant string, games []rules.MatchGame, seed int64) rules.MatchStep {
	return NextInMatch(variant, games, seed)
}

// HasArmistice returns true: TRENCH players may agree to an armistice.
func (Engine) HasArmistice() bool { return true }

// State is a game of TRENCH as a rules.State: a [Position] played under a
// [Ruleset]. It is an immutable value.
type State struct {
	pos Position
	rs  Ruleset
	ply int
}

var _ rules.State = State{}

// NewState returns the state of position p under ruleset r, with Ply 0.
func NewState(p Position, r Ruleset) State { return State{pos: p, rs: r} }

// Position returns the position of s.
func (s State) Position() Position { return s.pos }

// Ruleset returns the ruleset s is played under.
func (s State) Ruleset() Ruleset { return s.rs }

// Encode returns the position text exactly as [Position.String] writes it.
// The ruleset is not part of it: [Engine.Decode] takes the variant.
func (s State) Encode() string { return s.pos.String() }

// Ply returns the number of Apply calls that led to s since Start or
// Decode. The position text stores no move number, so a decoded state
// starts again at 0; the game flow keeps the authoritative ply count of a
// game itself.
func (s State) Ply() int { return s.ply }

// ToMove returns the side to move, or rules.NoSide once the game is over
// under the ruleset (see [Position.Outcome]).
func (s State) ToMove() rules.Side {
	if s.Result().Over {
		return rules.NoSide
	}
	return s.pos.side
}

// Legal returns the legal moves in notation ("d4-d5", "e4xg6"), sorted
// byte-wise, when viewer is the side to move in the position; nil
// otherwise. End conditions are not looked at.
func (s State) Legal(viewer rules.Side) []string {
	if viewer != s.pos.side {
		return nil
	}
	ms := s.pos.LegalMoves()
	if len(ms) == 0 {
		return nil
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	sort.Strings(out)
	return out
}

// Apply plays move (in notation) and returns the new state with Ply one
// higher. Errors wrap rules.ErrNotation or rules.ErrIllegal as
// [Position.ParseMove] says; s is unchanged. End conditions are not
// looked at.
func (s State) Apply(move string) (rules.State, error) {
	m, err := s.pos.ParseMove(move)
	if err != nil {
		return nil, err
	}
	p, err := s.pos.Apply(m)
	if err != nil {
		return nil, err
	}
	return State{pos: p, rs: s.rs, ply: s.ply + 1}, nil
}

// Result returns [Position.Outcome] under the state's ruleset.
func (s State) Result() rules.Result { return s.pos.Outcome(s.rs) }

// Concede returns [Position.Concede] under the state's ruleset: side's
// remaining units go to the opponent's score and the opponent wins.
func (s State) Concede(side rules.Side, timeout bool) rules.Result {
	return s.pos.Concede(s.rs, side, timeout)
}

// Armistice returns [Position.Armistice] under the state's ruleset.
func (s State) Armistice() rules.Result { return s.pos.Armistice(s.rs) }

// Clicks splits a move into its two squares: "d4-d5" → ["d4", "d5"],
// "e4xg6" → ["e4", "g6"]. It returns nil for malformed text.
func (s State) Clicks(move string) []string {
	t, err := ParseMove(move)
	if err != nil {
		return nil
	}
	return []string{t.From.String(), t.To.String()}
}

// Describe returns move unchanged: TRENCH hides nothing.
func (s State) Describe(move string, viewer rules.Side) string { return move }

// Perft is the package function [Perft] on the state's position.
func (s State) Perft(depth int) int64 { return Perft(s.pos, depth) }

// BoardView is what a board renderer needs to draw a state of TRENCH for
// one viewer; [State.View] returns it. Everything is public information.
type BoardView struct {
	// Position is the position shown.
	Position Position
	// Ruleset is the ruleset key ("match", "single", "bga", "decider").
	Ruleset string
	// Viewer is the side the view was made for (Black, White,
	// rules.NoSide for a spectator, rules.Reveal after the end).
	Viewer rules.Side
	// ToMove is the side to move in the position (Black or White), even
	// when the game is over.
	ToMove rules.Side
	// Points is each side's score in the ruleset's points (index = side).
	Points [2]int
	// Target is the ruleset's target in points (0: none).
	Target int
	// Captured[side][stars-1] is how many of side's own units of each kind
	// (Soldier … General) are off the board: 6, 4, 3, 2, 1 minus those on
	// it.
	Captured [2][5]int
	// Quiet is the number of plies since the last capture; ShowQuiet is
	// true when it has passed 40 (the game ends at 50) in a game that goes
	// on: not once the game is over, nor for rules.Reveal (an ended game).
	Quiet     int
	ShowQuiet bool
	// FinalTurn is true when White is playing the last move the BGA
	// equal-turns rule grants after Black reached the target (in a game
	// that goes on, as ShowQuiet).
	FinalTurn bool
	// Result is the game's outcome under the ruleset (Over false while it
	// runs).
	Result rules.Result
	// Moves holds the legal moves of the viewer when the viewer is to move
	// and the game is not over (nil otherwise), with the squares each move
	// captures: enough to show a selected unit's destinations and, for a
	// trench exit, every unit the line would capture.
	Moves []Move
}

// View returns the [BoardView] of s for viewer.
func (s State) View(viewer rules.Side) any {
	res := s.Result()
	v := BoardView{
		Position: s.pos,
		Ruleset:  s.rs.Key,
		Viewer:   viewer,
		ToMove:   s.pos.side,
		Points:   s.pos.Score(s.rs),
		Target:   s.rs.Target,
		Captured: [2][5]int{s.pos.Missing(Black), s.pos.Missing(White)},
		Quiet:    s.pos.quiet,
		Result:   res,
	}
	if live := !res.Over && viewer != rules.Reveal; live {
		v.ShowQuiet = s.pos.quiet > 40
		v.FinalTurn = s.pos.FinalTurn(s.rs)
	}
	if !res.Over && viewer == s.pos.side {
		v.Moves = s.pos.LegalMoves()
	}
	return v
}

// FormatScore writes a TRENCH score in the ruleset's points, e.g. "12 pts".
func (Engine) FormatScore(n int) string {
	if n == 1 {
		return "1 pt"
	}
	return fmt.Sprintf("%d pts", n)
}
