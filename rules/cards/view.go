package cards

import (
	"slices"
	"strconv"

	"github.com/trench-games/trench/rules"
)

// View is a state as one viewer may see it. Every field is safe to render
// to that viewer: a card the viewer may not see is never in it, not even
// as an identifier (a hidden slot is only "occupied, face down").
type View struct {
	Variant string
	Viewer  rules.Side // Side0, Side1, NoSide (spectator) or Reveal (after the end)
	Ply     int
	Turn    rules.Side // whose turn it is
	ToMove  rules.Side // who must choose now; NoSide once the game is over
	Phase   Phase
	// RefillSlot is the slot being refilled ("F2", "B3") in a refill phase.
	RefillSlot string
	// EndOfTurn marks the attacker's refill, which ends its turn; a refill
	// without it is the defender's, at the start of its turn.
	EndOfTurn bool
	Sides     [2]SideView // index = side
	// Forbidden lists the actions the side whose turn it is may not take
	// now, and why (the no-repeat rule, the Recon limit).
	Forbidden []Forbidden
	Result    rules.Result

	// Public history.
	First      rules.Side // the side that won the flips and moved first
	Flips      []Flip     // the flips that decided who starts
	LastBattle *Battle    // nil before the first battle

	// Reveal only: the seed (decimal) and the starting deal.
	Seed string
	Deal *[2]Deal
}

// SideView is one side's cards as the viewer may see them.
type SideView struct {
	Side  rules.Side
	Front [FrontSlots]SlotView // F1–F3; F i faces the opponent's F i
	Back  [BackSlots]SlotView  // B1–B4; F i touches B i and B i+1
	// Hand is the hand (sorted) when the viewer may see it, else nil.
	Hand      []Card
	HandCount int
	DeckCount int
	// Deck is the draw deck, top first: Reveal only.
	Deck    []Card
	Removed []Card // this side's cards out of the game, in order (public)
	// LastAction is the side's previous action ("" before its first).
	LastAction Kind
	FaceUp     int // face-up trench cards
	// Open is the front slot waiting for this side's refill ("" if none).
	Open string
}

// SlotView is one trench slot. Card is set only when Known.
type SlotView struct {
	Name   string // "F1" … "B4"
	Empty  bool
	Known  bool // the viewer sees the card
	Card   Card // NoCard unless Known
	FaceUp bool // face up: the opponent and spectators see it too
}

// Forbidden is an action that may not be taken now.
type Forbidden struct {
	Action Kind
	Reason string
}

// ViewFor returns what viewer may see: own cards fully (with their
// face-up flags), the opponent's face-up trench cards, counts of hands and
// decks, the removed cards, the last battle and the flips; a spectator
// (NoSide) sees only what is face up. Reveal sees everything, with the
// seed and the starting deal.
func (s *State) ViewFor(viewer rules.Side) View {
	res := s.Result()
	v := View{
		Variant: s.variant,
		Viewer:  viewer,
		Ply:     s.ply,
		Turn:    s.turn,
		ToMove:  s.ToMove(),
		Phase:   s.Phase(),
		Result:  res,
		First:   s.start.First,
		Flips:   slices.Clone(s.start.Flips),
	}
	if res.Over {
		v.Phase = PhaseOver
	} else {
		ref := s.p[s.turn].ref
		switch v.Phase {
		case PhaseRefillFront:
			v.RefillSlot = F(ref.open).String()
		case PhaseRefillBack:
			v.RefillSlot = B(ref.emptied).String()
		}
		v.EndOfTurn = s.acted
		if !s.acted { // the action of this turn is still to come
			if last := s.p[s.turn].last; last != NoAction {
				v.Forbidden = append(v.Forbidden, Forbidden{Action: last,
					Reason: "the same action as on the previous turn"})
			}
			if s.p[s.turn.Other()].faceUp() >= 3 && s.p[s.turn].last != Recon {
				v.Forbidden = append(v.Forbidden, Forbidden{Action: Recon,
					Reason: "the opponent already has 3 face-up cards"})
			}
		}
	}
	if s.battle != nil {
		b := *s.battle
		v.LastBattle = &b
	}
	for t := range s.p {
		v.Sides[t] = s.sideView(rules.Side(t), viewer)
	}
	if viewer == rules.Reveal {
		v.Seed = strconv.FormatInt(s.seed, 10)
		st := s.start.clone()
		v.Deal = &st.Deal
	}
	return v
}

func (s *State) sideView(t, viewer rules.Side) SideView {
	p := &s.p[t]
	own := viewer == t || viewer == rules.Reveal
	sv := SideView{
		Side:       t,
		HandCount:  len(p.hand),
		DeckCount:  len(p.deck),
		Removed:    cloneCards(p.removed),
		LastAction: p.last,
		FaceUp:     p.faceUp(),
	}
	if own {
		sv.Hand = cloneCards(p.hand)
	}
	if viewer == rules.Reveal {
		sv.Deck = cloneCards(p.deck)
	}
	if p.ref.open != 0 {
		sv.Open = F(p.ref.open).String()
	}
	mk := func(pl Place, sl slot) SlotView {
		v := SlotView{Name: pl.String(), Empty: sl.card == NoCard, FaceUp: sl.up}
		if !v.Empty && (own || sl.up) {
			v.Known, v.Card = true, sl.card
		}
		return v
	}
	for i, sl := range p.front {
		sv.Front[i] = mk(F(i+1), sl)
	}
	for i, sl := range p.back {
		sv.Back[i] = mk(B(i+1), sl)
	}
	return sv
}
