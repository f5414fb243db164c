package cards

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// A sampled state shows its viewer exactly the view it was drawn from,
// plays on under the rules, and (for a player) keeps every card the
// player sees where it is while the hidden ones vary with the draw.
func TestSampleMatchesTheView(t *testing.T) {
	t.Parallel()
	games := map[string]int{VariantShort: 30, VariantLong: 10}
	varied := 0
	for variant, n := range games {
		for g := range n {
			r := rand.New(rand.NewPCG(uint64(g), 7))
			randomGame(t, variant, int64(7000+g), func(_ *State, _ string, s *State) {
				for _, viewer := range []rules.Side{rules.Side0, rules.Side1, rules.NoSide, rules.Reveal} {
					v := s.ViewFor(viewer)
					x, err := Sample(v, r)
					if err != nil {
						t.Fatalf("%s ply %d viewer %d: %v", variant, s.ply, viewer, err)
					}
					if got := x.ViewFor(viewer); !reflect.DeepEqual(got, v) {
						t.Fatalf("%s ply %d viewer %d: view of the sample\n%+v\nwant\n%+v", variant, s.ply, viewer, got, v)
					}
					checkInvariants(t, x)
					// The repetition history (hashes of earlier positions,
					// hidden cards included) is not in any view: a sample
					// starts without it.
					if viewer == rules.Reveal && withoutHistory(x.Encode()) != withoutHistory(s.Encode()) {
						t.Fatalf("%s ply %d: revealed view rebuilt as\n%s\nwant\n%s", variant, s.ply, x.Encode(), s.Encode())
					}
					if !viewer.Valid() || s.Result().Over {
						continue
					}
					if x.Encode() != s.Encode() {
						varied++
					}
					// The viewer's own moves are the same: they depend on
					// what the viewer sees only.
					if !reflect.DeepEqual(x.Legal(viewer), s.Legal(viewer)) {
						t.Fatalf("%s ply %d viewer %d: legal %v, want %v", variant, s.ply, viewer, x.Legal(viewer), s.Legal(viewer))
					}
					if legal := x.Legal(x.ToMove()); len(legal) > 0 {
						if _, err := x.ApplyMove(legal[r.IntN(len(legal))]); err != nil {
							t.Fatalf("%s ply %d viewer %d: %v", variant, s.ply, viewer, err)
						}
					}
				}
			})
		}
	}
	if varied == 0 {
		t.Error("no sample ever differed from the real state")
	}
}

// Every assignment of the hidden cards is drawn: over many draws each
// unseen card of the opponent turns up in each hidden place.
func TestSampleDrawsEveryAssignment(t *testing.T) {
	s, _ := New(VariantShort, 3)
	v := s.ViewFor(rules.Side0)
	r := rand.New(rand.NewPCG(1, 2))
	f1, hand := map[Card]bool{}, map[Card]bool{}
	for range 2000 {
		x, err := Sample(v, r)
		if err != nil {
			t.Fatal(err)
		}
		f1[x.p[1].front[0].card] = true
		for _, c := range x.p[1].hand {
			hand[c] = true
		}
	}
	if len(f1) != 13 || len(hand) != 13 {
		t.Errorf("over 2000 draws: %d cards in the opponent's F1, %d in its hand; want 13 each", len(f1), len(hand))
	}
}

func TestSampleRejectsImpossibleViews(t *testing.T) {
	s, _ := New(VariantShort, 3)
	r := rand.New(rand.NewPCG(1, 2))
	v := s.ViewFor(rules.Side0)
	v.Sides[1].HandCount++ // one card more than the side has
	if _, err := Sample(v, r); !errors.Is(err, ErrSample) {
		t.Errorf("hand count too big: err %v, want ErrSample", err)
	}
	v = s.ViewFor(rules.Side0)
	v.Sides[0].Hand = append(v.Sides[0].Hand[:5:5], v.Sides[0].Front[0].Card) // a card twice
	if _, err := Sample(v, r); !errors.Is(err, ErrSample) {
		t.Errorf("card twice: err %v, want ErrSample", err)
	}
	v = s.ViewFor(rules.Side0)
	v.Variant = "huge"
	if _, err := Sample(v, r); !errors.Is(err, ErrSample) {
		t.Errorf("unknown variant: err %v, want ErrSample", err)
	}
}

// withoutHistory drops the position history (the tenth field) of an
// encoded state.
func withoutHistory(enc string) string {
	f := strings.Fields(enc)
	if len(f) > 9 {
		f = f[:9]
	}
	return strings.Join(f, " ")
}
