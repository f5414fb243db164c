// Package bot is the computer player of TRENCH: it implements bot.Player
// of package rules/bot for the game key "trench" and registers itself from
// its init, so that importing it (for its side effect) is enough.
//
// # Why this search
//
// TRENCH is a game of perfect information without chance, two players
// moving in turn, with a moderate branching factor (14 moves at the start,
// about 40 to 100 in the middle game) and captures that change the
// material balance at once. That is the ground alpha-beta was made for: a
// negamax principal variation search (PVS) with iterative deepening, a
// transposition table keyed by Zobrist hashes, move ordering (the table's
// move, captures by the stars they win, two killer moves per ply and a
// history table) and a quiescence search over captures at the horizon, so
// that the evaluation is never taken in the middle of an exchange. Monte
// Carlo methods would waste their strength on a game whose positions are
// fully visible and whose material count is a good guide.
//
// # Evaluation and scores
//
// Scores are in hundredths of a star (a Soldier is 100, a General 500),
// from Black's view in [bot.Thought] (the search itself works from the
// side to move's view). The evaluation adds the stars captured so far to
// a positional count: units holding the trench (they cannot be attacked
// from the front and may capture several units leaving it), units behind
// the enemy lines (they attack the trench from behind but are exposed,
// the more so the more stars they carry), development towards the trench
// and the distance left to the ruleset's target. The ruleset
// ([trench.Ruleset]) decides what a finished game is worth: under a target
// (first to 50, 25 with BGA's equal turns, 40 in the decider) a game is
// won or lost, scored ±([bot.Win] less the plies to it); as the quiet-ply
// counter nears 50 the side ahead on points gains, since the game will end
// on points. In the official match's games 1 and 2 there is no target and
// the match totals decide, so a finished game is worth its point
// difference plus the match score carried over from earlier games
// (Request.MatchScore), with a bonus for being ahead in the totals.
//
// Expect is a logistic of the score (400 hundredths of a star, four stars,
// give about 73%); proven results give 0.999 or 0.001, finished games
// their exact result (1, 0.5, 0), counting the match totals in a match.
//
// # Levels
//
// Each level has a node budget (see [LevelNodes]) used when
// Budget.Nodes is 0; the search also stops when Budget.Stop says so,
// polled every 1024 nodes. easy searches two plies with noise added to
// the evaluation (drawn from the seed), medium is a real search with a
// small budget, hard the full search. random plays [bot.RandomMove];
// greedy the move capturing the most stars now, ties drawn from the seed.
//
// Everything is deterministic: with a node budget and a seed, Think gives
// the same answer every time. Searches in different goroutines share
// nothing but read-only tables.
package bot
