-- +goose Up
-- The outbox holds notices of every kind: a row means that the player was
-- told on the channel ('mail' or 'push') about its subject, and is never
-- told about it there again, even after a restart. Kinds: 'move' (their
-- turn in game subject, which began at ply), 'end' (game subject ended),
-- 'challenge' (challenge subject addressed to them), 'message' (message
-- subject sent to them) and 'round' (game subject of a tournament round
-- began); ply is 0 for every kind but 'move'.
CREATE TABLE notices_new (
	channel TEXT NOT NULL CHECK (channel IN ('mail', 'push')),
	kind    TEXT NOT NULL CHECK (kind IN ('move', 'end', 'challenge', 'message', 'round')),
	user_id INTEGER NOT NULL REFERENCES users(id),
	subject INTEGER NOT NULL, -- a game's, a challenge's or a message's id, by kind
	ply     INTEGER NOT NULL,
	sent_at INTEGER NOT NULL, -- unix seconds
	PRIMARY KEY (channel, user_id, kind, subject, ply)
) WITHOUT ROWID;
INSERT INTO notices_new (channel, kind, user_id, subject, ply, sent_at)
	SELECT channel, 'move', user_id, game_id, ply, sent_at FROM notices;
DROP TABLE notices;
ALTER TABLE notices_new RENAME TO notices;

-- A push notice claimed and not yet accepted by the device's push service,
-- of any kind (subject and turn_ply as in notices).
CREATE TABLE push_deliveries_new (
	id              INTEGER PRIMARY KEY,
	subscription_id INTEGER NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
	kind            TEXT NOT NULL CHECK (kind IN ('move', 'end', 'challenge', 'message', 'round')),
	subject         INTEGER NOT NULL,
	turn_ply        INTEGER NOT NULL,
	attempts        INTEGER NOT NULL DEFAULT 0,
	next_at         INTEGER NOT NULL, -- unix seconds
	sending         INTEGER NOT NULL DEFAULT 0
);
INSERT INTO push_deliveries_new (id, subscription_id, kind, subject, turn_ply, attempts, next_at, sending)
	SELECT id, subscription_id, 'move', game_id, turn_ply, attempts, next_at, sending FROM push_deliveries;
DROP TABLE push_deliveries;
ALTER TABLE push_deliveries_new RENAME TO push_deliveries;
CREATE INDEX push_deliveries_next ON push_deliveries (sending, next_at);

-- The games that ended lately, for the "game over" notices.
CREATE INDEX games_ended ON games (ended_at) WHERE status = 'finished';
