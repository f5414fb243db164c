package trenches

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// moveStrings returns the notation of moves, sorted.
func moveStrings(moves []Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	slices.Sort(out)
	return out
}

func squareStrings(s SquareSet) []string {
	var out []string
	for sq := range s.All() {
		out = append(out, sq.String())
	}
	slices.Sort(out)
	return out
}

// TestMoveRestrictions checks each rule of a turn (spec, "A turn") on a
// small position: the move is legal (err "") or rejected with ErrIllegal
// and a message containing err.
func TestMoveRestrictions(t *testing.T) {
	tests := []struct {
		name    string
		pos     Position
		move    string
		wantErr string
	}{
		// Light Soldier a1 with its own Tank on e5 (protecting d4–f6).
		{"grenade next to own Tank", build("l", "Sa1", "Te5"), "a1-a2/d5", "next to a Tank"},
		{"grenade next to own Tank, diagonal", build("l", "Sa1", "Te5"), "a1-a2/f5", "not reachable"},
		{"grenade diagonal of own Tank", build("l", "Sa1", "Te5"), "a1-b2/d4", "next to a Tank"},
		{"grenade two squares from own Tank", build("l", "Sa1", "Te5"), "a1-a2/c4", ""},
		{"grenade flies over protected squares", build("l", "Sa1", "Te5"), "a1-a2/g8", ""},
		{"grenade flies over protected squares to the edge", build("l", "Sa1", "Te5"), "a1-a2/i10", ""},
		// The same with a Dark Tank.
		{"grenade next to enemy Tank", build("l", "Sa1", "te5"), "a1-a2/d5", "next to a Tank"},
		{"grenade next to enemy Tank, same rank", build("l", "Sa1", "te5"), "a1-a5/d5", "next to a Tank"},
		{"grenade next to enemy Tank, past it", build("l", "Sa1", "te5"), "a1-a6/f6", "next to a Tank"},
		{"grenade flies over enemy protection", build("l", "Sa1", "te5"), "a1-a2/h9", ""},
		{"grenade cannot cross the Tank", build("l", "Sa1", "te5"), "a1-a5/h5", "not reachable"},
		{"grenade beside a Tank at the board edge", build("l", "Sa1", "tj5"), "a1-a4/i4", "next to a Tank"},
		{"grenade one square further", build("l", "Sa1", "tj5"), "a1-a3/i3", ""},
		{"Dark Soldier, Light Tank", build("d", "sa1", "Te5"), "a1-a2/d5", "next to a Tank"},
		{"Dark Soldier, Dark Tank", build("d", "sa1", "te5"), "a1-a2/c4", ""},
		// The vacated start square.
		{"grenade onto the vacated square", build("l", "Sa1"), "a1-a2/a1", ""},
		{"grenade over the vacated square", build("l", "Sa2"), "a2-a3/a1", ""},
		{"grenade onto vacated square next to a Tank", build("l", "Sa1", "Tb1"), "a1-a5/a1", "next to a Tank"},
		{"grenade onto the landing square", build("l", "Sa1"), "a1-a2/a2", "not reachable"},
		// Debris and pieces block moves and grenades.
		{"grenade onto Debris", build("l", "Sa1", "xa5"), "a1-a2/a5", "not reachable"},
		{"grenade over Debris", build("l", "Sa1", "xa5"), "a1-a2/a6", "not reachable"},
		{"grenade short of Debris", build("l", "Sa1", "xa5"), "a1-a2/a4", ""},
		{"grenade onto a piece", build("l", "Sa1", "sc2"), "a1-a2/c2", "not reachable"},
		{"grenade onto own piece", build("l", "Sa1", "Sc2"), "a1-a2/c2", "not reachable"},
		{"grenade over a piece", build("l", "Sa1", "sc2"), "a1-a2/d2", "not reachable"},
		{"Soldier move over Debris", build("l", "Sa1", "xa2"), "a1-a3/a4", "not reachable from a1"},
		{"Soldier move onto Debris", build("l", "Sa1", "xa2"), "a1-a2/b2", "not reachable from a1"},
		{"Soldier move over a piece", build("l", "Sa1", "Sb2"), "a1-c3/c4", "not reachable from a1"},
		{"Tank move over Debris", build("l", "Ta1", "xb1"), "a1-c1", "not reachable from a1"},
		{"Tank move over a piece", build("l", "Ta1", "tb2"), "a1-c3", "not reachable from a1"},
		{"Tank move onto a piece", build("l", "Ta1", "tb2"), "a1-b2", "not reachable from a1"},
		{"Tank move onto Debris", build("l", "Ta1", "xa2"), "a1-a2", "not reachable from a1"},
		{"Tank move next to a Tank", build("l", "Ta1", "tc3"), "a1-b2", ""},
		{"Soldier move next to a Tank", build("l", "Sa1", "tc3"), "a1-b2/b1", ""},
		{"Tank long move", build("l", "Ta1"), "a1-j10", ""},
		// Movement shape.
		{"not a Queen line", build("l", "Ta1"), "a1-b3", "not reachable"},
		{"not a Queen line, Soldier", build("l", "Sa1"), "a1-b3/b4", "not reachable"},
		{"grenade not on a line", build("l", "Sa1"), "a1-a2/b4", "not reachable"},
		{"move to the same square", build("l", "Ta1"), "a1-a1", "not reachable"},
		// Whose piece, and which notation it needs.
		{"empty start square", build("l", "Ta1"), "b1-b2", "Light has no piece on b1"},
		{"enemy piece", build("l", "Ta1", "tj10"), "j10-j9", "Light has no piece on j10"},
		{"enemy piece, Dark to move", build("d", "Ta1", "tj10"), "a1-a2", "Dark has no piece on a1"},
		{"Debris start square", build("l", "Ta1", "xe5"), "e5-e6", "no piece on e5"},
		{"Tank with a grenade", build("l", "Ta1"), "a1-a2/a5", "Tank, which throws no grenade"},
		{"Soldier without a grenade", build("l", "Sa1"), "a1-a2", "Soldier, which must throw a grenade"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.pos.ParseMove(tc.move)
			inList := slices.Contains(moveStrings(tc.pos.LegalMoves()), tc.move)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("ParseMove(%q) in %v: %v, want legal", tc.move, tc.pos, err)
				}
				if !inList {
					t.Errorf("%q not in LegalMoves of %v", tc.move, tc.pos)
				}
				if !tc.pos.IsLegal(m) || m.String() != tc.move {
					t.Errorf("IsLegal(%v) false or String %q", m, m.String())
				}
				return
			}
			if err == nil || !errors.Is(err, rules.ErrIllegal) || errors.Is(err, rules.ErrNotation) {
				t.Fatalf("ParseMove(%q) in %v: err %v, want ErrIllegal", tc.move, tc.pos, err)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseMove(%q): %q does not contain %q", tc.move, err, tc.wantErr)
			}
			if inList {
				t.Errorf("%q is in LegalMoves of %v", tc.move, tc.pos)
			}
			if pm, perr := ParseMove(tc.move); perr == nil && tc.pos.IsLegal(pm) {
				t.Errorf("IsLegal(%v) true", pm)
			}
		})
	}
}

// TestSoldierNeedsGrenade checks that a Soldier may not move to a square
// from which it has no legal grenade (spec, "A turn").
func TestSoldierNeedsGrenade(t *testing.T) {
	// From a2 every reachable square (a1, b2, c2) is next to the Tank on
	// b1 and the other lines are closed by Debris; b2 also reaches c3.
	p := build("l", "Sa1", "Tb1", "xa3", "xb3", "xd2")
	moves := moveStrings(p.LegalMoves())
	for _, mv := range moves {
		if strings.HasPrefix(mv, "a1-a2/") {
			t.Errorf("LegalMoves has %s", mv)
		}
	}
	wantFrom := []string{"b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "j10"}
	if got := squareStrings(p.MovesFrom(A1)); !slices.Equal(got, sortedCopy(wantFrom)) {
		t.Errorf("MovesFrom(a1) = %v, want %v", got, wantFrom)
	}
	open, blocked := p.GrenadeTargets(A1, A2)
	if !open.IsEmpty() || blocked != SquareSetOf(A1, B2, C2) {
		t.Errorf("GrenadeTargets(a1, a2) = %v, %v; want {}, {a1 b2 c2}", open, blocked)
	}
	if _, err := p.ParseMove("a1-a2/c2"); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("a1-a2/c2: %v", err)
	}
	if !p.Mobile(rules.Side0).Has(A1) {
		t.Errorf("Soldier a1 is not mobile")
	}

	// Closed in completely: the Soldier has no move at all; the Tank does.
	p = build("l", "Sa1", "Tb1", "xa3", "xb3", "xc3", "xc2", "xc1")
	if got := p.MovesFrom(A1); !got.IsEmpty() {
		t.Errorf("MovesFrom(a1) = %v, want none", got)
	}
	for _, m := range p.LegalMoves() {
		if m.Type != Tank {
			t.Errorf("LegalMoves has %v", m)
		}
	}
	if got := squareStrings(p.Mobile(rules.Side0)); !slices.Equal(got, []string{"b1"}) {
		t.Errorf("Mobile = %v, want [b1]", got)
	}
	// Without the Tank the Soldier is stuck as well: Light has lost.
	p = build("l", "Sa1", "tb1", "xa3", "xb3", "xc3", "xc2", "xc1")
	if p.HasLegalMove() || len(p.LegalMoves()) != 0 {
		t.Errorf("%v: Light can move: %v", p, p.LegalMoves())
	}
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestApply pins the position after a move.
func TestApply(t *testing.T) {
	tests := []struct {
		before, move, after string
	}{
		{StartFEN, "a4-a6", "3t2t3/3s2s3/10/ts6st/T9/10/xS6ST/10/3S2S3/3T2T3 d"},
		{StartFEN, "b4-b6/d8", "3t2t3/3s2s3/3x6/ts6st/1S8/10/T7ST/10/3S2S3/3T2T3 d"},
		{StartFEN, "g1-e3", "3t2t3/3s2s3/10/ts6st/10/10/TS6ST/4T5/3S2S3/3T2x3 d"},
		{StartFEN, "d2-h6/h3", "3t2t3/3s2s3/10/ts6st/7S2/10/TS6ST/7x2/6S3/3T2T3 d"},
		{"3t2t3/3s2s3/10/ts6st/T9/10/xS6ST/10/3S2S3/3T2T3 d", "d10-e10", "3xt1t3/3s2s3/10/ts6st/T9/10/xS6ST/10/3S2S3/3T2T3 l"},
		{"3t2t3/3s2s3/10/ts6st/T9/10/xS6ST/10/3S2S3/3T2T3 d", "b7-b6/c7", "3t2t3/3s2s3/10/t1x5st/Ts8/10/xS6ST/10/3S2S3/3T2T3 l"},
		// Grenade onto the vacated square.
		{"10/10/10/10/4S5/10/10/10/10/10 l", "e6-f7/e6", "10/10/10/5S4/4x5/10/10/10/10/10 d"},
		// A Tank hemmed in by Debris steps to its last free square.
		{"10/10/10/10/10/10/10/xx8/Tx8/1x8 l", "a2-a1", "10/10/10/10/10/10/10/xx8/xx8/Tx8 d"},
	}
	for _, tc := range tests {
		p, err := ParsePosition(tc.before)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(tc.move)
		if err != nil {
			t.Fatalf("%s in %s: %v", tc.move, tc.before, err)
		}
		got := p.Apply(m)
		if got.String() != tc.after {
			t.Errorf("%s after %s:\n got %s\nwant %s", tc.before, tc.move, got, tc.after)
		}
		if got.Debris().Len() != p.Debris().Len()+1 {
			t.Errorf("%s: Debris %d → %d", tc.move, p.Debris().Len(), got.Debris().Len())
		}
		if p.String() != tc.before {
			t.Errorf("Apply changed its receiver: %s", p)
		}
		if n := naiveParse(tc.before).apply(tc.move).fen(); n != tc.after {
			t.Errorf("naive %s after %s = %s", tc.before, tc.move, n)
		}
	}
}

// TestTankLeavesDebris checks every Tank move of the start: Debris on the
// start square, nothing else changes but the Tank.
func TestTankLeavesDebris(t *testing.T) {
	p := Start()
	tanks := 0
	for _, m := range p.LegalMoves() {
		q := p.Apply(m)
		switch m.Type {
		case Tank:
			tanks++
			if q.At(m.From) != Debris || q.At(m.To) != LightTank || m.Grenade != NoSquare {
				t.Errorf("%v: from %v to %v", m, q.At(m.From), q.At(m.To))
			}
		case Soldier:
			if q.At(m.From) == Debris && m.Grenade != m.From {
				t.Errorf("%v left Debris on its start square", m)
			}
			if q.At(m.Grenade) != Debris || q.At(m.To) != LightSoldier {
				t.Errorf("%v: grenade %v to %v", m, q.At(m.Grenade), q.At(m.To))
			}
		}
		if q.Turn() != rules.Side1 {
			t.Errorf("%v: Dark is not to move", m)
		}
		if q.Debris().Len() != 1 {
			t.Errorf("%v: %d Debris", m, q.Debris().Len())
		}
	}
	// Each Tank has 12 moves: a4 to a1–a3, a5, a6, b3, c2, b5–f9.
	if tanks != 48 {
		t.Errorf("%d Tank moves from the start, want 48", tanks)
	}
}

// TestProtected pins the protected squares of the start.
func TestProtected(t *testing.T) {
	got := squareStrings(Start().Protected())
	want := sortedCopy(strings.Fields(`
		a3 b3 b4 a5 b5 c1 e1 c2 d2 e2 f1 h1 f2 g2 h2 i3 j3 i4 i5 j5
		a6 b6 b7 a8 b8 c10 e10 c9 d9 e9 f10 h10 f9 g9 h9 i6 j6 i7 i8 j8`))
	if !slices.Equal(got, want) {
		t.Errorf("Protected = %v\nwant %v", got, want)
	}
	if p := build("l", "Ta1"); p.Protected() != SquareSetOf(A2, B1, B2) {
		t.Errorf("Protected of a1 Tank = %v", p.Protected())
	}
	if p := build("l", "Sa1", "se5"); !p.Protected().IsEmpty() {
		t.Errorf("Soldiers protect %v", p.Protected())
	}
}

// TestGrenadeTargets checks the open and blocked grenade squares used by
// the board display.
func TestGrenadeTargets(t *testing.T) {
	p := build("l", "Sa1", "te5", "xa6")
	open, blocked := p.GrenadeTargets(A1, A2)
	wantBlocked := []string{"d5", "e6"}
	if got := squareStrings(blocked); !slices.Equal(got, wantBlocked) {
		t.Errorf("blocked = %v, want %v", got, wantBlocked)
	}
	wantOpen := sortedCopy(strings.Fields("a1 a3 a4 a5 b2 c2 d2 e2 f2 g2 h2 i2 j2 b3 c4 f7 g8 h9 i10 b1"))
	if got := squareStrings(open); !slices.Equal(got, wantOpen) {
		t.Errorf("open = %v, want %v", got, wantOpen)
	}
	// Not a Soldier of the side to move, or not a landing square.
	for _, c := range [][2]Square{{E5, E6}, {A1, B3}, {A1, A7}, {B2, B3}} {
		if o, b := p.GrenadeTargets(c[0], c[1]); !o.IsEmpty() || !b.IsEmpty() {
			t.Errorf("GrenadeTargets(%v, %v) = %v, %v", c[0], c[1], o, b)
		}
	}
	if got := p.MovesFrom(E5); !got.IsEmpty() {
		t.Errorf("MovesFrom(e5) for Dark while Light moves = %v", got)
	}
}

// TestPerftStart pins the perft numbers of the start position and checks
// depths 1 and 2 against the naive generator.
func TestPerftStart(t *testing.T) {
	want := []int64{1, 1184, 1242444, 1222062220}
	for depth, n := range want {
		if depth == 3 && testing.Short() {
			continue
		}
		if got := Perft(Start(), depth); got != n {
			t.Errorf("Perft(start, %d) = %d, want %d", depth, got, n)
		}
	}
	n := naiveParse(StartFEN)
	for depth := range 3 {
		if got := n.perft(depth); got != want[depth] {
			t.Errorf("naive perft(start, %d) = %d, want %d", depth, got, want[depth])
		}
	}
}

// TestPerftAgainstNaive compares perft to depth 2 with the naive generator
// in positions from random play.
func TestPerftAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 12 {
		p := Start()
		for range rng.IntN(40) {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			p = p.Apply(moves[rng.IntN(len(moves))])
		}
		n := naiveParse(p.String())
		for depth := 1; depth <= 2; depth++ {
			if got, want := Perft(p, depth), n.perft(depth); got != want {
				t.Errorf("game %d: Perft(%v, %d) = %d, naive %d", i, p, depth, got, want)
			}
		}
	}
}

// comparePosition checks everything the move generator derives from p
// against the naive implementation.
func comparePosition(t *testing.T, p Position) {
	t.Helper()
	fen := p.String()
	n := naiveParse(fen)
	if n.fen() != fen {
		t.Fatalf("naive round trip %s → %s", fen, n.fen())
	}
	for sq := range Square(NumSquares) {
		if got, want := p.At(sq).String()[0], n.b[sq.File()][sq.Rank()]; got != want {
			t.Fatalf("%s: At(%v) = %c, naive %c", fen, sq, got, want)
		}
	}
	moves := p.LegalMoves()
	got, want := moveStrings(moves), n.moves()
	if !slices.Equal(got, want) {
		t.Fatalf("%s: LegalMoves\n got %v\nwant %v", fen, got, want)
	}
	if c := p.CountLegalMoves(); c != len(want) {
		t.Fatalf("%s: CountLegalMoves = %d, want %d", fen, c, len(want))
	}
	if p.HasLegalMove() != (len(want) > 0) {
		t.Fatalf("%s: HasLegalMove = %v with %d moves", fen, p.HasLegalMove(), len(want))
	}
	for _, side := range []rules.Side{rules.Side0, rules.Side1} {
		if g, w := squareStrings(p.Mobile(side)), n.mobile(side == rules.Side1); !slices.Equal(g, w) {
			t.Fatalf("%s: Mobile(%v) = %v, want %v", fen, side, g, w)
		}
	}
	var prot []string
	for f := range 10 {
		for r := range 10 {
			if n.protected(f, r) {
				prot = append(prot, naiveName(f, r))
			}
		}
	}
	slices.Sort(prot)
	if g := squareStrings(p.Protected()); !slices.Equal(g, prot) {
		t.Fatalf("%s: Protected = %v, want %v", fen, g, prot)
	}
	// Landing squares and grenade displays of every own piece.
	for sq := range Square(NumSquares) {
		var lands []string
		for _, mv := range want {
			if from, rest, _ := strings.Cut(mv, "-"); from == sq.String() {
				to, _, _ := strings.Cut(rest, "/")
				if !slices.Contains(lands, to) {
					lands = append(lands, to)
				}
			}
		}
		slices.Sort(lands)
		if g := squareStrings(p.MovesFrom(sq)); !slices.Equal(g, lands) {
			t.Fatalf("%s: MovesFrom(%v) = %v, want %v", fen, sq, g, lands)
		}
		if p.At(sq).Type() != Soldier || p.At(sq).Side() != p.Turn() {
			continue
		}
		f, r := sq.File(), sq.Rank()
		for _, to := range n.reach(f, r) {
			wo, wb := n.grenades(f, r, to[0], to[1])
			o, b := p.GrenadeTargets(sq, NewSquare(to[0], to[1]))
			if !slices.Equal(squareStrings(o), sortedCopy(wo)) || !slices.Equal(squareStrings(b), sortedCopy(wb)) {
				t.Fatalf("%s: GrenadeTargets(%v, %s) = %v %v, want %v %v", fen, sq, naiveName(to[0], to[1]), o, b, wo, wb)
			}
		}
	}
	// Apply, for a sample of the moves.
	step := 1 + len(moves)/40
	for i := 0; i < len(moves); i += step {
		m := moves[i]
		if g, w := p.Apply(m).String(), n.apply(m.String()).fen(); g != w {
			t.Fatalf("%s: Apply(%v) = %s, want %s", fen, m, g, w)
		}
	}
}

// TestRandomPositionsAgainstNaive compares the generators on thousands of
// random boards and on the positions of random games.
func TestRandomPositionsAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		p, err := ParsePosition(randomNaive(rng).fen())
		if err != nil {
			t.Fatal(err)
		}
		comparePosition(t, p)
		// Random move texts: legal exactly when the naive list has them.
		legal := naiveParse(p.String()).moves()
		for range 20 {
			mv := randomMoveText(rng, p)
			_, err := p.ParseMove(mv)
			if in := slices.Contains(legal, mv); in != (err == nil) {
				t.Fatalf("%v: ParseMove(%q) = %v, naive legal %v", p, mv, err, in)
			}
			if err != nil && !errors.Is(err, rules.ErrIllegal) {
				t.Fatalf("%v: ParseMove(%q) = %v, want ErrIllegal", p, mv, err)
			}
		}
	}
	for range 60 {
		p := Start()
		for {
			comparePosition(t, p)
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			p = p.Apply(moves[rng.IntN(len(moves))])
		}
	}
}

// randomMoveText returns a well-formed move, often starting on one of the
// side to move's pieces.
func randomMoveText(rng *rand.Rand, p Position) string {
	sq := func() Square { return Square(rng.IntN(NumSquares)) }
	from := sq()
	if own := p.Mobile(p.Turn()).Squares(); len(own) > 0 && rng.IntN(4) > 0 {
		from = own[rng.IntN(len(own))]
	}
	to := sq()
	if lands := p.MovesFrom(from).Squares(); len(lands) > 0 && rng.IntN(3) > 0 {
		to = lands[rng.IntN(len(lands))]
	}
	m := Move{From: from, To: to, Grenade: NoSquare, Type: Tank}
	if (p.At(from).Type() == Soldier) != (rng.IntN(10) == 0) {
		m.Type, m.Grenade = Soldier, sq()
	}
	return m.String()
}

// TestMoveLists checks properties of the move lists of the start.
func TestMoveLists(t *testing.T) {
	p := Start()
	moves := p.LegalMoves()
	seen := map[Move]bool{}
	for _, m := range moves {
		if seen[m] {
			t.Errorf("duplicate %v", m)
		}
		seen[m] = true
		if !p.IsLegal(m) {
			t.Errorf("IsLegal(%v) false", m)
		}
		q, err := p.ParseMove(m.String())
		if err != nil || q != m {
			t.Errorf("ParseMove(%v) = %v, %v", m, q, err)
		}
	}
	buf := make([]Move, 0, 2000)
	if got := p.AppendLegalMoves(buf); !slices.Equal(got, moves) {
		t.Errorf("AppendLegalMoves differs from LegalMoves")
	}
	if a := testing.AllocsPerRun(20, func() { buf = p.AppendLegalMoves(buf[:0]) }); a != 0 {
		t.Errorf("AppendLegalMoves allocates %v times", a)
	}
}
