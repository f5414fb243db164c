package bot

import (
	"math/rand/v2"

	"github.com/trench-games/trench/rules/cards"
)

// beats[r] and loses[r] are how many of the 13 ranks a card of rank r
// beats and loses to.
var beats, loses [14]int

// edge[r] is how many of the 13 ranks a card of rank r beats, less how
// many beat it: its worth in a battle against a card it cannot see (K +8,
// Q and 10 +6, … 3 −8).
var edge [14]int

func init() {
	for a := cards.Ace; a <= cards.King; a++ {
		for b := cards.Ace; b <= cards.King; b++ {
			c := cards.Compare(a, b)
			edge[a] += c
			if c > 0 {
				beats[a]++
			} else if c < 0 {
				loses[a]++
			}
		}
	}
}

// known is the weight of a battle whose outcome the side sees (both cards
// known), in the units of edge.
const known = 13

// slotValue is what side t expects from the battle at front slot i (0-based)
// from what t sees: its own card, and the opponent's only when face up. A
// positive value favours t whoever attacks: the battle's outcome does not
// depend on who starts it.
func (g *game) slotValue(t int8, i int) int {
	m, o := g.p[t].front[i], g.p[1-t].front[i]
	if m.c == cards.NoCard || o.c == cards.NoCard {
		return 0
	}
	if o.up {
		return known * cards.Compare(m.c.Rank(), o.c.Rank())
	}
	if m.up {
		// The opponent sees t's card and attacks only when it wins.
		r := m.c.Rank()
		return beats[r]/3 - loses[r]
	}
	return edge[m.c.Rank()]
}

func (g *game) frontValue(t int8) int {
	return g.slotValue(t, 0) + g.slotValue(t, 1) + g.slotValue(t, 2)
}

// policy is the playout policy: a quick rule of thumb for the side to
// move that, like a player, reads only its own cards and the opponent's
// face-up ones (it never uses the sampled hidden cards, so the playouts
// do not turn into games of open cards). eps is the share of uniformly
// random moves. buf is scratch space for the move list.
func (g *game) policy(r *rand.Rand, eps float64, buf []move) move {
	ms := g.legal(buf[:0])
	if len(ms) == 1 {
		return ms[0]
	}
	if eps > 0 && r.Float64() < eps {
		return ms[r.IntN(len(ms))]
	}
	t := g.turn
	best, bestScore := 0, -1<<30
	base := g.frontValue(t)
	for k, m := range ms {
		s := g.moveScore(t, m, base)*4 + r.IntN(4)
		if s > bestScore {
			best, bestScore = k, s
		}
	}
	return ms[best]
}

// moveScore is the rule of thumb's worth of move m for side t (base is
// t's front value now).
func (g *game) moveScore(t int8, m move, base int) int {
	me := &g.p[t]
	switch m.k {
	case kAttack:
		return 3 * g.slotValue(t, int(m.a)-1)
	case kRecon:
		if m.a <= cards.FrontSlots {
			// Knowing the card facing a strong one of ours is worth most.
			return 6 + max(0, edge[me.front[m.a-1].c.Rank()])/2
		}
		return 2
	case kRefill:
		if m.a <= cards.FrontSlots {
			var c cards.Card
			if isHand(m.b) {
				c = handCard(m.b)
			} else {
				c = me.at(m.b).c
			}
			o := g.p[1-t].front[m.a-1]
			if o.c != cards.NoCard && o.up {
				return known * cards.Compare(c.Rank(), o.c.Rank())
			}
			return edge[c.Rank()]
		}
		return 0
	case kShift:
		if isHand(m.a) || isHand(m.b) || m.a > cards.FrontSlots {
			return 0 // the front is unchanged
		}
		a, b := me.at(m.a), me.at(m.b)
		*a, *b = *b, *a
		after := g.frontValue(t)
		*a, *b = *b, *a
		return 2 * (after - base)
	}
	return 0
}
