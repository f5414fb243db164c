-- +goose Up
-- What each player wants to be told: an e-mail address, how often to mail
-- (never, for every move waiting for them, or once a day) and the secret
-- token of their personal Atom feed. A row is made on first use; a player
-- without one gets no mail.
CREATE TABLE notify_settings (
	user_id    INTEGER PRIMARY KEY REFERENCES users(id),
	email      TEXT NOT NULL DEFAULT '',
	mode       TEXT NOT NULL DEFAULT 'none' CHECK (mode IN ('none', 'move', 'daily')),
	feed_token TEXT NOT NULL UNIQUE
);

-- Every "your move" mail, recorded before it is handed to the mail server:
-- a row means that (user, game, ply) is never mailed again, even after a
-- restart.
CREATE TABLE notifications (
	user_id INTEGER NOT NULL REFERENCES users(id),
	game_id INTEGER NOT NULL REFERENCES games(id),
	ply     INTEGER NOT NULL, -- the game's ply when it became the user's turn
	sent_at INTEGER NOT NULL, -- unix seconds
	PRIMARY KEY (user_id, game_id, ply)
) WITHOUT ROWID;

-- Every daily digest, one per user and UTC day at most.
CREATE TABLE digests (
	user_id INTEGER NOT NULL REFERENCES users(id),
	day     TEXT NOT NULL, -- YYYY-MM-DD, UTC
	games   INTEGER NOT NULL, -- how many games it listed
	sent_at INTEGER NOT NULL,
	PRIMARY KEY (user_id, day)
) WITHOUT ROWID;
