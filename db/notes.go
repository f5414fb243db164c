package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Private notes: beside each game of their own a player keeps plain text
// notes (a plan, reminders). Only their author ever reads them: no page,
// record, feed or mail shown to anyone else includes them, during the
// game or after it.

// MaxNoteChars bounds a game's notes, in characters (runes).
const MaxNoteChars = 5000

// Note is a player's notes on one game; Updated is zero when none were
// saved.
type Note struct {
	Body    string
	Updated time.Time
}

// NoteOf returns userID's notes on game id (an empty Note when none).
// Only the author may be shown them: callers pass the signed-in user.
func (db *DB) NoteOf(ctx context.Context, gameID, userID int64) (Note, error) {
	var n Note
	var updated int64
	err := db.read.QueryRowContext(ctx, `SELECT body, updated_at FROM game_notes WHERE game_id = ? AND user_id = ?`, gameID, userID).Scan(&n.Body, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return Note{}, nil
	}
	if err != nil {
		return Note{}, fmt.Errorf("db: notes: %w", err)
	}
	n.Updated = fromUnix(updated)
	return n, nil
}

// FirstGame returns the id of userID's first game (the lowest id among
// the games they play or played; 0 when none).
func (db *DB) FirstGame(ctx context.Context, userID int64) (int64, error) {
	var id sql.NullInt64
	if err := db.read.QueryRowContext(ctx, `SELECT MIN(id) FROM games WHERE side0_id = ?1 OR side1_id = ?1`, userID).Scan(&id); err != nil {
		return 0, fmt.Errorf("db: first game: %w", err)
	}
	return id.Int64, nil
}

// SetNote stores body as userID's notes on game id, at any time during or
// after the game; blank text removes them. Line ends are stored as "\n".
// Errors: KindNotFound (no such game); KindForbidden (not a player of
// it); KindInvalid (longer than MaxNoteChars, or not UTF-8 text).
func (db *DB) SetNote(ctx context.Context, gameID, userID int64, body string, now time.Time) (Note, error) {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	if !utf8.ValidString(body) {
		return Note{}, Errorf(KindInvalid, "The notes are not text.")
	}
	if n := utf8.RuneCountInString(body); n > MaxNoteChars {
		return Note{}, Errorf(KindInvalid, "The notes hold at most %d characters (these have %d).", MaxNoteChars, n)
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return Note{}, err
	}
	defer tx.Rollback()
	g, err := gameByID(ctx, tx, gameID)
	if err != nil {
		return Note{}, err
	}
	if !g.SideOf(userID).Valid() {
		return Note{}, Errorf(KindForbidden, "Notes are kept only beside your own games.")
	}
	if strings.TrimSpace(body) == "" {
		if _, err := tx.ExecContext(ctx, `DELETE FROM game_notes WHERE game_id = ? AND user_id = ?`, gameID, userID); err != nil {
			return Note{}, fmt.Errorf("db: clear notes: %w", err)
		}
		return Note{}, tx.Commit()
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO game_notes (game_id, user_id, body, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (game_id, user_id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
		gameID, userID, body, unix(now))
	if err != nil {
		return Note{}, fmt.Errorf("db: store notes: %w", err)
	}
	return Note{Body: body, Updated: fromUnix(unix(now))}, tx.Commit()
}
