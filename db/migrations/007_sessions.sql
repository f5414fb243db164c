-- +goose Up
-- One row per signed-in browser, so that a session can be ended on the
-- server: by signing out, by a password change (every other session of the
-- player) or by "sign out everywhere". The cookie carries a random token;
-- only its SHA-256 is stored here, so a copy of the database cannot be
-- turned into a working cookie.
CREATE TABLE sessions (
	id          INTEGER PRIMARY KEY,
	token_hash  BLOB NOT NULL UNIQUE,
	user_id     INTEGER NOT NULL REFERENCES users(id),
	device      TEXT NOT NULL DEFAULT '', -- the browser's User-Agent at sign-in
	ip          TEXT NOT NULL DEFAULT '', -- the client address last seen
	created_at  INTEGER NOT NULL,         -- unix seconds
	last_seen   INTEGER NOT NULL,
	expires_at  INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expires ON sessions(expires_at);

-- The keys that sign the session cookie now live in a file of their own
-- beside the database, never in it (nor in its backups).
DELETE FROM settings WHERE key IN ('session-auth-key', 'session-encryption-key');

-- Every rematch offer made, for the cap on offers per match and player.
CREATE TABLE rematch_offers (
	match_id   INTEGER NOT NULL REFERENCES matches(id),
	user_id    INTEGER NOT NULL REFERENCES users(id),
	created_at INTEGER NOT NULL -- unix seconds
);
CREATE INDEX rematch_offers_match ON rematch_offers(match_id, user_id, created_at);

-- +goose Down
DROP TABLE rematch_offers;
DROP TABLE sessions;
