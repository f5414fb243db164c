package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/trench-games/trench/rules"
)

// The computer players are accounts like any other, one per level (easy,
// medium, hard), made by migration 012: they have a profile, records and
// ratings, and their games go through the same flow as everyone's
// (PlayMove, Resign, AnswerArmistice, AcceptChallenge). They cannot sign
// in: their password hash matches no password, and their names ("Computer
// · hard") are not names sign-up accepts.

// Computer is a computer player's account.
type Computer struct {
	ID    int64
	Name  string // "Computer · hard"
	Level string // "easy", "medium" or "hard"
}

// ComputerDaysPerMove is the time control of a game against the computer:
// the longest time per move a challenge may choose, so that the person
// plays at their own pace (the computer answers in seconds).
const ComputerDaysPerMove = 14

// Computers returns the computer accounts, weakest first.
func (db *DB) Computers(ctx context.Context) ([]Computer, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, name, computer_level FROM users WHERE computer_level IS NOT NULL
		ORDER BY CASE computer_level WHEN 'easy' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END`)
	if err != nil {
		return nil, fmt.Errorf("db: computers: %w", err)
	}
	defer rows.Close()
	var out []Computer
	for rows.Next() {
		var c Computer
		if err := rows.Scan(&c.ID, &c.Name, &c.Level); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func computerByLevel(ctx context.Context, q queryer, level string) (Computer, error) {
	c := Computer{Level: level}
	err := q.QueryRowContext(ctx, `SELECT id, name FROM users WHERE computer_level = ?`, level).Scan(&c.ID, &c.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return c, Errorf(KindInvalid, "Unknown level %q: choose easy, medium or hard.", level)
	}
	if err != nil {
		return c, fmt.Errorf("db: computer %s: %w", level, err)
	}
	return c, nil
}

// NewComputerGame is what a player chooses to play the computer.
type NewComputerGame struct {
	UserID  int64
	Game    string // engine key
	Variant string
	Level   string // "easy", "medium" or "hard"
	Color   string // the player's side in game 1: "0", "1" or "random"
	// Rated: the match's games change both players' ratings (the server
	// rates games against the computer only when told to).
	Rated bool
	// MaxInProgress is the most games the player may have in progress
	// against the computer (all levels together); 0 means no limit.
	MaxInProgress int
}

// computerGamesInProgress is how many active games userID plays against a
// computer account.
func computerGamesInProgress(ctx context.Context, q queryer, userID int64) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM games g JOIN users u
		ON u.id = CASE WHEN g.side0_id = ?1 THEN g.side1_id ELSE g.side0_id END
		WHERE g.status = 'active' AND (g.side0_id = ?1 OR g.side1_id = ?1) AND u.computer_level IS NOT NULL`, userID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("db: games against the computer: %w", err)
	}
	return n, nil
}

// tooManyComputerGames is the refusal of a game against the computer to a
// player who has max in progress already.
func tooManyComputerGames(max int) error {
	return Errorf(KindConflict, "You have %d games in progress against the computer, the most allowed: finish one before starting another.", max)
}

// StartComputerGame starts a match against the computer at once, with no
// challenge to accept: it stores the challenge as accepted by the
// computer account of c.Level (so that the match has its settings, its
// rated flag and a rematch like any other) and starts the first game, all
// in one transaction. The time control is ComputerDaysPerMove days per
// move. seed drives every random choice (a random side, the deal). It
// returns the game's id. Errors: KindInvalid for an unknown game, rules,
// side or level; KindConflict when the player has c.MaxInProgress games
// in progress against the computer already.
func (db *DB) StartComputerGame(ctx context.Context, c NewComputerGame, seed int64, now time.Time) (int64, error) {
	nc := NewChallenge{CreatorID: c.UserID, Game: c.Game, Variant: c.Variant, Color: c.Color}
	if err := checkGame(&nc); err != nil {
		return 0, err
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	comp, err := computerByLevel(ctx, tx, c.Level)
	if err != nil {
		return 0, err
	}
	if comp.ID == c.UserID {
		return 0, Errorf(KindForbidden, "The computer does not play itself.")
	}
	if c.MaxInProgress > 0 {
		n, err := computerGamesInProgress(ctx, tx, c.UserID)
		if err != nil {
			return 0, err
		}
		if n >= c.MaxInProgress {
			return 0, tooManyComputerGames(c.MaxInProgress)
		}
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO challenges
		(creator_id, opponent_id, game, variant, color, days_per_move, clock, created_at, rated)
		VALUES (?, ?, ?, ?, ?, ?, 'move', ?, ?)`,
		c.UserID, comp.ID, nc.Game, nc.Variant, nc.Color, ComputerDaysPerMove, unix(now), c.Rated)
	if err != nil {
		return 0, fmt.Errorf("db: computer challenge: %w", err)
	}
	chID, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	gameID, err := acceptChallenge(ctx, tx, chID, comp.ID, seed, now)
	if err != nil {
		return 0, err
	}
	return gameID, tx.Commit()
}

// ComputerTurn is something a computer account has to do in an active
// game: move (it is its turn) or answer an armistice offer.
type ComputerTurn struct {
	GameID     int64
	Ply        int // the game's ply when read: act against it
	ComputerID int64
	Level      string
	Side       rules.Side // the computer's side
	// OpponentID is the other side's account: the player waiting for
	// the computer (a computer account in a game between two).
	OpponentID int64
	// Armistice: the opponent's armistice offer waits for the computer's
	// answer (answer it before moving).
	Armistice bool
}

// ComputerTurns returns every active game in which a computer account is
// to move or has an armistice offer to answer, oldest change first. The
// state lives in the games themselves, so after a restart nothing waiting
// for the computer is lost.
func (db *DB) ComputerTurns(ctx context.Context) ([]ComputerTurn, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT g.id, g.ply, u.id, u.computer_level, 0, COALESCE(g.armistice_by = 1, 0), g.updated_at, g.side1_id
		FROM users u JOIN games g ON g.side0_id = u.id AND g.status = 'active'
		WHERE u.computer_level IS NOT NULL AND (g.to_move = 0 OR g.armistice_by = 1)
		UNION ALL
		SELECT g.id, g.ply, u.id, u.computer_level, 1, COALESCE(g.armistice_by = 0, 0), g.updated_at, g.side0_id
		FROM users u JOIN games g ON g.side1_id = u.id AND g.status = 'active'
		WHERE u.computer_level IS NOT NULL AND (g.to_move = 1 OR g.armistice_by = 0)
		ORDER BY 7, 1`)
	if err != nil {
		return nil, fmt.Errorf("db: computer turns: %w", err)
	}
	defer rows.Close()
	var out []ComputerTurn
	for rows.Next() {
		var t ComputerTurn
		var side int
		var updated int64
		if err := rows.Scan(&t.GameID, &t.Ply, &t.ComputerID, &t.Level, &side, &t.Armistice, &updated, &t.OpponentID); err != nil {
			return nil, err
		}
		t.Side = rules.Side(side)
		out = append(out, t)
	}
	return out, rows.Err()
}

// ComputerChallenge is an open challenge addressed to a computer account:
// a rematch offer, or a challenge made on the challenge form.
type ComputerChallenge struct {
	ID         int64
	ComputerID int64
	Game       string // engine key
}

// ComputerChallenges returns the open challenges addressed to a computer
// account, oldest first.
func (db *DB) ComputerChallenges(ctx context.Context) ([]ComputerChallenge, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT c.id, c.opponent_id, c.game FROM challenges c JOIN users u ON u.id = c.opponent_id
		WHERE c.status = 'open' AND u.computer_level IS NOT NULL ORDER BY c.id`)
	if err != nil {
		return nil, fmt.Errorf("db: computer challenges: %w", err)
	}
	defer rows.Close()
	var out []ComputerChallenge
	for rows.Next() {
		var c ComputerChallenge
		if err := rows.Scan(&c.ID, &c.ComputerID, &c.Game); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// AcceptAsComputer lets computer account computerID accept challenge id
// addressed to it (a rematch offer, say) as AcceptChallenge does; unless
// rated, the match is unrated whatever the challenge asked. It returns
// the new game's id; 0 when the computer declined the challenge instead
// because its creator has maxInProgress games in progress against the
// computer already (0: no limit). Errors: as AcceptChallenge;
// KindForbidden when computerID is not a computer account.
func (db *DB) AcceptAsComputer(ctx context.Context, id, computerID int64, rated bool, maxInProgress int, seed int64, now time.Time) (int64, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var level sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT computer_level FROM users WHERE id = ?`, computerID).Scan(&level); err != nil || !level.Valid {
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("db: computer: %w", err)
		}
		return 0, Errorf(KindForbidden, "Only a computer account accepts this way.")
	}
	if maxInProgress > 0 {
		var creator int64
		err := tx.QueryRowContext(ctx, `SELECT creator_id FROM challenges WHERE id = ? AND opponent_id = ? AND status = 'open'`, id, computerID).Scan(&creator)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("db: computer challenge: %w", err)
		}
		if err == nil {
			n, err := computerGamesInProgress(ctx, tx, creator)
			if err != nil {
				return 0, err
			}
			if n >= maxInProgress {
				if _, err := tx.ExecContext(ctx, `UPDATE challenges SET status = 'declined' WHERE id = ?`, id); err != nil {
					return 0, fmt.Errorf("db: computer declines: %w", err)
				}
				return 0, tx.Commit()
			}
		}
	}
	if !rated {
		if _, err := tx.ExecContext(ctx, `UPDATE challenges SET rated = 0 WHERE id = ? AND status = 'open'`, id); err != nil {
			return 0, fmt.Errorf("db: computer challenge: %w", err)
		}
	}
	gameID, err := acceptChallenge(ctx, tx, id, computerID, seed, now)
	if err != nil {
		return 0, err
	}
	return gameID, tx.Commit()
}
