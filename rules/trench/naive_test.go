package trench

// A second move generator, written straight from the wording of the
// specification and sharing no code or tables with the package: it reads
// and writes the position text itself, keeps the board as a grid of
// letters indexed by 1-based file and rank, and walks every line square by
// square. The tests compare it with the fast generator on perft and on
// thousands of positions.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

type naivePos struct {
	cell          [9][9]byte // [file 1..8][rank 1..8]; 0 empty, else the notation letter
	blackToMove   bool
	quiet, bs, ws int
}

func naiveParse(fen string) naivePos {
	var p naivePos
	f := strings.Fields(fen)
	if len(f) != 5 {
		panic("naiveParse: " + fen)
	}
	for i, row := range strings.Split(f[0], "/") {
		rank := 8 - i
		file := 1
		for _, c := range row {
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			p.cell[file][rank] = byte(c)
			file++
		}
	}
	p.blackToMove = f[1] == "b"
	p.quiet, _ = strconv.Atoi(f[2])
	p.bs, _ = strconv.Atoi(f[3])
	p.ws, _ = strconv.Atoi(f[4])
	return p
}

func (p naivePos) fen() string {
	var rows []string
	for rank := 8; rank >= 1; rank-- {
		row := ""
		empty := 0
		for file := 1; file <= 8; file++ {
			c := p.cell[file][rank]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				row += strconv.Itoa(empty)
				empty = 0
			}
			row += string(c)
		}
		if empty > 0 {
			row += strconv.Itoa(empty)
		}
		rows = append(rows, row)
	}
	side := "w"
	if p.blackToMove {
		side = "b"
	}
	return fmt.Sprintf("%s %s %d %d %d", strings.Join(rows, "/"), side, p.quiet, p.bs, p.ws)
}

func naiveIsBlack(c byte) bool { return c >= 'a' && c <= 'z' }

func naiveStars(c byte) int {
	return map[byte]int{'s': 1, 'r': 2, 'a': 3, 'c': 4, 'g': 5}[c|0x20]
}

// The movement table of the specification, for Black.
var naiveVectors = map[byte][][2]int{
	's': {{1, 0}, {-1, 0}, {0, 1}, {0, -1}},
	'r': {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}},
	'a': {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}},
	'c': {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}},
	'g': {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}},
}

// naiveWhere says where (file, rank) lies for a unit of the given colour:
// "trench", "own" or "enemy".
func naiveWhere(file, rank int, black bool) string {
	switch {
	case file+rank == 9:
		return "trench"
	case file+rank < 9 && black, file+rank > 9 && !black:
		return "own"
	}
	return "enemy"
}

func naiveName(file, rank int) string {
	return string([]byte{byte('a' + file - 1), byte('0' + rank)})
}

type naiveMove struct {
	text     string
	captures string // captured squares in line order, joined by ","
	after    string // position text after the move
}

func naiveMoves(p naivePos) []naiveMove {
	var out []naiveMove
	for file := 1; file <= 8; file++ {
		for rank := 1; rank <= 8; rank++ {
			c := p.cell[file][rank]
			if c == 0 || naiveIsBlack(c) != p.blackToMove {
				continue
			}
			black := naiveIsBlack(c)
			start := naiveWhere(file, rank, black)
			dist := naiveStars(c)
			for _, v := range naiveVectors[c|0x20] {
				dx, dy := v[0], v[1]
				if !black {
					dx, dy = -dx, -dy
				}
				var captured [][2]int
				for step := 1; step <= dist; step++ {
					f, r := file+step*dx, rank+step*dy
					if f < 1 || f > 8 || r < 1 || r > 8 {
						break
					}
					t := p.cell[f][r]
					stop := false
					switch {
					case t == 0:
						// may end here; keep walking
					case naiveIsBlack(t) == black:
						stop = true // own unit blocks
					default:
						there := naiveWhere(f, r, black)
						switch start {
						case "trench":
							if there == "trench" || there == "own" {
								stop = true
							} else {
								captured = append(captured, [2]int{f, r})
							}
						case "own":
							if there == "trench" {
								stop = true
							} else {
								captured = append(captured, [2]int{f, r})
							}
						case "enemy":
							captured = append(captured, [2]int{f, r})
						}
					}
					if stop {
						break
					}
					out = append(out, naiveMake(p, file, rank, f, r, captured))
					if t != 0 && start != "trench" {
						break // a capture ends the line unless leaving the trench
					}
				}
			}
		}
	}
	return out
}

func naiveMake(p naivePos, file, rank, f, r int, captured [][2]int) naiveMove {
	q := p
	sep := "-"
	stars := 0
	var names []string
	for _, c := range captured {
		stars += naiveStars(q.cell[c[0]][c[1]])
		q.cell[c[0]][c[1]] = 0
		names = append(names, naiveName(c[0], c[1]))
	}
	if len(captured) > 0 {
		sep = "x"
		q.quiet = 0
		if p.blackToMove {
			q.bs += stars
		} else {
			q.ws += stars
		}
	} else {
		q.quiet++
	}
	q.cell[f][r] = q.cell[file][rank]
	q.cell[file][rank] = 0
	q.blackToMove = !p.blackToMove
	return naiveMove{
		text:     naiveName(file, rank) + sep + naiveName(f, r),
		captures: strings.Join(names, ","),
		after:    q.fen(),
	}
}

func naivePerft(p naivePos, depth int) int64 {
	if depth == 0 {
		return 1
	}
	var n int64
	for _, m := range naiveMoves(p) {
		if depth == 1 {
			n++
			continue
		}
		n += naivePerft(naiveParse(m.after), depth-1)
	}
	return n
}

// naiveSummary lists the moves of fen as sorted lines "move captures after".
func naiveSummary(fen string) []string {
	var out []string
	for _, m := range naiveMoves(naiveParse(fen)) {
		out = append(out, m.text+" ["+m.captures+"] "+m.after)
	}
	sort.Strings(out)
	return out
}

// fastSummary lists the moves of p as the fast generator sees them, in the
// same format as naiveSummary.
func fastSummary(p Position) ([]string, error) {
	var out []string
	for _, m := range p.LegalMoves() {
		q, err := p.Apply(m)
		if err != nil {
			return nil, fmt.Errorf("Apply(%v): %w", m, err)
		}
		var names []string
		for _, c := range m.Captures {
			names = append(names, c.String())
		}
		out = append(out, m.String()+" ["+strings.Join(names, ",")+"] "+q.String())
	}
	sort.Strings(out)
	return out, nil
}
