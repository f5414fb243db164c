package cards

import (
	"fmt"

	"github.com/trench-games/trench/rules"
)

// Suit is a card suit. Spades and Clubs belong to Side0 (Black), Hearts and
// Diamonds to Side1 (Red).
type Suit uint8

// The four suits.
const (
	Spades Suit = iota
	Hearts
	Clubs
	Diamonds
)

const suitLetters = "SHCD"

// String returns the suit's letter: S, H, C or D.
func (s Suit) String() string {
	if s > Diamonds {
		return "?"
	}
	return suitLetters[s : s+1]
}

// Symbol returns the suit's symbol: ♠, ♥, ♣ or ♦.
func (s Suit) Symbol() string {
	switch s {
	case Spades:
		return "♠"
	case Hearts:
		return "♥"
	case Clubs:
		return "♣"
	case Diamonds:
		return "♦"
	}
	return "?"
}

// Red reports whether the suit is Hearts or Diamonds.
func (s Suit) Red() bool { return s == Hearts || s == Diamonds }

// Side returns the side that plays the suit.
func (s Suit) Side() rules.Side {
	if s.Red() {
		return rules.Side1
	}
	return rules.Side0
}

// Rank is a card rank, 1 (Ace) to 13 (King).
type Rank uint8

// The thirteen ranks.
const (
	Ace Rank = 1 + iota
	Two
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
)

var rankNames = [...]string{"?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}

// String returns the rank as written in the notation: A, 2 … 10, J, Q, K.
func (r Rank) String() string {
	if r < Ace || r > King {
		return "?"
	}
	return rankNames[r]
}

// Compare is the battle rule: it returns +1 when a card of rank a beats a
// card of rank b, -1 when it loses to it and 0 on a tie (equal ranks).
// From 3 to King the higher rank wins; an Ace beats J, Q and K and loses
// to 2–10; a 2 beats A, J, Q and K and loses to 3–10.
func Compare(a, b Rank) int {
	switch {
	case a == b:
		return 0
	case beats(a, b):
		return 1
	default:
		return -1
	}
}

// beats reports whether rank a beats rank b (a ≠ b).
func beats(a, b Rank) bool {
	switch a {
	case Ace:
		return b >= Jack
	case Two:
		return b == Ace || b >= Jack
	}
	switch b {
	case Ace, Two:
		return a <= Ten
	}
	return a > b
}

// Card is one playing card. The zero value, NoCard, is no card at all;
// it prints as "--".
type Card uint8

// NoCard is the zero Card.
const NoCard Card = 0

// NewCard returns the card of rank r and suit s.
func NewCard(r Rank, s Suit) Card {
	if r < Ace || r > King || s > Diamonds {
		return NoCard
	}
	return Card(1 + uint8(s)*13 + uint8(r) - 1)
}

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c >= 1 && c <= 52 }

// Rank returns the card's rank (0 for NoCard).
func (c Card) Rank() Rank {
	if !c.Valid() {
		return 0
	}
	return Rank((c-1)%13 + 1)
}

// Suit returns the card's suit (meaningless for NoCard).
func (c Card) Suit() Suit {
	if !c.Valid() {
		return 0
	}
	return Suit((c - 1) / 13)
}

// Red reports whether the card is a Heart or a Diamond.
func (c Card) Red() bool { return c.Valid() && c.Suit().Red() }

// String returns the card in the notation: rank then suit letter, e.g.
// "AS", "10H", "QH", "7D", "KC"; "--" for NoCard.
func (c Card) String() string {
	if !c.Valid() {
		return "--"
	}
	return c.Rank().String() + c.Suit().String()
}

// Symbol returns the card with its suit symbol, e.g. "Q♥"; "" for NoCard.
func (c Card) Symbol() string {
	if !c.Valid() {
		return ""
	}
	return c.Rank().String() + c.Suit().Symbol()
}

// ParseCard reads a card written as by String ("AS", "10H", "QH").
// Errors wrap rules.ErrNotation.
func ParseCard(s string) (Card, error) {
	if len(s) < 2 || len(s) > 3 {
		return NoCard, fmt.Errorf("%w: card %q", rules.ErrNotation, s)
	}
	var suit Suit
	switch s[len(s)-1] {
	case 'S':
		suit = Spades
	case 'H':
		suit = Hearts
	case 'C':
		suit = Clubs
	case 'D':
		suit = Diamonds
	default:
		return NoCard, fmt.Errorf("%w: card %q: unknown suit", rules.ErrNotation, s)
	}
	rs := s[:len(s)-1]
	for r := Ace; r <= King; r++ {
		if rankNames[r] == rs {
			return NewCard(r, suit), nil
		}
	}
	return NoCard, fmt.Errorf("%w: card %q: unknown rank", rules.ErrNotation, s)
}

// suitsOf returns the suits side t plays in variant.
func suitsOf(variant string, t rules.Side) []Suit {
	if variant == VariantLong {
		if t == rules.Side0 {
			return []Suit{Spades, Clubs}
		}
		return []Suit{Hearts, Diamonds}
	}
	if t == rules.Side0 {
		return []Suit{Spades}
	}
	return []Suit{Hearts}
}

// ownedBy reports whether card c belongs to side t in variant.
func ownedBy(variant string, c Card, t rules.Side) bool {
	if !c.Valid() {
		return false
	}
	for _, s := range suitsOf(variant, t) {
		if c.Suit() == s {
			return true
		}
	}
	return false
}

// deckOf returns side t's cards in variant, in suit then rank order.
func deckOf(variant string, t rules.Side) []Card {
	var out []Card
	for _, s := range suitsOf(variant, t) {
		for r := Ace; r <= King; r++ {
			out = append(out, NewCard(r, s))
		}
	}
	return out
}
