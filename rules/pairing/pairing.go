// Package pairing makes the pairings and the standings of correspondence
// tournaments: round robin, Swiss and knockout. It is pure: no I/O, no
// clock, no randomness; the same entrants and results always give the
// same pairings.
//
// A pairing is one game (or one match, where a tournament plays the
// official two-game match) between two entrants. "Colour" is the side an
// entrant plays: Side0 moves first (Black in TRENCH, Light in Trenches,
// the first player in the card game). A bye is a pairing whose Side1 is
// [Bye]; it is worth a win to Side0.
package pairing

import (
	"cmp"
	"errors"
	"slices"
)

// Bye is the Side1 of a pairing that gives Side0 a bye.
const Bye int64 = 0

// Entrant is a player in a tournament: ID is the account's id (> 0);
// Rating (Glicko scale, higher is stronger) seeds a knockout and breaks
// ties when ranking. A Withdrawn entrant keeps the results they had but
// is paired no more.
type Entrant struct {
	ID        int64
	Rating    float64
	Withdrawn bool
}

// Pairing is one game of a round: Side0 and Side1 are entrants' ids;
// Side1 == Bye gives Side0 a bye.
type Pairing struct {
	Side0, Side1 int64
}

// IsBye says whether p is a bye.
func (p Pairing) IsBye() bool { return p.Side1 == Bye }

// Reversed is p with the sides exchanged (a knockout replays a drawn
// pairing this way).
func (p Pairing) Reversed() Pairing { return Pairing{Side0: p.Side1, Side1: p.Side0} }

// Game is a pairing that has been played: Round counts from 1 and Points0
// is what Side0 scored: 1 for a win, 0.5 for a draw, 0 for a loss (a bye
// and a forfeit win count 1).
type Game struct {
	Round int
	Pairing
	Points0 float64
}

// points1 is what Side1 scored.
func (g Game) points1() float64 { return 1 - g.Points0 }

// Errors.
var (
	// ErrEntrants: fewer than two entrants, an id ≤ 0, or one entered twice.
	ErrEntrants = errors.New("pairing: need at least two entrants with distinct positive ids")
	// ErrUnknown: a game names a player who is not an entrant.
	ErrUnknown = errors.New("pairing: a game names a player who is not an entrant")
)

func checkEntrants(ids []int64) error {
	if len(ids) < 2 {
		return ErrEntrants
	}
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if id <= 0 || seen[id] {
			return ErrEntrants
		}
		seen[id] = true
	}
	return nil
}

// RoundRobin returns every round of a round robin between ids (in the
// order given), by the circle method: with n entrants, n-1 rounds (n when
// n is odd, each entrant sitting out once with a bye), every two entrants
// meeting once. The entrant with fewer Side0 games so far takes Side0, so
// no entrant's Side0 and Side1 games differ by more than two. With double, the rounds are played twice, the second time with
// colours reversed, so that every two entrants meet once with each colour.
// Errors: ErrEntrants.
func RoundRobin(ids []int64, double bool) ([][]Pairing, error) {
	if err := checkEntrants(ids); err != nil {
		return nil, err
	}
	ring := slices.Clone(ids)
	if len(ring)%2 == 1 {
		ring = append(ring, Bye)
	}
	n := len(ring)
	diff := map[int64]int{} // Side0 games minus Side1 games
	var rounds [][]Pairing
	for r := 0; r < n-1; r++ {
		var round []Pairing
		for i := 0; i < n/2; i++ {
			a, b := ring[i], ring[n-1-i]
			if a == Bye {
				a, b = b, a
			}
			p := Pairing{Side0: a, Side1: b}
			if b != Bye {
				// The entrant with more Side0 games takes Side1; on a tie,
				// the fixed entrant alternates by round, the others by table.
				switch da, db := diff[a], diff[b]; {
				case da > db:
					p = p.Reversed()
				case da == db && (i == 0 && r%2 == 1 || i > 0 && (i+r)%2 == 1):
					p = p.Reversed()
				}
				diff[p.Side0]++
				diff[p.Side1]--
			}
			round = append(round, p)
		}
		rounds = append(rounds, round)
		// Rotate every position but the first one step.
		last := ring[n-1]
		copy(ring[2:], ring[1:n-1])
		ring[1] = last
	}
	if double {
		for _, round := range rounds[:len(rounds):len(rounds)] {
			back := make([]Pairing, len(round))
			for i, p := range round {
				if p.IsBye() {
					back[i] = p
				} else {
					back[i] = p.Reversed()
				}
			}
			rounds = append(rounds, back)
		}
	}
	return rounds, nil
}

// record is what the pairing of a Swiss round needs to know of an entrant.
type record struct {
	Entrant
	points  float64
	colour  int  // Side0 games minus Side1 games
	last    int  // side of the last game: 0, 1, or -1 for none
	hadBye  bool // received a bye already
	met     map[int64]bool
	rankKey int // position in the ranking (0 = first)
}

// records builds the entrants' records from the games played. Errors:
// ErrEntrants, ErrUnknown.
func records(entrants []Entrant, played []Game) (map[int64]*record, error) {
	ids := make([]int64, len(entrants))
	for i, e := range entrants {
		ids[i] = e.ID
	}
	if err := checkEntrants(ids); err != nil {
		return nil, err
	}
	recs := make(map[int64]*record, len(entrants))
	for _, e := range entrants {
		recs[e.ID] = &record{Entrant: e, last: -1, met: map[int64]bool{}}
	}
	games := slices.Clone(played)
	slices.SortStableFunc(games, func(a, b Game) int { return cmp.Compare(a.Round, b.Round) })
	for _, g := range games {
		a, ok := recs[g.Side0]
		if !ok {
			return nil, ErrUnknown
		}
		if g.IsBye() {
			a.hadBye = true
			a.points += 1
			continue
		}
		b, ok := recs[g.Side1]
		if !ok {
			return nil, ErrUnknown
		}
		a.points += g.Points0
		b.points += g.points1()
		a.colour++
		b.colour--
		a.last, b.last = 0, 1
		a.met[b.ID], b.met[a.ID] = true, true
	}
	return recs, nil
}

// ranked orders records by points, then rating, then id.
func ranked(recs map[int64]*record) []*record {
	out := make([]*record, 0, len(recs))
	for _, r := range recs {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *record) int {
		if c := cmp.Compare(b.points, a.points); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	for i, r := range out {
		r.rankKey = i
	}
	return out
}

// sides says which of a and b (a ranked higher) takes Side0, and whether
// both colour differences stay within ±2 that way.
func sides(a, b *record) (Pairing, bool) {
	p := Pairing{Side0: a.ID, Side1: b.ID}
	switch {
	case a.colour > b.colour:
		p = p.Reversed()
	case a.colour == b.colour && a.last == 0 && b.last != 0:
		p = p.Reversed()
	case a.colour == b.colour && a.last == b.last && a.last == 0:
		p = p.Reversed()
	}
	s0, s1 := a, b
	if p.Side0 == b.ID {
		s0, s1 = b, a
	}
	return p, s0.colour+1 <= 2 && s1.colour-1 >= -2
}

// searchLimit bounds the backtracking of one pass of a Swiss pairing.
const searchLimit = 200_000

// Swiss pairs the next round of a Swiss tournament from the games played
// so far (byes included). The entrants are ranked by points, then rating;
// each entrant, from the top, meets the highest-ranked entrant still free
// (so that pairings stay within score groups as far as they can) such that
// no two entrants meet twice while that can be avoided and no entrant's
// colour difference (Side0 games less Side1 games) goes beyond ±2. With an
// odd number of entrants, the lowest-ranked entrant without a bye gets
// one; withdrawn entrants are left out. When no pairing keeps every rule, repeats are allowed first, then
// the colour limit is dropped; a pairing is always returned.
// The result lists the games from the top of the ranking down, the bye
// last. Errors: ErrEntrants (also when fewer than two entrants are left
// to pair), ErrUnknown.
func Swiss(entrants []Entrant, played []Game) ([]Pairing, error) {
	recs, err := records(entrants, played)
	if err != nil {
		return nil, err
	}
	var order []*record
	for _, r := range ranked(recs) {
		if !r.Withdrawn {
			order = append(order, r)
		}
	}
	if len(order) < 2 {
		return nil, ErrEntrants
	}
	for _, pass := range []struct{ repeats, colours bool }{{false, true}, {true, true}, {true, false}} {
		if out, ok := swissPass(order, pass.repeats, pass.colours); ok {
			return out, nil
		}
	}
	// Unreachable: the last pass pairs anyone with anyone.
	return nil, errors.New("pairing: no Swiss pairing")
}

// swissPass tries one set of rules: byes from the bottom, then a
// backtracking search over the rest.
func swissPass(order []*record, repeats, colours bool) ([]Pairing, bool) {
	candidates := []*record{nil}
	if len(order)%2 == 1 {
		candidates = candidates[:0]
		for i := len(order) - 1; i >= 0; i-- {
			if !order[i].hadBye {
				candidates = append(candidates, order[i])
			}
		}
		if len(candidates) == 0 { // everyone had one: the lowest again
			candidates = append(candidates, order[len(order)-1])
		}
	}
	for _, bye := range candidates {
		rest := make([]*record, 0, len(order))
		for _, r := range order {
			if r != bye {
				rest = append(rest, r)
			}
		}
		s := swissSearch{repeats: repeats, colours: colours, used: make([]bool, len(rest)), rest: rest}
		if s.pair(0) {
			out := s.out
			if bye != nil {
				out = append(out, Pairing{Side0: bye.ID, Side1: Bye})
			}
			return out, true
		}
	}
	return nil, false
}

type swissSearch struct {
	repeats, colours bool
	rest             []*record
	used             []bool
	out              []Pairing
	steps            int
}

// pair pairs every free entrant from index i on.
func (s *swissSearch) pair(i int) bool {
	for i < len(s.rest) && s.used[i] {
		i++
	}
	if i == len(s.rest) {
		return true
	}
	s.steps++
	if s.steps > searchLimit {
		return false
	}
	a := s.rest[i]
	s.used[i] = true
	for j := i + 1; j < len(s.rest); j++ {
		if s.used[j] {
			continue
		}
		b := s.rest[j]
		if !s.repeats && a.met[b.ID] {
			continue
		}
		p, ok := sides(a, b)
		if s.colours && !ok {
			continue
		}
		s.used[j] = true
		s.out = append(s.out, p)
		if s.pair(i + 1) {
			return true
		}
		s.out = s.out[:len(s.out)-1]
		s.used[j] = false
	}
	s.used[i] = false
	return false
}

// Knockout returns the first round of a knockout: the entrants seeded by
// rating (then id), placed in a bracket of the next power of two so that
// the top seeds meet as late as possible; the top seeds get the byes when
// the field is not a power of two. The higher seed plays Side0. Later
// rounds come from Next. Errors: ErrEntrants.
func Knockout(entrants []Entrant) ([]Pairing, error) {
	ids := make([]int64, len(entrants))
	for i, e := range entrants {
		ids[i] = e.ID
	}
	if err := checkEntrants(ids); err != nil {
		return nil, err
	}
	seeds := slices.Clone(entrants)
	slices.SortFunc(seeds, func(a, b Entrant) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	size := 2
	for size < len(seeds) {
		size *= 2
	}
	slots := bracket(size)
	out := make([]Pairing, 0, size/2)
	for i := 0; i < size; i += 2 {
		hi, lo := slots[i], slots[i+1] // seed numbers, hi < lo
		p := Pairing{Side0: seeds[hi-1].ID, Side1: Bye}
		if lo <= len(seeds) {
			p.Side1 = seeds[lo-1].ID
		}
		out = append(out, p)
	}
	return out, nil
}

// bracket returns the seed numbers (1-based) of a bracket of size slots
// in playing order: 1 v size, and the two best seeds in opposite halves.
func bracket(size int) []int {
	b := []int{1, 2}
	for len(b) < size {
		n := len(b) * 2
		next := make([]int, 0, n)
		for _, s := range b {
			next = append(next, s, n+1-s)
		}
		b = next
	}
	return b
}

// Next pairs the following knockout round from the winners of the last
// one, in bracket order (the winner of the first pairing, then of the
// second, …): neighbours meet, the winner of the upper pairing on Side0.
// One winner means the knockout is over: Next returns nil.
func Next(winners []int64) []Pairing {
	if len(winners) < 2 {
		return nil
	}
	out := make([]Pairing, 0, len(winners)/2)
	for i := 0; i+1 < len(winners); i += 2 {
		out = append(out, Pairing{Side0: winners[i], Side1: winners[i+1]})
	}
	return out
}

// Standing is one entrant's line of the standings: Points (byes and
// forfeit wins included), Games played (byes not counted), the
// tie-breaks Buchholz (the sum of the points of the opponents met) and
// Sonneborn–Berger (the points of each opponent beaten, plus half the
// points of each drawn with), and Rank from 1; entrants level on points
// and both tie-breaks share a rank.
type Standing struct {
	ID              int64
	Points          float64
	Games           int
	Buchholz        float64
	SonnebornBerger float64
	Rank            int
}

// Standings ranks the entrants by points, then those who did not
// withdraw above those who did, then Buchholz, then Sonneborn–Berger
// (then rating and id, without sharing the rank for those). Every game counts once for each of its two players.
// Errors: ErrEntrants, ErrUnknown.
func Standings(entrants []Entrant, games []Game) ([]Standing, error) {
	recs, err := records(entrants, games)
	if err != nil {
		return nil, err
	}
	rows := map[int64]*Standing{}
	for id, r := range recs {
		rows[id] = &Standing{ID: id, Points: r.points}
	}
	for _, g := range games {
		if g.IsBye() {
			continue
		}
		a, b := rows[g.Side0], rows[g.Side1]
		a.Games++
		b.Games++
		a.Buchholz += recs[g.Side1].points
		b.Buchholz += recs[g.Side0].points
		a.SonnebornBerger += g.Points0 * recs[g.Side1].points
		b.SonnebornBerger += g.points1() * recs[g.Side0].points
	}
	out := make([]Standing, 0, len(rows))
	for _, s := range rows {
		out = append(out, *s)
	}
	withdrawn := map[int64]bool{}
	for _, e := range entrants {
		withdrawn[e.ID] = e.Withdrawn
	}
	level := func(a, b Standing) int {
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c
		}
		// On equal points, who played on ranks above who withdrew.
		if c := cmp.Compare(b2i(withdrawn[a.ID]), b2i(withdrawn[b.ID])); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Buchholz, a.Buchholz); c != 0 {
			return c
		}
		return cmp.Compare(b.SonnebornBerger, a.SonnebornBerger)
	}
	slices.SortFunc(out, func(a, b Standing) int {
		if c := level(a, b); c != 0 {
			return c
		}
		if c := cmp.Compare(recs[b.ID].Rating, recs[a.ID].Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	for i := range out {
		if i > 0 && level(out[i-1], out[i]) == 0 {
			out[i].Rank = out[i-1].Rank
		} else {
			out[i].Rank = i + 1
		}
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
