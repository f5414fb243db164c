package trenches

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

func TestEngineRegistered(t *testing.T) {
	e, ok := rules.Lookup("trenches")
	if !ok {
		t.Fatal("trenches is not registered")
	}
	if _, ok := e.(Engine); !ok {
		t.Fatalf("registered engine is %T", e)
	}
	if e.Key() != "trenches" || e.Title() != "Trenches" || e.SideNames() != [2]string{"Light", "Dark"} {
		t.Errorf("names: %q %q %q", e.Key(), e.Title(), e.SideNames())
	}
	if got := e.Variants(); !slices.Equal(got, []rules.Variant{{Key: "standard", Title: "Standard"}}) {
		t.Errorf("Variants = %v", got)
	}
	if e.HasArmistice() {
		t.Errorf("HasArmistice")
	}
	for _, v := range []string{"standard", ""} {
		if got := e.FirstGame(v); got != (rules.GameSpec{Variant: "standard"}) {
			t.Errorf("FirstGame(%q) = %+v", v, got)
		}
	}
}

func TestEngineStartDecode(t *testing.T) {
	e := Engine{}
	for _, seed := range []int64{0, 1, -5} {
		s, err := e.Start(rules.GameSpec{Variant: "standard"}, seed)
		if err != nil || s.Encode() != StartFEN || s.Ply() != 0 || s.ToMove() != rules.Side0 {
			t.Fatalf("Start(seed %d) = %v, %v", seed, s, err)
		}
	}
	if _, err := e.Start(rules.GameSpec{Variant: "blitz"}, 0); err == nil || !strings.Contains(err.Error(), `"blitz"`) {
		t.Errorf("Start(blitz): %v", err)
	}
	for _, v := range []string{"", "standard"} {
		s, err := e.Decode(v, "3xt1t3/3s2s3/10/ts6st/T9/10/xS6ST/10/3S2S3/3T2T3 l")
		if err != nil || s.Ply() != 2 || s.ToMove() != rules.Side0 {
			t.Fatalf("Decode(%q) = %v, %v", v, s, err)
		}
	}
	if _, err := e.Decode("blitz", StartFEN); !errors.Is(err, rules.ErrNotation) {
		t.Errorf("Decode(blitz): %v", err)
	}
	if _, err := e.Decode("", "10/10 l"); !errors.Is(err, rules.ErrNotation) || !strings.Contains(err.Error(), "2 ranks") {
		t.Errorf("Decode(bad): %v", err)
	}
}

func TestStateMethods(t *testing.T) {
	s0, _ := Engine{}.Start(rules.GameSpec{}, 0)
	legal := s0.Legal(rules.Side0)
	if len(legal) != 1184 || !slices.IsSorted(legal) {
		t.Fatalf("Legal: %d moves, sorted %v", len(legal), slices.IsSorted(legal))
	}
	if legal[0] != "a4-a1" {
		t.Errorf("first legal move %q", legal[0])
	}
	for _, v := range []rules.Side{rules.Side1, rules.NoSide, rules.Reveal} {
		if got := s0.Legal(v); got != nil {
			t.Errorf("Legal(%v) = %d moves, want nil", v, len(got))
		}
	}
	s1, err := s0.Apply("b4-b6/d8")
	if err != nil {
		t.Fatal(err)
	}
	if s1.Encode() != "3t2t3/3s2s3/3x6/ts6st/1S8/10/T7ST/10/3S2S3/3T2T3 d" || s1.Ply() != 1 || s1.ToMove() != rules.Side1 {
		t.Errorf("after b4-b6/d8: %s ply %d", s1.Encode(), s1.Ply())
	}
	if s0.Encode() != StartFEN || s0.Ply() != 0 {
		t.Errorf("Apply changed its receiver")
	}
	if s1.Legal(rules.Side0) != nil || len(s1.Legal(rules.Side1)) == 0 {
		t.Errorf("Legal after one move")
	}
	for _, c := range []struct {
		move string
		err  error
	}{
		{"b4-b6", rules.ErrIllegal},
		{"b4-b5/b4", rules.ErrIllegal},
		{"a7-a6", rules.ErrIllegal},
		{"a4-a6/a8", rules.ErrIllegal},
		{"b4-b6/", rules.ErrNotation},
		{"nonsense", rules.ErrNotation},
	} {
		if got, err := s0.Apply(c.move); !errors.Is(err, c.err) || got != nil {
			t.Errorf("Apply(%q) = %v, %v; want %v", c.move, got, err, c.err)
		}
	}
	// Clicks and Describe.
	for _, c := range []struct {
		move string
		want []string
	}{
		{"a4-a6", []string{"a4", "a6"}},
		{"b4-b6/d8", []string{"b4", "b6", "d8"}},
		{"a10-j1/a1", []string{"a10", "j1", "a1"}},
		{"bad", nil},
		{"a4-", nil},
	} {
		if got := s0.Clicks(c.move); !slices.Equal(got, c.want) {
			t.Errorf("Clicks(%q) = %q, want %q", c.move, got, c.want)
		}
	}
	if got := s0.Describe("b4-b6/d8", rules.NoSide); got != "b4-b6/d8" {
		t.Errorf("Describe = %q", got)
	}
	if got := s0.Describe("junk", rules.Side0); got != "junk" {
		t.Errorf("Describe(junk) = %q", got)
	}
	if s0.Perft(1) != 1184 || s0.Perft(2) != 1242444 || s0.Perft(0) != 1 {
		t.Errorf("State.Perft")
	}
	if got := s0.Result(); got.Over || got.Score != [2]int{8, 8} {
		t.Errorf("Result = %+v", got)
	}
	if got := s0.Concede(rules.Side1, true); got != (rules.Result{Over: true, Winner: rules.Side0, Reason: rules.ReasonTimeout}) {
		t.Errorf("Concede = %+v", got)
	}
	if got := s0.Armistice(); got.Winner != rules.NoSide || !got.Over || got.Reason != rules.ReasonArmistice {
		t.Errorf("Armistice = %+v", got)
	}
}

func TestStateView(t *testing.T) {
	s, _ := Engine{}.Decode("", "3xt1t3/3s2s3/10/ts6st/T9/10/xS6ST/10/3S2S3/3T2T3 l")
	for _, viewer := range []rules.Side{rules.Side0, rules.Side1, rules.NoSide, rules.Reveal} {
		v, ok := s.View(viewer).(BoardView)
		if !ok {
			t.Fatalf("View is %T", s.View(viewer))
		}
		if v.Viewer != viewer || v.Turn != rules.Side0 || v.Position.String() != s.Encode() {
			t.Errorf("View(%v) = %+v", viewer, v)
		}
		if v.Protected != v.Position.Protected() || v.Movable != v.Position.Mobile(rules.Side0) || v.Result != v.Position.Result() {
			t.Errorf("View(%v) fields", viewer)
		}
	}
	v := s.View(rules.NoSide).(BoardView)
	rows := v.Rows()
	if rows[0][0] != A10 || rows[0][9] != J10 || rows[9][0] != A1 || rows[9][9] != J1 || rows[3][1] != B7 {
		t.Errorf("Rows = %v", rows)
	}
	if !v.Movable.Has(A6) || v.Movable.Has(E10) || v.Movable.Len() != 8 {
		t.Errorf("Movable = %v", v.Movable)
	}
	if _, err := json.Marshal(v); err != nil {
		t.Errorf("BoardView does not marshal: %v", err)
	}
	// A finished game: nothing is movable.
	end := NewBoardView(build("l", "Ta1", "xa2", "xb2", "xb1", "tj10"), rules.Reveal)
	if !end.Movable.IsEmpty() || !end.Result.Over || end.Result.Winner != rules.Side1 {
		t.Errorf("finished view %+v", end)
	}
}

// TestStateGames plays random games through the rules.State interface,
// storing and reloading the state after every move.
func TestStateGames(t *testing.T) {
	e := Engine{}
	rng := rand.New(rand.NewPCG(5, 8))
	for g := range 20 {
		var s rules.State
		s, _ = e.Start(e.FirstGame("standard"), int64(g))
		for {
			side := s.ToMove()
			if side == rules.NoSide {
				break
			}
			legal := s.Legal(side)
			if len(legal) == 0 || !slices.IsSorted(legal) || s.Legal(side.Other()) != nil {
				t.Fatalf("game %d ply %d: Legal", g, s.Ply())
			}
			mv := legal[rng.IntN(len(legal))]
			clicks := s.Clicks(mv)
			if strings.Join(clicks[:2], "-") != strings.SplitN(mv, "/", 2)[0] {
				t.Fatalf("Clicks(%q) = %q", mv, clicks)
			}
			next, err := s.Apply(mv)
			if err != nil {
				t.Fatalf("game %d: Apply(%q): %v", g, mv, err)
			}
			if next.Ply() != s.Ply()+1 {
				t.Fatalf("ply %d → %d", s.Ply(), next.Ply())
			}
			s, err = e.Decode("standard", next.Encode())
			if err != nil || s.Encode() != next.Encode() || s.Ply() != next.Ply() {
				t.Fatalf("Decode(Encode) of %s: %v", next.Encode(), err)
			}
		}
		r := s.Result()
		st := s.(State)
		if !r.Over || r.Winner != st.Position().Turn().Other() || r.Reason != rules.ReasonNoMove || len(s.Legal(st.Position().Turn())) != 0 {
			t.Fatalf("game %d end: %+v", g, r)
		}
	}
}

func TestNextInMatch(t *testing.T) {
	e := Engine{}
	step := e.NextInMatch("standard", nil, 3)
	if step.Done || step.Next != (rules.GameSpec{Variant: "standard"}) {
		t.Errorf("first step = %+v", step)
	}
	tests := []struct {
		name   string
		game   rules.MatchGame
		winner int
		totals [2]int
	}{
		{"Light wins", rules.MatchGame{Result: rules.Result{Over: true, Winner: rules.Side0, Score: [2]int{5, 0}, Reason: rules.ReasonNoMove}}, 0, [2]int{5, 0}},
		{"Dark wins", rules.MatchGame{Result: rules.Result{Over: true, Winner: rules.Side1, Score: [2]int{0, 7}, Reason: rules.ReasonNoMove}}, 1, [2]int{0, 7}},
		{"resignation", rules.MatchGame{Result: Concede(rules.Side0, false)}, 1, [2]int{0, 0}},
		{"draw", rules.MatchGame{Result: Armistice()}, -1, [2]int{0, 0}},
		{"swapped", rules.MatchGame{Spec: rules.GameSpec{Variant: "standard", Swapped: true}, Result: rules.Result{Over: true, Winner: rules.Side0, Score: [2]int{3, 0}}}, 1, [2]int{0, 3}},
	}
	for _, tc := range tests {
		step := e.NextInMatch("standard", []rules.MatchGame{tc.game}, 1)
		if !step.Done || step.Winner != tc.winner || step.Totals != tc.totals {
			t.Errorf("%s: %+v, want winner %d totals %v", tc.name, step, tc.winner, tc.totals)
		}
	}
}

// TestSortedNotation checks the fast byte-wise sort against sorting the
// strings.
func TestSortedNotation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		p, _ := ParsePosition(randomNaive(rng).fen())
		moves := p.LegalMoves()
		rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		want := make([]string, len(moves))
		for i, m := range moves {
			want[i] = m.String()
		}
		slices.Sort(want)
		if got := sortedNotation(moves); !slices.Equal(got, want) {
			t.Fatalf("%v: sortedNotation differs", p)
		}
	}
	// Squares named with a common prefix, both as start and as grenade.
	p := build("l", "Sa1", "Ta10", "Sb1", "Sb10")
	got := NewState(p).Legal(rules.Side0)
	if !slices.IsSorted(got) || len(got) != p.CountLegalMoves() {
		t.Errorf("Legal not sorted: %v", got)
	}
}
