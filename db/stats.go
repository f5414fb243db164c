package db

import (
	"context"
	"fmt"
	"time"
)

// Stats is a snapshot of the server's figures, read for monitoring.
type Stats struct {
	// Games holds, by game key ("trench", "trenches", "cards"), the games
	// being played and the moves made in all games so far.
	Games map[string]GameStats
	// OpenChallenges counts the challenges waiting for an answer.
	OpenChallenges int
	// TimeoutsDue counts running games whose deadline has passed: the
	// next timeout round ends them (or a vacation excuses them).
	TimeoutsDue int
	// Players counts the people's accounts, as the admin's figures do:
	// neither the computer's accounts nor deleted ones.
	Players int
}

// GameStats is the part of Stats about one game.
type GameStats struct {
	Active int   // games with status active
	Moves  int64 // plies played in every game ever started, finished or not
}

// Stats reads the figures of Stats at now, in one read transaction.
// Errors: the database cannot be read.
func (db *DB) Stats(ctx context.Context, now time.Time) (Stats, error) {
	tx, err := db.read.BeginTx(ctx, nil)
	if err != nil {
		return Stats{}, fmt.Errorf("db: stats: %w", err)
	}
	defer tx.Rollback()
	st := Stats{Games: map[string]GameStats{}}
	rows, err := tx.QueryContext(ctx, `SELECT game, SUM(status = 'active'), SUM(ply) FROM games GROUP BY game`)
	if err != nil {
		return Stats{}, fmt.Errorf("db: stats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var g GameStats
		if err := rows.Scan(&key, &g.Active, &g.Moves); err != nil {
			return Stats{}, fmt.Errorf("db: stats: %w", err)
		}
		st.Games[key] = g
	}
	if err := rows.Err(); err != nil {
		return Stats{}, fmt.Errorf("db: stats: %w", err)
	}
	err = tx.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM challenges WHERE status = 'open'),
		(SELECT COUNT(*) FROM games WHERE status = 'active' AND deadline < ?),
		(SELECT COUNT(*) FROM users WHERE deleted_at IS NULL AND computer_level IS NULL)`, unix(now)).Scan(&st.OpenChallenges, &st.TimeoutsDue, &st.Players)
	if err != nil {
		return Stats{}, fmt.Errorf("db: stats: %w", err)
	}
	return st, nil
}

// commitObserver receives the duration of every write transaction's
// commit; see ObserveCommits.
type commitObserver = func(time.Duration)

// ObserveCommits makes f receive the duration of every commit of a write
// transaction from now on (the time SQLite takes to make it durable).
// f must be quick and safe for concurrent use; nil stops observing.
func (db *DB) ObserveCommits(f func(time.Duration)) {
	if f == nil {
		db.onCommit.Store(nil)
		return
	}
	db.onCommit.Store(&f)
}
