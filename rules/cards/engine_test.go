package cards

import (
	"errors"
	"reflect"
	"testing"

	"github.com/trench-games/trench/rules"
)

func TestEngineMetadata(t *testing.T) {
	e, ok := rules.Lookup("cards")
	if !ok {
		t.Fatal("engine not registered")
	}
	if _, same := e.(Engine); !same {
		t.Fatalf("registered %T", e)
	}
	if e.Key() != "cards" || e.Title() != "Trench, the card game" || e.SideNames() != [2]string{"Black", "Red"} {
		t.Error("names")
	}
	want := []rules.Variant{{Key: "short", Title: "Short game (13 cards)"}, {Key: "long", Title: "Long game (26 cards)"}}
	if !reflect.DeepEqual(e.Variants(), want) {
		t.Errorf("Variants = %v", e.Variants())
	}
	if !e.HasArmistice() {
		t.Error("HasArmistice")
	}
	if g := e.FirstGame("long"); g != (rules.GameSpec{Variant: "long"}) {
		t.Errorf("FirstGame = %+v", g)
	}
}

func TestEngineStartDecode(t *testing.T) {
	e := Engine{}
	for _, variant := range []string{"short", "long"} {
		st, err := e.Start(e.FirstGame(variant), 9)
		if err != nil {
			t.Fatal(err)
		}
		if st.Ply() != 0 || st.ToMove() == rules.NoSide || st.Result().Over {
			t.Errorf("%s: start ply %d to move %d", variant, st.Ply(), st.ToMove())
		}
		size := map[string]int{"short": 13, "long": 26}[variant]
		if r := st.Result(); r.Score != [2]int{size, size} {
			t.Errorf("%s: score %v", variant, r.Score)
		}
		// Play through the interface, round-tripping the stored text (and
		// the position history: this line of play repeats positions, and
		// Legal and Apply ignore the end it brings).
		for range 40 {
			legal := st.Legal(st.(*State).Turn())
			next, err := st.Apply(legal[len(legal)/2])
			if err != nil {
				t.Fatal(err)
			}
			back, err := e.Decode(variant, next.Encode())
			if err != nil || back.Encode() != next.Encode() || back.Ply() != next.Ply() {
				t.Fatalf("Decode: %v", err)
			}
			st = back
		}
		if st.Ply() != 40 {
			t.Errorf("ply %d", st.Ply())
		}
		if _, ok := st.View(rules.Side0).(View); !ok {
			t.Errorf("View returns %T", st.View(rules.Side0))
		}
	}
	st, err := e.Start(rules.GameSpec{Variant: "medium"}, 1)
	if err == nil || st != nil {
		t.Errorf("unknown variant: %v, %v", st, err)
	}
	if _, err := e.Decode("short", "nonsense"); !errors.Is(err, rules.ErrNotation) {
		t.Errorf("Decode error %v", err)
	}
	a, _ := e.Start(rules.GameSpec{Variant: "short"}, 5)
	b, _ := e.Start(rules.GameSpec{Variant: "short", Swapped: true}, 5)
	if a.Encode() != b.Encode() {
		t.Error("Swapped changed the game")
	}
	if _, err := a.Apply("attack F9"); !errors.Is(err, rules.ErrNotation) {
		t.Errorf("Apply error %v", err)
	}
}

func TestNextInMatch(t *testing.T) {
	e := Engine{}
	if step := e.NextInMatch("short", nil, 1); step.Done || step.Next != (rules.GameSpec{Variant: "short"}) {
		t.Errorf("no games: %+v", step)
	}
	for _, tc := range []struct {
		spec   rules.GameSpec
		result rules.Result
		winner int
		totals [2]int
	}{
		{rules.GameSpec{Variant: "short"}, rules.Result{Over: true, Winner: rules.Side0, Score: [2]int{9, 3}}, 0, [2]int{9, 3}},
		{rules.GameSpec{Variant: "short"}, rules.Result{Over: true, Winner: rules.Side1, Score: [2]int{2, 7}}, 1, [2]int{2, 7}},
		{rules.GameSpec{Variant: "long"}, rules.Result{Over: true, Winner: rules.NoSide, Score: [2]int{20, 21}}, -1, [2]int{20, 21}},
		{rules.GameSpec{Variant: "short", Swapped: true}, rules.Result{Over: true, Winner: rules.Side0, Score: [2]int{9, 3}}, 1, [2]int{3, 9}},
	} {
		step := e.NextInMatch(tc.spec.Variant, []rules.MatchGame{{Spec: tc.spec, Result: tc.result}}, 1)
		if !step.Done || step.Winner != tc.winner || step.Totals != tc.totals {
			t.Errorf("%+v: %+v", tc.result, step)
		}
	}
}
