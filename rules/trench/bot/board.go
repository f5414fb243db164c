package bot

import (
	"github.com/trench-games/trench/rules/trench"
)

// The search's own board: a copy of a trench.Position in a form made for
// speed (copy-make, an incremental Zobrist hash, unit and star counts kept
// up to date). Its move generator follows the same walk as the rules'
// (spec "Movement", "Captures") and is checked against
// trench.Position.LegalMoves by the package's tests.

// Zones of a square relative to one side.
const (
	zoneOwn int8 = iota
	zoneTrench
	zoneEnemy
)

// ray holds the squares met walking from a square in one direction,
// nearest first.
type ray struct {
	n  int8
	sq [7]int8
}

var (
	zoneOf   [2][64]int8 // [side][square]
	toTrench [2][64]int8 // [side][square]: steps to the trench, 1 to 7 in the own territory, 0 on it, -1 to -7 beyond
	rays     [64][8]ray  // [from][direction]
	dirsOf   [2][6][]int8
)

// dirVec are the eight directions as (Δfile, Δrank) for Black.
var dirVec = [8][2]int{
	{+1, 0}, {-1, 0}, {0, +1}, {0, -1},
	{+1, +1}, {-1, -1},
	{+1, -1}, {-1, +1},
}

// Zobrist keys: fixed, derived from a constant (no global randomness).
var (
	zUnit  [16][64]uint64
	zSide  uint64
	zQuiet [trench.QuietLimit + 1]uint64 // zero below quietHashed
)

// quietHashed is the quiet count from which the quiet counter is part of
// the hash: below it the counter hardly changes a position's value.
const quietHashed = 30

func init() {
	for sq := 0; sq < 64; sq++ {
		s := trench.Square(sq)
		switch trench.Territory(s) {
		case trench.Black:
			zoneOf[0][sq], zoneOf[1][sq] = zoneOwn, zoneEnemy
		case trench.White:
			zoneOf[0][sq], zoneOf[1][sq] = zoneEnemy, zoneOwn
		default:
			zoneOf[0][sq], zoneOf[1][sq] = zoneTrench, zoneTrench
		}
		d := s.File() + s.Rank() // 0 at a1, 7 on the trench, 14 at h8
		toTrench[0][sq] = int8(7 - d)
		toTrench[1][sq] = int8(d - 7)
		for di, v := range dirVec {
			r := &rays[sq][di]
			f, k := s.File()+v[0], s.Rank()+v[1]
			for f >= 0 && f < 8 && k >= 0 && k < 8 {
				r.sq[r.n] = int8(k*8 + f)
				r.n++
				f, k = f+v[0], k+v[1]
			}
		}
	}
	index := func(v [2]int) int8 {
		for i, w := range dirVec {
			if w == v {
				return int8(i)
			}
		}
		panic("bad direction")
	}
	black := [6][][2]int{
		trench.Soldier:  {{1, 0}, {-1, 0}, {0, 1}, {0, -1}},
		trench.Sergeant: {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}},
		trench.Captain:  {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}},
		trench.Colonel:  {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}},
		trench.General:  {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}},
	}
	for k, vs := range black {
		for _, v := range vs {
			dirsOf[0][k] = append(dirsOf[0][k], index(v))
			dirsOf[1][k] = append(dirsOf[1][k], index([2]int{-v[0], -v[1]}))
		}
	}

	x := uint64(0x7472656e63683031)
	next := func() uint64 { // splitmix64
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for u := range zUnit {
		for sq := range zUnit[u] {
			zUnit[u][sq] = next()
		}
	}
	zSide = next()
	for q := quietHashed; q <= trench.QuietLimit; q++ {
		zQuiet[q] = next()
	}
}

// board is a position of TRENCH as the search sees it. Units are
// trench.Unit values: the kind (stars) in the low three bits, bit 3 set
// for White.
type board struct {
	sq     [64]trench.Unit
	side   int    // 0 Black, 1 White: the side to move
	quiet  int    // plies since the last capture
	stars  [2]int // stars captured by each side
	units  [2]int // units on the board per side
	onBrd  [2]int // stars on the board per side
	hash   uint64 // units and side to move
	gained int    // stars the move that led here captured (0 for a quiet move)
}

// move is a move of the side to move: the unit on from walks direction
// dir to to, removing ncap enemy units worth gain stars.
type move struct {
	from, to, dir, ncap, gain int8
}

// noMove is the zero move (from = to = a1), never a legal move.
var noMove move

func (m move) String() string {
	t := trench.MoveText{From: trench.Square(m.from), To: trench.Square(m.to), Capture: m.ncap > 0}
	return t.String()
}

func newBoard(p trench.Position) board {
	var b board
	for sq := trench.Square(0); sq < 64; sq++ {
		u, ok := p.At(sq)
		if !ok {
			continue
		}
		b.sq[sq] = u
		s := int(u.Side())
		b.units[s]++
		b.onBrd[s] += u.Stars()
		b.hash ^= zUnit[u][sq]
	}
	b.side = int(p.ToMove())
	if b.side == 1 {
		b.hash ^= zSide
	}
	b.quiet = p.Quiet()
	b.stars = [2]int{p.Stars(trench.Black), p.Stars(trench.White)}
	return b
}

// key is the transposition table's key of b: the hash, with the quiet
// counter once it nears the limit.
func (b *board) key() uint64 {
	if b.quiet >= quietHashed && b.quiet <= trench.QuietLimit {
		return b.hash ^ zQuiet[b.quiet]
	}
	return b.hash
}

// genFrom appends the moves of the unit on from (of the side to move) to
// out; with capturesOnly, only the moves that capture.
func (b *board) genFrom(from int8, out []move, capturesOnly bool) []move {
	u := b.sq[from]
	side := int(u >> 3)
	dist := int8(u & 7)
	start := zoneOf[side][from]
	zones := &zoneOf[side]
	for _, d := range dirsOf[side][u&7] {
		r := &rays[from][d]
		n := min(r.n, dist)
		var ncap, gain int8
	walk:
		for i := int8(0); i < n; i++ {
			s := r.sq[i]
			t := b.sq[s]
			if t == 0 {
				if !capturesOnly || ncap > 0 {
					out = append(out, move{from, s, d, ncap, gain})
				}
				continue
			}
			if (t^u)&8 == 0 {
				break // own unit
			}
			switch start {
			case zoneTrench:
				if zones[s] != zoneEnemy {
					break walk
				}
				ncap++
				gain += int8(t & 7)
				out = append(out, move{from, s, d, ncap, gain})
			case zoneOwn:
				if zones[s] != zoneTrench {
					out = append(out, move{from, s, d, 1, int8(t & 7)})
				}
				break walk
			default:
				out = append(out, move{from, s, d, 1, int8(t & 7)})
				break walk
			}
		}
	}
	return out
}

// gen appends the moves of the side to move to out.
func (b *board) gen(out []move, capturesOnly bool) []move {
	mine := trench.Unit(b.side) << 3
	for sq := int8(0); sq < 64; sq++ {
		if u := b.sq[sq]; u != 0 && u&8 == mine {
			out = b.genFrom(sq, out, capturesOnly)
		}
	}
	return out
}

// apply returns the board after m, a move generated on b.
func (b *board) apply(m move) board {
	n := *b
	u := n.sq[m.from]
	n.sq[m.from] = 0
	n.hash ^= zUnit[u][m.from] ^ zUnit[u][m.to] ^ zSide
	if m.ncap > 0 {
		r := &rays[m.from][m.dir]
		opp := n.side ^ 1
		for i := int8(0); ; i++ {
			s := r.sq[i]
			if t := n.sq[s]; t != 0 {
				n.sq[s] = 0
				n.hash ^= zUnit[t][s]
				n.units[opp]--
				n.onBrd[opp] -= int(t & 7)
			}
			if s == m.to {
				break
			}
		}
		n.stars[n.side] += int(m.gain)
		n.quiet = 0
	} else {
		n.quiet++
	}
	n.gained = int(m.gain)
	n.sq[m.to] = u
	n.side ^= 1
	return n
}

// legal reports whether m is a move of the side to move in b (for a move
// taken from the transposition table or the killers).
func (b *board) legal(m move) bool {
	u := b.sq[m.from]
	if u == 0 || int(u>>3) != b.side || m.from == m.to {
		return false
	}
	var buf [40]move
	for _, g := range b.genFrom(m.from, buf[:0], false) {
		if g == m {
			return true
		}
	}
	return false
}

// hasMove reports whether the side to move has a legal move.
func (b *board) hasMove() bool {
	var buf [40]move
	mine := trench.Unit(b.side) << 3
	for sq := int8(0); sq < 64; sq++ {
		if u := b.sq[sq]; u != 0 && u&8 == mine && len(b.genFrom(sq, buf[:0], false)) > 0 {
			return true
		}
	}
	return false
}
