// Package cards is the rules engine of Trench, the card game, for two
// players: the short game (13 cards each, ♠ against ♥) and the long game
// (26 cards each, ♠♣ against ♥♦, with a draw deck). The rules are those of
// the project's specification (shared/rules/trench-cards.md); this comment
// records how the engine reads them and what it decides where they are
// silent.
//
// # Sides and cards
//
// Side0 ("Black") is the player who created the challenge and plays ♠ (long
// game: ♠ and ♣); Side1 ("Red") plays ♥ (long game: ♥ and ♦). A card is
// written rank then suit letter: A 2 3 4 5 6 7 8 9 10 J Q K and S H C D,
// e.g. "AS", "10H", "QH", "7D", "KC".
//
// # Start
//
// Everything random comes from the game's seed: a PCG generator
// (math/rand/v2, seeded with the seed and a fixed second word) drives a
// Fisher–Yates shuffle with rejection sampling, so a seed gives the same
// game on every platform and Go release. Both decks are shuffled and their
// cards flipped in pairs, top first, until a pair does not tie; the side
// whose card wins that battle moves first (if a whole deck ties, both are
// shuffled again and the flipping goes on). The flips are public. Then both
// decks are shuffled again and dealt face down: the first 3 cards to F1–F3,
// the next 4 to B1–B4, the rest to the hand (short game) or to the draw
// deck, whose top 6 cards are then drawn into the hand (long game: 6 in
// hand, 13 in the deck). A hand is kept sorted: its order means nothing.
//
// # The table
//
// Each side has a front trench of 3 slots, F1 F2 F3, and a back trench of
// 4, B1 B2 B3 B4, set in the gaps: Fi touches Bi and Bi+1. Both sides number
// their slots the same way and the table draws both trenches left to right
// from slot 1 (the viewer's own at the bottom, the opponent's at the top),
// so the opponent's Fi is drawn straight across from one's own Fi, in the
// same column: Fi faces the opponent's Fi. Each player's screen is the
// mirror image of the other's, never a rotation, so "F2 attacks F2" holds
// on both screens.
//
// Adjacent trench slots are the neighbours in one trench (F1–F2, F2–F3,
// B1–B2, B2–B3, B3–B4) and Fi with Bi or Bi+1.
//
// # A turn
//
// A turn is exactly one action, Shift, Recon or Attack, never the action
// the same player took on its previous turn (a player's first action is
// free). Refill steps are moves but not actions: they neither count for
// nor reset that rule. While a game runs an action always exists (every
// front slot is filled, so an Attack is possible, and after an Attack a
// front swap is).
//
// Shift is one of:
//   - a swap of two adjacent trench cards (both slots filled);
//   - a swap of a back card with a hand card;
//   - the move of a back card into an empty adjacent back slot;
//   - the move of a hand card into an empty back slot.
//
// A Shift never empties a front slot and never fills an empty one. Every
// legal Shift changes the table: a slot with itself, non-adjacent slots, a
// move from an empty slot or into a filled one (other than a swap), and a
// card the player does not hold in the hand are all illegal. A face-up card
// moved inside the trenches stays face up; a card that goes to the hand
// becomes private again; a card from the hand is always face down.
//
// Recon turns one of the opponent's face-down trench cards (front or back)
// face up, and is possible only while the opponent has fewer than 3
// face-up trench cards. A card stays face up until it battles or goes back
// to its owner's hand.
//
// Attack: the player's card in Fi battles the opponent's card in Fi (see
// Compare). The winner goes back to its owner's hand, the loser leaves the
// game (the removed cards are public); on a tie both go back to their
// hands. Both cards were turned face up, so the battle is public.
//
// # Refill
//
// After a battle both Fi slots are open, on a tie as well, and each side
// refills its own:
//  1. front: a card from Bi or Bi+1 slides into Fi (the owner chooses); if
//     neither holds a card, any back card; if the back trench is empty, a
//     hand card goes straight to Fi, face down;
//  2. back: if step 1 emptied a back slot and the hand is not empty, a hand
//     card goes there face down (when step 1 took a hand card, no back slot
//     was emptied and there is no step 2);
//  3. long game: the side that lost the battle draws the top card of its
//     deck, if any (nobody draws after a tie).
//
// A card that slides forward keeps its face-up flag. The attacker refills
// at once, as the end of its turn; the defender refills at the start of its
// next turn, before its action. A step with a single possible outcome is
// applied automatically (a step with none is skipped); only steps with a
// choice wait for the player.
//
// # End
//
// A side with no card outside its front trench (back trench, hand and, in
// the long game, draw deck all empty) loses: Result is computed from the
// state after every move with its automatic steps, so the check follows
// every refill. Only a battle's loser can reach that position, and one
// refill at a time, so both sides cannot reach it together (if they did,
// the game would be a draw). Result.Score is the number of cards each side
// still holds (trenches, hand and deck), while the game runs and at the
// end, however it ended (the loser of an ordinary end holds 3 or fewer).
// Resignation and timeout lose the game; an armistice is an agreed draw.
//
// Legal, Apply and Perft follow the movement rules only, also past the end
// (where slots may stay empty); ToMove is NoSide once the game is over.
//
// # Notation
//
// Slots are F1–F3 and B1–B4, a hand card is H:<card> (e.g. H:QS). A move
// is a word and one or two places separated by single spaces:
//
//	shift Fi Fj     swap neighbouring front cards (j = i+1)
//	shift Fi Bj     swap a front card and an adjacent back card (j = i or i+1)
//	shift Bi Bj     neighbouring back slots: a swap when both are filled
//	                (written with i < j), else the move of the card in Bi
//	                into the empty Bj (j = i±1)
//	shift Bi H:c    swap the card in Bi and the hand card c
//	shift H:c Bi    put the hand card c into the empty Bi
//	recon Fi        turn the opponent's Fi face up
//	recon Bi        turn the opponent's Bi face up
//	attack Fi       attack the opponent's Fi with one's own Fi
//	refill Fi Bj    refill step 1: slide the card in Bj into the open Fi
//	refill Fi H:c   refill step 1 with an empty back trench: hand card c to Fi
//	refill Bj H:c   refill step 2: hand card c into the emptied Bj
//
// Each move has exactly one spelling: a swap is written front before back
// and lower slot first; a move names the source first, except refills,
// which name the slot being filled first. Clicks are the words of a move:
// "shift B3 H:QS" is the clicks "shift", "B3", "H:QS"; a refill, whose
// slot the phase already names, is the one click of its card: "refill F2
// B3" is the click "B3".
//
// # Record, log and replay
//
// The game record (Record) is the variant, the seed and the chosen moves;
// the automatic steps are not in it, because Apply performs them after the
// chosen move and they follow from it, so replaying the moves from
// New(variant, seed) rebuilds the game exactly. The log shows them:
// Describe appends them to the line of the move that caused them, e.g.
// "attack F2: 5S × KH, KH wins; Black refill F2 B2 (forced)" or
// "refill B3 H; Black draws a card". Ply counts the chosen moves only.
//
// # Hidden information
//
// The server never shows a card to a player who may not see it. State holds
// the full truth and is stored only; a player sees a View (ViewFor):
// own cards always (with the face-up flag that says the opponent sees them
// too), the opponent's face-up trench cards, for a face-down card only that
// the slot is filled (no identity, no identifier), hand and deck sizes, the
// removed cards, the last battle, the flips and the no-repeat state. A
// spectator (rules.NoSide) sees only what is face up; nobody but
// rules.Reveal (after the end) sees a deck's order, the seed or the deal.
// Describe writes the other side's hand cards as "H" ("shift B3 H") and a
// draw as "draws a card"; what it names, a Recon's card or a battle, is
// public from that move on.
package cards
