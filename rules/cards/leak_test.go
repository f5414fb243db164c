package cards

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// tokenCards maps the written form of each card to the card.
var tokenCards = func() map[string]Card {
	m := map[string]Card{}
	for c := Card(1); c <= 52; c++ {
		m[c.String()] = c
	}
	return m
}()

// cardTokens returns the whole card tokens of text ("10H", "QS", "AD"):
// the maximal runs of letters, digits and underscores that read as a card,
// so that no part of a longer word or number counts.
func cardTokens(text string) []string {
	var out []string
	word := func(b byte) bool {
		return b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b == '_'
	}
	for i := 0; i < len(text); {
		if !word(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && word(text[j]) {
			j++
		}
		if _, ok := tokenCards[text[i:j]]; ok {
			out = append(out, text[i:j])
		}
		i = j
	}
	return out
}

// visibleTo is the set of cards viewer may see in s: its own trench and
// hand cards, every face-up trench card, and the removed cards.
func visibleTo(s *State, viewer rules.Side) map[Card]bool {
	out := map[Card]bool{}
	for u := range s.p {
		p := &s.p[u]
		own := rules.Side(u) == viewer
		for _, sl := range append(p.front[:], p.back[:]...) {
			if sl.card != NoCard && (own || sl.up) {
				out[sl.card] = true
			}
		}
		if own {
			for _, c := range p.hand {
				out[c] = true
			}
		}
		for _, c := range p.removed {
			out[c] = true
		}
	}
	return out
}

// leaks returns the card tokens of text that are not in ok.
func leaks(text string, ok map[Card]bool) []string {
	var bad []string
	for _, tok := range cardTokens(text) {
		if !ok[tokenCards[tok]] {
			bad = append(bad, tok)
		}
	}
	return bad
}

// cardsIn collects every Card value reachable from v, whatever its
// printed form.
func cardsIn(v reflect.Value, out *[]Card) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			cardsIn(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			cardsIn(v.Field(i), out)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			cardsIn(v.Index(i), out)
		}
	case reflect.Map:
		panic("a map in a view")
	case reflect.Uint8:
		if v.Type() == reflect.TypeFor[Card]() && Card(v.Uint()) != NoCard {
			*out = append(*out, Card(v.Uint()))
		}
	}
}

// checkView asserts that the view of s for viewer holds no card viewer
// may not see, and no secret at all.
func checkView(t *testing.T, s *State, viewer rules.Side) {
	t.Helper()
	v, ok := s.View(viewer).(View)
	if !ok {
		t.Fatalf("View returns %T", s.View(viewer))
	}
	// The public history is exactly the public history.
	if !reflect.DeepEqual(v.Flips, s.start.Flips) || v.First != s.start.First {
		t.Fatalf("ply %d: flips %v", s.ply, v.Flips)
	}
	if (v.LastBattle == nil) != (s.battle == nil) || v.LastBattle != nil && *v.LastBattle != *s.battle {
		t.Fatalf("ply %d: last battle %v", s.ply, v.LastBattle)
	}
	if v.Seed != "" || v.Deal != nil {
		t.Fatalf("ply %d: viewer %d sees the seed or the deal", s.ply, viewer)
	}
	for u, sv := range v.Sides {
		if sv.Deck != nil {
			t.Fatalf("ply %d: viewer %d sees a deck", s.ply, viewer)
		}
		if rules.Side(u) != viewer && sv.Hand != nil {
			t.Fatalf("ply %d: viewer %d sees side %d's hand", s.ply, viewer, u)
		}
		if sv.HandCount != len(s.p[u].hand) || sv.DeckCount != len(s.p[u].deck) {
			t.Fatalf("ply %d: counts", s.ply)
		}
		for i, sl := range append(sv.Front[:], sv.Back[:]...) {
			real := append(s.p[u].front[:], s.p[u].back[:]...)[i]
			if sl.Empty != (real.card == NoCard) || sl.FaceUp != real.up {
				t.Fatalf("ply %d: slot %s", s.ply, sl.Name)
			}
			if sl.Known != (sl.Card != NoCard) || sl.Known && sl.Card != real.card {
				t.Fatalf("ply %d: slot %s shows %v", s.ply, sl.Name, sl.Card)
			}
		}
	}
	v.Flips, v.LastBattle = nil, nil
	vis := visibleTo(s, viewer)
	var found []Card
	cardsIn(reflect.ValueOf(v), &found)
	for _, c := range found {
		if !vis[c] {
			t.Fatalf("ply %d: viewer %d's view holds %s", s.ply, viewer, c)
		}
	}
	text := fmt.Sprintf("%+v", v)
	if bad := leaks(text, vis); len(bad) > 0 {
		t.Fatalf("ply %d: viewer %d's view shows %v:\n%s", s.ply, viewer, bad, text)
	}
	// The view does show what the viewer may see (the check above is not
	// vacuous).
	for c := range vis {
		if !strings.Contains(text, c.String()) {
			t.Fatalf("ply %d: viewer %d does not see %s", s.ply, viewer, c)
		}
	}
}

// checkDescribe asserts that the log line of move for viewer names only
// cards viewer sees before or after it, or the battle's cards.
func checkDescribe(t *testing.T, s *State, move string, next *State, viewer rules.Side) {
	t.Helper()
	ok := visibleTo(s, viewer)
	for c := range visibleTo(next, viewer) {
		ok[c] = true
	}
	if strings.HasPrefix(move, "attack") {
		ok[next.battle.Cards[0]], ok[next.battle.Cards[1]] = true, true
	}
	line := s.Describe(move, viewer)
	if bad := leaks(line, ok); len(bad) > 0 {
		t.Fatalf("ply %d: viewer %d reads %v in %q", s.ply, viewer, bad, line)
	}
}

var viewers = []rules.Side{rules.Side0, rules.Side1, rules.NoSide}

func TestNoLeakInRandomGames(t *testing.T) {
	t.Parallel()
	games := map[string]int{VariantShort: 80, VariantLong: 25}
	for variant, n := range games {
		for g := range n {
			s, _ := New(variant, int64(5000+g))
			for _, v := range viewers {
				checkView(t, s, v)
			}
			randomGame(t, variant, int64(5000+g), func(s *State, m string, next *State) {
				for _, v := range viewers {
					checkView(t, next, v)
					checkDescribe(t, s, m, next, v)
				}
			})
		}
	}
}

func TestLeakDetector(t *testing.T) {
	qs, ten := NewCard(Queen, Spades), NewCard(Ten, Hearts)
	ok := map[Card]bool{qs: true, ten: true}
	for text, want := range map[string][]string{
		"shift B3 H:QS":          nil,
		"shift B3 H:KS":          {"KS"},
		"{Card:10H Known:true}":  nil,
		"{Card:0H}":              nil, // not a card
		"ALIAS KSX 110H _QS QS_": nil, // not whole tokens
		"[AS,KD]/(7C)":           {"AS", "KD", "7C"},
		"[QS JH 10H]":            {"JH"},
		"attack F2: 7S × QH, QH": {"7S", "QH", "QH"},
	} {
		if got := leaks(text, ok); !slices.Equal(got, want) {
			t.Errorf("leaks(%q) = %v, want %v", text, got, want)
		}
	}
	// The revealed view of a game in progress shows cards a player may
	// not see: the detector finds them.
	s, _ := New(VariantLong, 8)
	text := fmt.Sprintf("%+v", s.ViewFor(rules.Reveal))
	for _, v := range viewers {
		if len(leaks(text, visibleTo(s, v))) == 0 {
			t.Errorf("viewer %d: nothing hidden found in the revealed view", v)
		}
	}
	var found []Card
	cardsIn(reflect.ValueOf(s.ViewFor(rules.Reveal)), &found)
	slices.Sort(found)
	found = slices.Compact(found)
	if len(found) != 52 {
		t.Errorf("the revealed view holds %d cards", len(found))
	}
}

func TestRevealView(t *testing.T) {
	_, end := randomGame(t, VariantLong, 31, nil)
	v := end.ViewFor(rules.Reveal)
	if v.Seed != "31" || v.Deal == nil || v.Phase != PhaseOver || !v.Result.Over || v.ToMove != rules.NoSide {
		t.Fatalf("reveal view: seed %q deal %v phase %s", v.Seed, v.Deal != nil, v.Phase)
	}
	if !reflect.DeepEqual(*v.Deal, end.start.Deal) {
		t.Error("deal")
	}
	for u, sv := range v.Sides {
		if !slices.Equal(sv.Hand, end.p[u].hand) || !slices.Equal(sv.Deck, end.p[u].deck) {
			t.Errorf("side %d: hand or deck", u)
		}
		for _, sl := range append(sv.Front[:], sv.Back[:]...) {
			if !sl.Empty && !sl.Known {
				t.Errorf("side %d: %s hidden from Reveal", u, sl.Name)
			}
		}
	}
}

func TestViewDetails(t *testing.T) {
	s := pos(t, VariantShort, 0, "AS+,2S,3S/4S,5S,6S,7S/8S,9S,10S,JS,QS,KS///-/--0", "AH,2H+,3H/4H,5H,6H,7H/8H,9H,10H,JH,QH,KH///-/--0")
	v := s.ViewFor(rules.Side0)
	me, op := v.Sides[0], v.Sides[1]
	if !me.Front[0].Known || !me.Front[0].FaceUp || me.Front[0].Card != NewCard(Ace, Spades) {
		t.Errorf("own face-up F1: %+v", me.Front[0])
	}
	if !me.Front[1].Known || me.Front[1].FaceUp {
		t.Errorf("own face-down F2: %+v", me.Front[1])
	}
	if op.Front[0].Known || op.Front[0].Card != NoCard || op.Front[0].Empty {
		t.Errorf("opponent's face-down F1: %+v", op.Front[0])
	}
	if !op.Front[1].Known || op.Front[1].Card != NewCard(Two, Hearts) {
		t.Errorf("opponent's face-up F2: %+v", op.Front[1])
	}
	if len(me.Hand) != 6 || op.Hand != nil || op.HandCount != 6 || me.FaceUp != 1 || op.FaceUp != 1 {
		t.Errorf("hands %v %v", me.Hand, op.Hand)
	}
	if v.Phase != PhaseAction || v.Turn != rules.Side0 || v.ToMove != rules.Side0 || v.RefillSlot != "" {
		t.Errorf("phase %s turn %d", v.Phase, v.Turn)
	}
	spec := s.ViewFor(rules.NoSide)
	if spec.Sides[0].Hand != nil || spec.Sides[0].Front[1].Known || !spec.Sides[0].Front[0].Known {
		t.Error("spectator view")
	}
	// During a refill the view names the slot.
	n := play(t, s, "attack F3")
	if v := n.ViewFor(rules.Side1); v.Phase != PhaseRefillFront || v.RefillSlot != "F3" || v.Sides[1].Open != "F3" || v.LastBattle == nil {
		t.Errorf("refill view: %s %q %q", v.Phase, v.RefillSlot, v.Sides[1].Open)
	}
}
