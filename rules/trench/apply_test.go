package trench

import (
	"errors"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// TestApplyTable checks positions before → after a move, every field of
// the position text.
func TestApplyTable(t *testing.T) {
	cases := []struct {
		name, before, move, after string
	}{
		{"quiet black move from the start",
			StartFEN, "d4-d5",
			"4RACG/4SRAC/4SSRA/3sSSSR/rss5/arss4/cars4/gcar4 w 1 0 0"},
		{"quiet white reply",
			"4RACG/4SRAC/4SSRA/3sSSSR/rss5/arss4/cars4/gcar4 w 1 0 0", "e5-e4",
			"4RACG/4SRAC/4SSRA/3s1SSR/rss1S3/arss4/cars4/gcar4 b 2 0 0"},
		{"sergeant into the trench",
			StartFEN, "d1-f3",
			"4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss1r2/cars4/gca5 w 1 0 0"},
		{"quiet counter keeps counting, stars unchanged",
			"8/8/8/8/3s4/8/8/7S b 7 5 3", "d4-d3",
			"8/8/8/8/8/3s4/8/7S w 8 5 3"},
		{"black capture resets the counter and adds the captured stars",
			"8/8/8/8/3a4/3G4/8/8 b 12 2 3", "d4xd3",
			"8/8/8/8/8/3a4/8/8 w 0 7 3"},
		{"white capture adds to white's stars only",
			"8/8/5C2/8/5r2/8/8/8 w 30 4 6", "f6xf4",
			"8/8/8/8/5C2/8/8/8 b 0 4 8"},
		{"white attack from behind on a black trench unit",
			"8/8/8/8/4a3/3A4/8/8 w 9 0 0", "d3xe4",
			"8/8/8/8/4A3/8/8/8 b 0 0 3"},
		{"trench exit: two captures, spec example",
			"8/8/6S1/5S2/4r3/8/8/8 b 3 1 2", "e4xg6",
			"8/8/6r1/8/8/8/8/8 w 0 3 2"},
		{"trench exit: stop on an empty square after the capture",
			"6S1/8/4R3/3c4/8/8/8/8 b 0 0 0", "d5xf7",
			"6S1/5c2/8/8/8/8/8/8 w 0 2 0"},
		{"trench exit: five captures, 15 stars",
			"gSRACG2/8/8/8/8/8/8/8 b 44 0 0", "a8xf8",
			"5g2/8/8/8/8/8/8/8 w 0 15 0"},
		{"white trench exit towards a1",
			"8/8/8/8/4R3/3s4/2a5/8 w 5 0 0", "e4xc2",
			"8/8/8/8/8/8/2R5/8 b 0 0 4"},
		{"colonel along the trench",
			"8/8/8/3c4/8/8/8/8 b 0 0 0", "d5-h1",
			"8/8/8/8/8/8/8/7c w 1 0 0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, tc.before)
			m, err := p.ParseMove(tc.move)
			if err != nil {
				t.Fatalf("ParseMove(%q) in %s: %v", tc.move, tc.before, err)
			}
			q, err := p.Apply(m)
			if err != nil {
				t.Fatalf("Apply(%v): %v", m, err)
			}
			if q.String() != tc.after {
				t.Errorf("%s after %s:\n got %s\nwant %s", tc.before, tc.move, q, tc.after)
			}
			if p.String() != tc.before {
				t.Errorf("Apply changed the receiver to %s", p)
			}
			// The counters read back through the accessors too.
			want := mustParse(t, tc.after)
			if q != want || q.ToMove() != p.ToMove().Other() || q.Quiet() != want.Quiet() ||
				q.Stars(Black) != want.Stars(Black) || q.Stars(White) != want.Stars(White) {
				t.Errorf("fields differ: %+v vs %+v", q, want)
			}
		})
	}
}

func TestApplyRejects(t *testing.T) {
	p := setup(t, "b", "re4", "Sf5", "Sg6", "sa1", "Sh8")
	bad := []struct {
		name string
		m    Move
		frag string
	}{
		{"missing captures", Move{From: E4, To: G6}, "captures [f5 g6], not []"},
		{"wrong captures", Move{From: E4, To: G6, Captures: []Square{G6}}, "captures [f5 g6], not [g6]"},
		{"captures in the wrong order", Move{From: E4, To: G6, Captures: []Square{G6, F5}}, "not [g6 f5]"},
		{"captures on a quiet move", Move{From: E4, To: E6, Captures: []Square{E6}}, "captures [], not [e6]"},
		{"unreachable square", Move{From: E4, To: H7}, "cannot reach h7"},
		{"empty square", Move{From: D4, To: D5}, "no unit on d4"},
		{"opponent's unit", Move{From: H8, To: H7}, "h8 holds a White Soldier"},
		{"invalid squares", Move{From: NoSquare, To: D5}, "not a square"},
		{"off the board", Move{From: E4, To: 70}, "not a square"},
		{"zero move", Move{}, "cannot reach a1"},
	}
	for _, b := range bad {
		q, err := p.Apply(b.m)
		if err == nil || !errors.Is(err, rules.ErrIllegal) || !strings.Contains(err.Error(), b.frag) {
			t.Errorf("%s: Apply(%+v) error %v, want ErrIllegal with %q", b.name, b.m, err, b.frag)
		}
		if q != p {
			t.Errorf("%s: Apply returned %s with its error, want the receiver", b.name, q)
		}
	}
}

// TestApplyEveryMove checks each legal move of many positions field by
// field against the rules, independently of the naive generator.
func TestApplyEveryMove(t *testing.T) {
	p := Start()
	for ply := 0; ply < 400; ply++ {
		ms := p.LegalMoves()
		if len(ms) == 0 {
			break
		}
		for _, m := range ms {
			q, err := p.Apply(m)
			if err != nil {
				t.Fatalf("%s: Apply(%v): %v", p, m, err)
			}
			mover := p.ToMove()
			u, _ := p.At(m.From)
			if got, _ := q.At(m.To); got != u {
				t.Fatalf("%s %v: %s holds %q, want %q", p, m, m.To, got, u)
			}
			if _, ok := q.At(m.From); ok {
				t.Fatalf("%s %v: from-square not emptied", p, m)
			}
			stars := 0
			for _, c := range m.Captures {
				v, ok := p.At(c)
				if !ok || v.Side() != mover.Other() {
					t.Fatalf("%s %v: captured square %s holds %q", p, m, c, v)
				}
				stars += v.Stars()
				if c != m.To {
					if _, ok := q.At(c); ok {
						t.Fatalf("%s %v: captured %s still occupied", p, m, c)
					}
				}
			}
			if q.Stars(mover) != p.Stars(mover)+stars || q.Stars(mover.Other()) != p.Stars(mover.Other()) {
				t.Fatalf("%s %v: stars %d/%d", p, m, q.Stars(Black), q.Stars(White))
			}
			wantQuiet := p.Quiet() + 1
			if len(m.Captures) > 0 {
				wantQuiet = 0
			}
			if q.Quiet() != wantQuiet || q.ToMove() != mover.Other() {
				t.Fatalf("%s %v: quiet %d side %v", p, m, q.Quiet(), q.ToMove())
			}
			if q.Units(mover.Other()) != p.Units(mover.Other())-len(m.Captures) || q.Units(mover) != p.Units(mover) {
				t.Fatalf("%s %v: unit counts", p, m)
			}
			// Every other square is untouched.
			for s := Square(0); s < 64; s++ {
				if s == m.From || s == m.To {
					continue
				}
				a, _ := p.At(s)
				b, _ := q.At(s)
				captured := false
				for _, c := range m.Captures {
					captured = captured || c == s
				}
				if a != b && !captured {
					t.Fatalf("%s %v: %s changed", p, m, s)
				}
			}
		}
		p, _ = p.Apply(ms[(ply*7919)%len(ms)])
	}
}
