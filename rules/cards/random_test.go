package cards

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trench-games/trench/rules"
)

// randomGame plays a game with uniformly random legal moves (seeded) until
// it ends, calling each for every position, and returns the record.
func randomGame(t *testing.T, variant string, seed int64, each func(s *State, move string, next *State)) (Record, *State) {
	t.Helper()
	s, err := New(variant, seed)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(seed), 99))
	rec := Record{Variant: variant, Seed: seed}
	for !s.Result().Over {
		if s.ply > 5000 {
			t.Fatalf("%s seed %d: no end after %d plies", variant, seed, s.ply)
		}
		legal := s.Legal(s.ToMove())
		m := legal[r.IntN(len(legal))]
		n, err := s.ApplyMove(m)
		if err != nil {
			t.Fatalf("%s seed %d ply %d: %s: %v", variant, seed, s.ply, m, err)
		}
		if each != nil {
			each(s, m, n)
		}
		rec.Moves = append(rec.Moves, m)
		s = n
	}
	return rec, s
}

func TestRandomGamesInvariants(t *testing.T) {
	t.Parallel()
	games := map[string]int{VariantShort: 1500, VariantLong: 500}
	if testing.Short() {
		games = map[string]int{VariantShort: 200, VariantLong: 80}
	}
	for variant, n := range games {
		wins := [2]int{}
		plies := 0
		for g := range n {
			seed := int64(g)*7919 + 1
			first, _ := New(variant, seed)
			checkInvariants(t, first)
			_, end := randomGame(t, variant, seed, func(s *State, m string, next *State) {
				if next.ply != s.ply+1 {
					t.Fatalf("ply %d after %d", next.ply, s.ply)
				}
				checkInvariants(t, next)
			})
			wins[end.Result().Winner]++
			plies += end.ply
		}
		t.Logf("%s: %d games, %d plies on average, wins %v", variant, n, plies/n, wins)
		if wins[0] == 0 || wins[1] == 0 {
			t.Errorf("%s: one side never wins: %v", variant, wins)
		}
	}
}

func TestEncodeDecodeEveryPly(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{VariantShort, VariantLong} {
		for g := range 40 {
			randomGame(t, variant, int64(1000+g), func(s *State, m string, next *State) {
				before := s.Encode()
				for _, st := range []*State{s, next} {
					enc := st.Encode()
					d, err := Decode(variant, enc)
					if err != nil {
						t.Fatalf("ply %d: Decode(%q): %v", st.ply, enc, err)
					}
					if !reflect.DeepEqual(d, st) {
						t.Fatalf("ply %d: Decode(Encode) differs:\n%s\n%s", st.ply, enc, d.Encode())
					}
					if d.Encode() != enc || d.Ply() != st.Ply() {
						t.Fatalf("ply %d: round trip", st.ply)
					}
				}
				if s.Encode() != before {
					t.Fatalf("ply %d: Apply changed its receiver", s.ply)
				}
			})
		}
	}
}

func TestApplyDoesNotShareSlices(t *testing.T) {
	s, _ := New(VariantLong, 5)
	enc := s.Encode()
	for _, m := range s.Legal(s.turn) {
		n := play(t, s, m)
		// Scribble over the new state's slices: the old one must not see it.
		for u := range n.p {
			for i := range n.p[u].hand {
				n.p[u].hand[i] = NoCard
			}
			for i := range n.p[u].deck {
				n.p[u].deck[i] = NoCard
			}
		}
		if s.Encode() != enc {
			t.Fatalf("%s: states share slices", m)
		}
	}
	// Views are copies too.
	v := s.ViewFor(rules.Reveal)
	v.Sides[0].Hand[0] = NoCard
	v.Sides[0].Deck[0] = NoCard
	v.Deal[0].Hand[0] = NoCard
	v.Flips[0].Cards[0] = NoCard
	if s.Encode() != enc || s.start.Deal[0].Hand[0] == NoCard || s.start.Flips[0].Cards[0] == NoCard {
		t.Fatal("a view shares the state's slices")
	}
}

func TestDeterminism(t *testing.T) {
	for _, variant := range []string{VariantShort, VariantLong} {
		seen := map[string]int64{}
		for seed := int64(-20); seed < 200; seed++ {
			a, _ := New(variant, seed)
			b, _ := New(variant, seed)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("seed %d: two different games", seed)
			}
			if other, dup := seen[a.Encode()[len("c1 "+variant+" "):]]; dup {
				t.Errorf("seeds %d and %d deal alike", other, seed)
			}
			key := a.Encode()
			seen[key[len("c1 "+variant+" "):]] = seed
			deal := a.Start().Deal
			for u := range 2 {
				all := append(append(append(deal[u].Front[:], deal[u].Back[:]...), deal[u].Hand...), deal[u].Deck...)
				slices.Sort(all)
				if !slices.Equal(all, deckOf(variant, rules.Side(u))) {
					t.Fatalf("seed %d: side %d dealt %v", seed, u, all)
				}
			}
		}
		// Same seed, same random game.
		r1, e1 := randomGame(t, variant, 42, nil)
		r2, e2 := randomGame(t, variant, 42, nil)
		if !slices.Equal(r1.Moves, r2.Moves) || e1.Encode() != e2.Encode() {
			t.Errorf("%s: seed 42 played twice differs", variant)
		}
	}
}

func TestFlipsDecideTheFirstPlayer(t *testing.T) {
	firsts := [2]int{}
	ties := 0
	for seed := int64(0); seed < 500; seed++ {
		for _, variant := range []string{VariantShort, VariantLong} {
			s, _ := New(variant, seed)
			st := s.Start()
			if len(st.Flips) == 0 {
				t.Fatal("no flips")
			}
			for i, f := range st.Flips {
				c := Compare(f.Cards[0].Rank(), f.Cards[1].Rank())
				last := i == len(st.Flips)-1
				if last != (c != 0) {
					t.Fatalf("seed %d: flip %d of %d compares %d", seed, i, len(st.Flips), c)
				}
				if last && (c > 0) != (st.First == rules.Side0) {
					t.Fatalf("seed %d: first %d after %v", seed, st.First, f)
				}
				if !ownedBy(variant, f.Cards[0], rules.Side0) || !ownedBy(variant, f.Cards[1], rules.Side1) {
					t.Fatalf("seed %d: flip %v", seed, f)
				}
			}
			ties += len(st.Flips) - 1
			firsts[st.First]++
			if s.turn != st.First || s.ToMove() != st.First {
				t.Fatalf("seed %d: %d moves, %d won the flips", seed, s.turn, st.First)
			}
		}
	}
	if firsts[0] < 300 || firsts[1] < 300 || ties == 0 {
		t.Errorf("first players %v, %d ties", firsts, ties)
	}
}

// TestGoldenDeal pins the deal of two seeds: a stored game must replay the
// same on every build.
func TestGoldenDeal(t *testing.T) {
	for _, tc := range []struct {
		variant string
		seed    int64
		enc     string
		flips   string
		perft   [4]int64
	}{
		{VariantShort, 1, "c1 short 1 0 0 0 5S,AS,9S/4S,3S,8S,7S/2S,6S,10S,JS,QS,KS///-/--0 6H,QH,2H/8H,4H,7H,10H/AH,3H,5H,9H,JH,KH///-/--0 -",
			"[{[JS JH]} {[3S 2H]}]", [4]int64{1, 45, 1896, 26164}},
		{VariantLong, 1, "c1 long 1 0 1 0 4S,10S,QS/JC,6S,KC,10C/AS,3S,8S,4C,7C,8C/AC,3C,2S,9C,QC,KS,9S,5S,6C,2C,7S,5C,JS//-/--0 JH,9D,5H/QD,9H,6H,4D/AH,2H,8H,AD,3D,JD/2D,8D,7D,QH,KH,10D,7H,5D,KD,4H,3H,6D,10H//-/--0 -",
			"[{[2S 8H]}]", [4]int64{1, 45, 1896, 26162}},
	} {
		s, _ := New(tc.variant, tc.seed)
		if got := s.Encode(); got != tc.enc {
			t.Errorf("%s %d:\n got %s\nwant %s", tc.variant, tc.seed, got, tc.enc)
		}
		if got := fmt.Sprint(s.Start().Flips); got != tc.flips {
			t.Errorf("%s %d: flips %s, want %s", tc.variant, tc.seed, got, tc.flips)
		}
		for d, want := range tc.perft {
			if got := s.Perft(d); got != want {
				t.Errorf("Perft(%d) = %d, want %d", d, got, want)
			}
		}
	}
}

func TestPerftMatchesLegal(t *testing.T) {
	for _, variant := range []string{VariantShort, VariantLong} {
		s, _ := New(variant, 11)
		// Walk into the middle of a game, with refills on the way.
		s = play(t, s, s.Legal(s.turn)[0])
		for s.Phase() == PhaseAction && s.ply < 6 {
			s = play(t, s, s.Legal(s.turn)[0])
		}
		enc := s.Encode()
		var sum int64
		for _, m := range s.Legal(s.turn) {
			n := play(t, s, m)
			sum += int64(len(n.Legal(n.turn)))
		}
		if got := s.Perft(2); got != sum {
			t.Errorf("%s: Perft(2) = %d, want %d", variant, got, sum)
		}
		if s.Perft(1) != int64(len(s.Legal(s.turn))) || s.Perft(0) != 1 {
			t.Errorf("%s: Perft(1)", variant)
		}
		if s.Encode() != enc {
			t.Error("Perft changed the state")
		}
	}
}

func TestRecordReplay(t *testing.T) {
	for _, variant := range []string{VariantShort, VariantLong} {
		rec, end := randomGame(t, variant, 77, nil)
		text := rec.String()
		back, err := ParseRecord(text)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, rec) {
			t.Fatalf("ParseRecord(String) differs")
		}
		got, err := back.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, end) || got.Ply() != len(rec.Moves) {
			t.Fatalf("%s: replay differs", variant)
		}
		for _, viewer := range []rules.Side{rules.Side0, rules.Side1, rules.NoSide, rules.Reveal} {
			log, err := rec.Log(viewer)
			if err != nil || len(log) != len(rec.Moves) {
				t.Fatalf("Log(%d): %d lines, %v", viewer, len(log), err)
			}
		}
		// A record whose move is not legal does not replay.
		bad := Record{Variant: variant, Seed: 77, Moves: append(slices.Clone(rec.Moves[:3]), "shift F1 F1")}
		if _, err := bad.Replay(); err == nil {
			t.Error("an illegal record replayed")
		}
	}
}

// TestPastTheEnd plays on after the end under the movement rules (as
// Perft does): nothing breaks, no card is lost, the text round-trips, the
// views hold no hidden card. (The result past the end means nothing: a
// beaten side that wins a battle there has a hand card again.)
func TestPastTheEnd(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{VariantShort, VariantLong} {
		total := 2 * len(deckOf(variant, rules.Side0))
		for g := range 60 {
			_, s := randomGame(t, variant, int64(9000+g), nil)
			r := rand.New(rand.NewPCG(uint64(g), 5))
			for range 100 {
				legal := s.Legal(s.turn)
				if len(legal) == 0 {
					if s.Perft(1) != 0 {
						t.Fatal("Perft disagrees with Legal")
					}
					break
				}
				s = play(t, s, legal[r.IntN(len(legal))])
				n := len(s.p[0].removed) + len(s.p[1].removed)
				for u := range s.p {
					n += s.p[u].held()
				}
				if n != total {
					t.Fatalf("%d cards", n)
				}
				d, err := Decode(variant, s.Encode())
				if err != nil || !reflect.DeepEqual(d, s) {
					t.Fatalf("round trip past the end: %v", err)
				}
				for _, v := range viewers {
					checkView(t, s, v)
				}
			}
		}
	}
}
