package bot

import (
	"fmt"
	"strconv"

	"github.com/trench-games/trench/rules/cards"
)

// game is a compact copy of a full card game state for the playouts of the
// search: a plain value (copied, never shared) that follows the movement
// rules of package cards exactly (the tests compare the two move by move)
// but allocates nothing. It holds every card: the search builds it only
// from a state sampled from the computer's own view.
type game struct {
	p     [2]side
	turn  int8
	acted bool // the turn's action is taken (its refill remains)
	long  bool
}

// side is one side's cards. The hand is a set (its order means nothing);
// the deck keeps its top at deck[nd-1].
type side struct {
	front   [cards.FrontSlots]slot
	back    [cards.BackSlots]slot
	hand    [26]cards.Card
	deck    [26]cards.Card
	nh, nd  int8
	removed int8
	last    kind
	open    int8 // the open front slot (1–3) waiting for refill step 1, or 0
	emptied int8 // the back slot (1–4) waiting for refill step 2, or 0
	draw    bool // the battle loser's draw (long game) is owed
}

type slot struct {
	c  cards.Card // cards.NoCard when empty
	up bool
}

type kind uint8

const (
	kNone kind = iota
	kShift
	kRecon
	kAttack
	kRefill
)

var kindWords = [...]string{"", "shift", "recon", "attack", "refill"}

// A place is a front slot (1–3), a back slot (4–7 for B1–B4) or a hand
// card (placeHand + the card).
const (
	placeBack = 3
	placeHand = 8
)

func pF(i int) uint8              { return uint8(i) }
func pB(j int) uint8              { return uint8(placeBack + j) }
func pH(c cards.Card) uint8       { return uint8(placeHand) + uint8(c) }
func isHand(p uint8) bool         { return p >= placeHand }
func handCard(p uint8) cards.Card { return cards.Card(p - placeHand) }

func placeString(p uint8) string {
	switch {
	case p == 0:
		return ""
	case p <= cards.FrontSlots:
		return "F" + strconv.Itoa(int(p))
	case p < placeHand:
		return "B" + strconv.Itoa(int(p)-placeBack)
	}
	return "H:" + handCard(p).String()
}

// move is one move: Shift a and b, Recon or Attack a, Refill a (the slot
// filled) from b, as in the notation.
type move struct {
	k    kind
	a, b uint8
}

// String writes the move in the card game's notation.
func (m move) String() string {
	s := kindWords[m.k] + " " + placeString(m.a)
	if m.b != 0 {
		s += " " + placeString(m.b)
	}
	return s
}

func (s *side) at(p uint8) *slot {
	if p <= cards.FrontSlots {
		return &s.front[p-1]
	}
	return &s.back[p-placeBack-1]
}

func (s *side) removeHand(c cards.Card) {
	for i := int8(0); i < s.nh; i++ {
		if s.hand[i] == c {
			s.nh--
			s.hand[i] = s.hand[s.nh]
			return
		}
	}
	panic("cards bot: hand card not held")
}

func (s *side) addHand(c cards.Card) {
	s.hand[s.nh] = c
	s.nh++
}

func (s *side) faceUp() int {
	n := 0
	for _, x := range s.front {
		if x.up {
			n++
		}
	}
	for _, x := range s.back {
		if x.up {
			n++
		}
	}
	return n
}

// reserve is the number of cards outside the front trench.
func (s *side) reserve() int {
	n := int(s.nh) + int(s.nd)
	for _, x := range s.back {
		if x.c != cards.NoCard {
			n++
		}
	}
	return n
}

// held is the number of cards the side still has.
func (s *side) held() int {
	n := s.reserve()
	for _, x := range s.front {
		if x.c != cards.NoCard {
			n++
		}
	}
	return n
}

// over reports whether the game has ended and who won (-1: a draw).
func (g *game) over() (bool, int) {
	o0, o1 := g.p[0].reserve() == 0, g.p[1].reserve() == 0
	switch {
	case o0 && o1:
		return true, -1
	case o0:
		return true, 1
	case o1:
		return true, 0
	}
	return false, -1
}

// legal appends the moves of the side whose turn it is to buf.
func (g *game) legal(buf []move) []move {
	me := &g.p[g.turn]
	switch {
	case me.open != 0:
		return me.frontRefills(buf)
	case me.emptied != 0:
		for i := int8(0); i < me.nh; i++ {
			buf = append(buf, move{kRefill, pB(int(me.emptied)), pH(me.hand[i])})
		}
		return buf
	}
	return g.actions(buf)
}

func (s *side) frontRefills(buf []move) []move {
	i := int(s.open)
	n := len(buf)
	for _, j := range [2]int{i, i + 1} {
		if s.back[j-1].c != cards.NoCard {
			buf = append(buf, move{kRefill, pF(i), pB(j)})
		}
	}
	if len(buf) > n {
		return buf
	}
	for j := 1; j <= cards.BackSlots; j++ {
		if s.back[j-1].c != cards.NoCard {
			buf = append(buf, move{kRefill, pF(i), pB(j)})
		}
	}
	if len(buf) > n {
		return buf
	}
	for k := int8(0); k < s.nh; k++ {
		buf = append(buf, move{kRefill, pF(i), pH(s.hand[k])})
	}
	return buf
}

func (g *game) actions(buf []move) []move {
	me, op := &g.p[g.turn], &g.p[1-g.turn]
	if me.last != kShift {
		for i := 1; i < cards.FrontSlots; i++ {
			if me.front[i-1].c != cards.NoCard && me.front[i].c != cards.NoCard {
				buf = append(buf, move{kShift, pF(i), pF(i + 1)})
			}
		}
		for i := 1; i <= cards.FrontSlots; i++ {
			for _, j := range [2]int{i, i + 1} {
				if me.front[i-1].c != cards.NoCard && me.back[j-1].c != cards.NoCard {
					buf = append(buf, move{kShift, pF(i), pB(j)})
				}
			}
		}
		for j := 1; j < cards.BackSlots; j++ {
			a, b := me.back[j-1].c != cards.NoCard, me.back[j].c != cards.NoCard
			switch {
			case a:
				buf = append(buf, move{kShift, pB(j), pB(j + 1)})
			case b:
				buf = append(buf, move{kShift, pB(j + 1), pB(j)})
			}
		}
		for j := 1; j <= cards.BackSlots; j++ {
			full := me.back[j-1].c != cards.NoCard
			for k := int8(0); k < me.nh; k++ {
				if full {
					buf = append(buf, move{kShift, pB(j), pH(me.hand[k])})
				} else {
					buf = append(buf, move{kShift, pH(me.hand[k]), pB(j)})
				}
			}
		}
	}
	if me.last != kRecon && op.faceUp() < 3 {
		for i := 1; i <= cards.FrontSlots; i++ {
			if x := op.front[i-1]; x.c != cards.NoCard && !x.up {
				buf = append(buf, move{kRecon, pF(i), 0})
			}
		}
		for j := 1; j <= cards.BackSlots; j++ {
			if x := op.back[j-1]; x.c != cards.NoCard && !x.up {
				buf = append(buf, move{kRecon, pB(j), 0})
			}
		}
	}
	if me.last != kAttack {
		for i := 1; i <= cards.FrontSlots; i++ {
			if me.front[i-1].c != cards.NoCard && op.front[i-1].c != cards.NoCard {
				buf = append(buf, move{kAttack, pF(i), 0})
			}
		}
	}
	return buf
}

// play applies a legal move of the side whose turn it is and the automatic
// steps that follow it.
func (g *game) play(m move) {
	t := g.turn
	me, op := &g.p[t], &g.p[1-t]
	switch m.k {
	case kShift:
		switch {
		case isHand(m.b): // back card ↔ hand card
			sl := me.at(m.a)
			me.removeHand(handCard(m.b))
			me.addHand(sl.c)
			*sl = slot{c: handCard(m.b)}
		case isHand(m.a): // hand card into an empty back slot
			me.removeHand(handCard(m.a))
			*me.at(m.b) = slot{c: handCard(m.a)}
		default:
			a, b := me.at(m.a), me.at(m.b)
			*a, *b = *b, *a
		}
	case kRecon:
		op.at(m.a).up = true
	case kAttack:
		i := m.a - 1
		mc, oc := me.front[i].c, op.front[i].c
		me.front[i], op.front[i] = slot{}, slot{}
		winner := int8(-1)
		switch cards.Compare(mc.Rank(), oc.Rank()) {
		case 1:
			winner = t
		case -1:
			winner = 1 - t
		}
		for u := int8(0); u < 2; u++ {
			p := &g.p[u]
			c := mc
			if u != t {
				c = oc
			}
			lost := winner == 1-u
			if lost {
				p.removed++
			} else {
				p.addHand(c)
			}
			p.open, p.emptied, p.draw = int8(m.a), 0, lost && g.long
		}
	case kRefill:
		g.play1(m)
	}
	if m.k != kRefill {
		me.last = m.k
		g.acted = true
	}
	g.advance()
}

// advance applies the refill steps with a single outcome, the loser's draw
// and the passing of the turn, as package cards does.
func (g *game) advance() {
	var buf [26]move
	for {
		t := g.turn
		me := &g.p[t]
		var opts []move
		switch {
		case me.open != 0:
			opts = me.frontRefills(buf[:0])
			if len(opts) == 0 {
				me.open = 0
				continue
			}
		case me.emptied != 0:
			if me.nh == 0 {
				me.emptied = 0
				continue
			}
			if me.nh > 1 {
				return
			}
			opts = append(buf[:0], move{kRefill, pB(int(me.emptied)), pH(me.hand[0])})
		case me.draw:
			me.draw = false
			if me.nd > 0 {
				me.nd--
				me.addHand(me.deck[me.nd])
			}
			continue
		case g.acted:
			g.turn, g.acted = 1-t, false
			continue
		default:
			return
		}
		if len(opts) > 1 {
			return
		}
		g.play1(opts[0])
	}
}

// play1 carries out a forced refill step (without advancing).
func (g *game) play1(m move) {
	me := &g.p[g.turn]
	if m.a > cards.FrontSlots {
		me.removeHand(handCard(m.b))
		*me.at(m.a) = slot{c: handCard(m.b)}
		me.emptied = 0
		return
	}
	if isHand(m.b) {
		me.removeHand(handCard(m.b))
		*me.at(m.a) = slot{c: handCard(m.b)}
	} else {
		src := me.at(m.b)
		*me.at(m.a) = *src
		*src = slot{}
		me.emptied = int8(m.b) - placeBack
	}
	me.open = 0
}

// load copies a view in which every card is shown (a Reveal view of a
// state) into g.
func (g *game) load(v cards.View) error {
	*g = game{turn: int8(v.Turn), acted: v.EndOfTurn, long: v.Variant == cards.VariantLong}
	for t := range g.p {
		sv := &v.Sides[t]
		p := &g.p[t]
		conv := func(out []slot, in []cards.SlotView) error {
			for i, x := range in {
				if !x.Empty && !x.Known {
					return fmt.Errorf("slot %s not shown", x.Name)
				}
				out[i] = slot{c: x.Card, up: x.FaceUp}
			}
			return nil
		}
		if err := conv(p.front[:], sv.Front[:]); err != nil {
			return err
		}
		if err := conv(p.back[:], sv.Back[:]); err != nil {
			return err
		}
		if len(sv.Hand) != sv.HandCount || len(sv.Deck) != sv.DeckCount {
			return fmt.Errorf("hand or deck not shown")
		}
		for _, c := range sv.Hand {
			p.addHand(c)
		}
		for i, c := range sv.Deck { // top first → top last
			p.deck[len(sv.Deck)-1-i] = c
		}
		p.nd = int8(len(sv.Deck))
		p.removed = int8(len(sv.Removed))
		p.last = kindOf(sv.LastAction)
		if sv.Open != "" {
			p.open = int8(sv.Open[1] - '0')
		}
	}
	if v.Phase == cards.PhaseRefillBack {
		g.p[v.Turn].emptied = int8(v.RefillSlot[1] - '0')
	}
	if b := v.LastBattle; b != nil && g.long && b.Winner.Valid() {
		l := &g.p[b.Winner.Other()]
		l.draw = l.open != 0 || l.emptied != 0
	}
	return nil
}

func kindOf(k cards.Kind) kind {
	switch k {
	case cards.Shift:
		return kShift
	case cards.Recon:
		return kRecon
	case cards.Attack:
		return kAttack
	case cards.Refill:
		return kRefill
	}
	return kNone
}
