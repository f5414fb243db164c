package cards

import (
	"sort"
	"strings"

	"github.com/trench-games/trench/rules"
)

var _ rules.State = (*State)(nil)

// Legal returns the moves of the side to move under the movement rules,
// sorted byte-wise; nil when viewer is not that side. It does not look at
// the end condition (see Result).
func (s *State) Legal(viewer rules.Side) []string {
	if viewer != s.turn {
		return nil
	}
	ms := s.legalMoves()
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

// Apply returns the state after move and the automatic steps that follow
// it (forced refill steps, the loser's draw, the passing of the turn).
// Errors wrap rules.ErrNotation or rules.ErrIllegal; s is never changed.
func (s *State) Apply(move string) (rules.State, error) {
	n, err := s.ApplyMove(move)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// ApplyMove is Apply returning the concrete type.
func (s *State) ApplyMove(move string) (*State, error) {
	m, err := ParseMove(move)
	if err != nil {
		return nil, err
	}
	n, _, err := s.play(m)
	return n, err
}

// Clicks splits a move into the clicks that build it on the table: the
// word, then each place ("shift B3 H:QS" → ["shift", "B3", "H:QS"]). A
// refill made in s's refill phase is the one click of the card that fills
// the slot ("refill F2 B3" → ["B3"]): the phase already names the only
// slot that can take a refill, so neither the word nor the slot is a
// choice.
func (s *State) Clicks(move string) []string {
	m, err := ParseMove(move)
	if err != nil {
		return nil
	}
	if m.Kind == Refill && s.refillSlot() == m.A {
		return []string{m.B.String()}
	}
	return strings.Fields(m.String())
}

// refillSlot is the slot the side to move must refill now, the zero Place
// outside a refill phase.
func (s *State) refillSlot() Place {
	ref := s.p[s.turn].ref
	switch {
	case ref.open != 0:
		return F(ref.open)
	case ref.emptied != 0:
		return B(ref.emptied)
	}
	return Place{}
}

// View returns ViewFor(viewer).
func (s *State) View(viewer rules.Side) any { return s.ViewFor(viewer) }

// sideNames are the names the log uses for the sides.
var sideNames = [2]string{"Black", "Red"}

// seesHand reports whether viewer may see side t's hand.
func seesHand(viewer, t rules.Side) bool { return viewer == rules.Reveal || viewer == t }

// Describe returns move, to be applied to s, as viewer may read it in the
// log: hand cards of the other side are written "H"; a Recon names the
// card it turns up, an Attack the battle (both cards are then public); the
// automatic steps that follow are appended, e.g.
// "attack F2: 5S × KH, KH wins; Black refill F2 B2 (forced)".
// A move that cannot be applied is returned masked, without consequences.
func (s *State) Describe(move string, viewer rules.Side) string {
	m, err := ParseMove(move)
	if err != nil {
		return "(unreadable move)"
	}
	t := s.turn
	text := m.text(seesHand(viewer, t))
	n, ev, err := s.play(m)
	if err != nil {
		return text
	}
	switch m.Kind {
	case Recon:
		text += ": " + n.p[t.Other()].at(m.A).card.String()
	case Attack:
		text += ": " + n.battle.String()
	}
	for _, e := range ev {
		text += "; " + sideNames[e.side] + " "
		if e.move.Kind == "" {
			if seesHand(viewer, e.side) {
				text += "draws " + e.card.String()
			} else {
				text += "draws a card"
			}
			continue
		}
		text += e.move.text(seesHand(viewer, e.side)) + " (forced)"
	}
	return text
}

// Perft counts the leaves of the move tree depth plies deep, under the
// movement rules (the end condition is not applied).
func (s *State) Perft(depth int) int64 {
	if depth <= 0 {
		return 1
	}
	ms := s.legalMoves()
	if depth == 1 {
		return int64(len(ms))
	}
	var n int64
	for _, m := range ms {
		next, _, err := s.play(m)
		if err != nil {
			panic("cards: perft: " + err.Error())
		}
		n += next.Perft(depth - 1)
	}
	return n
}
