// Package trench implements the rules of TRENCH, the diamond-board game of
// trench warfare: an 8×8 board split by the trench (the diagonal a8–h1),
// two armies of 16 units whose stars (1–5) give their reach and their
// value, captures that depend on where the moving unit started, and the
// three rulesets of the project's specification (rules/trench.md): the
// official two-game match, the official single game and the Board Game
// Arena rules.
//
// The package has two layers. The first is a small, allocation-light
// chess-library style model: [Square], [Kind], [Unit], the immutable
// value type [Position], [Move] and the notation of both ([ParsePosition],
// [Position.String], [ParseMove], [Move.String]). The second is the
// [Engine] and [State] pair that implement the rules.Engine and
// rules.State interfaces the game flow is written against, and registers
// the engine under the key "trench".
//
// Sides: Side0 of package rules is Black ([Black]), who moves first;
// Side1 is White ([White]).
package trench
