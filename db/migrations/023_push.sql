-- +goose Up
-- One outbox for every channel: a row means that the player was told on
-- that channel ('mail' or 'push') about their turn in a game that began at
-- ply, and is never told about it there again, even after a restart.
CREATE TABLE notices (
	channel TEXT NOT NULL CHECK (channel IN ('mail', 'push')),
	user_id INTEGER NOT NULL REFERENCES users(id),
	game_id INTEGER NOT NULL REFERENCES games(id),
	ply     INTEGER NOT NULL, -- the game's ply when it became the user's turn
	sent_at INTEGER NOT NULL, -- unix seconds
	PRIMARY KEY (channel, user_id, game_id, ply)
) WITHOUT ROWID;
INSERT INTO notices (channel, user_id, game_id, ply, sent_at)
	SELECT 'mail', user_id, game_id, ply, sent_at FROM notifications;
DROP TABLE notifications;

-- A browser on a device that asked for push notifications (the Push API's
-- subscription): its push service's endpoint and the keys that encrypt
-- the payload for it, the device's name as its browser reported it, what
-- it wants to be told (a comma-separated subset of move, end, challenge,
-- message, round), and when it was added and last accepted a notice.
CREATE TABLE push_subscriptions (
	id              INTEGER PRIMARY KEY,
	user_id         INTEGER NOT NULL REFERENCES users(id),
	endpoint        TEXT NOT NULL UNIQUE,
	p256dh          TEXT NOT NULL,
	auth            TEXT NOT NULL,
	device          TEXT NOT NULL DEFAULT '',
	wants           TEXT NOT NULL DEFAULT 'move,end,challenge,message,round',
	created_at      INTEGER NOT NULL, -- unix seconds
	last_success_at INTEGER NOT NULL DEFAULT 0 -- unix seconds; 0 for never
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

-- A push notice claimed (see notices) and not yet accepted by the
-- subscription's push service: when to try next, how often it was tried,
-- and whether it is being handed over right now (such a row found at
-- start is dropped: a notice is lost rather than ever sent twice).
CREATE TABLE push_deliveries (
	id              INTEGER PRIMARY KEY,
	subscription_id INTEGER NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
	game_id         INTEGER NOT NULL REFERENCES games(id),
	turn_ply        INTEGER NOT NULL,
	attempts        INTEGER NOT NULL DEFAULT 0,
	next_at         INTEGER NOT NULL, -- unix seconds
	sending         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX push_deliveries_next ON push_deliveries (sending, next_at);
