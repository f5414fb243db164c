package trenches

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// naive is a deliberately simple second implementation of the rules, used
// to check the bitboard move generator: a board of letters indexed by
// (file, rank), moves found by walking each line square by square, and a
// grenade square checked against its eight neighbours for a Tank.
type naive struct {
	b    [10][10]byte // [file][rank]: '.', 'x', 'T', 'S', 't', 's'
	dark bool         // Dark to move
}

var naiveDirs = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

func naiveName(f, r int) string { return string(rune('a'+f)) + strconv.Itoa(r+1) }

func onBoard(f, r int) bool { return f >= 0 && f < 10 && r >= 0 && r < 10 }

// naiveParse reads the position format without any validation beyond what
// it needs.
func naiveParse(fen string) naive {
	var n naive
	board, side, _ := strings.Cut(fen, " ")
	n.dark = side == "d"
	for i, row := range strings.Split(board, "/") {
		r, f := 9-i, 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '0' && c <= '9' {
				k := 1
				if c == '1' && j+1 < len(row) && row[j+1] == '0' {
					k, j = 10, j+1
				} else {
					k = int(c - '0')
				}
				for ; k > 0; k-- {
					n.b[f][r] = '.'
					f++
				}
				continue
			}
			n.b[f][r] = c
			f++
		}
	}
	return n
}

func (n naive) fen() string {
	var sb strings.Builder
	for r := 9; r >= 0; r-- {
		run := 0
		for f := range 10 {
			if n.b[f][r] == '.' {
				run++
				continue
			}
			if run > 0 {
				fmt.Fprint(&sb, run)
				run = 0
			}
			sb.WriteByte(n.b[f][r])
		}
		if run > 0 {
			fmt.Fprint(&sb, run)
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	if n.dark {
		sb.WriteString(" d")
	} else {
		sb.WriteString(" l")
	}
	return sb.String()
}

func (n naive) own(c byte) bool {
	if n.dark {
		return c == 't' || c == 's'
	}
	return c == 'T' || c == 'S'
}

// protected reports whether a Tank stands on one of the eight neighbours
// of (f, r).
func (n naive) protected(f, r int) bool {
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			if (df != 0 || dr != 0) && onBoard(f+df, r+dr) {
				if c := n.b[f+df][r+dr]; c == 'T' || c == 't' {
					return true
				}
			}
		}
	}
	return false
}

// reach lists the squares a Queen on (f, r) reaches over empty squares.
func (n naive) reach(f, r int) [][2]int {
	var out [][2]int
	for _, d := range naiveDirs {
		for k := 1; ; k++ {
			nf, nr := f+k*d[0], r+k*d[1]
			if !onBoard(nf, nr) || n.b[nf][nr] != '.' {
				break
			}
			out = append(out, [2]int{nf, nr})
		}
	}
	return out
}

// grenades lists the legal and the protected grenade squares of the piece
// on (f, r) after it lands on (tf, tr).
func (n naive) grenades(f, r, tf, tr int) (open, blocked []string) {
	after := n
	after.b[tf][tr] = after.b[f][r]
	after.b[f][r] = '.'
	for _, g := range after.reach(tf, tr) {
		if after.protected(g[0], g[1]) {
			blocked = append(blocked, naiveName(g[0], g[1]))
		} else {
			open = append(open, naiveName(g[0], g[1]))
		}
	}
	return open, blocked
}

// moves lists the legal moves of the side to move, sorted.
func (n naive) moves() []string {
	var out []string
	for f := range 10 {
		for r := range 10 {
			c := n.b[f][r]
			if !n.own(c) {
				continue
			}
			for _, to := range n.reach(f, r) {
				mv := naiveName(f, r) + "-" + naiveName(to[0], to[1])
				if c == 'T' || c == 't' {
					out = append(out, mv)
					continue
				}
				open, _ := n.grenades(f, r, to[0], to[1])
				for _, g := range open {
					out = append(out, mv+"/"+g)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// mobile counts the pieces of the given side that have a legal move as if
// it were that side's turn.
func (n naive) mobile(dark bool) []string {
	n.dark = dark
	seen := map[string]bool{}
	for _, mv := range n.moves() {
		seen[mv[:strings.IndexByte(mv, '-')]] = true
	}
	var out []string
	for sq := range seen {
		out = append(out, sq)
	}
	slices.Sort(out)
	return out
}

func naiveSquare(s string) (f, r int) {
	f = int(s[0] - 'a')
	r, _ = strconv.Atoi(s[1:])
	return f, r - 1
}

// apply plays a move given in notation (assumed legal).
func (n naive) apply(mv string) naive {
	from, rest, _ := strings.Cut(mv, "-")
	to, g, soldier := strings.Cut(rest, "/")
	ff, fr := naiveSquare(from)
	tf, tr := naiveSquare(to)
	n.b[tf][tr] = n.b[ff][fr]
	n.b[ff][fr] = 'x'
	if soldier {
		n.b[ff][fr] = '.'
		gf, gr := naiveSquare(g)
		n.b[gf][gr] = 'x'
	}
	n.dark = !n.dark
	return n
}

func (n naive) perft(depth int) int64 {
	if depth == 0 {
		return 1
	}
	var total int64
	for _, mv := range n.moves() {
		total += n.apply(mv).perft(depth - 1)
	}
	return total
}

// build returns the position with side to move ("l" or "d") and the given
// pieces, each written as a letter of the position format and a square,
// e.g. build("l", "Sa1", "Tb1", "xa3").
func build(side string, pieces ...string) Position {
	var n naive
	for f := range 10 {
		for r := range 10 {
			n.b[f][r] = '.'
		}
	}
	n.dark = side == "d"
	for _, pc := range pieces {
		f, r := naiveSquare(pc[1:])
		n.b[f][r] = pc[0]
	}
	p, err := ParsePosition(n.fen())
	if err != nil {
		panic(fmt.Sprintf("build %v: %v", pieces, err))
	}
	return p
}

// randomNaive returns a random legal-format position: up to four Tanks and
// four Soldiers per side and Debris on a random share of the rest.
func randomNaive(rng *rand.Rand) naive {
	var n naive
	for f := range 10 {
		for r := range 10 {
			n.b[f][r] = '.'
		}
	}
	n.dark = rng.IntN(2) == 1
	place := func(c byte) {
		for {
			f, r := rng.IntN(10), rng.IntN(10)
			if n.b[f][r] == '.' {
				n.b[f][r] = c
				return
			}
		}
	}
	for _, c := range []byte("TSts") {
		for range rng.IntN(MaxPerType + 1) {
			place(c)
		}
	}
	density := rng.Float64() * 0.8
	for f := range 10 {
		for r := range 10 {
			if n.b[f][r] == '.' && rng.Float64() < density {
				n.b[f][r] = 'x'
			}
		}
	}
	return n
}
