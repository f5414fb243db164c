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
