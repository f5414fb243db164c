package trench

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// Every legal move of one unit, with the squares it captures. Anything not
// listed is illegal, so each case checks legal and illegal moves at once.
var movesFromTests = []struct {
	name  string
	side  string
	units []string
	from  string
	want  string // space-separated move labels, any order
}{
	// --- Movement: directions and distances per unit, Black and White ---
	{"black soldier: one square orthogonally", "b", []string{"sd3"}, "d3",
		"d3-c3 d3-d2 d3-d4 d3-e3"},
	{"black soldier in the a1 corner", "b", []string{"sa1"}, "a1",
		"a1-a2 a1-b1"},
	{"white soldier: one square orthogonally", "w", []string{"Se6"}, "e6",
		"e6-d6 e6-e5 e6-e7 e6-f6"},
	{"black sergeant: orthogonals 1-2 and forward (+1,+1)", "b", []string{"rc3"}, "c3",
		"c3-d3 c3-e3 c3-b3 c3-a3 c3-c4 c3-c5 c3-c2 c3-c1 c3-d4 c3-e5"},
	{"white sergeant: orthogonals 1-2 and forward (-1,-1)", "w", []string{"Rf6"}, "f6",
		"f6-g6 f6-h6 f6-e6 f6-d6 f6-f7 f6-f8 f6-f5 f6-f4 f6-e5 f6-d4"},
	{"black captain: orthogonals and both verticals 1-3", "b", []string{"ac3"}, "c3",
		"c3-d3 c3-e3 c3-f3 c3-b3 c3-a3 c3-c4 c3-c5 c3-c6 c3-c2 c3-c1 c3-d4 c3-e5 c3-f6 c3-b2 c3-a1"},
	{"white captain: orthogonals and both verticals 1-3", "w", []string{"Af6"}, "f6",
		"f6-g6 f6-h6 f6-e6 f6-d6 f6-c6 f6-f7 f6-f8 f6-f5 f6-f4 f6-f3 f6-e5 f6-d4 f6-c3 f6-g7 f6-h8"},
	{"black colonel: orthogonals, forward, horizontals 1-4", "b", []string{"cc2"}, "c2",
		"c2-d2 c2-e2 c2-f2 c2-g2 c2-b2 c2-a2 c2-c3 c2-c4 c2-c5 c2-c6 c2-c1 c2-d3 c2-e4 c2-f5 c2-g6 c2-d1 c2-b3 c2-a4"},
	{"white colonel: orthogonals, forward (-1,-1), horizontals 1-4", "w", []string{"Cf7"}, "f7",
		"f7-g7 f7-h7 f7-e7 f7-d7 f7-c7 f7-b7 f7-f8 f7-f6 f7-f5 f7-f4 f7-f3 f7-e6 f7-d5 f7-c4 f7-b3 f7-g6 f7-h5 f7-e8"},
	{"black colonel in the corner: at most 4 squares", "b", []string{"ca1"}, "a1",
		"a1-b1 a1-c1 a1-d1 a1-e1 a1-a2 a1-a3 a1-a4 a1-a5 a1-b2 a1-c3 a1-d4 a1-e5"},
	{"general: all eight directions", "b", []string{"gd4"}, "d4",
		"d4-e4 d4-f4 d4-g4 d4-h4 d4-c4 d4-b4 d4-a4 d4-d5 d4-d6 d4-d7 d4-d8 d4-d3 d4-d2 d4-d1 " +
			"d4-e5 d4-f6 d4-g7 d4-h8 d4-c3 d4-b2 d4-a1 d4-e3 d4-f2 d4-g1 d4-c5 d4-b6 d4-a7"},
	{"general in the corner: at most 5 squares", "b", []string{"ga1"}, "a1",
		"a1-b1 a1-c1 a1-d1 a1-e1 a1-f1 a1-a2 a1-a3 a1-a4 a1-a5 a1-a6 a1-b2 a1-c3 a1-d4 a1-e5 a1-f6"},
	{"white general in the h8 corner: at most 5 squares", "w", []string{"Gh8"}, "h8",
		"h8-g8 h8-f8 h8-e8 h8-d8 h8-c8 h8-h7 h8-h6 h8-h5 h8-h4 h8-h3 h8-g7 h8-f6 h8-e5 h8-d4 h8-c3"},

	// --- Blocking and no jumping ---
	{"own unit blocks the line and its square", "b", []string{"rc3", "sc4"}, "c3",
		"c3-d3 c3-e3 c3-b3 c3-a3 c3-c2 c3-c1 c3-d4 c3-e5"},
	{"own unit two squares away: stop before it", "b", []string{"ac3", "sc5", "sd3", "sb3", "sc2", "sd4", "sb2"}, "c3",
		"c3-c4"},
	{"enemy unit: captured, no jumping over it", "b", []string{"ac3", "Sc4", "sd3", "sb3", "sc2", "sd4", "sb2"}, "c3",
		"c3xc4(c4)"},
	{"white unit blocked by own units", "w", []string{"Ah8", "Sg8", "Sh7", "Sg7"}, "h8", ""},

	// --- The trench ---
	{"colonel moves along the trench", "b", []string{"cd5"}, "d5",
		"d5-e5 d5-f5 d5-g5 d5-h5 d5-c5 d5-b5 d5-a5 d5-d6 d5-d7 d5-d8 d5-d4 d5-d3 d5-d2 d5-d1 " +
			"d5-e6 d5-f7 d5-g8 d5-e4 d5-f3 d5-g2 d5-h1 d5-c6 d5-b7 d5-a8"},
	{"general moves along the trench", "b", []string{"gd5"}, "d5",
		"d5-e5 d5-f5 d5-g5 d5-h5 d5-c5 d5-b5 d5-a5 d5-d6 d5-d7 d5-d8 d5-d4 d5-d3 d5-d2 d5-d1 " +
			"d5-e6 d5-f7 d5-g8 d5-c4 d5-b3 d5-a2 d5-e4 d5-f3 d5-g2 d5-h1 d5-c6 d5-b7 d5-a8"},
	{"white colonel moves along the trench", "w", []string{"Ce4"}, "e4",
		"e4-f4 e4-g4 e4-h4 e4-d4 e4-c4 e4-b4 e4-a4 e4-e5 e4-e6 e4-e7 e4-e8 e4-e3 e4-e2 e4-e1 " +
			"e4-d3 e4-c2 e4-b1 e4-d5 e4-c6 e4-b7 e4-a8 e4-f3 e4-g2 e4-h1"},
	{"captain cannot move along the trench", "b", []string{"ad5"}, "d5",
		"d5-e5 d5-f5 d5-g5 d5-c5 d5-b5 d5-a5 d5-d6 d5-d7 d5-d8 d5-d4 d5-d3 d5-d2 d5-e6 d5-f7 d5-g8 d5-c4 d5-b3 d5-a2"},
	{"sergeant in the trench", "b", []string{"rd5"}, "d5",
		"d5-e5 d5-f5 d5-c5 d5-b5 d5-d6 d5-d7 d5-d4 d5-d3 d5-e6 d5-f7"},
	{"soldier in the trench", "b", []string{"sd5"}, "d5",
		"d5-e5 d5-c5 d5-d6 d5-d4"},
	{"a line passes through an empty trench square", "b", []string{"ac4"}, "c4",
		"c4-d4 c4-e4 c4-f4 c4-b4 c4-a4 c4-c5 c4-c6 c4-c7 c4-c3 c4-c2 c4-c1 c4-d5 c4-e6 c4-f7 c4-b3 c4-a2"},
	{"own unit in the trench blocks the line", "b", []string{"ac4", "sc6"}, "c4",
		"c4-d4 c4-e4 c4-f4 c4-b4 c4-a4 c4-c5 c4-c3 c4-c2 c4-c1 c4-d5 c4-e6 c4-f7 c4-b3 c4-a2"},
	{"white line through an empty trench square into black territory", "w", []string{"Ae6"}, "e6",
		"e6-f6 e6-g6 e6-h6 e6-d6 e6-c6 e6-b6 e6-e7 e6-e8 e6-e5 e6-e4 e6-e3 e6-d5 e6-c4 e6-b3 e6-f7 e6-g8"},

	// --- Captures from the mover's own territory ---
	{"own territory: a trench unit cannot be attacked from the front", "b", []string{"ac4", "Sc6", "Se4"}, "c4",
		"c4-d4 c4-b4 c4-a4 c4-c5 c4-c3 c4-c2 c4-c1 c4-d5 c4-e6 c4-f7 c4-b3 c4-a2"},
	{"own territory: capture in own territory ends the line", "b", []string{"ac3", "Sc5"}, "c3",
		"c3-d3 c3-e3 c3-f3 c3-b3 c3-a3 c3-c4 c3xc5(c5) c3-c2 c3-c1 c3-d4 c3-e5 c3-f6 c3-b2 c3-a1"},
	{"own territory: capture beyond an empty trench square ends the line", "b", []string{"cc2", "Sf5"}, "c2",
		"c2-d2 c2-e2 c2-f2 c2-g2 c2-b2 c2-a2 c2-c3 c2-c4 c2-c5 c2-c6 c2-c1 c2-d3 c2-e4 c2xf5(f5) c2-d1 c2-b3 c2-a4"},
	{"own territory: one capture only, the first enemy ends the line", "b", []string{"gd1", "Sd2", "Sd3"}, "d1",
		"d1-e1 d1-f1 d1-g1 d1-h1 d1-c1 d1-b1 d1-a1 d1xd2(d2) d1-e2 d1-f3 d1-g4 d1-h5 d1-c2 d1-b3 d1-a4"},
	{"white own territory: black trench unit cannot be attacked from the front", "w", []string{"Ae6", "sd5", "se4"}, "e6",
		"e6-f6 e6-g6 e6-h6 e6-d6 e6-c6 e6-b6 e6-e7 e6-e8 e6-e5 e6-f7 e6-g8"},

	// --- Captures from the trench ---
	{"trench exit: multi-capture (e4xg6)", "b", []string{"re4", "Sf5", "Sg6"}, "e4",
		"e4-f4 e4-g4 e4-d4 e4-c4 e4-e5 e4-e6 e4-e3 e4-e2 e4xf5(f5) e4xg6(f5,g6)"},
	{"trench exit: stop on any square, empty ones after a capture too", "b", []string{"cd5", "Se6", "Sg8"}, "d5",
		"d5-e5 d5-f5 d5-g5 d5-h5 d5-c5 d5-b5 d5-a5 d5-d6 d5-d7 d5-d8 d5-d4 d5-d3 d5-d2 d5-d1 " +
			"d5xe6(e6) d5xf7(e6) d5xg8(e6,g8) d5-e4 d5-f3 d5-g2 d5-h1 d5-c6 d5-b7 d5-a8"},
	{"trench exit: own unit mid-line stops the line", "b", []string{"ad5", "Sd6", "sd7", "Se5", "Sf5", "sh5"}, "d5",
		"d5xd6(d6) d5xe5(e5) d5xf5(e5,f5) d5xg5(e5,f5) d5-c5 d5-b5 d5-a5 d5-d4 d5-d3 d5-d2 d5-e6 d5-f7 d5-g8 d5-c4 d5-b3 d5-a2"},
	{"trench exit: five captures in one line", "b", []string{"ga8", "Sb8", "Rc8", "Ad8", "Ce8", "Gf8"}, "a8",
		"a8xb8(b8) a8xc8(b8,c8) a8xd8(b8,c8,d8) a8xe8(b8,c8,d8,e8) a8xf8(b8,c8,d8,e8,f8) " +
			"a8-a7 a8-a6 a8-a5 a8-a4 a8-a3 a8-b7 a8-c6 a8-d5 a8-e4 a8-f3"},
	{"trench: no capture inside the trench (colonel along it)", "b", []string{"cd5", "Sf3", "Sb7"}, "d5",
		"d5-e5 d5-f5 d5-g5 d5-h5 d5-c5 d5-b5 d5-a5 d5-d6 d5-d7 d5-d8 d5-d4 d5-d3 d5-d2 d5-d1 " +
			"d5-e6 d5-f7 d5-g8 d5-e4 d5-c6"},
	{"trench: no capture backwards into own territory", "b", []string{"gd5", "Sd4", "Sc4", "Sc5"}, "d5",
		"d5-e5 d5-f5 d5-g5 d5-h5 d5-d6 d5-d7 d5-d8 d5-e6 d5-f7 d5-g8 d5-e4 d5-f3 d5-g2 d5-h1 d5-c6 d5-b7 d5-a8"},
	{"white trench exit: multi-capture towards a1", "w", []string{"Re4", "sd3", "sc2"}, "e4",
		"e4-f4 e4-g4 e4-d4 e4-c4 e4-e5 e4-e6 e4-e3 e4-e2 e4xd3(d3) e4xc2(d3,c2)"},
	{"white trench: no capture backwards into own territory", "w", []string{"Ae4", "sf5", "se5"}, "e4",
		"e4-f4 e4-g4 e4-h4 e4-d4 e4-c4 e4-b4 e4-e3 e4-e2 e4-e1 e4-d3 e4-c2 e4-b1"},

	// --- Captures from the enemy's territory ---
	{"enemy territory: attack from behind on a trench unit", "b", []string{"ae6", "Sd5", "Se7", "Sf6"}, "e6",
		"e6xf6(f6) e6-d6 e6-c6 e6-b6 e6xe7(e7) e6-e5 e6-e4 e6-e3 e6-f7 e6-g8 e6xd5(d5)"},
	{"enemy territory: soldier attacks a trench unit from behind", "b", []string{"se5", "Se4"}, "e5",
		"e5-f5 e5-d5 e5-e6 e5xe4(e4)"},
	{"enemy territory: a capture ends the line, no multi-capture", "b", []string{"af6", "Sg6", "Sh6"}, "f6",
		"f6xg6(g6) f6-e6 f6-d6 f6-c6 f6-f7 f6-f8 f6-f5 f6-f4 f6-f3 f6-g7 f6-h8 f6-e5 f6-d4 f6-c3"},
	{"enemy territory: back through the empty trench, capture at home", "b", []string{"ae6", "Sc4"}, "e6",
		"e6-f6 e6-g6 e6-h6 e6-d6 e6-c6 e6-b6 e6-e7 e6-e8 e6-e5 e6-e4 e6-e3 e6-f7 e6-g8 e6-d5 e6xc4(c4)"},
	{"white in black territory: attack from behind", "w", []string{"Ad3", "se4", "sd4"}, "d3",
		"d3-e3 d3-f3 d3-g3 d3-c3 d3-b3 d3-a3 d3xd4(d4) d3-d2 d3-d1 d3-c2 d3-b1 d3xe4(e4)"},
}

func TestMovesFrom(t *testing.T) {
	for _, tc := range movesFromTests {
		t.Run(tc.name, func(t *testing.T) {
			p := setup(t, tc.side, tc.units...)
			var got []string
			for _, m := range p.MovesFrom(sq(t, tc.from)) {
				got = append(got, moveLabel(m))
			}
			want := strings.Fields(tc.want)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("moves from %s in %s:\n got %v\nwant %v", tc.from, p, got, want)
			}
			// The whole-position generator agrees with MovesFrom.
			var all []string
			for _, m := range p.LegalMoves() {
				if m.From == sq(t, tc.from) {
					all = append(all, moveLabel(m))
				}
			}
			slices.Sort(all)
			if !slices.Equal(all, got) {
				t.Errorf("LegalMoves from %s = %v, MovesFrom = %v", tc.from, all, got)
			}
		})
	}
}

func TestMovesFromNotMover(t *testing.T) {
	p := Start()
	for _, s := range []string{"e5", "h8", "d5"} { // White unit, White unit, empty square
		if ms := p.MovesFrom(sq(t, s)); ms != nil {
			t.Errorf("MovesFrom(%s) = %v, want nil", s, ms)
		}
	}
	if ms := p.MovesFrom(NoSquare); ms != nil {
		t.Errorf("MovesFrom(NoSquare) = %v", ms)
	}
	if ms := p.MovesFrom(64); ms != nil {
		t.Errorf("MovesFrom(64) = %v", ms)
	}
}

// Moves written in notation against a position: legal ones, illegal ones
// named after the rule they break, and malformed ones.
var legalityTests = []struct {
	name  string
	side  string
	units []string
	move  string
	err   error  // nil, rules.ErrIllegal or rules.ErrNotation
	frag  string // fragment of the error text
}{
	{"soldier one square", "b", []string{"sd3"}, "d3-d4", nil, ""},
	{"soldier two squares", "b", []string{"sd3"}, "d3-d5", rules.ErrIllegal, "cannot reach d5"},
	{"soldier diagonal", "b", []string{"sd3"}, "d3-e4", rules.ErrIllegal, "cannot reach"},
	{"sergeant forward vertical", "b", []string{"rc3"}, "c3-e5", nil, ""},
	{"sergeant backward vertical", "b", []string{"rc3"}, "c3-b2", rules.ErrIllegal, "cannot reach"},
	{"sergeant horizontal", "b", []string{"rc3"}, "c3-d2", rules.ErrIllegal, "cannot reach"},
	{"sergeant three squares", "b", []string{"rc3"}, "c3-c6", rules.ErrIllegal, "cannot reach"},
	{"white sergeant forward is (-1,-1)", "w", []string{"Rf6"}, "f6-d4", nil, ""},
	{"white sergeant backward vertical", "w", []string{"Rf6"}, "f6-g7", rules.ErrIllegal, "cannot reach"},
	{"captain backward vertical", "b", []string{"ac3"}, "c3-a1", nil, ""},
	{"captain four squares", "b", []string{"ac3"}, "c3-c7", rules.ErrIllegal, "cannot reach"},
	{"captain horizontal", "b", []string{"ac3"}, "c3-b4", rules.ErrIllegal, "cannot reach"},
	{"colonel horizontal", "b", []string{"cc2"}, "c2-a4", nil, ""},
	{"colonel backward vertical", "b", []string{"cc2"}, "c2-b1", rules.ErrIllegal, "cannot reach"},
	{"colonel five squares", "b", []string{"cc2"}, "c2-c7", rules.ErrIllegal, "cannot reach"},
	{"white colonel backward vertical", "w", []string{"Cf7"}, "f7-g8", rules.ErrIllegal, "cannot reach"},
	{"general five squares", "b", []string{"ga1"}, "a1-f6", nil, ""},
	{"general six squares", "b", []string{"ga1"}, "a1-g1", rules.ErrIllegal, "cannot reach"},
	{"no knight jumps", "b", []string{"gd4"}, "d4-e6", rules.ErrIllegal, "cannot reach"},
	{"no jumping over own unit", "b", []string{"rc3", "sc4"}, "c3-c5", rules.ErrIllegal, "cannot reach"},
	{"no landing on own unit", "b", []string{"rc3", "sc4"}, "c3-c4", rules.ErrIllegal, "cannot reach"},
	{"no jumping over enemy unit", "b", []string{"ac3", "Sc4"}, "c3-c5", rules.ErrIllegal, "cannot reach"},
	{"captain along the trench", "b", []string{"ad5"}, "d5-e4", rules.ErrIllegal, "cannot reach"},
	{"sergeant along the trench", "b", []string{"rd5"}, "d5-c6", rules.ErrIllegal, "cannot reach"},
	{"soldier along the trench", "b", []string{"sd5"}, "d5-e4", rules.ErrIllegal, "cannot reach"},
	{"colonel along the trench", "b", []string{"cd5"}, "d5-h1", nil, ""},
	{"general along the trench", "b", []string{"gd5"}, "d5-a8", nil, ""},
	{"through an empty trench square", "b", []string{"ac4"}, "c4-c7", nil, ""},
	{"frontal attack on a trench unit", "b", []string{"sd4", "Se4"}, "d4xe4", rules.ErrIllegal, "cannot reach e4"},
	{"frontal attack on a trench unit, long line", "b", []string{"ac4", "Sc6"}, "c4xc6", rules.ErrIllegal, "cannot reach"},
	{"past a trench unit", "b", []string{"ac4", "Sc6"}, "c4-c7", rules.ErrIllegal, "cannot reach"},
	{"white frontal attack on a trench unit", "w", []string{"Ae6", "sd5"}, "e6xd5", rules.ErrIllegal, "cannot reach"},
	{"trench to trench (colonel)", "b", []string{"cd5", "Se4"}, "d5xe4", rules.ErrIllegal, "cannot reach"},
	{"trench to trench (general)", "b", []string{"gd5", "Gc6"}, "d5xc6", rules.ErrIllegal, "cannot reach"},
	{"trench backwards into own territory", "b", []string{"ad5", "Sd4"}, "d5xd4", rules.ErrIllegal, "cannot reach"},
	{"soldier trench backwards", "b", []string{"se4", "Sd4"}, "e4xd4", rules.ErrIllegal, "cannot reach"},
	{"white trench backwards", "w", []string{"Ae4", "sf5"}, "e4xf5", rules.ErrIllegal, "cannot reach"},
	{"attack from behind", "b", []string{"se5", "Se4"}, "e5xe4", nil, ""},
	{"white attack from behind", "w", []string{"Ad3", "se4"}, "d3xe4", nil, ""},
	{"capture in own territory", "b", []string{"ac3", "Sc5"}, "c3xc5", nil, ""},
	{"capture from own territory ends the move", "b", []string{"ac3", "Sc5"}, "c3-c6", rules.ErrIllegal, "cannot reach"},
	{"capture from own territory ends the move (x)", "b", []string{"ac3", "Sc5"}, "c3xc6", rules.ErrIllegal, "cannot reach"},
	{"no multi-capture from own territory", "b", []string{"ac3", "Sd4", "Se5"}, "c3xe5", rules.ErrIllegal, "cannot reach"},
	{"no multi-capture from enemy territory", "b", []string{"af6", "Sg6", "Sh6"}, "f6xh6", rules.ErrIllegal, "cannot reach"},
	{"trench exit multi-capture", "b", []string{"re4", "Sf5", "Sg6"}, "e4xg6", nil, ""},
	{"trench exit multi-capture written with -", "b", []string{"re4", "Sf5", "Sg6"}, "e4-g6", rules.ErrIllegal, "captures; write e4xg6"},
	{"trench exit onto an empty square after a capture", "b", []string{"cd5", "Se6"}, "d5xf7", nil, ""},
	{"trench exit after a capture written with -", "b", []string{"cd5", "Se6"}, "d5-f7", rules.ErrIllegal, "captures; write d5xf7"},
	{"trench exit: own unit blocks mid-line", "b", []string{"ad5", "Sd6", "sd7"}, "d5xd8", rules.ErrIllegal, "cannot reach"},
	{"capture written with -", "b", []string{"ac3", "Sc5"}, "c3-c5", rules.ErrIllegal, "captures; write c3xc5"},
	{"quiet move written with x", "b", []string{"sd3"}, "d3xd4", rules.ErrIllegal, "captures nothing; write d3-d4"},
	{"empty from-square", "b", []string{"sd3"}, "e3-e4", rules.ErrIllegal, "no unit on e3"},
	{"opponent's unit", "b", []string{"sd3", "Se6"}, "e6-e5", rules.ErrIllegal, "e6 holds a White Soldier but Black is to move"},
	{"black unit when white moves", "w", []string{"sd3", "Se6"}, "d3-d4", rules.ErrIllegal, "d3 holds a Black Soldier but White is to move"},
	{"malformed: no separator", "b", []string{"sd3"}, "d3d4", rules.ErrNotation, "want <from>-<to>"},
	{"malformed: uppercase", "b", []string{"sd3"}, "D3-D4", rules.ErrNotation, "bad from-square"},
	{"malformed: same square", "b", []string{"sd3"}, "d3-d3", rules.ErrNotation, "same square"},
}

func TestParseMoveInPosition(t *testing.T) {
	for _, tc := range legalityTests {
		t.Run(tc.name, func(t *testing.T) {
			p := setup(t, tc.side, tc.units...)
			m, err := p.ParseMove(tc.move)
			if tc.err == nil {
				if err != nil {
					t.Fatalf("ParseMove(%q) in %s: %v", tc.move, p, err)
				}
				if m.String() != tc.move {
					t.Errorf("ParseMove(%q).String() = %q", tc.move, m)
				}
				if _, err := p.Apply(m); err != nil {
					t.Errorf("Apply(%q): %v", tc.move, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("ParseMove(%q) in %s = %v, want an error", tc.move, p, m)
			}
			if !errors.Is(err, tc.err) {
				t.Errorf("ParseMove(%q) error %q does not wrap %v", tc.move, err, tc.err)
			}
			other := rules.ErrNotation
			if tc.err == rules.ErrNotation {
				other = rules.ErrIllegal
			}
			if errors.Is(err, other) {
				t.Errorf("ParseMove(%q) error %q wraps %v too", tc.move, err, other)
			}
			if !strings.Contains(err.Error(), tc.frag) {
				t.Errorf("ParseMove(%q) error %q lacks %q", tc.move, err, tc.frag)
			}
		})
	}
}

func TestLegalMovesOrderAndUniqueness(t *testing.T) {
	p := mustParse(t, "4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0")
	ms := p.LegalMoves()
	seen := map[string]bool{}
	for i, m := range ms {
		if seen[m.String()] {
			t.Errorf("duplicate move %v", m)
		}
		seen[m.String()] = true
		if i > 0 && ms[i-1].From > m.From {
			t.Errorf("moves not ordered by from-square: %v before %v", ms[i-1], m)
		}
	}
}

func TestCapturesDoNotAlias(t *testing.T) {
	// Each move's Captures must be its own: appending to one must not
	// overwrite another.
	p := setup(t, "b", "ga8", "Sb8", "Rc8", "Ad8", "Ce8", "Gf8")
	ms := p.MovesFrom(A8)
	before := make([]string, len(ms))
	for i, m := range ms {
		before[i] = moveLabel(m)
	}
	for i := range ms {
		ms[i].Captures = append(ms[i].Captures, H1)
	}
	for i := range ms {
		ms[i].Captures = ms[i].Captures[:len(ms[i].Captures)-1]
		if moveLabel(ms[i]) != before[i] {
			t.Errorf("move %d changed from %s to %s", i, before[i], moveLabel(ms[i]))
		}
	}
}

func TestNoLegalMoveNeedsMoreThanAnArmy(t *testing.T) {
	// With at most 16 units a side always has a move (a unit with no
	// orthogonal move forces a whole territory of 28 own units). Build the
	// smallest blocked Black army on a board no game reaches: all 28 Black
	// squares filled and a White unit on every trench square.
	var p Position
	for s := Square(0); s < 64; s++ {
		switch Territory(s) {
		case Black:
			p.board[s] = NewUnit(Soldier, Black)
		case rules.NoSide:
			p.board[s] = NewUnit(Soldier, White)
		}
	}
	if p.HasLegalMove() || len(p.LegalMoves()) != 0 {
		t.Fatalf("blocked army has moves: %v", p.LegalMoves())
	}
	p.board[A1] = NoUnit // one hole: the a2 and b1 units may move into it
	if got := len(p.LegalMoves()); got != 2 || !p.HasLegalMove() {
		t.Errorf("with a hole at a1: %d moves, want 2", got)
	}
}
