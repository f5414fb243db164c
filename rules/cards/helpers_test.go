package cards

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// Full short-game sides in their simplest layout (nothing moved yet).
const (
	black13 = "AS,2S,3S/4S,5S,6S,7S/8S,9S,10S,JS,QS,KS///-/--0"
	red13   = "AH,2H,3H/4H,5H,6H,7H/8H,9H,10H,JH,QH,KH///-/--0"
)

// pos builds a position from the encoded sides (see Encode), with turn to
// move in the action phase.
func pos(t *testing.T, variant string, turn int, side0, side1 string) *State {
	t.Helper()
	s, err := Decode(variant, fmt.Sprintf("c1 %s 7 0 %d 0 %s %s -", variant, turn, side0, side1))
	if err != nil {
		t.Fatalf("pos: %v", err)
	}
	return s
}

// play applies moves in order, failing the test on an error.
func play(t *testing.T, s *State, moves ...string) *State {
	t.Helper()
	for _, m := range moves {
		n, err := s.ApplyMove(m)
		if err != nil {
			t.Fatalf("%s: %v (legal: %v)", m, err, s.Legal(s.turn))
		}
		s = n
	}
	return s
}

// illegal asserts that move is refused with an error wrapping want.
func illegal(t *testing.T, s *State, move string, want error) {
	t.Helper()
	before := s.Encode()
	n, err := s.Apply(move)
	if !errors.Is(err, want) || n != nil {
		t.Errorf("Apply(%q) = %v, %v; want an error wrapping %v", move, n, err, want)
	}
	if s.Encode() != before {
		t.Errorf("Apply(%q) changed the receiver", move)
	}
	if slices.Contains(s.Legal(s.turn), move) {
		t.Errorf("%q is in Legal", move)
	}
}

// side returns side t encoded as by Encode.
func side(s *State, t rules.Side) string {
	var b strings.Builder
	encodeSide(&b, &s.p[t])
	return b.String()
}

func wantSide(t *testing.T, s *State, sd rules.Side, want string) {
	t.Helper()
	if got := side(s, sd); got != want {
		t.Errorf("side %d:\n got %s\nwant %s", sd, got, want)
	}
}

func wantLegal(t *testing.T, s *State, want ...string) {
	t.Helper()
	got := s.Legal(s.turn)
	if !slices.Equal(got, want) {
		t.Errorf("Legal:\n got %q\nwant %q", got, want)
	}
}

// checkInvariants checks what must hold in every reachable position.
func checkInvariants(t *testing.T, s *State) {
	t.Helper()
	total := 2 * len(deckOf(s.variant, rules.Side0))
	var seen [53]string
	count := 0
	add := func(c Card, owner int, where string) {
		if c == NoCard {
			return
		}
		count++
		if !ownedBy(s.variant, c, rules.Side(owner)) {
			t.Fatalf("ply %d: %s in side %d's %s", s.ply, c, owner, where)
		}
		if w := seen[c]; w != "" {
			t.Fatalf("ply %d: %s both in %s and side %d's %s", s.ply, c, w, owner, where)
		}
		seen[c] = where
	}
	for u := range s.p {
		p := &s.p[u]
		for i, sl := range p.front {
			add(sl.card, u, F(i+1).String())
			if sl.card == NoCard && sl.up {
				t.Fatalf("ply %d: empty face-up slot", s.ply)
			}
		}
		for i, sl := range p.back {
			add(sl.card, u, B(i+1).String())
			if sl.card == NoCard && sl.up {
				t.Fatalf("ply %d: empty face-up slot", s.ply)
			}
		}
		for _, c := range p.hand {
			add(c, u, "hand")
		}
		for _, c := range p.deck {
			add(c, u, "deck")
		}
		for _, c := range p.removed {
			add(c, u, "removed")
		}
		if !slices.IsSorted(p.hand) {
			t.Fatalf("ply %d: hand not sorted", s.ply)
		}
		if s.variant == VariantShort && len(p.deck) > 0 {
			t.Fatalf("ply %d: a deck in the short game", s.ply)
		}
		// The other side's refill waits only while the attacker refills.
		if rules.Side(u) != s.turn && p.ref.active() && !s.acted {
			t.Fatalf("ply %d: side %d has a refill pending out of turn", s.ply, u)
		}
	}
	if count != total {
		t.Fatalf("ply %d: %d cards, want %d", s.ply, count, total)
	}
	res := s.Result()
	removed := len(s.p[0].removed) + len(s.p[1].removed)
	if res.Score[0]+res.Score[1]+removed != total {
		t.Fatalf("ply %d: score %v with %d removed", s.ply, res.Score, removed)
	}
	if res.Over {
		if s.ToMove() != rules.NoSide || res.Reason != rules.ReasonFrontOnly || !res.Winner.Valid() {
			t.Fatalf("ply %d: bad end %+v", s.ply, res)
		}
		if res.Score[res.Winner.Other()] > FrontSlots {
			t.Fatalf("ply %d: the loser holds %d cards", s.ply, res.Score[res.Winner.Other()])
		}
		return
	}
	if s.ToMove() != s.turn {
		t.Fatalf("ply %d: ToMove %d, turn %d", s.ply, s.ToMove(), s.turn)
	}
	legal := s.Legal(s.turn)
	if len(legal) == 0 {
		t.Fatalf("ply %d: no legal move", s.ply)
	}
	if s.Legal(s.turn.Other()) != nil || s.Legal(rules.NoSide) != nil || s.Legal(rules.Reveal) != nil {
		t.Fatalf("ply %d: Legal for a side not to move", s.ply)
	}
	if !slices.IsSorted(legal) {
		t.Fatalf("ply %d: Legal not sorted", s.ply)
	}
	switch s.Phase() {
	case PhaseAction:
		if s.acted {
			t.Fatalf("ply %d: action phase after the action", s.ply)
		}
		for u := range s.p {
			for i, sl := range s.p[u].front {
				if sl.card == NoCard {
					t.Fatalf("ply %d: side %d's F%d empty at the start of an action", s.ply, u, i+1)
				}
			}
		}
		last := s.p[s.turn].last
		reconOK := s.p[s.turn.Other()].faceUp() < 3
		for _, m := range legal {
			if strings.HasPrefix(m, "refill") {
				t.Fatalf("ply %d: %s in the action phase", s.ply, m)
			}
			if last != NoAction && strings.HasPrefix(m, string(last)+" ") {
				t.Fatalf("ply %d: %s legal after a %s", s.ply, m, last)
			}
			if !reconOK && strings.HasPrefix(m, "recon") {
				t.Fatalf("ply %d: %s legal against 3 face-up cards", s.ply, m)
			}
		}
		for u := range s.p {
			p := &s.p[u]
			if len(p.deck) == 0 {
				continue
			}
			// While a deck lasts, the hand stays at 6 and the back trench full.
			if len(p.hand) != HandSize || p.reserve() != HandSize+BackSlots+len(p.deck) {
				t.Fatalf("ply %d: side %d: hand %d, reserve %d with a deck of %d", s.ply, u, len(p.hand), p.reserve(), len(p.deck))
			}
		}
	default:
		if len(legal) < 2 {
			t.Fatalf("ply %d: a forced refill was left to the player: %v", s.ply, legal)
		}
		for _, m := range legal {
			if !strings.HasPrefix(m, "refill") {
				t.Fatalf("ply %d: %s in a refill phase", s.ply, m)
			}
		}
	}
}
