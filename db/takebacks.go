package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/trench-games/trench/rules"
)

// Takebacks: when a game's challenge allowed them, a player who has just
// moved may ask to take the move back until the opponent replies; the
// opponent accepts or declines. An accepted takeback removes the move in
// one transaction guarded by the ply: the position (and with it the
// quiet-ply count) is the game replayed without the move, the scores are
// that position's, and the mover's clock is as it was when they moved.
// A move that ended the game cannot be taken back (the game and perhaps
// the match are over), so the match state never changes. Not offered in
// the card game: a played card has been seen.

// TakebackRefusal returns why takebacks are not possible at all in g
// ("" when they are allowed): the card game never has them, and a game
// whose challenge did not allow them has none.
func TakebackRefusal(g Game) string {
	if err := TakebackRefusalError(g); err != nil {
		return err.Error()
	}
	return ""
}

// TakebackRefusalError is TakebackRefusal as a KindInvalid *Error (nil
// when takebacks are allowed), whose format and values the web layer
// translates.
func TakebackRefusalError(g Game) error {
	e, err := g.Engine()
	if err != nil {
		return Errorf(KindInvalid, "This game is unknown to the server.")
	}
	if rules.HidesInformation(e) {
		return Errorf(KindInvalid, "Takebacks are not offered in Trench, the card game: a played card has been seen.")
	}
	if !g.Takebacks {
		return Errorf(KindInvalid, "This game was agreed without takebacks.")
	}
	return nil
}

// CanAskTakeback reports whether side may ask to take back its last move
// in g now: takebacks are allowed, side made the last move and the
// opponent has not replied, no request is open and the opponent has not
// declined one for this move.
func (g Game) CanAskTakeback(side rules.Side) bool {
	return side.Valid() && !g.Finished() && TakebackRefusal(g) == "" && g.Ply > 0 &&
		g.ToMove == side.Other() && g.TakebackBy == rules.NoSide && g.TakebackDeclined != g.Ply
}

// AskTakeback records userID's request to take back their last move in
// game id (made against ply). Errors: KindNotFound; KindForbidden (not a
// player); KindConflict (finished, the game moved on since ply, the
// opponent has replied, a request is open, or the opponent declined a
// takeback of this move); KindInvalid (the card game, or a game agreed
// without takebacks).
func (db *DB) AskTakeback(ctx context.Context, gameID, userID int64, ply int, now time.Time) (Game, error) {
	return db.inGame(ctx, gameID, userID, ply, now, func(tx *Tx, g Game, st rules.State, side rules.Side) error {
		if err := TakebackRefusalError(g); err != nil {
			return err
		}
		switch {
		case g.Ply == 0:
			return Errorf(KindConflict, "No move has been played yet: there is nothing to take back.")
		case g.ToMove == side:
			return Errorf(KindConflict, "Your opponent has already replied: a move can be taken back only until they reply.")
		case g.TakebackBy == side:
			return Errorf(KindConflict, "You have already asked to take back your move; waiting for the answer.")
		case g.TakebackDeclined == g.Ply:
			return Errorf(KindConflict, "Your opponent declined to let you take back this move.")
		}
		last, err := lastMove(ctx, tx, g)
		if err != nil {
			return err
		}
		if last.Side != side {
			return Errorf(KindConflict, "The last move is your opponent's: only your own last move can be taken back.")
		}
		return updateGame(ctx, tx, g, now, `takeback_by = ?`, int(side))
	})
}

// AnswerTakeback accepts or declines the opponent's open request to take
// back their last move in game id (made against ply). Accepting removes
// the move in this transaction, guarded by ply: the position, the
// quiet-ply count and the scores are the game's before it, the mover is
// to move again with the time they had left when they made it, any open
// armistice offer lapses, both players' conditional moves are cleared
// (they were planned against a position that no longer stands) and the
// opponent's "your move" mail about the move is forgotten (the move
// played instead is mailed again).
// Declining records that this move may not be asked about again.
// Errors: as AskTakeback, and KindConflict when no request from the
// opponent is open (a move by the viewer voids it).
func (db *DB) AnswerTakeback(ctx context.Context, gameID, userID int64, ply int, accept bool, now time.Time) (Game, error) {
	return db.inGame(ctx, gameID, userID, ply, now, func(tx *Tx, g Game, st rules.State, side rules.Side) error {
		if err := TakebackRefusalError(g); err != nil {
			return err
		}
		if g.TakebackBy != side.Other() {
			return Errorf(KindConflict, "There is no takeback request from your opponent to answer.")
		}
		if !accept {
			return updateGame(ctx, tx, g, now, `takeback_by = NULL, takeback_declined = ?`, g.Ply)
		}
		return takeBack(ctx, tx, g, now)
	})
}

// lastMove returns the stored move at g's ply.
func lastMove(ctx context.Context, q queryer, g Game) (takenMove, error) {
	var m takenMove
	var side int
	var created int64
	var bank, started, turnPly sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT side, move, created_at, bank_before_s, turn_started_before, turn_ply_before
		FROM moves WHERE game_id = ? AND ply = ?`, g.ID, g.Ply).Scan(&side, &m.Move, &created, &bank, &started, &turnPly)
	if errors.Is(err, sql.ErrNoRows) {
		return m, Errorf(KindConflict, "No move has been played yet: there is nothing to take back.")
	}
	if err != nil {
		return m, fmt.Errorf("db: last move: %w", err)
	}
	m.Side, m.At = rules.Side(side), fromUnix(created)
	if bank.Valid && started.Valid && turnPly.Valid {
		m.Clock = true
		m.BankBefore, m.TurnStarted, m.TurnPly = secs(bank.Int64), fromUnix(started.Int64), int(turnPly.Int64)
	}
	return m, nil
}

// takenMove is the last move of a game with the mover's clock before it.
type takenMove struct {
	Side        rules.Side
	Move        string
	At          time.Time
	Clock       bool // the clock before the move was stored (moves made since takebacks exist)
	BankBefore  time.Duration
	TurnStarted time.Time
	TurnPly     int
}

// takeBack removes g's last move in tx (see AnswerTakeback).
func takeBack(ctx context.Context, tx *Tx, g Game, now time.Time) error {
	last, err := lastMove(ctx, tx, g)
	if err != nil {
		return err
	}
	if !last.Clock {
		return Errorf(KindConflict, "This move was made before the server kept what a takeback restores; it cannot be taken back.")
	}
	eng, err := g.Engine()
	if err != nil {
		return err
	}
	moves, err := movesOf(ctx, tx, g.ID)
	if err != nil {
		return err
	}
	if len(moves) != g.Ply {
		return fmt.Errorf("db: game %d: %d moves stored at ply %d", g.ID, len(moves), g.Ply)
	}
	prev, err := eng.Decode(g.Variant, g.StartState)
	if err != nil {
		return fmt.Errorf("db: game %d: start state: %w", g.ID, err)
	}
	for _, m := range moves[:g.Ply-1] {
		if prev, err = prev.Apply(m.Move); err != nil {
			return fmt.Errorf("db: game %d: replay ply %d: %w", g.ID, m.Ply, err)
		}
	}
	side := last.Side
	if prev.ToMove() != side {
		return fmt.Errorf("db: game %d: replayed position has side %d to move, not the mover %d", g.ID, prev.ToMove(), side)
	}
	// The mover gets back the time they had left when they moved: what
	// their turn had used until the move is used again from now.
	mover := g.Side[side].ID
	vs, err := vacationsOf(ctx, tx, mover, last.TurnStarted)
	if err != nil {
		return err
	}
	spent := used(last.TurnStarted, last.At, vs)
	banks, start := g.Bank, now
	banks[side] = last.BankBefore
	if g.Clock.Kind == "bank" {
		banks[side] = max(last.BankBefore-spent, 0)
	} else {
		start = now.Add(-spent)
	}
	dl, err := deadlineFor(ctx, tx, mover, start, now, g.Clock.allowance(banks[side]))
	if err != nil {
		return err
	}
	lastText := ""
	if g.Ply >= 2 {
		lastText = moves[g.Ply-2].Move
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ? AND ply = ?`, g.ID, g.Ply); err != nil {
		return fmt.Errorf("db: take back move: %w", err)
	}
	if _, err := execPlans(ctx, tx, `DELETE FROM conditional_moves WHERE game_id = ?`, g.ID); err != nil {
		return fmt.Errorf("db: clear plans: %w", err)
	}
	// The opponent's turn that began with the move is gone: the notices
	// about it no longer count, and the move played instead is notified.
	if _, err := tx.ExecContext(ctx, `DELETE FROM notices WHERE kind = 'move' AND subject = ? AND ply >= ?`, g.ID, g.Ply); err != nil {
		return fmt.Errorf("db: forget notices: %w", err)
	}
	res := prev.Result()
	return updateGame(ctx, tx, g, now, `state = ?, ply = ?, to_move = ?, last_move = ?, deadline = ?, armistice_by = NULL, score0 = ?, score1 = ?,
		bank0_s = ?, bank1_s = ?, turn_started = ?, turn_ply = ?, takeback_by = NULL, takeback_declined = NULL,
		taken_back = taken_back + 1`,
		prev.Encode(), g.Ply-1, int(side), lastText, unix(dl), res.Score[0], res.Score[1],
		seconds(banks[0]), seconds(banks[1]), unix(start), last.TurnPly)
}
