package trench

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Perft from the start, computed by the fast generator and checked against
// the naive one (depths 1–4) in TestPerftNaive.
var startPerft = []int64{1, 14, 192, 3894, 78372, 1840956, 42978674}

func TestPerftStart(t *testing.T) {
	max := 6
	if testing.Short() {
		max = 5
	}
	for d := 0; d <= max; d++ {
		if got := Perft(Start(), d); got != startPerft[d] {
			t.Errorf("Perft(start, %d) = %d, want %d", d, got, startPerft[d])
		}
	}
}

func TestPerftNaive(t *testing.T) {
	p := naiveParse(StartFEN)
	for d := 1; d <= 4; d++ {
		if got := naivePerft(p, d); got != startPerft[d] {
			t.Errorf("naivePerft(start, %d) = %d, want %d", d, got, startPerft[d])
		}
	}
}

func TestStartMoves(t *testing.T) {
	var got []string
	for _, m := range Start().LegalMoves() {
		got = append(got, m.String())
	}
	slices.Sort(got)
	want := []string{
		"a4-a5", "a4-a6", "a4-b5", "a4-c6", "b4-b5", "c4-c5", "d1-e1",
		"d1-e2", "d1-f1", "d1-f3", "d2-e2", "d3-e3", "d4-d5", "d4-e4",
	}
	if !slices.Equal(got, want) {
		t.Errorf("start moves:\n got %v\nwant %v", got, want)
	}
}

// randomFEN builds a random position text with the army limits respected,
// biased towards the trench and towards units deep in enemy territory so
// that every capture rule is exercised.
func randomFEN(rng *rand.Rand) string {
	var cell [64]byte
	free := func(sq int) bool { return cell[sq] == 0 }
	place := func(c byte) {
		for {
			var sq int
			switch rng.IntN(4) {
			case 0: // a trench square
				f := rng.IntN(8)
				sq = (7-f)*8 + f
			default:
				sq = rng.IntN(64)
			}
			if free(sq) {
				cell[sq] = c
				return
			}
		}
	}
	density := rng.IntN(17) // units per side, roughly
	lost := [2]int{}        // stars off the board per side
	for side := 0; side < 2; side++ {
		for _, k := range Kinds {
			n := 0
			for i := 0; i < k.Count(); i++ {
				if rng.IntN(16) < density {
					n++
				}
			}
			lost[side] += (k.Count() - n) * k.Stars()
			for i := 0; i < n; i++ {
				c := k.Letter() // uppercase = White
				if side == 0 {
					c |= 0x20
				}
				place(c)
			}
		}
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			c := cell[r*8+f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	side := " b "
	if rng.IntN(2) == 1 {
		side = " w "
	}
	b.WriteString(side)
	b.WriteString(itoa(rng.IntN(60)))
	b.WriteString(" " + itoa(rng.IntN(lost[1]+1)))
	b.WriteString(" " + itoa(rng.IntN(lost[0]+1)))
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

func compareWithNaive(t *testing.T, fen string) bool {
	t.Helper()
	p, err := ParsePosition(fen)
	if err != nil {
		t.Errorf("ParsePosition(%q): %v", fen, err)
		return false
	}
	if p.String() != fen {
		t.Errorf("round trip: %q → %q", fen, p.String())
		return false
	}
	fast, err := fastSummary(p)
	if err != nil {
		t.Errorf("%s: %v", fen, err)
		return false
	}
	naive := naiveSummary(fen)
	if !slices.Equal(fast, naive) {
		t.Errorf("position %s:\nfast  %d moves\nnaive %d moves", fen, len(fast), len(naive))
		for _, l := range fast {
			if !slices.Contains(naive, l) {
				t.Errorf("  only fast:  %s", l)
			}
		}
		for _, l := range naive {
			if !slices.Contains(fast, l) {
				t.Errorf("  only naive: %s", l)
			}
		}
		return false
	}
	if got := len(p.LegalMoves()) > 0; got != p.HasLegalMove() {
		t.Errorf("%s: HasLegalMove = %v, LegalMoves has %d", fen, p.HasLegalMove(), len(p.LegalMoves()))
	}
	return true
}

// TestRandomPositionsAgainstNaive compares both generators, move by move
// and position after each move, on random setups.
func TestRandomPositionsAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	captures, multi := 0, 0
	for i := 0; i < 4000; i++ {
		fen := randomFEN(rng)
		if !compareWithNaive(t, fen) {
			return
		}
		p, _ := ParsePosition(fen)
		for _, m := range p.LegalMoves() {
			if len(m.Captures) > 0 {
				captures++
			}
			if len(m.Captures) > 1 {
				multi++
			}
		}
	}
	// The random setups must actually reach the interesting rules.
	if captures < 10000 || multi < 300 {
		t.Errorf("weak coverage: %d capturing moves, %d multi-captures", captures, multi)
	}
	t.Logf("%d capturing moves, %d multi-captures", captures, multi)
}

// TestRandomPlayAgainstNaive compares both generators along random games
// from the start.
func TestRandomPlayAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	positions := 0
	for g := 0; g < 40; g++ {
		p := Start()
		for ply := 0; ply < 200; ply++ {
			positions++
			if !compareWithNaive(t, p.String()) {
				return
			}
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			p, _ = p.Apply(ms[rng.IntN(len(ms))])
		}
	}
	if positions < 4000 {
		t.Errorf("only %d positions", positions)
	}
}

// TestPerftRandomAgainstNaive compares perft of both generators from
// random positions (depth 2 for many, depth 3 for a few), which checks
// Apply along whole subtrees.
func TestPerftRandomAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 150; i++ {
		fen := randomFEN(rng)
		p, err := ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		depth := 2
		if i%50 == 0 {
			depth = 3
		}
		if got, want := Perft(p, depth), naivePerft(naiveParse(fen), depth); got != want {
			t.Errorf("Perft(%s, %d) = %d, naive %d", fen, depth, got, want)
		}
	}
}
