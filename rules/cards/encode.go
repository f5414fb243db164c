package cards

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trench-games/trench/rules"
)

// encodingVersion starts every encoded state.
const encodingVersion = "c1"

// Encode returns the full state as text (server-side only: it holds every
// card and the seed). Nine fields separated by single spaces:
//
//	c1 <variant> <seed> <ply> <turn 0|1> <acted 0|1> <side0> <side1> <battle>
//
// A side is seven parts separated by "/": front (3 slots), back (4 slots),
// hand, deck (top first), removed cards (comma-separated lists), the
// previous action (- s r a) and the pending refill as three characters
// (open front slot 1–3 or -, emptied back slot 1–4 or -, draw owed 0|1).
// A slot is "-" (empty), a card ("QS", face down) or a card and "+" (face
// up). The battle is "-" or "<attacker>,<slot>,<side0 card>,<side1 card>".
// The flips and the deal are not stored: they follow from variant and seed.
// A tenth field, present only when there are earlier positions since a
// card last left the game, lists their hashes (16 hex digits each,
// comma-separated, oldest first) for the repetition rule; states stored
// before it existed have nine fields and an empty history.
func (s *State) Encode() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %d %d %d %d", encodingVersion, s.variant, s.seed, s.ply, s.turn, b2i(s.acted))
	for t := range s.p {
		b.WriteByte(' ')
		encodeSide(&b, &s.p[t])
	}
	b.WriteByte(' ')
	if s.battle == nil {
		b.WriteByte('-')
	} else {
		fmt.Fprintf(&b, "%d,%d,%s,%s", s.battle.Attacker, s.battle.Slot, s.battle.Cards[0], s.battle.Cards[1])
	}
	for i, h := range s.seen {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%016x", h)
	}
	return b.String()
}

func b2i(x bool) int {
	if x {
		return 1
	}
	return 0
}

var lastCodes = map[Kind]string{NoAction: "-", Shift: "s", Recon: "r", Attack: "a"}

func encodeSide(b *strings.Builder, p *player) {
	slots := func(x []slot) {
		for i, sl := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			switch {
			case sl.card == NoCard:
				b.WriteByte('-')
			case sl.up:
				b.WriteString(sl.card.String() + "+")
			default:
				b.WriteString(sl.card.String())
			}
		}
	}
	list := func(x []Card) {
		for i, c := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(c.String())
		}
	}
	slots(p.front[:])
	b.WriteByte('/')
	slots(p.back[:])
	b.WriteByte('/')
	list(p.hand)
	b.WriteByte('/')
	list(p.deck)
	b.WriteByte('/')
	list(p.removed)
	b.WriteByte('/')
	b.WriteString(lastCodes[p.last])
	b.WriteByte('/')
	digit := func(n int) byte {
		if n == 0 {
			return '-'
		}
		return byte('0' + n)
	}
	b.WriteByte(digit(p.ref.open))
	b.WriteByte(digit(p.ref.emptied))
	b.WriteByte(byte('0' + b2i(p.ref.draw)))
}

// Decode parses a state written by Encode, checking that it is well formed:
// every card of the variant exactly once, each on its owner's side, hands
// sorted, pending refills pointing at empty slots and consistent with the
// turn. Errors wrap
// rules.ErrNotation.
func Decode(variant, text string) (*State, error) {
	bad := func(format string, args ...any) (*State, error) {
		return nil, fmt.Errorf("%w: cards state: %s", rules.ErrNotation, fmt.Sprintf(format, args...))
	}
	f := strings.Split(text, " ")
	if len(f) != 9 && len(f) != 10 {
		return bad("want 9 or 10 fields, got %d", len(f))
	}
	if f[0] != encodingVersion {
		return bad("unknown version %q", f[0])
	}
	if !knownVariant(variant) {
		return bad("unknown variant %q", variant)
	}
	if f[1] != variant {
		return bad("variant %q, want %q", f[1], variant)
	}
	s := &State{variant: variant}
	var err error
	if s.seed, err = strconv.ParseInt(f[2], 10, 64); err != nil || strconv.FormatInt(s.seed, 10) != f[2] {
		return bad("seed %q", f[2])
	}
	if s.ply, err = strconv.Atoi(f[3]); err != nil || s.ply < 0 || strconv.Itoa(s.ply) != f[3] {
		return bad("ply %q", f[3])
	}
	switch f[4] {
	case "0":
		s.turn = rules.Side0
	case "1":
		s.turn = rules.Side1
	default:
		return bad("turn %q", f[4])
	}
	switch f[5] {
	case "0":
	case "1":
		s.acted = true
	default:
		return bad("acted %q", f[5])
	}
	seen := map[Card]bool{}
	for t := range s.p {
		if err := decodeSide(&s.p[t], f[6+t], variant, rules.Side(t), seen); err != nil {
			return bad("side %d: %v", t, err)
		}
	}
	if want := 2 * len(deckOf(variant, rules.Side0)); len(seen) != want {
		return bad("%d cards, want %d", len(seen), want)
	}
	// Between moves, a turn whose action is taken waits for a refill
	// choice, and the other side's refill waits only for that one.
	if me := s.p[s.turn].ref; s.acted && me.open == 0 && me.emptied == 0 {
		return bad("an ended action with no refill to choose")
	}
	if s.p[s.turn.Other()].ref.active() && !s.acted {
		return bad("a refill pending out of turn")
	}
	if f[8] != "-" {
		bf := strings.Split(f[8], ",")
		if len(bf) != 4 {
			return bad("battle %q", f[8])
		}
		bt := &Battle{}
		switch bf[0] {
		case "0":
			bt.Attacker = rules.Side0
		case "1":
			bt.Attacker = rules.Side1
		default:
			return bad("battle %q", f[8])
		}
		if len(bf[1]) != 1 || bf[1][0] < '1' || bf[1][0] > '3' {
			return bad("battle %q", f[8])
		}
		bt.Slot = int(bf[1][0] - '0')
		for t := range 2 {
			c, err := ParseCard(bf[2+t])
			if err != nil || !ownedBy(variant, c, rules.Side(t)) {
				return bad("battle %q", f[8])
			}
			bt.Cards[t] = c
		}
		switch Compare(bt.Cards[0].Rank(), bt.Cards[1].Rank()) {
		case 1:
			bt.Winner = rules.Side0
		case -1:
			bt.Winner = rules.Side1
		default:
			bt.Winner = rules.NoSide
		}
		s.battle = bt
	}
	if len(f) == 10 {
		for _, x := range strings.Split(f[9], ",") {
			h, err := strconv.ParseUint(x, 16, 64)
			if err != nil || len(x) != 16 {
				return bad("position history %q", x)
			}
			s.seen = append(s.seen, h)
		}
	}
	s.start = newStart(variant, s.seed)
	return s, nil
}

func decodeSide(p *player, text, variant string, t rules.Side, seen map[Card]bool) error {
	parts := strings.Split(text, "/")
	if len(parts) != 7 {
		return fmt.Errorf("want 7 parts, got %d", len(parts))
	}
	card := func(s string) (Card, error) {
		c, err := ParseCard(s)
		if err != nil {
			return NoCard, err
		}
		if !ownedBy(variant, c, t) {
			return NoCard, fmt.Errorf("card %s is not this side's", c)
		}
		if seen[c] {
			return NoCard, fmt.Errorf("card %s twice", c)
		}
		seen[c] = true
		return c, nil
	}
	slots := func(s string, out []slot) error {
		items := strings.Split(s, ",")
		if len(items) != len(out) {
			return fmt.Errorf("want %d slots in %q", len(out), s)
		}
		for i, it := range items {
			if it == "-" {
				continue
			}
			up := false
			if c, ok := strings.CutSuffix(it, "+"); ok {
				it, up = c, true
			}
			c, err := card(it)
			if err != nil {
				return err
			}
			out[i] = slot{card: c, up: up}
		}
		return nil
	}
	list := func(s string) ([]Card, error) {
		if s == "" {
			return nil, nil
		}
		var out []Card
		for _, it := range strings.Split(s, ",") {
			c, err := card(it)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
		return out, nil
	}
	if err := slots(parts[0], p.front[:]); err != nil {
		return err
	}
	if err := slots(parts[1], p.back[:]); err != nil {
		return err
	}
	var err error
	if p.hand, err = list(parts[2]); err != nil {
		return err
	}
	if !slices.IsSorted(p.hand) {
		return fmt.Errorf("hand not sorted")
	}
	if p.deck, err = list(parts[3]); err != nil {
		return err
	}
	if p.removed, err = list(parts[4]); err != nil {
		return err
	}
	found := false
	for k, code := range lastCodes {
		if code == parts[5] {
			p.last, found = k, true
		}
	}
	if !found {
		return fmt.Errorf("previous action %q", parts[5])
	}
	r := parts[6]
	if len(r) != 3 {
		return fmt.Errorf("refill %q", r)
	}
	num := func(c byte, max int) (int, bool) {
		if c == '-' {
			return 0, true
		}
		n := int(c - '0')
		return n, n >= 1 && n <= max
	}
	var ok1, ok2 bool
	p.ref.open, ok1 = num(r[0], FrontSlots)
	p.ref.emptied, ok2 = num(r[1], BackSlots)
	if !ok1 || !ok2 || (r[2] != '0' && r[2] != '1') {
		return fmt.Errorf("refill %q", r)
	}
	p.ref.draw = r[2] == '1'
	if p.ref.open != 0 && p.front[p.ref.open-1].card != NoCard ||
		p.ref.emptied != 0 && p.back[p.ref.emptied-1].card != NoCard {
		return fmt.Errorf("refill %q: slot not empty", r)
	}
	return nil
}
