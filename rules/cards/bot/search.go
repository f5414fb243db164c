package bot

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/trench-games/trench/rules"
	rbot "github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/cards"
)

// Player is the card game's computer player (rbot.Player), registered
// under "cards".
type Player struct{}

func init() { rbot.Register("cards", Player{}) }

// config is one level's search.
type config struct {
	nodes   int64   // node budget when the request gives none
	eps     float64 // share of random moves in the playouts
	horizon int     // plies of a playout before it is scored
}

// levels are the search levels. Nodes are the plies played in the
// playouts (the root moves included). The strength of the search levels
// off quickly with the budget (hard at 400 000 nodes plays even with the
// same search at 60 000), so easy and medium have small budgets: easy
// also plays half its playout moves at random and looks only 8 plies
// ahead, which leaves it plausible but short-sighted.
var levels = map[rbot.Level]config{
	rbot.Easy:   {nodes: 400, eps: 0.5, horizon: 8},
	rbot.Medium: {nodes: 4_000, eps: 0.1, horizon: 10},
	rbot.Hard:   {nodes: 400_000, eps: 0.1, horizon: 60},
}

// NodeBudget returns the node budget level l uses when Budget.Nodes is 0;
// 0 for a level that does not search (random, greedy) or is unknown.
func NodeBudget(l rbot.Level) int64 { return levels[l].nodes }

// pollEvery is how many nodes the search visits between two calls of
// Budget.Stop.
const pollEvery = 2048

// Think answers req from st.View(req.Side) alone (see the package
// documentation). Errors: rbot.ErrLevel, rbot.ErrNoMove (the game is
// over, or req.Side is to act and has no move), and an error for a state
// of another game or a side that is not a player.
func (Player) Think(st rules.State, req rbot.Request) (rbot.Thought, error) {
	cfg, searched := levels[req.Level]
	if !searched && req.Level != rbot.Random && req.Level != rbot.Greedy {
		return rbot.Thought{}, fmt.Errorf("%w %q", rbot.ErrLevel, req.Level)
	}
	if !req.Side.Valid() {
		return rbot.Thought{}, fmt.Errorf("cards bot: side %d is not a player", req.Side)
	}
	v, ok := st.View(req.Side).(cards.View)
	if !ok {
		return rbot.Thought{}, errors.New("cards bot: not a card game state")
	}
	return think(v, req, cfg, searched)
}

// think is Think on the view v of req.Side.
func think(v cards.View, req rbot.Request, cfg config, searched bool) (rbot.Thought, error) {
	if v.Result.Over {
		return rbot.Thought{}, rbot.ErrNoMove
	}
	r := rbot.NewRand(req.Seed)
	// A state consistent with v: the hidden cards are drawn at random and
	// redrawn for every playout below.
	sample, err := cards.Sample(v, r)
	if err != nil {
		return rbot.Thought{}, err
	}
	var base game
	if err := base.load(sample.ViewFor(rules.Reveal)); err != nil {
		return rbot.Thought{}, err
	}
	h := hiddenOf(v)
	toAct := v.ToMove == req.Side
	var moves []move
	if toAct {
		moves = base.legal(nil)
		if len(moves) == 0 {
			return rbot.Thought{}, rbot.ErrNoMove
		}
		// The order of the list follows the notation, so that the answer
		// does not depend on the order of the (sorted) hand.
		slices.SortFunc(moves, func(a, b move) int {
			x, y := a.String(), b.String()
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		})
	}
	if toAct && req.Level != rbot.Random {
		// An attack that surely wins the game is played at once.
		if m, ok := winningAttack(v, &base, moves); ok {
			e := 1.0
			if req.Side == rules.Side1 {
				e = 0
			}
			score := rbot.Win - 1
			if req.Side == rules.Side1 {
				score = -score
			}
			return rbot.Thought{Move: m.String(), Expect: e, Score: score, Best: []string{m.String()}, Depth: 1, Nodes: 1}, nil
		}
	}
	switch {
	case !searched:
		th := rbot.Thought{Expect: staticExpect(v)}
		if toAct {
			if req.Level == rbot.Random {
				// bot.RandomMove's choice: the list is Legal's, sorted.
				th.Move = moves[rbot.NewRand(req.Seed).IntN(len(moves))].String()
			} else {
				th.Move = greedy(v, moves, r).String()
			}
			th.Best = []string{th.Move}
		}
		th.Score = scoreOf(th.Expect)
		return th, nil
	}
	budget := cfg.nodes
	if req.Budget.Nodes > 0 {
		budget = req.Budget.Nodes
	}
	s := searcher{cfg: cfg, r: r, base: &base, h: &h, budget: budget, stop: req.Budget.Stop}
	if !toAct {
		e := s.evaluate()
		return rbot.Thought{Expect: e, Score: scoreOf(e), Nodes: s.nodes}, nil
	}
	m, e := s.root(moves, int8(req.Side))
	return rbot.Thought{Move: m.String(), Expect: e, Score: scoreOf(e), Best: []string{m.String()},
		Depth: 1, Nodes: s.nodes}, nil
}

// scoreOf is Thought.Score: the expected result for Side0 in thousandths
// above a draw, from −500 (a sure loss) to +500 (a sure win).
func scoreOf(expect float64) int { return int(math.Round(1000 * (expect - 0.5))) }

// staticExpect is a quick estimate from the public card counts alone.
func staticExpect(v cards.View) float64 {
	d := v.Sides[0].HandCount + v.Sides[0].DeckCount - v.Sides[1].HandCount - v.Sides[1].DeckCount
	for t, sign := range [2]int{1, -1} {
		for _, x := range v.Sides[t].Front {
			if !x.Empty {
				d += sign
			}
		}
		for _, x := range v.Sides[t].Back {
			if !x.Empty {
				d += sign
			}
		}
	}
	return sigmoid(float64(d))
}

// sigmoid maps a card balance (Side0's cards less Side1's) to an expected
// result for Side0.
func sigmoid(d float64) float64 { return 1 / (1 + math.Exp(-0.45*d)) }

// hidden is where the cards the computer cannot see lie in a sampled
// state: the face-down slots it does not know, and whole hands and decks.
type hidden struct {
	slots      [2][]uint8
	hand, deck [2]bool
}

func hiddenOf(v cards.View) hidden {
	var h hidden
	for t := range v.Sides {
		sv := &v.Sides[t]
		for i, x := range sv.Front {
			if !x.Empty && !x.Known {
				h.slots[t] = append(h.slots[t], pF(i+1))
			}
		}
		for j, x := range sv.Back {
			if !x.Empty && !x.Known {
				h.slots[t] = append(h.slots[t], pB(j+1))
			}
		}
		h.hand[t] = sv.Hand == nil && sv.HandCount > 0
		h.deck[t] = sv.DeckCount > 0
	}
	return h
}

// deal redraws the hidden cards of g: each side's hidden cards are shuffled
// among its hidden places, which gives every assignment consistent with
// the view the same chance.
func (h *hidden) deal(g *game, r *rand.Rand) {
	var pool [52]cards.Card
	for t := range g.p {
		p := &g.p[t]
		n := 0
		for _, pl := range h.slots[t] {
			pool[n] = p.at(pl).c
			n++
		}
		if h.hand[t] {
			n += copy(pool[n:], p.hand[:p.nh])
		}
		if h.deck[t] {
			n += copy(pool[n:], p.deck[:p.nd])
		}
		for i := n - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			pool[i], pool[j] = pool[j], pool[i]
		}
		k := 0
		for _, pl := range h.slots[t] {
			p.at(pl).c = pool[k]
			k++
		}
		if h.hand[t] {
			k += copy(p.hand[:p.nh], pool[k:])
		}
		if h.deck[t] {
			copy(p.deck[:p.nd], pool[k:])
		}
	}
}

// searcher runs one search.
type searcher struct {
	cfg    config
	r      *rand.Rand
	base   *game
	h      *hidden
	budget int64
	stop   func() bool
	nodes  int64
	buf    [160]move

	nextPoll int64
	stopped  bool
}

// halted reports whether the search must end: its node budget is spent,
// or Budget.Stop (asked every pollEvery nodes) says so.
func (s *searcher) halted() bool {
	if s.stopped || s.nodes >= s.budget {
		return true
	}
	if s.stop != nil && s.nodes >= s.nextPoll {
		s.nextPoll = s.nodes + pollEvery
		s.stopped = s.stop()
	}
	return s.stopped
}

// playout plays g on by the policy for the level's horizon, or until the
// node budget is spent, and returns the result for Side0: 1, 0 or ½ at the
// end of the game, else an estimate from the card balance.
func (s *searcher) playout(g *game, r *rand.Rand) float64 {
	for range s.cfg.horizon {
		if over, _ := g.over(); over || s.nodes >= s.budget {
			break
		}
		g.play(g.policy(r, s.cfg.eps, s.buf[:]))
		s.nodes++
	}
	return outcome(g)
}

// outcome is the result of g for Side0: 1, 0 or ½ when the game is over,
// else an estimate from the card balance.
func outcome(g *game) float64 {
	if over, w := g.over(); over {
		switch w {
		case 0:
			return 1
		case 1:
			return 0
		}
		return 0.5
	}
	return sigmoid(float64(g.p[0].held() - g.p[1].held()))
}

// evaluate is the mean playout result for Side0 from the view.
func (s *searcher) evaluate() float64 {
	sum, n := 0.0, 0
	for n == 0 || !s.halted() {
		g := *s.base
		s.h.deal(&g, s.r)
		s.nodes++ // the root counts as a node, so the loop always ends
		sum += s.playout(&g, s.r)
		n++
	}
	return sum / float64(n)
}

// root picks a move for side t among moves by flat Monte Carlo with
// sequential halving: the budget is split into rounds; in each round the
// moves still in the running are each played out against the same fresh
// draws of the hidden cards with the same random playouts (common random
// numbers, so that moves are compared on equal deals), and the worse half
// is dropped. The search stops when the node budget is spent or Stop says
// so, even within a round. It returns the best move and its mean result
// for Side0.
func (s *searcher) root(moves []move, t int8) (move, float64) {
	type arm struct {
		k    int     // index in moves
		n    int     // playouts
		w    float64 // sum of results for t
		mean float64
	}
	arms := make([]arm, len(moves))
	for k := range arms {
		arms[k].k = k
	}
	rank := func() {
		for i := range arms {
			arms[i].mean = arms[i].w / float64(max(arms[i].n, 1))
		}
		// Moves never played out rank last; ties keep the notation order.
		slices.SortStableFunc(arms, func(x, y arm) int {
			switch {
			case (x.n > 0) != (y.n > 0):
				if x.n > 0 {
					return -1
				}
				return 1
			case x.mean > y.mean:
				return -1
			case x.mean < y.mean:
				return 1
			}
			return 0
		})
	}
	rounds := 0 // halvings down to one move
	for c := len(arms); c > 1; c = (c + 1) / 2 {
		rounds++
	}
	var pcg rand.PCG
	pr := rand.New(&pcg)
	for round := 0; round < rounds && len(arms) > 1 && !s.halted(); round++ {
		goal := s.nodes + (s.budget-s.nodes)/int64(rounds-round)
		for s.nodes < goal || arms[len(arms)-1].n == 0 {
			det := *s.base
			s.h.deal(&det, s.r)
			a, b := s.r.Uint64(), s.r.Uint64()
			for i := range arms {
				if s.halted() {
					break
				}
				g := det
				g.play(moves[arms[i].k])
				s.nodes++
				pcg.Seed(a, b)
				res := s.playout(&g, pr)
				if t == 1 {
					res = 1 - res
				}
				arms[i].n++
				arms[i].w += res
			}
			if s.halted() {
				break
			}
		}
		rank()
		if !s.halted() {
			arms = arms[:(len(arms)+1)/2]
		}
	}
	rank()
	e := arms[0].mean
	if len(moves) == 1 || arms[0].n == 0 {
		e = 0.5
	}
	if t == 1 {
		e = 1 - e
	}
	return moves[arms[0].k], e
}

// greedy is the Greedy level: an attack it knows wins (see sureWin), if
// there is one, else a random move.
func greedy(v cards.View, moves []move, r *rand.Rand) move {
	var wins []move
	for _, m := range moves {
		if sureWin(v, m) {
			wins = append(wins, m)
		}
	}
	if len(wins) > 0 {
		return wins[r.IntN(len(wins))]
	}
	return moves[r.IntN(len(moves))]
}

// sureWin reports whether m is an attack whose battle the viewer of v
// knows it wins: the opponent's card is face up and loses, or every card
// the opponent may have there loses.
func sureWin(v cards.View, m move) bool {
	if m.k != kAttack {
		return false
	}
	me, op := &v.Sides[v.Viewer], &v.Sides[v.Viewer.Other()]
	mine, theirs := me.Front[m.a-1], op.Front[m.a-1]
	if theirs.Known {
		return cards.Compare(mine.Card.Rank(), theirs.Card.Rank()) > 0
	}
	for _, c := range unseenOf(v, v.Viewer.Other()) {
		if cards.Compare(mine.Card.Rank(), c.Rank()) <= 0 {
			return false
		}
	}
	return true
}

// winningAttack returns an attack among moves that surely wins the game:
// the battle is a sure win (sureWin) and the opponent's refill leaves it
// nothing outside its front trench. Whether it does depends only on public
// counts, so it is tried on base, a state sampled from v; the computer's
// own refill choices after the battle (the first of each) change nothing
// of the opponent's cards.
func winningAttack(v cards.View, base *game, moves []move) (move, bool) {
	me := int8(v.Viewer)
	for _, m := range moves {
		if !sureWin(v, m) {
			continue
		}
		g := *base
		g.play(m)
		var buf [32]move
		for {
			if over, w := g.over(); over {
				if w == int(me) {
					return m, true
				}
				break
			}
			if g.turn != me {
				break
			}
			g.play(g.legal(buf[:0])[0])
		}
	}
	return move{}, false
}

// unseenOf lists side t's cards that the viewer of v does not see: neither
// removed, nor shown in a trench, nor in a hand shown to it.
func unseenOf(v cards.View, t rules.Side) []cards.Card {
	seen := map[cards.Card]bool{}
	sv := &v.Sides[t]
	for _, c := range sv.Removed {
		seen[c] = true
	}
	for _, c := range sv.Hand {
		seen[c] = true
	}
	for _, x := range append(sv.Front[:], sv.Back[:]...) {
		if x.Known {
			seen[x.Card] = true
		}
	}
	var out []cards.Card
	for c := cards.Card(1); c <= 52; c++ {
		if c.Suit().Side() != t || v.Variant == cards.VariantShort && c.Suit() > cards.Hearts {
			continue
		}
		if !seen[c] {
			out = append(out, c)
		}
	}
	return out
}
