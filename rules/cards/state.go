package cards

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"github.com/trench-games/trench/rules"
)

// The variants.
const (
	VariantShort = "short" // 13 cards each, ♠ against ♥
	VariantLong  = "long"  // 26 cards each, ♠♣ against ♥♦, with a draw deck
)

func knownVariant(v string) bool { return v == VariantShort || v == VariantLong }

// Slot counts.
const (
	FrontSlots = 3
	BackSlots  = 4
	// HandSize is the size of the starting hand in both variants.
	HandSize = 6
)

// Kind is the kind of a move: one of the three actions, or a refill step
// (which is not an action).
type Kind string

// The move kinds. NoAction is the "previous action" of a player who has not
// acted yet.
const (
	NoAction Kind = ""
	Shift    Kind = "shift"
	Recon    Kind = "recon"
	Attack   Kind = "attack"
	Refill   Kind = "refill"
)

// Phase is what the side to move must do now.
type Phase string

// The phases.
const (
	PhaseAction      Phase = "action"       // choose Shift, Recon or Attack
	PhaseRefillFront Phase = "refill-front" // choose the card for the open front slot
	PhaseRefillBack  Phase = "refill-back"  // choose the hand card for the emptied back slot
	PhaseOver        Phase = "over"         // the game has ended (views only)
)

// Battle is the public record of a battle.
type Battle struct {
	Attacker rules.Side
	Slot     int        // the front slot number (1–3) of both cards
	Cards    [2]Card    // the two cards, index = side
	Winner   rules.Side // rules.NoSide on a tie
}

// String returns the battle as the log shows it, attacker's card first:
// "7S × QH, QH wins" or "7S × 7H, tie".
func (b Battle) String() string {
	a, d := b.Cards[b.Attacker], b.Cards[b.Attacker.Other()]
	if b.Winner == rules.NoSide {
		return fmt.Sprintf("%s × %s, tie", a, d)
	}
	return fmt.Sprintf("%s × %s, %s wins", a, d, b.Cards[b.Winner])
}

// Flip is one pair of cards turned up to decide who starts (index = side).
type Flip struct {
	Cards [2]Card
}

// Deal is one side's starting deal.
type Deal struct {
	Front [FrontSlots]Card
	Back  [BackSlots]Card
	Hand  []Card // sorted
	Deck  []Card // long game: the draw deck, top first
}

// Start is how a game began: the flips that decided who starts (public),
// the side that starts, and both deals (secret until the end). It is a
// function of the variant and the seed.
type Start struct {
	Flips []Flip
	First rules.Side
	Deal  [2]Deal
}

func (st Start) clone() Start {
	out := st
	out.Flips = slices.Clone(st.Flips)
	for t := range out.Deal {
		out.Deal[t].Hand = slices.Clone(st.Deal[t].Hand)
		out.Deal[t].Deck = slices.Clone(st.Deal[t].Deck)
	}
	return out
}

// slot is one trench position; up means the card is face up (the opponent
// sees it). An empty slot is never up.
type slot struct {
	card Card
	up   bool
}

// pending is a player's refill still to be done. Slot numbers are 1-based,
// 0 meaning none.
type pending struct {
	open    int  // the open front slot (step 1), or 0
	emptied int  // the back slot emptied by step 1 (step 2), or 0
	draw    bool // the battle loser's draw (long game, step 3)
}

func (p pending) active() bool { return p.open != 0 || p.emptied != 0 || p.draw }

type player struct {
	front   [FrontSlots]slot
	back    [BackSlots]slot
	hand    []Card // sorted, nil when empty
	deck    []Card // top first, nil when empty
	removed []Card // this player's cards out of the game, in order
	last    Kind   // the previous action
	ref     pending
}

// held is the number of cards the player still has (trenches, hand, deck).
func (p *player) held() int {
	n := len(p.hand) + len(p.deck)
	for _, sl := range p.front {
		if sl.card != NoCard {
			n++
		}
	}
	for _, sl := range p.back {
		if sl.card != NoCard {
			n++
		}
	}
	return n
}

// reserve is the number of cards outside the front trench.
func (p *player) reserve() int {
	n := len(p.hand) + len(p.deck)
	for _, sl := range p.back {
		if sl.card != NoCard {
			n++
		}
	}
	return n
}

// faceUp is the number of face-up trench cards.
func (p *player) faceUp() int {
	n := 0
	for _, sl := range p.front {
		if sl.up {
			n++
		}
	}
	for _, sl := range p.back {
		if sl.up {
			n++
		}
	}
	return n
}

// State is the full truth of a game: every card, the deck order, the seed.
// It is immutable: Apply returns a new State. It is stored, never shown;
// what a player may see comes from ViewFor and Describe.
type State struct {
	variant string
	seed    int64
	start   *Start // shared, never modified
	p       [2]player
	turn    rules.Side // whose turn it is; also the side that must choose now
	acted   bool       // the turn's action has been taken (its refill remains)
	ply     int
	battle  *Battle // the last battle, shared, never modified; nil before the first
	// seen holds the position hashes (positionHash) of the earlier
	// positions since a card last left the game, oldest first; nil when
	// there are none. Never modified in place (Apply appends to a copy).
	seen []uint64
}

// New returns the start of a game of variant ("short" or "long"); seed
// drives the flips for the first player, the shuffles and the deal.
func New(variant string, seed int64) (*State, error) {
	if !knownVariant(variant) {
		return nil, fmt.Errorf("cards: unknown variant %q", variant)
	}
	st := newStart(variant, seed)
	s := &State{variant: variant, seed: seed, start: st, turn: st.First}
	for t := range s.p {
		d := &st.Deal[t]
		p := &s.p[t]
		for i, c := range d.Front {
			p.front[i] = slot{card: c}
		}
		for i, c := range d.Back {
			p.back[i] = slot{card: c}
		}
		p.hand = cloneCards(d.Hand)
		p.deck = cloneCards(d.Deck)
	}
	return s, nil
}

// pcgStream is the second PCG seed word ("trench-c").
const pcgStream = 0x7472656e63682d63

// newStart draws the flips and the deal of a game. The shuffle is a
// Fisher–Yates over PCG output with rejection sampling, so a seed gives the
// same game on every Go release.
func newStart(variant string, seed int64) *Start {
	r := rand.NewPCG(uint64(seed), pcgStream)
	decks := [2][]Card{deckOf(variant, rules.Side0), deckOf(variant, rules.Side1)}
	st := &Start{First: rules.NoSide}
	for st.First == rules.NoSide {
		shuffle(r, decks[0])
		shuffle(r, decks[1])
		for k := range decks[0] {
			f := Flip{Cards: [2]Card{decks[0][k], decks[1][k]}}
			st.Flips = append(st.Flips, f)
			if c := Compare(f.Cards[0].Rank(), f.Cards[1].Rank()); c != 0 {
				st.First = rules.Side0
				if c < 0 {
					st.First = rules.Side1
				}
				break
			}
		}
	}
	for t := range decks {
		d := decks[t]
		shuffle(r, d)
		deal := &st.Deal[t]
		copy(deal.Front[:], d[0:FrontSlots])
		copy(deal.Back[:], d[FrontSlots:FrontSlots+BackSlots])
		rest := d[FrontSlots+BackSlots:]
		deal.Hand = cloneCards(rest[:HandSize])
		slices.Sort(deal.Hand)
		deal.Deck = cloneCards(rest[HandSize:])
	}
	return st
}

func shuffle(r *rand.PCG, cards []Card) {
	for i := len(cards) - 1; i > 0; i-- {
		j := bounded(r, uint64(i+1))
		cards[i], cards[j] = cards[j], cards[i]
	}
}

// bounded returns a uniform number in [0, n).
func bounded(r *rand.PCG, n uint64) uint64 {
	threshold := -n % n // 2^64 mod n
	for {
		if x := r.Uint64(); x >= threshold {
			return x % n
		}
	}
}

func cloneCards(x []Card) []Card {
	if len(x) == 0 {
		return nil
	}
	return slices.Clone(x)
}

// without returns x minus card c (a new slice, nil when empty).
func without(x []Card, c Card) []Card {
	var out []Card
	for _, y := range x {
		if y != c {
			out = append(out, y)
		}
	}
	return out
}

// withSorted returns x plus card c, sorted (a new slice).
func withSorted(x []Card, c Card) []Card {
	out := make([]Card, 0, len(x)+1)
	out = append(out, x...)
	out = append(out, c)
	slices.Sort(out)
	return out
}

func (s *State) clone() *State {
	n := *s
	for t := range n.p {
		n.p[t].hand = cloneCards(s.p[t].hand)
		n.p[t].deck = cloneCards(s.p[t].deck)
		n.p[t].removed = cloneCards(s.p[t].removed)
	}
	n.seen = slices.Clip(s.seen)
	return &n
}

// Variant returns the game's variant.
func (s *State) Variant() string { return s.variant }

// Seed returns the game's seed (secret until the game ends).
func (s *State) Seed() int64 { return s.seed }

// Start returns how the game began (a copy; the deal is secret until the
// game ends).
func (s *State) Start() Start { return s.start.clone() }

// Turn returns the side whose turn it is (the side to move under the
// movement rules, also after the end).
func (s *State) Turn() rules.Side { return s.turn }

// Phase returns what the side whose turn it is must do now under the
// movement rules (never PhaseOver).
func (s *State) Phase() Phase {
	ref := s.p[s.turn].ref
	switch {
	case ref.open != 0:
		return PhaseRefillFront
	case ref.emptied != 0:
		return PhaseRefillBack
	}
	return PhaseAction
}

// LastBattle returns the last battle, if any.
func (s *State) LastBattle() (Battle, bool) {
	if s.battle == nil {
		return Battle{}, false
	}
	return *s.battle, true
}

// Ply is the number of moves applied since the start.
func (s *State) Ply() int { return s.ply }

// ToMove is the side that must choose now, NoSide once the game is over.
func (s *State) ToMove() rules.Side {
	if s.Result().Over {
		return rules.NoSide
	}
	return s.turn
}

// score is the number of cards each side still holds.
func (s *State) score() [2]int { return [2]int{s.p[0].held(), s.p[1].held()} }

// Result is Over when a side has nothing left outside its front trench
// (no back card, no hand, no deck): that side loses. Score is the number
// of cards each side still holds (trenches, hand and deck). A position
// that occurs for the third time (spec "Repetition [decision]") ends the
// game as a draw.
func (s *State) Result() rules.Result {
	r := rules.Result{Winner: rules.NoSide, Score: s.score()}
	out0, out1 := s.p[0].reserve() == 0, s.p[1].reserve() == 0
	switch {
	case out0 && out1:
		r.Over, r.Reason = true, rules.ReasonFrontOnly
	case out0:
		r.Over, r.Winner, r.Reason = true, rules.Side1, rules.ReasonFrontOnly
	case out1:
		r.Over, r.Winner, r.Reason = true, rules.Side0, rules.ReasonFrontOnly
	case s.Repetitions() >= 3:
		r.Over, r.Reason = true, rules.ReasonRepetition
	}
	return r
}

// Repetitions returns how many times the current position has occurred
// since a card last left the game, this time included (1 for a new
// position). A position is every card's place and face, the hands, the
// decks, the side to act, what it must do and each side's previous
// action (spec "Repetition [decision]").
func (s *State) Repetitions() int {
	if len(s.seen) < 2 {
		return 1 // a third occurrence needs two earlier ones
	}
	h, n := s.positionHash(), 1
	for _, x := range s.seen {
		if x == h {
			n++
		}
	}
	return n
}

// positionHash is a 64-bit FNV-1a hash of the position (see Repetitions):
// the ply, the last battle and the removed cards are not part of it.
func (s *State) positionHash() uint64 {
	h := fnv.New64a()
	var b []byte
	b = append(b, byte('0'+s.turn), byte('0'+b2i(s.acted)))
	for t := range s.p {
		p := &s.p[t]
		b = append(b, '|')
		for _, sl := range p.front {
			b = append(b, byte(sl.card), byte(b2i(sl.up)))
		}
		for _, sl := range p.back {
			b = append(b, byte(sl.card), byte(b2i(sl.up)))
		}
		b = append(b, 'h')
		for _, c := range p.hand {
			b = append(b, byte(c))
		}
		b = append(b, 'd')
		for _, c := range p.deck {
			b = append(b, byte(c))
		}
		b = append(b, lastCodes[p.last][0], byte(p.ref.open), byte(p.ref.emptied), byte(b2i(p.ref.draw)))
	}
	h.Write(b)
	return h.Sum64()
}

// remember records the position before a move (prev) in the history of
// the position after it (s): the history starts afresh when a card has
// left the game, since no earlier position can occur again.
func (s *State) remember(prev *State) {
	if s.score() != prev.score() {
		s.seen = nil
		return
	}
	s.seen = append(slices.Clip(prev.seen), prev.positionHash())
}

// Concede returns the result when side resigns or runs out of time.
func (s *State) Concede(side rules.Side, timeout bool) rules.Result {
	r := rules.Result{Over: true, Winner: side.Other(), Score: s.score(), Reason: rules.ReasonResigned}
	if timeout {
		r.Reason = rules.ReasonTimeout
	}
	return r
}

// Armistice returns the result of an agreed draw.
func (s *State) Armistice() rules.Result {
	return rules.Result{Over: true, Winner: rules.NoSide, Score: s.score(), Reason: rules.ReasonArmistice}
}
