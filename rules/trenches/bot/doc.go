// Package bot is the computer player of Trenches (shared/rules/trenches.md),
// registered with rules/bot under the game key "trenches".
//
// # Search
//
// The player runs a selective alpha-beta search (negamax with principal
// variation search) under iterative deepening, with a transposition table
// keyed by Zobrist hashes and killer moves. Trenches has the branching
// factor of Game of the Amazons (well over a thousand moves in crowded
// positions, since a Soldier's move multiplies its landing squares by its
// grenade squares), so a full-width search cannot see past two plies. But
// the game is decided slowly — by which side runs out of moves first — and
// the static evaluation of a position is cheap and telling (bitboard flood
// fills), so the search ranks every move of an inner node by the static
// value of the position it leads to and searches only the best few deeper
// (a beam), while the last ply is searched in full: every reply is looked
// at, so a move that lets the opponent wall in the last mobile piece is
// never missed at the horizon, and a move that leaves the opponent no legal
// move is always found. Random playouts, which Monte Carlo tree search
// would need, are long (up to 84 plies) and say little in this game, so
// that method was not chosen.
//
// # Evaluation
//
// The evaluation (in the unit of Thought.Score: a tenth of an empty square)
// counts, from Light's view:
//   - territory: the empty squares each side reaches in fewer Queen moves
//     than the other (as in Amazons programs), and in fewer King steps;
//   - mobility: the pieces that have a legal move, the empty squares around
//     each Tank (a Tank with none is walled in for good, since grenades may
//     not land next to a Tank but pieces and departing Tanks may fill its
//     neighbours), and the squares each Soldier reaches.
//
// # Levels
//
// Easy searches one ply with much evaluation noise (from the seed); medium
// searches two plies with a narrow beam; hard deepens as far as its node
// budget allows. Random plays bot.RandomMove; greedy plays the move that
// leaves the opponent the fewest mobile pieces. Each searching level has a
// node budget (NodeBudget) used when Budget.Nodes is 0.
//
// The player is pure: it reads no clock (Budget.Stop is polled every 2048
// nodes), draws its randomness only from Request.Seed, and keeps all of a
// search's state in that search, so concurrent searches are safe and a
// search with a node budget and a seed always gives the same answer.
package bot
