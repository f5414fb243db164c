package trench

import (
	"errors"
	"slices"
	"sort"
	"testing"

	"github.com/trench-games/trench/rules"
)

func TestEngineRegistered(t *testing.T) {
	e, ok := rules.Lookup("trench")
	if !ok {
		t.Fatal("engine trench not registered")
	}
	if _, ok := e.(Engine); !ok {
		t.Fatalf("registered engine is %T", e)
	}
	if e.Key() != "trench" || e.Title() != "TRENCH" || e.SideNames() != [2]string{"Black", "White"} || !e.HasArmistice() {
		t.Errorf("engine identity: %q %q %v %v", e.Key(), e.Title(), e.SideNames(), e.HasArmistice())
	}
	want := []rules.Variant{
		{Key: "match", Title: "Official match (2 games)", Match: true},
		{Key: "single", Title: "Official single game (to 50)"},
		{Key: "bga", Title: "BGA rules (to 25)"},
	}
	if got := e.Variants(); !slices.Equal(got, want) {
		t.Errorf("Variants = %v", got)
	}
	for v, w := range map[string]rules.GameSpec{"": {Variant: "match"}, "match": {Variant: "match"}, "single": {Variant: "single"}, "bga": {Variant: "bga"}} {
		if got := e.FirstGame(v); got != w {
			t.Errorf("FirstGame(%q) = %+v", v, got)
		}
	}
	g := []rules.MatchGame{game("match", false, Black, 20, 10)}
	if e.NextInMatch("match", g, 3) != NextInMatch("match", g, 3) {
		t.Error("Engine.NextInMatch differs from NextInMatch")
	}
}

func TestEngineStartAndDecode(t *testing.T) {
	e := Engine{}
	for _, v := range []string{"", "match", "single", "bga", "decider"} {
		for _, seed := range []int64{0, 42} {
			s, err := e.Start(rules.GameSpec{Variant: v, Swapped: seed == 42}, seed)
			if err != nil {
				t.Fatalf("Start(%q): %v", v, err)
			}
			if s.Encode() != StartFEN || s.Ply() != 0 || s.ToMove() != Black || s.Result().Over {
				t.Errorf("Start(%q) = %q ply %d to move %v", v, s.Encode(), s.Ply(), s.ToMove())
			}
			want, _ := LookupRuleset(v)
			if s.(State).Ruleset() != want || s.(State).Position() != Start() {
				t.Errorf("Start(%q) ruleset %+v", v, s.(State).Ruleset())
			}
		}
	}
	if _, err := e.Start(rules.GameSpec{Variant: "chess"}, 0); !errors.Is(err, ErrUnknownVariant) {
		t.Errorf("Start(chess) error %v", err)
	}
	fen := "7G/7C/8/8/8/8/8/g7 w 0 25 3"
	s, err := e.Decode("bga", fen)
	if err != nil || s.Encode() != fen || s.Ply() != 0 || s.(State).Ruleset().Key != "bga" {
		t.Fatalf("Decode(bga) = %v, %v", s, err)
	}
	if s, err := e.Decode("", StartFEN); err != nil || s.(State).Ruleset().Key != "match" {
		t.Errorf("Decode(\"\") = %v, %v", s, err)
	}
	if _, err := e.Decode("chess", StartFEN); !errors.Is(err, rules.ErrNotation) || !errors.Is(err, ErrUnknownVariant) {
		t.Errorf("Decode(chess) error %v", err)
	}
	if _, err := e.Decode("match", "nonsense"); !errors.Is(err, rules.ErrNotation) {
		t.Errorf("Decode(nonsense) error %v", err)
	}
}

func TestStatePlay(t *testing.T) {
	s0, _ := Engine{}.Start(rules.GameSpec{Variant: "match"}, 0)
	legal := s0.Legal(Black)
	if !sort.StringsAreSorted(legal) || len(legal) != 14 || legal[0] != "a4-a5" || legal[13] != "d4-e4" {
		t.Errorf("Legal(Black) = %v", legal)
	}
	for _, v := range []rules.Side{White, rules.NoSide, rules.Reveal} {
		if got := s0.Legal(v); got != nil {
			t.Errorf("Legal(%v) = %v, want nil", v, got)
		}
	}
	s1, err := s0.Apply("d4-d5")
	if err != nil {
		t.Fatal(err)
	}
	if s1.Ply() != 1 || s1.ToMove() != White || s1.Encode() != "4RACG/4SRAC/4SSRA/3sSSSR/rss5/arss4/cars4/gcar4 w 1 0 0" {
		t.Errorf("after d4-d5: ply %d, %v, %q", s1.Ply(), s1.ToMove(), s1.Encode())
	}
	if s0.Encode() != StartFEN || s0.Ply() != 0 {
		t.Error("Apply changed the receiver")
	}
	if s1.Legal(Black) != nil || len(s1.Legal(White)) == 0 {
		t.Error("Legal after d4-d5 is for the wrong side")
	}
	// A Black Soldier in the trench cannot be taken from the front.
	if _, err := s1.Apply("e5xd5"); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("e5xd5 against a trench unit: %v", err)
	}
	s2, err := s1.Apply("e5-e4")
	if err != nil {
		t.Fatal(err)
	}
	if s2.Ply() != 2 || s2.Encode() != "4RACG/4SRAC/4SSRA/3s1SSR/rss1S3/arss4/cars4/gcar4 b 2 0 0" {
		t.Errorf("after e5-e4: ply %d, %q", s2.Ply(), s2.Encode())
	}
	c, _ := Engine{}.Decode("match", "8/8/6S1/5S2/4r3/8/8/8 b 3 1 2")
	c1, err := c.Apply("e4xg6")
	if err != nil {
		t.Fatal(err)
	}
	if c1.Ply() != 1 || c1.Encode() != "8/8/6r1/8/8/8/8/8 w 0 3 2" {
		t.Errorf("after e4xg6: ply %d, %q", c1.Ply(), c1.Encode())
	}
	if r := c1.Result(); !r.Over || r.Score != [2]int{6, 4} || r.Winner != Black || r.Reason != rules.ReasonAllCaptured {
		t.Errorf("Result = %+v", r)
	}
	for move, want := range map[string]error{
		"d4-d5x": rules.ErrNotation, "": rules.ErrNotation, "e5-e4": rules.ErrIllegal,
		"d3-d5": rules.ErrIllegal, "d4xd5": rules.ErrIllegal,
	} {
		got, err := s0.Apply(move)
		if !errors.Is(err, want) || got != nil {
			t.Errorf("Apply(%q) = %v, %v; want %v", move, got, err, want)
		}
	}
	// Decoding resets the ply count: the game flow keeps the real one.
	d, _ := Engine{}.Decode("match", s2.Encode())
	if d.Ply() != 0 || d.Encode() != s2.Encode() {
		t.Errorf("Decode ply %d", d.Ply())
	}
	if s0.Perft(3) != 3894 || s1.Perft(0) != 1 {
		t.Errorf("State.Perft = %d", s0.Perft(3))
	}
}

func TestStateEndAndConcede(t *testing.T) {
	s, _ := Engine{}.Decode("single", "7G/7C/8/8/8/8/8/g7 w 0 25 3")
	if s.ToMove() != rules.NoSide || !s.Result().Over || s.Result().Winner != Black {
		t.Errorf("finished game: to move %v, result %+v", s.ToMove(), s.Result())
	}
	// Legal and Apply follow the movement rules only.
	if len(s.Legal(White)) == 0 {
		t.Error("Legal(White) empty in a finished game")
	}
	if _, err := s.Apply("h8-g8"); err != nil {
		t.Errorf("Apply in a finished game: %v", err)
	}
	if got := s.Concede(White, true); got != over(Black, 68, 6, rules.ReasonTimeout) {
		t.Errorf("Concede = %+v", got)
	}
	if got := s.Armistice(); got != over(Black, 50, 6, rules.ReasonArmistice) {
		t.Errorf("Armistice = %+v", got)
	}
	b, _ := Engine{}.Decode("bga", "7G/7C/8/8/8/8/8/g7 w 0 25 3")
	if b.ToMove() != White || b.Result().Over {
		t.Errorf("bga last move: %v %+v", b.ToMove(), b.Result())
	}
	v := b.View(White).(BoardView)
	if !v.FinalTurn || v.Target != 25 || v.Points != [2]int{25, 3} || len(v.Moves) == 0 {
		t.Errorf("bga view = %+v", v)
	}
	b2, err := b.Apply("h8-g8")
	if err != nil {
		t.Fatal(err)
	}
	if r := b2.Result(); !r.Over || r.Winner != Black || r.Reason != rules.ReasonTarget || b2.ToMove() != rules.NoSide {
		t.Errorf("after white's last move: %+v", r)
	}
}

func TestStateClicksDescribe(t *testing.T) {
	s := NewState(Start(), RulesetMatch)
	cases := map[string][]string{
		"d4-d5": {"d4", "d5"},
		"e4xg6": {"e4", "g6"},
		"h8-a1": {"h8", "a1"},
		"junk":  nil,
		"":      nil,
	}
	for move, want := range cases {
		if got := s.Clicks(move); !slices.Equal(got, want) {
			t.Errorf("Clicks(%q) = %v, want %v", move, got, want)
		}
		for _, v := range []rules.Side{Black, White, rules.NoSide, rules.Reveal} {
			if got := s.Describe(move, v); got != move {
				t.Errorf("Describe(%q) = %q", move, got)
			}
		}
	}
}

func TestStateView(t *testing.T) {
	// Black has lost a Soldier and a Captain, White a Sergeant and the
	// General; White to move, 44 quiet plies.
	fen := "5AC1/4SRAC/4SSRA/4SSSR/rss5/arss4/cars4/gc1r4 w 44 7 4"
	p := mustParse(t, fen)
	s := NewState(p, RulesetMatch)
	v, ok := s.View(rules.NoSide).(BoardView)
	if !ok {
		t.Fatalf("View returned %T", s.View(rules.NoSide))
	}
	want := BoardView{
		Position:  p,
		Ruleset:   "match",
		Viewer:    rules.NoSide,
		ToMove:    White,
		Points:    [2]int{14, 8},
		Target:    0,
		Captured:  [2][5]int{{1, 0, 1, 0, 0}, {0, 1, 0, 0, 1}},
		Quiet:     44,
		ShowQuiet: true,
		Result:    running(14, 8),
	}
	if !viewEqual(v, want) {
		t.Errorf("View(spectator) =\n%+v\nwant\n%+v", v, want)
	}
	if v := s.View(Black).(BoardView); v.Moves != nil {
		t.Error("Black sees moves while White is to move")
	}
	w := s.View(White).(BoardView)
	if len(w.Moves) != len(p.LegalMoves()) || len(w.Moves) == 0 {
		t.Errorf("White's view has %d moves, want %d", len(w.Moves), len(p.LegalMoves()))
	}
	// The quiet counter shows once it has passed 40.
	q := mustParse(t, "5AC1/4SRAC/4SSRA/4SSSR/rss5/arss4/cars4/gc1r4 w 40 7 4")
	if NewState(q, RulesetMatch).View(White).(BoardView).ShowQuiet {
		t.Error("ShowQuiet at 40")
	}
	// A game that has ended (by resignation: the position does not say
	// so) no longer warns of the 50-ply limit; nor one ended by it.
	if s.View(rules.Reveal).(BoardView).ShowQuiet {
		t.Error("ShowQuiet in the view of an ended game")
	}
	fifty := mustParse(t, "5AC1/4SRAC/4SSRA/4SSSR/rss5/arss4/cars4/gc1r4 w 50 7 4")
	if v := NewState(fifty, RulesetMatch).View(rules.NoSide).(BoardView); !v.Result.Over || v.ShowQuiet {
		t.Errorf("after 50 quiet plies: over %v, ShowQuiet %v", v.Result.Over, v.ShowQuiet)
	}
	// Once over, nobody gets moves; the result is in the view.
	end := NewState(mustParse(t, "7G/7C/8/8/8/8/8/g7 w 0 25 3"), RulesetSingle)
	ev := end.View(White).(BoardView)
	if ev.Moves != nil || !ev.Result.Over || ev.Result.Winner != Black || ev.Target != 50 {
		t.Errorf("finished view = %+v", ev)
	}
}

func viewEqual(a, b BoardView) bool {
	return a.Position == b.Position && a.Ruleset == b.Ruleset && a.Viewer == b.Viewer &&
		a.ToMove == b.ToMove && a.Points == b.Points && a.Target == b.Target &&
		a.Captured == b.Captured && a.Quiet == b.Quiet && a.ShowQuiet == b.ShowQuiet &&
		a.FinalTurn == b.FinalTurn && a.Result == b.Result && len(a.Moves) == len(b.Moves)
}

// TestFormatScore: one point is "1 pt", any other number "N pts".
func TestFormatScore(t *testing.T) {
	for n, want := range map[int]string{0: "0 pts", 1: "1 pt", 2: "2 pts", 72: "72 pts"} {
		if got := rules.FormatScore(Engine{}, n); got != want {
			t.Errorf("FormatScore(%d) = %q, want %q", n, got, want)
		}
	}
}
