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
// transposition table keyed by Zobrist hashes (the quiet counter joins the
// key once it passes 30), move ordering (the table's move, captures by
// the stars they win with the least valuable capturer first, two killer
// moves per ply and a history table), null-move pruning, late quiet moves
// searched a ply or two shallower first, and a quiescence search over
// captures at the horizon (with delta pruning, never for a capture that
// may reach the target), so that the evaluation is never taken in the
// middle of an exchange. Monte Carlo methods would waste their strength
// on a game whose positions are fully visible and whose material count is
// a good guide.
//
// The search plays on a board of its own (copy-make, an incremental hash,
// unit and star counts), whose move generator walks the lines exactly as
// the rules do; the tests check it against trench.Position.LegalMoves.
//
// # Evaluation and scores
//
// Scores are in hundredths of a star (a Soldier is 100, a General 500),
// from Black's view in [bot.Thought] (the search itself works from the
// side to move's view). The evaluation adds the stars captured so far to
// a positional count: units holding the trench (they cannot be attacked
// from the front and may capture several units leaving it), units behind
// the enemy lines (they attack the trench from behind but are exposed,
// the more so the more stars they carry) and development towards the
// trench. The ruleset ([trench.Ruleset]) decides what a finished game is
// worth and how the stars count: under a target (first to 50, 25 with
// BGA's equal turns, 40 in the decider) a game is won or lost, scored
// ±([bot.Win] less the plies to it), and a star is worth more the nearer
// it brings its side to the target; as the quiet-ply counter passes 30
// the value slides towards that of the game ending on the points as they
// stand, which it reaches at 50. In the official match's games 1 and 2
// there is no target and the match totals decide: the value counts the
// match score carried over from earlier games (Request.MatchScore); a
// finished game 1 is worth its lead in the totals plus a bonus for being
// ahead, and a finished game 2 (told apart by a non-zero match score) a
// match won or lost, a tie (which calls the decider) being even.
//
// Expect is a logistic of the score (400 hundredths of a star, four stars,
// give about 73%) within [0.02, 0.98]; proven results give 0.999 or
// 0.001, finished games their exact result (1, 0.5, 0), counting the
// match totals in a match.
//
// # Levels
//
// Each level has a node budget (see [LevelNodes]) used when
// Budget.Nodes is 0; the search also stops when Budget.Stop says so,
// polled every 1024 nodes. easy searches one ply and one ply of captures
// with noise of up to two stars added to the evaluation (drawn from the
// seed): it takes what is offered and misses what it gives away. medium
// is the full search on 40 000 nodes with a little noise, hard the full
// search on 250 000 nodes (about a seventh of a second on one core). random
// plays [bot.RandomMove]; greedy the move capturing the most stars now,
// ties drawn from the seed.
//
// Everything is deterministic: with a node budget and a seed, Think gives
// the same answer every time. Searches in different goroutines share
// nothing but read-only tables.
package bot
