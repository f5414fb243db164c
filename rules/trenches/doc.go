// Package trenches implements Trenches, the two-player game of Tanks,
// Soldiers and Debris on a 10×10 board, as specified in the project's rules
// page (shared/rules/trenches.md, "the spec" below).
//
// # Rules in short
//
// The board has 100 squares a1–j10 (files a–j, ranks 1–10). Light and Dark
// each own four Tanks and four Soldiers; Light moves first. A turn is one
// piece moving like a chess Queen onto an empty square without crossing a
// piece or Debris. A Tank then leaves Debris on the square it came from. A
// Soldier then throws a grenade, again like a Queen but from its landing
// square, onto an empty square that becomes Debris; the square the Soldier
// has just left counts as empty. A grenade may never land on one of the
// eight squares around any Tank (of either side), although it may fly over
// them, and a Soldier may not move to a square from which it has no legal
// grenade. Nothing is captured. The player to move who has no legal move
// loses; the winner scores the number of their pieces that still have a
// legal move.
//
// # Model
//
// The types follow the style of a chess move generator: [Square] is a small
// index, [Piece] the content of a square, [SquareSet] a 100-bit set,
// [Position] an immutable value (board and side to move) and [Move] a plain
// value. [Position.LegalMoves] uses precomputed ray tables and a mask of
// the squares protected by Tanks, so a full move list of a crowded position
// (well over a thousand moves) takes microseconds.
//
// Text formats (spec, "Notation"): a Tank move is written "a4-a6", a
// Soldier move "b4-b6/d8", and a position as in [StartFEN].
//
// [Engine] and [State] adapt the package to the rules.Engine and
// rules.State interfaces; the engine registers itself under the key
// "trenches" when the package is imported.
package trenches
