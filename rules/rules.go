// Package rules holds what the three games have in common: the Engine and
// State interfaces the game flow (challenge → game → move → end → match →
// archive) is written against, and the registry of engines. Each game lives
// in its own subpackage (rules/trench, rules/trenches, rules/cards) and is
// pure: no I/O, no clock, no global randomness.
package rules

import (
	"errors"
	"fmt"
	"sort"
)

// Side is one of the two sides of a game, as the game's rules name them:
// side 0 moves first in TRENCH (Black) and Trenches (Light); in the card
// game side 0 is the player who created the challenge (♠ / ♠♣).
type Side int

const (
	// NoSide is a spectator as a viewer, and "nobody" as a winner (a draw).
	NoSide Side = -1
	// Reveal is a viewer who may see everything: the game flow passes it
	// to View and Describe once a game has ended (however it ended).
	Reveal Side = -2
	Side0  Side = 0
	Side1  Side = 1
)

// Other returns the opponent of s (Side0 ↔ Side1); NoSide stays NoSide.
func (s Side) Other() Side {
	switch s {
	case Side0:
		return Side1
	case Side1:
		return Side0
	}
	return NoSide
}

// Valid reports whether s is Side0 or Side1.
func (s Side) Valid() bool { return s == Side0 || s == Side1 }

// Reason says why a game ended. The strings are shown to players.
type Reason string

// The reasons a game can end. Not every game uses every reason.
const (
	ReasonNone        Reason = ""
	ReasonAllCaptured Reason = "all units captured"
	ReasonTarget      Reason = "target reached"
	ReasonQuiet       Reason = "50 plies without a capture"
	ReasonNoMove      Reason = "no legal move"
	ReasonArmistice   Reason = "armistice"
	ReasonResigned    Reason = "resignation"
	ReasonTimeout     Reason = "time ran out"
	ReasonFrontOnly   Reason = "only the front trench left"
	ReasonRepetition  Reason = "the same position for the third time"
)

// Result is the outcome of one game. While the game runs Over is false and
// Score holds the running score.
type Result struct {
	Over   bool
	Winner Side   // NoSide for a drawn game (or while running)
	Score  [2]int // points per side in the ruleset's units (index = Side)
	Reason Reason
}

// ErrIllegal is wrapped by every error Apply returns for a move that is
// well-formed but not legal in the state; ErrNotation by every error for
// a move or position text that cannot be parsed.
var (
	ErrIllegal  = errors.New("illegal move")
	ErrNotation = errors.New("bad notation")
)

// Variant is one way to play a game (a ruleset, a deck size).
type Variant struct {
	Key   string // stored in the database, e.g. "match", "single", "bga"
	Title string // shown to players, e.g. "Official match (2 games)"
	Match bool   // a match of several games (false: a single game)
}

// VariantOf returns e's variant of key (Variant.Key), with ok false when
// e has none of that key.
func VariantOf(e Engine, key string) (v Variant, ok bool) {
	for _, v := range e.Variants() {
		if v.Key == key {
			return v, true
		}
	}
	return Variant{}, false
}

// GameSpec describes one game of a match: its variant and whether the
// match's first player (the one who played Side0 in game 1) plays Side1.
type GameSpec struct {
	Variant string
	Swapped bool
}

// MatchGame is a finished game of a match as the match logic needs it.
type MatchGame struct {
	Spec   GameSpec
	Result Result
}

// MatchStep is what comes after the finished games of a match: either the
// next game, or the end of the match.
type MatchStep struct {
	Done bool
	Next GameSpec // when !Done
	// Winner is the match player (0 = played Side0 in game 1, 1 = the other)
	// who won the match, or -1 for a drawn match; meaningful when Done.
	Winner int
	Totals [2]int // match totals per match player, in the ruleset's points
}

// Engine is one game. Engines are stateless values; the registry holds one
// per game.
type Engine interface {
	// Key is the game's stable name: "trench", "trenches", "cards".
	Key() string
	// Title is the game's display name.
	Title() string
	// SideNames names the sides, e.g. {"Black", "White"}.
	SideNames() [2]string
	// Variants lists the variants a challenge can choose; the first is the
	// default.
	Variants() []Variant
	// FirstGame is the first game of a match (or the only game) of variant.
	FirstGame(variant string) GameSpec
	// Start returns the start state of a game. seed drives every random
	// choice (the card game's deal); the others ignore it.
	// Errors: an unknown variant.
	Start(spec GameSpec, seed int64) (State, error)
	// Decode parses a state stored by State.Encode for the given variant.
	// Errors wrap ErrNotation.
	Decode(variant, s string) (State, error)
	// NextInMatch decides what follows the finished games of a match
	// started with variant; seed draws any lot (the decider's colours).
	NextInMatch(variant string, games []MatchGame, seed int64) MatchStep
	// HasArmistice reports whether the players may agree to end the game
	// (TRENCH's armistice, the card game's agreed draw).
	HasArmistice() bool
}

// State is an immutable game state holding the full truth (for the card
// game: every card, the deck order and the seed). It is stored, never
// shown: what a viewer may see comes only from View and Describe.
type State interface {
	// Encode returns the text stored in the database; Decode reverses it.
	Encode() string
	// Ply is the number of moves applied since the start of the game.
	Ply() int
	// ToMove is the side that must act now (NoSide when the game is over).
	ToMove() Side
	// Legal returns the legal moves of the side to move in the game's
	// notation, sorted byte-wise, under the movement rules only (end
	// conditions are the caller's: check Result first); nil when viewer is
	// not the side to move.
	Legal(viewer Side) []string
	// Apply returns the state after move, which must be in Legal(ToMove()).
	// Errors wrap ErrNotation (malformed) or ErrIllegal (not legal now);
	// the receiver is unchanged either way. Like Legal, it does not look at
	// end conditions.
	Apply(move string) (State, error)
	// Result is the game's outcome now: Over once an end condition of the
	// variant is met.
	Result() Result
	// Concede returns the result when side resigns (timeout=false) or runs
	// out of time (timeout=true).
	Concede(side Side, timeout bool) Result
	// Armistice returns the result when both players agree to end the game.
	Armistice() Result
	// Clicks splits a legal move into the clicks that make it on the board
	// or table, e.g. "d4-d5" → ["d4","d5"], "b4-b6/d8" → ["b4","b6","d8"],
	// "attack F2" → ["attack","F2"].
	Clicks(move string) []string
	// View returns the game's own view model of this state as viewer (a
	// Side, NoSide for a spectator, Reveal after the end) may see it. For the card game it
	// holds no identity of a card viewer may not see.
	View(viewer Side) any
	// Describe returns move (to be applied to this state) as viewer may
	// read it in the game log; it never reveals a hidden card.
	Describe(move string, viewer Side) string
	// Perft counts the leaf nodes of the move tree to depth plies under
	// the movement rules (end conditions not applied).
	Perft(depth int) int64
}

var registry = map[string]Engine{}

// Register adds an engine under its Key; it panics on a duplicate key
// (called from package init only).
func Register(e Engine) {
	if _, dup := registry[e.Key()]; dup {
		panic(fmt.Sprintf("rules: engine %q registered twice", e.Key()))
	}
	registry[e.Key()] = e
}

// Lookup returns the engine registered under key.
func Lookup(key string) (Engine, bool) {
	e, ok := registry[key]
	return e, ok
}

// Engines returns the registered engines sorted by key.
func Engines() []Engine {
	out := make([]Engine, 0, len(registry))
	for _, e := range registry {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// ScoreFormatter may be implemented by an engine to say what its score
// counts, e.g. "12 points" or "5 cards"; without it the number stands
// alone.
type ScoreFormatter interface {
	FormatScore(n int) string
}

// FormatScore writes score n of a game of e for players.
func FormatScore(e Engine, n int) string {
	if f, ok := e.(ScoreFormatter); ok {
		return f.FormatScore(n)
	}
	return fmt.Sprint(n)
}

// UnscoredEnds may be implemented by an engine whose games, when they end
// for some reasons, have no score to show: Trenches records a win by
// resignation or on time as such, not by pieces.
type UnscoredEnds interface {
	Unscored(r Reason) bool
}

// Scored reports whether a game of e that ended for reason r has a score
// to show.
func Scored(e Engine, r Reason) bool {
	u, ok := e.(UnscoredEnds)
	return !ok || !u.Unscored(r)
}

// DarkSider may be implemented by an engine whose dark pieces are not
// Side0's (Trenches: Light moves first and Dark is Side1).
type DarkSider interface {
	DarkSide() Side
}

// DarkSide is the side of e that plays the dark pieces (drawn ● in the
// move list; the other ○): Side0 unless e says otherwise.
func DarkSide(e Engine) Side {
	if d, ok := e.(DarkSider); ok {
		return d.DarkSide()
	}
	return Side0
}

// ArmisticeTerms may be implemented by an engine to say, for players,
// what an agreed armistice decides; without it the points are counted
// (TRENCH, spec "Armistice").
type ArmisticeTerms interface {
	ArmisticeTerms() string
}

// ArmisticeText says what an armistice decides in a game of e, e.g.
// "points are counted" or "the game is drawn".
func ArmisticeText(e Engine) string {
	if t, ok := e.(ArmisticeTerms); ok {
		return t.ArmisticeTerms()
	}
	return "points are counted"
}

// CreatorSider may be implemented by an engine whose rules fix the side of
// the player who created the challenge (the card game: the creator plays
// ♠); a challenge to such a game offers no choice of side.
type CreatorSider interface {
	CreatorSide() Side
}

// Hider may be implemented by an engine whose states hold information a
// player may not see (the card game's hidden cards): such a game's record
// is published only once it has ended.
type Hider interface {
	HidesInformation() bool
}

// HidesInformation reports whether e's games hold hidden information.
func HidesInformation(e Engine) bool {
	h, ok := e.(Hider)
	return ok && h.HidesInformation()
}
