package bot

import (
	"slices"
	"sync"

	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trench"
)

// maxPly bounds the plies from the root, quiescence included.
const maxPly = 64

// inf is above every score, proven or not.
const inf = bot.Win + 1

// proven is the least absolute score of a proven result.
const proven = bot.Win - 1000

// pollEvery is how many nodes pass between two calls of Budget.Stop.
const pollEvery = 1024

// maxTTBits is the log2 of the largest transposition table's size.
const maxTTBits = 20

// Bounds of a stored score.
const (
	boundExact = iota + 1
	boundLower
	boundUpper
)

type ttEntry struct {
	key   uint64
	score int32
	move  move
	depth int8
	bound int8
}

// Move ordering keys.
const (
	orderTT      = 1 << 30
	orderCapture = 1 << 24
	orderKiller  = 1 << 22
)

// searcher is the state of one search; every Think has its own, so
// searches in different goroutines share nothing but read-only tables.
type searcher struct {
	g        *game
	maxDepth int
	noise    int    // amplitude of the evaluation noise
	qDepth   int    // plies of quiescence (0: unbounded)
	null     bool   // null-move pruning
	noiseKey uint64 // key of the seeded noise
	limit    int64
	nodes    int64
	stop     func() bool
	aborted  bool

	tt   []ttEntry
	mask uint64
	// boards are the positions after each ply's move being searched
	// (boards[ply+1] below ply): a board made in a recursive search
	// would be allocated on the heap.
	boards  [maxPly + 2]board
	moves   [maxPly][maxMovesBuf]move
	keys    [maxPly][maxMovesBuf]int32
	killer  [maxPly][2]move
	history [2][64][64]int32
	nulled  [maxPly]bool // the move played at this ply was a null move
	pv      [maxPly + 1][maxPly]move
	pvLen   [maxPly + 1]int

	rootPV  []move
	rootVal int
	rootOK  bool // rootPV/rootVal hold a root move searched in this iteration
}

// maxMovesBuf bounds the moves of one position (a full army has at most
// 214).
const maxMovesBuf = 256

// searchers holds searchers between searches (release): each is about
// 300 KB of buffers besides its table, and a search for puzzles runs
// hundreds of short searches a second, which made them the largest part
// of everything the server allocated.
var searchers sync.Pool

// newSearcher returns a searcher for one search, in the state a new one
// would be in (its table cleared), taken from searchers when one is
// there. The caller hands it back with release.
func newSearcher(g *game, cfg config, budget bot.Budget, seed int64) *searcher {
	s, _ := searchers.Get().(*searcher)
	if s == nil {
		s = new(searcher)
	}
	tt := s.tt
	*s = searcher{g: g, maxDepth: cfg.maxDepth, noise: cfg.noise, qDepth: cfg.qDepth, null: cfg.null, limit: cfg.nodes, stop: budget.Stop}
	if budget.Nodes > 0 {
		s.limit = budget.Nodes
	}
	s.noiseKey = bot.NewRand(seed).Uint64() | 1
	// About one entry per two nodes: a small search clears a small table.
	n := 1 << 10
	for n < 1<<maxTTBits && int64(n)*2 < s.limit {
		n *= 2
	}
	s.tt = bot.Table(tt, n)
	s.mask = uint64(n - 1)
	return s
}

// release hands s back to searchers once its search is over and its
// results copied out.
func (s *searcher) release() {
	s.g, s.stop, s.rootPV = nil, nil, nil
	searchers.Put(s)
}

// visit counts one node and reports whether the search must stop.
func (s *searcher) visit() bool {
	if s.aborted {
		return true
	}
	s.nodes++
	if s.nodes >= s.limit {
		s.aborted = true
	} else if s.stop != nil && s.nodes%pollEvery == 0 && s.stop() {
		s.aborted = true
	}
	return s.aborted
}

// static is the evaluation of b for the side to move, with the level's
// seeded noise.
func (s *searcher) static(b *board) int {
	v := s.g.evaluate(b)
	if b.side == 1 {
		v = -v
	}
	if s.noise > 0 {
		h := (b.hash ^ s.noiseKey) * 0x9e3779b97f4a7c15
		v += int((h>>33)%uint64(2*s.noise+1)) - s.noise
	}
	return v
}

// terminal is game.terminal from the side to move's view.
func (s *searcher) terminal(b *board, ply int) (int, bool) {
	v, over := s.g.terminal(b, ply)
	if b.side == 1 {
		v = -v
	}
	return v, over
}

func toTT(v, ply int) int32 {
	if v > proven {
		v += ply
	} else if v < -proven {
		v -= ply
	}
	return int32(v)
}

func fromTT(v int32, ply int) int {
	r := int(v)
	if r > proven {
		r -= ply
	} else if r < -proven {
		r += ply
	}
	return r
}

func (s *searcher) store(key uint64, depth, ply, v, alpha, beta int, m move) {
	e := &s.tt[key&s.mask]
	if e.key == key && int(e.depth) > depth && e.bound == boundExact {
		return
	}
	bound := int8(boundExact)
	if v <= alpha {
		bound = boundUpper
	} else if v >= beta {
		bound = boundLower
	}
	if m == noMove && e.key == key {
		m = e.move
	}
	*e = ttEntry{key: key, move: m, score: toTT(v, ply), depth: int8(depth), bound: bound}
}

func (s *searcher) setPV(ply int, m move) {
	s.pv[ply][0] = m
	n := copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
	s.pvLen[ply] = n + 1
}

// order gives each move of ms its ordering key: the table's move, then
// captures by the stars they win (the least valuable capturer first),
// then the killers, then the history.
func (s *searcher) order(b *board, ply int, ms []move, keys []int32, ttMove move) {
	hist := &s.history[b.side]
	k0, k1 := s.killer[ply][0], s.killer[ply][1]
	for i, m := range ms {
		var k int32
		switch {
		case m == ttMove:
			k = orderTT
		case m.ncap > 0:
			k = orderCapture + int32(m.gain)*64 - int32(b.sq[m.from]&7)
		case m == k0:
			k = orderKiller + 1
		case m == k1:
			k = orderKiller
		default:
			k = hist[m.from][m.to]
		}
		keys[i] = k
	}
}

// pick moves the best-ordered move of ms[i:] to position i.
func pick(ms []move, keys []int32, i int) {
	best := i
	for j := i + 1; j < len(ms); j++ {
		if keys[j] > keys[best] {
			best = j
		}
	}
	ms[i], ms[best] = ms[best], ms[i]
	keys[i], keys[best] = keys[best], keys[i]
}

// negamax returns the value of b for the side to move searched depth
// plies deep within the window (alpha, beta).
func (s *searcher) negamax(b *board, depth, ply, alpha, beta int) int {
	s.pvLen[ply] = 0
	if ply > 0 {
		if s.visit() {
			return 0
		}
		if v, over := s.terminal(b, ply); over {
			return v
		}
	}
	if depth <= 0 || ply >= maxPly-1 {
		return s.quiesce(b, ply, ply, alpha, beta)
	}
	pvNode := beta-alpha > 1
	key := b.key()
	ttMove := noMove
	e := &s.tt[key&s.mask]
	if e.key == key {
		ttMove = e.move
		if ply > 0 && int(e.depth) >= depth && !pvNode {
			v := fromTT(e.score, ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && v >= beta,
				e.bound == boundUpper && v <= alpha:
				return v
			}
		}
	}
	// Null move: when passing (which the rules do not allow) still holds
	// beta in a shallower search, a real move surely does.
	if s.null && !pvNode && ply > 0 && depth >= 3 && !s.nulled[ply-1] && b.units[b.side] > 3 &&
		b.quiet < trench.QuietLimit-10 && !s.g.finalTurnNear(b) && s.static(b) >= beta {
		c := &s.boards[ply+1]
		*c = *b
		c.side ^= 1
		c.hash ^= zSide
		c.quiet++
		c.gained = 0
		s.nulled[ply] = true
		v := -s.negamax(c, depth-1-nullReduction, ply+1, -beta, -beta+1)
		s.nulled[ply] = false
		if s.aborted {
			return 0
		}
		if v >= beta {
			if v > proven {
				v = beta
			}
			return v
		}
	}
	ms := b.gen(s.moves[ply][:0], false)
	if len(ms) == 0 {
		// No legal move: the game ends on points (spec [decision]).
		v := s.g.onPoints(b, ply)
		if b.side == 1 {
			v = -v
		}
		return v
	}
	keys := s.keys[ply][:len(ms)]
	s.order(b, ply, ms, keys, ttMove)

	alpha0 := alpha
	best, bestMove := -inf, noMove
	for i := range ms {
		pick(ms, keys, i)
		m := ms[i]
		c := &s.boards[ply+1]
		*c = b.apply(m)
		var v int
		if i == 0 {
			v = -s.negamax(c, depth-1, ply+1, -beta, -alpha)
		} else {
			// Late quiet moves are searched a ply shallower first.
			r := 0
			if depth >= 3 && i >= 4 && m.ncap == 0 && keys[i] < orderKiller {
				r = 1
				if i >= 12 && depth >= 5 {
					r = 2
				}
			}
			v = -s.negamax(c, depth-1-r, ply+1, -alpha-1, -alpha)
			if v > alpha && r > 0 && !s.aborted {
				v = -s.negamax(c, depth-1, ply+1, -alpha-1, -alpha)
			}
			if v > alpha && v < beta && !s.aborted {
				v = -s.negamax(c, depth-1, ply+1, -beta, -alpha)
			}
		}
		if s.aborted {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			s.setPV(ply, m)
			if ply == 0 {
				s.rootPV, s.rootVal, s.rootOK = append(s.rootPV[:0], s.pv[0][:s.pvLen[0]]...), v, true
			}
			if v > alpha {
				alpha = v
				if v >= beta {
					if m.ncap == 0 {
						if s.killer[ply][0] != m {
							s.killer[ply][1] = s.killer[ply][0]
							s.killer[ply][0] = m
						}
						h := &s.history[b.side][m.from][m.to]
						*h += int32(depth * depth)
						if *h > orderKiller/2 {
							s.ageHistory()
						}
					}
					break
				}
			}
		}
	}
	s.store(key, depth, ply, best, alpha0, beta, bestMove)
	return best
}

// ageHistory halves the history table.
func (s *searcher) ageHistory() {
	for side := range s.history {
		for from := range s.history[side] {
			for to := range s.history[side][from] {
				s.history[side][from][to] /= 2
			}
		}
	}
}

// quiesce searches only captures from b (entered at ply from), so that no position is
// evaluated in the middle of an exchange; the side to move may also stand
// on the static value.
func (s *searcher) quiesce(b *board, ply, from, alpha, beta int) int {
	s.pvLen[ply] = 0
	stand := s.static(b)
	if stand >= beta || ply >= maxPly-1 || (s.qDepth > 0 && ply-from >= s.qDepth) {
		return stand
	}
	if stand > alpha {
		alpha = stand
	}
	ms := b.gen(s.moves[ply][:0], true)
	keys := s.keys[ply][:len(ms)]
	for i, m := range ms {
		keys[i] = int32(m.gain)*64 - int32(b.sq[m.from]&7)
	}
	best := stand
	for i := range ms {
		pick(ms, keys, i)
		m := ms[i]
		// A capture that cannot lift the value to alpha is not searched
		// (delta pruning), unless it may reach the target.
		if stand+int(m.gain)*deltaPerStar+deltaMargin <= alpha &&
			(s.g.targetStars == 0 || b.stars[b.side]+int(m.gain) < s.g.targetStars) {
			continue
		}
		c := &s.boards[ply+1]
		*c = b.apply(m)
		if s.visit() {
			return 0
		}
		var v int
		if t, over := s.terminal(c, ply+1); over {
			v = -t
			s.pvLen[ply+1] = 0
		} else {
			v = -s.quiesce(c, ply+1, from, -beta, -alpha)
		}
		if s.aborted {
			return 0
		}
		if v > best {
			best = v
			s.setPV(ply, m)
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}

// nullReduction is how many plies shallower the null move is searched.
const nullReduction = 2

// Delta pruning's estimate of a capture: at most deltaPerStar per star
// won, plus deltaMargin for what the position gains.
const (
	deltaPerStar = 2 * star
	deltaMargin  = 2 * star
)

// result is the outcome of a search from the root's side to move.
type result struct {
	pv    []move
	value int // for the side to move
	depth int
}

// search runs iterative deepening from b, whose side to move has a legal
// move, up to maxDepth or until the budget is spent.
func (s *searcher) search(b *board) result {
	var res result
	for depth := 1; depth <= s.maxDepth; depth++ {
		s.rootOK = false
		v := s.negamax(b, depth, 0, -inf, inf)
		if s.aborted {
			if s.rootOK && len(s.rootPV) > 0 {
				res.pv = slices.Clone(s.rootPV)
				res.value = s.rootVal
			}
			break
		}
		res.pv = slices.Clone(s.pv[0][:s.pvLen[0]])
		res.value = v
		res.depth = depth
		if v > proven || v < -proven {
			break // a proven result needs no deeper search
		}
	}
	if len(res.pv) == 0 {
		// Stopped before the first move was valued: take the first
		// ordered move so that there is an answer.
		ms := b.gen(nil, false)
		keys := make([]int32, len(ms))
		s.order(b, 0, ms, keys, noMove)
		pick(ms, keys, 0)
		res.pv = ms[:1]
		res.value = s.static(b)
	}
	return res
}
