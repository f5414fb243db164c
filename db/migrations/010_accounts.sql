-- +goose Up
-- Accounts and their administration.
-- is_admin: may use /admin. suspended_at: set while suspended (no sign-in).
-- deleted_at: the account was deleted and its name replaced by a tombstone
-- ("deleted-ID"). session_gen: sessions carry the value they were started
-- with; raising it ends every session of the account.
ALTER TABLE users ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN suspended_at INTEGER;
ALTER TABLE users ADD COLUMN deleted_at INTEGER;
ALTER TABLE users ADD COLUMN session_gen INTEGER NOT NULL DEFAULT 0;
-- The first account of a server that has accounts already is its admin.
UPDATE users SET is_admin = 1 WHERE id = (SELECT MIN(id) FROM users);

-- The address in notify_settings.email was proven to reach its owner.
ALTER TABLE notify_settings ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;

-- Single-use secrets mailed to a player: a password reset or the proof
-- that an address is theirs. Only the SHA-256 of the token is kept.
CREATE TABLE account_tokens (
	hash       BLOB PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users(id),
	purpose    TEXT NOT NULL CHECK (purpose IN ('reset', 'verify')),
	email      TEXT NOT NULL DEFAULT '', -- verify: the address it proves
	created_at INTEGER NOT NULL,          -- unix seconds
	expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX account_tokens_user ON account_tokens(user_id, purpose);

-- Messages reported to the admin by the player they were sent to.
CREATE TABLE reports (
	id          INTEGER PRIMARY KEY,
	message_id  INTEGER NOT NULL REFERENCES messages(id),
	reporter_id INTEGER NOT NULL REFERENCES users(id),
	reason      TEXT NOT NULL DEFAULT '',
	created_at  INTEGER NOT NULL,
	UNIQUE (message_id, reporter_id)
);
