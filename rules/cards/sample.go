package cards

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/trench-games/trench/rules"
)

// ErrSample is wrapped by every error Sample returns for a view that no
// state can match (a card twice, counts that do not add up, …).
var ErrSample = errors.New("cards: view cannot be sampled")

// Sample returns a full, playable state that v could be a view of, drawing
// the cards v does not show from r: for each side whose cards the viewer
// may not see, the cards of that side neither removed nor face up in its
// trenches are dealt at random to its face-down slots, its hand and its
// draw deck; a viewer's own draw deck (whose order nobody sees) is
// shuffled. Every assignment consistent with v is equally likely, and
// ViewFor(v.Viewer) of the result equals v. Everything public is kept:
// the turn, the phase and the pending refills, the previous actions, the
// removed cards, the last battle, the flips.
//
// A sampled state has no seed (0) and no starting deal (the zero Deal):
// neither follows from a view. A Reveal view (after the end) shows
// everything and is rebuilt exactly, with its seed and deal; a spectator's
// view (NoSide) has both sides sampled.
//
// Its use is the computer player's search over the hidden cards
// (determinization): the player reads its own view only and plays out
// games from states sampled from it. Errors wrap ErrSample.
func Sample(v View, r *rand.Rand) (*State, error) {
	bad := func(format string, args ...any) (*State, error) {
		return nil, fmt.Errorf("%w: %s", ErrSample, fmt.Sprintf(format, args...))
	}
	if !knownVariant(v.Variant) {
		return bad("unknown variant %q", v.Variant)
	}
	if !v.Turn.Valid() {
		return bad("turn %d", v.Turn)
	}
	s := &State{
		variant: v.Variant,
		turn:    v.Turn,
		acted:   v.EndOfTurn,
		ply:     v.Ply,
		start:   &Start{Flips: slices.Clone(v.Flips), First: v.First},
	}
	if v.LastBattle != nil {
		b := *v.LastBattle
		s.battle = &b
	}
	reveal := v.Viewer == rules.Reveal
	if reveal {
		if v.Deal == nil {
			return bad("a revealed view without its deal")
		}
		seed, err := strconv.ParseInt(v.Seed, 10, 64)
		if err != nil {
			return bad("seed %q", v.Seed)
		}
		s.seed = seed
		s.start.Deal = *v.Deal
		for t := range s.start.Deal {
			d := &s.start.Deal[t]
			d.Hand, d.Deck = cloneCards(d.Hand), cloneCards(d.Deck)
		}
	}
	for t := range s.p {
		side := rules.Side(t)
		if err := s.p[t].sample(v, side, r); err != nil {
			return bad("side %d: %v", t, err)
		}
	}
	// The pending refills: the side whose turn it is, in a refill phase,
	// and the defender whose front slot is still open. A battle's loser
	// draws in the long game once its refill is done.
	switch v.Phase {
	case PhaseRefillBack:
		n, ok := slotNumber(v.RefillSlot, Back)
		if !ok {
			return bad("refill slot %q", v.RefillSlot)
		}
		s.p[v.Turn].ref.emptied = n
	case PhaseRefillFront:
		if v.Sides[v.Turn].Open != v.RefillSlot {
			return bad("refill slot %q, open %q", v.RefillSlot, v.Sides[v.Turn].Open)
		}
	}
	for t := range s.p {
		p := &s.p[t]
		if open := v.Sides[t].Open; open != "" {
			n, ok := slotNumber(open, Front)
			if !ok || p.front[n-1].card != NoCard {
				return bad("side %d: open slot %q", t, open)
			}
			p.ref.open = n
		}
		if p.ref.open != 0 || p.ref.emptied != 0 {
			p.ref.draw = s.variant == VariantLong && s.battle != nil && s.battle.Winner == rules.Side(t).Other()
		}
	}
	if got := s.ViewFor(v.Viewer); !sameView(got, v) {
		return bad("the view is not one a game can show")
	}
	return s, nil
}

// sample fills side t of a sampled state from v, drawing what v hides.
func (p *player) sample(v View, t rules.Side, r *rand.Rand) error {
	sv := &v.Sides[t]
	if sv.Side != t {
		return fmt.Errorf("side view of side %d", sv.Side)
	}
	p.last = sv.LastAction
	switch p.last {
	case NoAction, Shift, Recon, Attack:
	default:
		return fmt.Errorf("previous action %q", p.last)
	}
	// Known: the cards v shows; the rest of the side's cards are unseen.
	seen := map[Card]bool{}
	see := func(c Card) error {
		if !ownedBy(v.Variant, c, t) {
			return fmt.Errorf("card %s is not this side's", c)
		}
		if seen[c] {
			return fmt.Errorf("card %s twice", c)
		}
		seen[c] = true
		return nil
	}
	hidden := 0 // face-down slots whose card is not shown
	fill := func(out []slot, in []SlotView) error {
		for i, x := range in {
			switch {
			case x.Empty:
				out[i] = slot{}
			case x.Known:
				if err := see(x.Card); err != nil {
					return err
				}
				out[i] = slot{card: x.Card, up: x.FaceUp}
			default:
				out[i] = slot{up: x.FaceUp} // card drawn below
				hidden++
			}
		}
		return nil
	}
	if err := fill(p.front[:], sv.Front[:]); err != nil {
		return err
	}
	if err := fill(p.back[:], sv.Back[:]); err != nil {
		return err
	}
	for _, c := range sv.Removed {
		if err := see(c); err != nil {
			return err
		}
	}
	p.removed = cloneCards(sv.Removed)
	handKnown := sv.Hand != nil || sv.HandCount == 0
	if handKnown {
		if len(sv.Hand) != sv.HandCount {
			return fmt.Errorf("hand of %d cards, count %d", len(sv.Hand), sv.HandCount)
		}
		for _, c := range sv.Hand {
			if err := see(c); err != nil {
				return err
			}
		}
		p.hand = cloneCards(sv.Hand)
		slices.Sort(p.hand)
	}
	deckKnown := v.Viewer == rules.Reveal || sv.DeckCount == 0
	if deckKnown {
		if len(sv.Deck) != sv.DeckCount {
			return fmt.Errorf("deck of %d cards, count %d", len(sv.Deck), sv.DeckCount)
		}
		for _, c := range sv.Deck {
			if err := see(c); err != nil {
				return err
			}
		}
		p.deck = cloneCards(sv.Deck)
	}
	var unseen []Card
	for _, c := range deckOf(v.Variant, t) {
		if !seen[c] {
			unseen = append(unseen, c)
		}
	}
	want := hidden
	if !handKnown {
		want += sv.HandCount
	}
	if !deckKnown {
		want += sv.DeckCount
	}
	if want != len(unseen) {
		return fmt.Errorf("%d hidden places for %d unseen cards", want, len(unseen))
	}
	r.Shuffle(len(unseen), func(i, j int) { unseen[i], unseen[j] = unseen[j], unseen[i] })
	next := func() Card {
		c := unseen[0]
		unseen = unseen[1:]
		return c
	}
	for _, x := range [][]slot{p.front[:], p.back[:]} {
		for i := range x {
			if x[i].card == NoCard && x[i].up {
				return fmt.Errorf("an empty slot face up")
			}
		}
	}
	for i, x := range sv.Front {
		if !x.Empty && !x.Known {
			p.front[i].card = next()
		}
	}
	for i, x := range sv.Back {
		if !x.Empty && !x.Known {
			p.back[i].card = next()
		}
	}
	if !handKnown {
		p.hand = cloneCards(unseen[:sv.HandCount])
		unseen = unseen[sv.HandCount:]
		slices.Sort(p.hand)
	}
	if !deckKnown {
		p.deck = cloneCards(unseen)
	}
	return nil
}

// slotNumber reads a slot name of zone z ("F2", "B3").
func slotNumber(name string, z Zone) (int, bool) {
	pl, err := parsePlace(name)
	if err != nil || pl.Zone != z {
		return 0, false
	}
	return pl.N, true
}

// sameView reports whether two views are equal (the forbidden actions and
// the result follow from the rest; they are compared too).
func sameView(a, b View) bool {
	if a.Variant != b.Variant || a.Viewer != b.Viewer || a.Ply != b.Ply || a.Turn != b.Turn ||
		a.ToMove != b.ToMove || a.Phase != b.Phase || a.RefillSlot != b.RefillSlot ||
		a.EndOfTurn != b.EndOfTurn || a.Result != b.Result || a.First != b.First ||
		!slices.Equal(a.Forbidden, b.Forbidden) || !slices.Equal(a.Flips, b.Flips) {
		return false
	}
	if (a.LastBattle == nil) != (b.LastBattle == nil) || a.LastBattle != nil && *a.LastBattle != *b.LastBattle {
		return false
	}
	for t := range a.Sides {
		x, y := &a.Sides[t], &b.Sides[t]
		if x.Side != y.Side || x.Front != y.Front || x.Back != y.Back || !slices.Equal(x.Hand, y.Hand) ||
			x.HandCount != y.HandCount || x.DeckCount != y.DeckCount || !slices.Equal(x.Deck, y.Deck) ||
			!slices.Equal(x.Removed, y.Removed) || x.LastAction != y.LastAction || x.FaceUp != y.FaceUp ||
			x.Open != y.Open {
			return false
		}
	}
	return true
}
