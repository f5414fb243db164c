-- +goose Up
-- A player's private notes beside a game of their own: read only by
-- their author, never by the opponent, a spectator, the archive, a
-- record, a feed or a mail.
CREATE TABLE game_notes (
	game_id    INTEGER NOT NULL REFERENCES games(id),
	user_id    INTEGER NOT NULL REFERENCES users(id),
	body       TEXT NOT NULL,
	updated_at INTEGER NOT NULL, -- unix seconds
	PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- Confirm moves: a click that completes a move shows it as pending until
-- "Send move" (1), or sends it at once (0, the default).
ALTER TABLE users ADD COLUMN confirm_moves INTEGER NOT NULL DEFAULT 0 CHECK (confirm_moves IN (0, 1));
