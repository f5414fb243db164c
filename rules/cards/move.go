package cards

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trench-games/trench/rules"
)

// Zone is where a place is: the front trench, the back trench or the hand.
type Zone byte

// The zones, as written in the notation.
const (
	NoZone Zone = 0
	Front  Zone = 'F'
	Back   Zone = 'B'
	Hand   Zone = 'H'
)

// Place is one operand of a move: a trench slot (Zone Front or Back, N the
// slot number from 1) or a hand card (Zone Hand, Card).
type Place struct {
	Zone Zone
	N    int
	Card Card
}

// F returns front slot n, B back slot n, H the hand card c.
func F(n int) Place  { return Place{Zone: Front, N: n} }
func B(n int) Place  { return Place{Zone: Back, N: n} }
func H(c Card) Place { return Place{Zone: Hand, Card: c} }

// String returns the place in the notation: "F2", "B4", "H:QS".
func (p Place) String() string { return p.text(true) }

// text writes the place; a hand card is written "H" when showHand is false.
func (p Place) text(showHand bool) string { return string(p.appendText(nil, showHand)) }

func (p Place) appendText(b []byte, showHand bool) []byte {
	switch p.Zone {
	case Front, Back:
		return strconv.AppendInt(append(b, byte(p.Zone)), int64(p.N), 10)
	case Hand:
		if showHand {
			return append(append(b, "H:"...), p.Card.String()...)
		}
		return append(b, 'H')
	}
	return append(b, '?')
}

// Move is a move in the notation (see the package documentation).
// Shift: A and B are the two places, Recon and Attack: A only, Refill: A is
// the slot being filled and B where the card comes from.
type Move struct {
	Kind Kind
	A, B Place
}

// String returns the move in the notation.
func (m Move) String() string { return m.text(true) }

func (m Move) text(showHand bool) string {
	b := make([]byte, 0, 20)
	b = append(append(b, m.Kind...), ' ')
	b = m.A.appendText(b, showHand)
	if m.B.Zone != NoZone {
		b = m.B.appendText(append(b, ' '), showHand)
	}
	return string(b)
}

func parsePlace(s string) (Place, error) {
	if rest, ok := strings.CutPrefix(s, "H:"); ok {
		c, err := ParseCard(rest)
		if err != nil {
			return Place{}, err
		}
		return H(c), nil
	}
	if len(s) != 2 || (s[0] != 'F' && s[0] != 'B') {
		return Place{}, fmt.Errorf("%w: place %q", rules.ErrNotation, s)
	}
	n := int(s[1] - '0')
	max := FrontSlots
	if s[0] == 'B' {
		max = BackSlots
	}
	if n < 1 || n > max {
		return Place{}, fmt.Errorf("%w: no slot %q", rules.ErrNotation, s)
	}
	return Place{Zone: Zone(s[0]), N: n}, nil
}

// placeRefusal is the refusal of move s for its place p, which parsePlace
// refused.
func placeRefusal(s, p string) error {
	switch {
	case strings.HasPrefix(p, "H:"):
		return rules.Refuse(rules.ErrNotation, "cards.card", s, strings.TrimPrefix(p, "H:"))
	case len(p) == 2 && (p[0] == 'F' || p[0] == 'B'):
		return rules.Refuse(rules.ErrNotation, "cards.slot", s, p)
	}
	return rules.Refuse(rules.ErrNotation, "cards.place", s, p)
}

// ParseMove reads a move written as by Move.String. It checks the form
// only (words, slots that exist, cards); legality is Apply's. Errors are
// *rules.MoveError wrapping rules.ErrNotation.
func ParseMove(s string) (Move, error) {
	f := strings.Split(s, " ")
	bad := func(code string) (Move, error) {
		return Move{}, rules.Refuse(rules.ErrNotation, code, s)
	}
	if len(f) < 2 || len(f) > 3 {
		return bad("cards.form")
	}
	var m Move
	var err error
	if m.A, err = parsePlace(f[1]); err != nil {
		return Move{}, placeRefusal(s, f[1])
	}
	if len(f) == 3 {
		if m.B, err = parsePlace(f[2]); err != nil {
			return Move{}, placeRefusal(s, f[2])
		}
	}
	m.Kind = Kind(f[0])
	switch m.Kind {
	case Shift:
		if len(f) != 3 {
			return bad("cards.shift-places")
		}
		if m.A.Zone == Hand && m.B.Zone != Back || m.B.Zone == Hand && m.A.Zone != Back {
			return bad("cards.shift-hand")
		}
	case Recon:
		if len(f) != 2 || m.A.Zone == Hand {
			return bad("cards.recon-slot")
		}
	case Attack:
		if len(f) != 2 || m.A.Zone != Front {
			return bad("cards.attack-slot")
		}
	case Refill:
		if len(f) != 3 {
			return bad("cards.refill-places")
		}
		ok := m.A.Zone == Front && (m.B.Zone == Back || m.B.Zone == Hand) ||
			m.A.Zone == Back && m.B.Zone == Hand
		if !ok {
			return bad("cards.refill-form")
		}
	default:
		return bad("cards.word")
	}
	return m, nil
}

func (p *player) at(pl Place) *slot {
	switch pl.Zone {
	case Front:
		return &p.front[pl.N-1]
	case Back:
		return &p.back[pl.N-1]
	}
	return nil
}

// legalMoves lists the moves of the side whose turn it is, under the
// movement rules.
func (s *State) legalMoves() []Move {
	me := &s.p[s.turn]
	switch {
	case me.ref.open != 0:
		return me.frontRefills()
	case me.ref.emptied != 0:
		var out []Move
		for _, c := range me.hand {
			out = append(out, Move{Kind: Refill, A: B(me.ref.emptied), B: H(c)})
		}
		return out
	}
	return s.actions()
}

// frontRefills lists the ways to fill the open front slot: an adjacent back
// card; else any back card; else (empty back trench) any hand card.
func (p *player) frontRefills() []Move {
	i := p.ref.open
	var out []Move
	for _, j := range []int{i, i + 1} {
		if p.back[j-1].card != NoCard {
			out = append(out, Move{Kind: Refill, A: F(i), B: B(j)})
		}
	}
	if len(out) > 0 {
		return out
	}
	for j := 1; j <= BackSlots; j++ {
		if p.back[j-1].card != NoCard {
			out = append(out, Move{Kind: Refill, A: F(i), B: B(j)})
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, c := range p.hand {
		out = append(out, Move{Kind: Refill, A: F(i), B: H(c)})
	}
	return out
}

func (s *State) actions() []Move {
	me, op := &s.p[s.turn], &s.p[s.turn.Other()]
	out := make([]Move, 0, 48)
	if me.last != Shift {
		for i := 1; i < FrontSlots; i++ {
			if me.front[i-1].card != NoCard && me.front[i].card != NoCard {
				out = append(out, Move{Kind: Shift, A: F(i), B: F(i + 1)})
			}
		}
		for i := 1; i <= FrontSlots; i++ {
			for _, j := range []int{i, i + 1} {
				if me.front[i-1].card != NoCard && me.back[j-1].card != NoCard {
					out = append(out, Move{Kind: Shift, A: F(i), B: B(j)})
				}
			}
		}
		for j := 1; j < BackSlots; j++ {
			a, b := me.back[j-1].card != NoCard, me.back[j].card != NoCard
			switch {
			case a: // a swap, or a move into the empty right-hand slot
				out = append(out, Move{Kind: Shift, A: B(j), B: B(j + 1)})
			case b: // a move into the empty left-hand slot
				out = append(out, Move{Kind: Shift, A: B(j + 1), B: B(j)})
			}
		}
		for j := 1; j <= BackSlots; j++ {
			for _, c := range me.hand {
				if me.back[j-1].card != NoCard {
					out = append(out, Move{Kind: Shift, A: B(j), B: H(c)})
				} else {
					out = append(out, Move{Kind: Shift, A: H(c), B: B(j)})
				}
			}
		}
	}
	if me.last != Recon && op.faceUp() < 3 {
		for i := 1; i <= FrontSlots; i++ {
			if sl := op.front[i-1]; sl.card != NoCard && !sl.up {
				out = append(out, Move{Kind: Recon, A: F(i)})
			}
		}
		for j := 1; j <= BackSlots; j++ {
			if sl := op.back[j-1]; sl.card != NoCard && !sl.up {
				out = append(out, Move{Kind: Recon, A: B(j)})
			}
		}
	}
	if me.last != Attack {
		for i := 1; i <= FrontSlots; i++ {
			if me.front[i-1].card != NoCard && op.front[i-1].card != NoCard {
				out = append(out, Move{Kind: Attack, A: F(i)})
			}
		}
	}
	return out
}

// event is something that happened inside Apply besides the chosen move:
// a forced refill step, or a draw.
type event struct {
	side rules.Side
	move Move // a forced refill step; Kind "" for a draw
	card Card // the card drawn
}

// play applies a legal move and every automatic step that follows it.
func (s *State) play(m Move) (*State, []event, error) {
	legal := s.legalMoves()
	found := false
	for _, l := range legal {
		if l == m {
			found = true
			break
		}
	}
	if !found {
		return nil, nil, s.illegal(m, legal)
	}
	n := s.clone()
	n.exec(n.turn, m)
	n.ply++
	if m.Kind != Refill {
		n.p[n.turn].last = m.Kind
		n.acted = true
	}
	var ev []event
	n.advance(&ev)
	n.remember(s)
	return n, ev, nil
}

func (s *State) illegal(m Move, legal []Move) error {
	switch s.Phase() {
	case PhaseRefillFront, PhaseRefillBack:
		if m.Kind != Refill {
			return rules.Refuse(rules.ErrIllegal, "cards.refill-first", m.String())
		}
	case PhaseAction:
		if m.Kind == Refill {
			return rules.Refuse(rules.ErrIllegal, "cards.nothing-to-refill", m.String())
		}
		if m.Kind == s.p[s.turn].last {
			return rules.Refuse(rules.ErrIllegal, "cards.same-action", m.String())
		}
		if m.Kind == Recon && s.p[s.turn.Other()].faceUp() >= 3 {
			return rules.Refuse(rules.ErrIllegal, "cards.recon-three", m.String())
		}
	}
	if m.Kind == Shift {
		r := Move{Kind: Shift, A: m.B, B: m.A}
		for _, l := range legal {
			if l == r {
				return rules.Refuse(rules.ErrIllegal, "cards.write-it", m.String(), r.String())
			}
		}
	}
	return rules.Refuse(rules.ErrIllegal, "cards.not-now", m.String())
}

// exec carries out move m of side t (assumed legal).
func (s *State) exec(t rules.Side, m Move) {
	me, op := &s.p[t], &s.p[t.Other()]
	switch m.Kind {
	case Shift:
		switch {
		case m.B.Zone == Hand: // back card ↔ hand card
			sl := me.at(m.A)
			me.hand = withSorted(without(me.hand, m.B.Card), sl.card)
			*sl = slot{card: m.B.Card}
		case m.A.Zone == Hand: // hand card into an empty back slot
			me.hand = without(me.hand, m.A.Card)
			*me.at(m.B) = slot{card: m.A.Card}
		default: // swap, or move into an empty back slot
			a, b := me.at(m.A), me.at(m.B)
			*a, *b = *b, *a
		}
	case Recon:
		op.at(m.A).up = true
	case Attack:
		i := m.A.N - 1
		b := &Battle{Attacker: t, Slot: m.A.N, Winner: rules.NoSide}
		b.Cards[t], b.Cards[t.Other()] = me.front[i].card, op.front[i].card
		me.front[i], op.front[i] = slot{}, slot{}
		switch Compare(b.Cards[t].Rank(), b.Cards[t.Other()].Rank()) {
		case 1:
			b.Winner = t
		case -1:
			b.Winner = t.Other()
		}
		for u := range s.p {
			side := rules.Side(u)
			p := &s.p[u]
			lost := b.Winner == side.Other()
			if lost {
				p.removed = append(p.removed, b.Cards[u])
			} else {
				p.hand = withSorted(p.hand, b.Cards[u])
			}
			p.ref = pending{open: m.A.N, draw: lost && s.variant == VariantLong}
		}
		s.battle = b
	case Refill:
		if m.A.Zone == Back { // step 2
			me.hand = without(me.hand, m.B.Card)
			*me.at(m.A) = slot{card: m.B.Card}
			me.ref.emptied = 0
			return
		}
		if m.B.Zone == Hand { // step 1 from the hand: no back slot emptied
			me.hand = without(me.hand, m.B.Card)
			*me.at(m.A) = slot{card: m.B.Card}
		} else {
			src := me.at(m.B)
			*me.at(m.A) = *src
			*src = slot{}
			me.ref.emptied = m.B.N
		}
		me.ref.open = 0
	}
}

// advance applies the automatic steps: refill steps with a single possible
// outcome (skipping those with none), the loser's draw, and the passing of
// the turn once the side to move has acted and refilled.
func (s *State) advance(ev *[]event) {
	for {
		t := s.turn
		me := &s.p[t]
		var opts []Move
		switch {
		case me.ref.open != 0:
			opts = me.frontRefills()
			if len(opts) == 0 { // nothing can fill the slot (only after the end)
				me.ref.open = 0
				continue
			}
		case me.ref.emptied != 0:
			if len(me.hand) == 0 {
				me.ref.emptied = 0
				continue
			}
			for _, c := range me.hand {
				opts = append(opts, Move{Kind: Refill, A: B(me.ref.emptied), B: H(c)})
			}
		case me.ref.draw:
			me.ref.draw = false
			if len(me.deck) > 0 {
				c := me.deck[0]
				me.deck = cloneCards(me.deck[1:])
				me.hand = withSorted(me.hand, c)
				*ev = append(*ev, event{side: t, card: c})
			}
			continue
		case s.acted:
			s.turn, s.acted = t.Other(), false
			continue
		default:
			return
		}
		if len(opts) > 1 {
			return
		}
		s.exec(t, opts[0])
		*ev = append(*ev, event{side: t, move: opts[0]})
	}
}
