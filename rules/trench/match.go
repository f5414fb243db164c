package trench

import (
	"math/rand/v2"

	"github.com/trench-games/trench/rules"
)

// deciderStream is the second PCG word of the decider's lot, so that the
// lot does not share its stream with other uses of the same seed.
const deciderStream = 0x7472656e6368 // "trench"

// DeciderSwapped draws by lot, from seed, whether the match's first player
// (Black in game 1) plays White in the decider. The same seed always gives
// the same lot (math/rand/v2 PCG, no global randomness).
func DeciderSwapped(seed int64) bool {
	rng := rand.New(rand.NewPCG(uint64(seed), deciderStream))
	return rng.IntN(2) == 1
}

// matchPlayer maps a side of a game to the match player who played it
// (0 = Black in game 1).
func matchPlayer(side rules.Side, swapped bool) int {
	p := int(side)
	if swapped {
		p ^= 1
	}
	return p
}

// NextInMatch decides what follows the finished games of a match started
// with variant (spec "Official match"). Totals sum the games' points per
// match player (player 0 played Black in game 1; a Swapped game gives
// player 0 the White score): in the official match the points of game 1
// and game 2 only, the decider's score standing on its own.
//
//   - "single", "bga" (and any other key): one game; Done once it is
//     played, won by the winner of that game (-1 if drawn).
//   - With more games than the variant plays, the extra games count in
//     the totals only.
//   - "match" (or ""): game 1, then game 2 with colours swapped; after
//     game 2 the higher total wins the match; equal totals call a third
//     game {Variant: "decider", Swapped: DeciderSwapped(seed)}, whose
//     winner wins the match, a drawn decider being a drawn match (-1).
func NextInMatch(variant string, games []rules.MatchGame, seed int64) rules.MatchStep {
	var step rules.MatchStep
	if variant == "" {
		variant = RulesetMatch.Key
	}
	for i, g := range games {
		if variant == RulesetMatch.Key && i >= 2 {
			break // the decider does not add to the match totals
		}
		for side := Black; side <= White; side++ {
			step.Totals[matchPlayer(side, g.Spec.Swapped)] += g.Result.Score[side]
		}
	}
	winnerOf := func(g rules.MatchGame) int {
		if !g.Result.Winner.Valid() {
			return -1
		}
		return matchPlayer(g.Result.Winner, g.Spec.Swapped)
	}
	if variant != RulesetMatch.Key {
		if len(games) == 0 {
			step.Next = rules.GameSpec{Variant: variant}
			return step
		}
		step.Done = true
		step.Winner = winnerOf(games[0])
		return step
	}
	switch len(games) {
	case 0:
		step.Next = rules.GameSpec{Variant: RulesetMatch.Key}
	case 1:
		step.Next = rules.GameSpec{Variant: RulesetMatch.Key, Swapped: true}
	case 2:
		switch {
		case step.Totals[0] > step.Totals[1]:
			step.Done, step.Winner = true, 0
		case step.Totals[1] > step.Totals[0]:
			step.Done, step.Winner = true, 1
		default:
			step.Next = rules.GameSpec{Variant: RulesetDecider.Key, Swapped: DeciderSwapped(seed)}
		}
	default:
		step.Done = true
		step.Winner = winnerOf(games[2])
	}
	return step
}
