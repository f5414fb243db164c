package db

import (
	"context"
	"fmt"
	"time"

	"github.com/trench-games/trench/rules"
)

// BenchCommit stores one move as PlayMove's transaction does, without
// the rules and without reading anything: in one write transaction (BEGIN
// IMMEDIATE, the same pragmas) the move is appended and the game row
// updated where its ply is still ply. It measures what the storage alone
// can do (trench bench); the server never calls it. The caller passes the
// state to store; nothing checks it.
// Errors: KindConflict when game gameID is not active at ply.
func (db *DB) BenchCommit(ctx context.Context, gameID int64, ply int, side rules.Side, state, move string, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, ply, side, move, created_at) VALUES (?, ?, ?, ?, ?)`,
		gameID, ply+1, int(side), move, unix(now)); err != nil {
		return fmt.Errorf("db: insert move: %w", err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE games SET state = ?, ply = ?, to_move = ?, last_move = ?, deadline = ?,
		armistice_by = NULL, updated_at = ? WHERE id = ? AND ply = ? AND status = 'active'`,
		state, ply+1, int(side.Other()), move, unix(now.Add(72*time.Hour)), unix(now), gameID, ply)
	if err != nil {
		return fmt.Errorf("db: update game %d: %w", gameID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return Errorf(KindConflict, "The game has moved on; nothing was changed.")
	}
	return tx.Commit()
}
