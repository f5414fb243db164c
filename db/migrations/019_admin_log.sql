-- +goose Up
-- Every admin action, from the admin page or the command line: when,
-- who (the admin's account, or the operating-system user of a command),
-- what, on whom or what, and from where (the client's address; '' from
-- the command line). Names are kept as they were at the time.
CREATE TABLE admin_log (
	id          INTEGER PRIMARY KEY,
	at          INTEGER NOT NULL,
	admin_id    INTEGER REFERENCES users (id),
	admin_name  TEXT NOT NULL,
	via         TEXT NOT NULL CHECK (via IN ('web', 'cli')),
	address     TEXT NOT NULL DEFAULT '',
	action      TEXT NOT NULL,
	target_kind TEXT NOT NULL DEFAULT '' CHECK (target_kind IN ('', 'user', 'challenge', 'report', 'message', 'announcement')),
	target_id   INTEGER NOT NULL DEFAULT 0,
	target_name TEXT NOT NULL DEFAULT ''
);
