package bot

import (
	"slices"
	"sync"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/trenches"
)

// maxPly bounds the depth of a search (iterations and plies from the root).
const maxPly = 32

// inf is above every score, proven or not.
const inf = bot.Win + 1

// proven is the least absolute score of a proven result.
const proven = bot.Win - 1000

// pollEvery is how many nodes pass between two calls of Budget.Stop.
const pollEvery = 2048

// maxTTBits is the log2 of the largest transposition table's size.
const maxTTBits = 18

// Bounds of a stored score.
const (
	boundExact = iota + 1
	boundLower
	boundUpper
)

type ttEntry struct {
	key   uint64
	move  trenches.Move
	score int32
	depth int8
	bound int8
}

type scored struct {
	score int
	move  trenches.Move
}

// searcher is the state of one search; every Think has its own, so
// searches in different goroutines share nothing but read-only tables.
type searcher struct {
	cfg     config
	w       *weights
	limit   int64
	nodes   int64
	stop    func() bool
	aborted bool
	noise   uint64 // key of the seeded evaluation noise

	tt   []ttEntry
	mask uint64 // len(tt) - 1
	// boards are the positions after each ply's move being searched
	// (boards[ply+1] below ply): a board made in a recursive search
	// would be allocated on the heap.
	boards  [maxPly + 1]board
	moves   [maxPly][]trenches.Move
	ranked  [maxPly][]scored
	killer  [maxPly]trenches.Move
	pv      [maxPly + 1][maxPly]trenches.Move
	pvLen   [maxPly + 1]int
	rootPV  []trenches.Move
	rootVal int
	rootOK  bool // rootPV/rootVal hold a root move searched in this iteration
}

// searchers holds searchers between searches (release): a search for
// puzzles runs hundreds of short searches a second, and their searchers
// and tables were the largest part of everything the server allocated.
var searchers sync.Pool

// newSearcher returns a searcher for one search, in the state a new one
// would be in (its table cleared; the lists of moves it fills from empty
// at each ply keep their room), taken from searchers when one is there.
// The caller hands it back with release.
func newSearcher(cfg config, w *weights, budget bot.Budget, seed int64) *searcher {
	s, _ := searchers.Get().(*searcher)
	if s == nil {
		s = new(searcher)
	}
	tt, moves, ranked := s.tt, s.moves, s.ranked
	*s = searcher{cfg: cfg, w: w, limit: cfg.nodes, stop: budget.Stop, moves: moves, ranked: ranked}
	if budget.Nodes > 0 {
		s.limit = budget.Nodes
	}
	s.noise = bot.NewRand(seed).Uint64() | 1
	// About one entry per four nodes: a small search clears a small table.
	n := 1 << 10
	for n < 1<<maxTTBits && int64(n)*4 < s.limit {
		n *= 2
	}
	s.tt = bot.Table(tt, n)
	s.mask = uint64(n - 1)
	return s
}

// release hands s back to searchers once its search is over and its
// results copied out.
func (s *searcher) release() {
	s.w, s.stop, s.rootPV = nil, nil, nil
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

// static returns the evaluation of b for the side to move, with the
// seeded noise of the level.
func (s *searcher) static(b *board) int {
	v := evaluate(b, s.w)
	if b.pos.Turn() == rules.Side1 {
		v = -v
	}
	if s.cfg.noise > 0 {
		h := (b.hash ^ s.noise) * 0x9e3779b97f4a7c15
		v += int((h>>33)%uint64(2*s.cfg.noise+1)) - s.cfg.noise
	}
	return v
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

func (s *searcher) store(b *board, depth, ply, v, alpha, beta int, m trenches.Move) {
	e := &s.tt[b.hash&s.mask]
	if e.key == b.hash && int(e.depth) > depth {
		return
	}
	bound := int8(boundExact)
	if v <= alpha {
		bound = boundUpper
	} else if v >= beta {
		bound = boundLower
	}
	*e = ttEntry{key: b.hash, move: m, score: toTT(v, ply), depth: int8(depth), bound: bound}
}

func (s *searcher) setPV(ply int, m trenches.Move) {
	s.pv[ply][0] = m
	n := copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
	s.pvLen[ply] = n + 1
}

// negamax returns the value of b for the side to move, searched depth
// plies deep, within the window (alpha, beta).
func (s *searcher) negamax(b *board, depth, ply, alpha, beta int) int {
	s.pvLen[ply] = 0
	if ply > 0 {
		if s.visit() {
			return 0
		}
		if !b.pos.HasLegalMove() {
			return -(bot.Win - ply)
		}
	}
	if depth <= 0 || ply >= maxPly-1 {
		return s.static(b)
	}
	alpha0 := alpha
	var ttMove trenches.Move
	e := &s.tt[b.hash&s.mask]
	if e.key == b.hash {
		ttMove = e.move
		if ply > 0 && int(e.depth) >= depth {
			v := fromTT(e.score, ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && v >= beta,
				e.bound == boundUpper && v <= alpha:
				s.pv[ply][0] = e.move
				s.pvLen[ply] = 1
				return v
			}
		}
	}
	moves := b.pos.AppendLegalMoves(s.moves[ply][:0])
	s.moves[ply] = moves
	best, bestMove := -inf, trenches.Move{}

	if depth == 1 {
		// The last ply: every reply, by its static value; the killer and
		// the stored move first, as they most often cut.
		try := func(m trenches.Move) bool {
			c := b.apply(m)
			if s.visit() {
				return true
			}
			var v int
			if !c.pos.HasLegalMove() {
				v = bot.Win - ply - 1
			} else {
				v = -s.static(&c)
			}
			if v > best {
				best, bestMove = v, m
				s.pvLen[ply+1] = 0
				s.setPV(ply, m)
				if v > alpha {
					alpha = v
				}
			}
			return v >= beta
		}
		first := [2]trenches.Move{ttMove, s.killer[ply]}
		done := false
		for i, m := range first {
			if m.Type != 0 && (i == 0 || m != first[0]) && b.pos.IsLegal(m) {
				if done = try(m); done {
					break
				}
			}
		}
		if !done {
			for _, m := range moves {
				if m == first[0] || m == first[1] {
					continue
				}
				if try(m) {
					break
				}
			}
		}
		if s.aborted {
			return 0
		}
		if best >= beta {
			s.killer[ply] = bestMove
		}
		s.store(b, depth, ply, best, alpha0, beta, bestMove)
		return best
	}

	// Rank every move by the static value of its position.
	ranked := s.ranked[ply][:0]
	for _, m := range moves {
		c := b.apply(m)
		if s.visit() {
			return 0
		}
		if !c.pos.HasLegalMove() {
			s.pvLen[ply+1] = 0
			s.setPV(ply, m)
			v := bot.Win - ply - 1
			s.store(b, depth, ply, v, alpha0, beta, m)
			if ply == 0 {
				s.rootPV, s.rootVal, s.rootOK = append(s.rootPV[:0], m), v, true
			}
			return v
		}
		v := -s.static(&c)
		if m == ttMove {
			v += 2 * inf
		} else if m == s.killer[ply] {
			v += inf
		}
		ranked = append(ranked, scored{v, m})
	}
	s.ranked[ply] = ranked
	slices.SortStableFunc(ranked, func(a, b scored) int { return b.score - a.score })
	width := s.cfg.width
	if ply == 0 {
		width = s.cfg.rootWidth
	}
	if width > 0 && len(ranked) > width {
		ranked = ranked[:width]
	}
	for i, r := range ranked {
		c := &s.boards[ply+1]
		*c = b.apply(r.move)
		var v int
		if i == 0 {
			v = -s.negamax(c, depth-1, ply+1, -beta, -alpha)
		} else {
			v = -s.negamax(c, depth-1, ply+1, -alpha-1, -alpha)
			if v > alpha && v < beta && !s.aborted {
				v = -s.negamax(c, depth-1, ply+1, -beta, -alpha)
			}
		}
		if s.aborted {
			return 0
		}
		if v > best {
			best, bestMove = v, r.move
			s.setPV(ply, r.move)
			if ply == 0 {
				s.rootPV, s.rootVal, s.rootOK = append(s.rootPV[:0], s.pv[0][:s.pvLen[0]]...), v, true
			}
			if v > alpha {
				alpha = v
				if v >= beta {
					s.killer[ply] = r.move
					break
				}
			}
		}
	}
	s.store(b, depth, ply, best, alpha0, beta, bestMove)
	return best
}

// result is the outcome of a search from the root's side to move.
type result struct {
	pv    []trenches.Move
	value int // for the side to move
	depth int
}

// search runs iterative deepening from b, whose side to move has a legal
// move, up to cfg.maxDepth or until the budget is spent.
func (s *searcher) search(b *board) result {
	var res result
	for depth := 1; depth <= s.cfg.maxDepth; depth++ {
		s.rootOK = false
		v := s.negamax(b, depth, 0, -inf, inf)
		if s.aborted {
			if s.rootOK {
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
		// Stopped before the first move was valued: take the first legal
		// move so that there is an answer.
		moves := b.pos.AppendLegalMoves(nil)
		res.pv = moves[:1]
		res.value = s.static(b)
	}
	return res
}
