// Package bot is the computer player of Trench, the card game
// (rules/cards), registered as "cards" with the players of rules/bot.
//
// # What it sees
//
// Think reads nothing of the state but st.View(req.Side): the computer's
// own cards, the opponent's face-up cards, the counts of hands and decks,
// the removed cards, the last battle and the flips — exactly what a person
// at that seat sees. Where it needs a whole game to play on, it draws the
// cards it cannot see (the opponent's face-down cards, hand and deck, the
// order of its own deck) with cards.Sample, every assignment consistent
// with the view being equally likely. Two states that differ only in
// cards hidden from the computer therefore get the same answer for the
// same request.
//
// # Search
//
// Easy, Medium and Hard search by determinized flat Monte Carlo: every
// playout redraws the hidden cards, plays one of the computer's moves,
// then plays the game on for a number of plies with a quick rule of thumb
// for both sides, and scores the end (won, lost) or the card balance
// reached. The moves share the budget by sequential halving: in each round
// every move still in the running is played out on the same fresh draws
// of the hidden cards with the same random numbers (so that moves are
// compared on equal deals), and the worse half is dropped; the best of the
// last round is played.
//
// Why this suits a game of hidden cards: a search that fixes one guess of
// the hidden cards plays as if it could see them (it would attack a
// face-down card it "knows" is weak). Averaging every move over many
// fresh draws values it against what the opponent may really hold; and
// the decision is taken once, at the root, over all the draws together,
// so the computer never plans a later move that only works for one
// particular guess (the "strategy fusion" of deeper determinized trees).
// The rule of thumb of the playouts also reads only what its side would
// see (its own cards and the opponent's face-up ones), so the simulated
// players do not play with open cards either. What it forgets: the view
// carries no history, so a card it once saw (a Recon, a battle won) and
// that went back to a hand face down again is unknown to it like any
// other.
//
// The levels differ by their node budget (plies played in the playouts,
// NodeBudget: easy 400, medium 4 000, hard 400 000), the length of a
// playout (8, 10 and 60 plies) and the share of random moves in it (half
// for easy, a tenth otherwise); a Budget.Nodes above 0 replaces the
// level's budget. The strength of this search levels off quickly with its
// budget, so the budgets of easy and medium are small. Random plays
// rbot.RandomMove's move; Greedy an attack it knows wins (the facing card
// is face up and loses, or every card the opponent may have there loses),
// else a random move. Every level but Random plays at once an attack it
// knows wins the game (a battle it surely wins that leaves the opponent
// nothing outside its front trench once refilled).
//
// # Answer
//
// Thought.Move is one of st.Legal(req.Side) (empty when req.Side is not to
// act: the search then only evaluates); Expect is the mean playout result
// for Side0; Score is Expect in thousandths above a draw (−500 … +500),
// or ±(rbot.Win − 1) for an attack that wins the game; Depth is 1 (the
// search decides at the root only); Nodes the plies played. The search is
// pure and deterministic: all randomness comes from Request.Seed, and it
// stops at the node budget or when Budget.Stop says so (polled every 2048
// nodes).
package bot
