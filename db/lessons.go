package db

import (
	"context"
	"fmt"
	"time"
)

// maxLessonStep bounds the step numbers stored (a course has far fewer).
const maxLessonStep = 100

// LessonsDone returns the lesson steps userID has completed, by game (the
// engine's key) and step (from 1).
func (db *DB) LessonsDone(ctx context.Context, userID int64) (map[string]map[int]bool, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT game, step FROM lesson_progress WHERE user_id = ?`, userID)
	if err != nil {
		return nil, fmt.Errorf("db: lessons done: %w", err)
	}
	defer rows.Close()
	out := map[string]map[int]bool{}
	for rows.Next() {
		var game string
		var step int
		if err := rows.Scan(&game, &step); err != nil {
			return nil, fmt.Errorf("db: lessons done: %w", err)
		}
		if out[game] == nil {
			out[game] = map[int]bool{}
		}
		out[game][step] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: lessons done: %w", err)
	}
	return out, nil
}

// MarkLessonDone records that userID completed step (from 1) of game's
// course; recording it again changes nothing. Errors: KindInvalid for a
// step out of 1–100 or an empty game.
func (db *DB) MarkLessonDone(ctx context.Context, userID int64, game string, step int, now time.Time) error {
	if game == "" || len(game) > 16 || step < 1 || step > maxLessonStep {
		return Errorf(KindInvalid, "No such lesson step.")
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO lesson_progress (user_id, game, step, done_at) VALUES (?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, userID, game, step, unix(now)); err != nil {
		return fmt.Errorf("db: mark lesson done: %w", err)
	}
	return tx.Commit()
}

// MarkLessonsDone records in one transaction that userID completed the
// steps of done (by game, the engine's key, and step from 1): a visitor's
// progress carried into the account. Steps already recorded stay as they
// were. Errors: KindInvalid for a step out of 1–100 or a game name empty
// or longer than 16 bytes (nothing is recorded then).
func (db *DB) MarkLessonsDone(ctx context.Context, userID int64, done map[string][]int, now time.Time) error {
	for game, steps := range done {
		for _, step := range steps {
			if game == "" || len(game) > 16 || step < 1 || step > maxLessonStep {
				return Errorf(KindInvalid, "No such lesson step.")
			}
		}
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for game, steps := range done {
		for _, step := range steps {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lesson_progress (user_id, game, step, done_at) VALUES (?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, userID, game, step, unix(now)); err != nil {
				return fmt.Errorf("db: mark lessons done: %w", err)
			}
		}
	}
	return tx.Commit()
}
