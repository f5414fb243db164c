package lessons

import (
	"fmt"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	// The computer players of the three games register themselves.
	_ "github.com/trench-games/trench/rules/cards/bot"
	_ "github.com/trench-games/trench/rules/trench/bot"
	_ "github.com/trench-games/trench/rules/trenches/bot"
)

// Final is the small game that ends a course: the learner plays it out
// against the computer at FinalLevel from a reduced position the course
// chooses.
type Final struct {
	Title string // message ID, e.g. "A game against the computer"
	Task  string // message ID: what the game is about
	// Position is the start in the game's notation, the learner to move;
	// "" starts a new game of the course's variant dealt from Seed (the
	// card game, whose deal is hidden).
	Position string
	Seed     int64
}

// FinalLevel is the computer's level in a course's final game.
const FinalLevel = bot.Easy

// maxFinalMoves bounds the learner's moves in a final game (a reduced
// position ends long before).
const maxFinalMoves = 200

// FinalGame is a course's final game replayed from the learner's moves.
type FinalGame struct {
	Learner rules.Side
	// States are the positions after each learner move and the
	// computer's replies that follow it; States[0] is the start.
	States []rules.State
	// Played are the moves made between States[i] and States[i+1], the
	// learner's first, then the computer's.
	Played [][]string
}

// Last is the position the game reached.
func (f FinalGame) Last() rules.State { return f.States[len(f.States)-1] }

// Over reports whether the game has ended.
func (f FinalGame) Over() bool { return f.Last().Result().Over }

// FinalStart returns the state the course's final game starts from.
// Errors: a position that does not parse (wrapping rules.ErrNotation).
func (c Course) FinalStart() (rules.State, error) {
	if c.Final.Position == "" {
		return c.Engine().Start(rules.GameSpec{Variant: c.Variant}, c.Final.Seed)
	}
	return c.Engine().Decode(c.Variant, c.Final.Position)
}

// PlayFinal replays the learner's moves of the course's final game: after
// each, the computer (the game's player at FinalLevel, within its own node
// budget, seeded by the course and the ply, so that every replay gives
// the same replies) moves until the learner is to move again or the game
// is over. A move the engine refuses, or one made after the end, is an
// error wrapping rules.ErrIllegal or rules.ErrNotation; the game then
// holds the moves before it.
func (c Course) PlayFinal(moves []string) (FinalGame, error) {
	start, err := c.FinalStart()
	if err != nil {
		return FinalGame{}, err
	}
	player, ok := bot.Lookup(c.Game)
	if !ok {
		return FinalGame{}, fmt.Errorf("lessons: no computer player for %s", c.Game)
	}
	f := FinalGame{Learner: Learner(start), States: []rules.State{start}}
	if len(moves) > maxFinalMoves {
		return f, fmt.Errorf("%w: the game has ended", rules.ErrIllegal)
	}
	for _, m := range moves {
		st := f.Last()
		if st.Result().Over || st.ToMove() != f.Learner {
			return f, fmt.Errorf("%w: the game has ended", rules.ErrIllegal)
		}
		next, err := st.Apply(m)
		if err != nil {
			return f, err
		}
		played := []string{m}
		for k := 0; k < 16 && !next.Result().Over && next.ToMove() != f.Learner && next.ToMove().Valid(); k++ {
			side := next.ToMove()
			th, err := player.Think(next, bot.Request{Level: FinalLevel, Side: side,
				Seed: c.Final.Seed ^ int64(next.Ply()+1)*0x2545f4914f6cdd1d})
			if err != nil || th.Move == "" {
				break
			}
			after, err := next.Apply(th.Move)
			if err != nil {
				return f, fmt.Errorf("lessons: the computer's move %q: %w", th.Move, err)
			}
			next = after
			played = append(played, th.Move)
		}
		f.States = append(f.States, next)
		f.Played = append(f.Played, played)
	}
	return f, nil
}
