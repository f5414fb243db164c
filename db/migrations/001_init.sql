-- +goose Up
-- Settings of the server itself (the session secret, …).
CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value BLOB NOT NULL
);

CREATE TABLE users (
	id            INTEGER PRIMARY KEY,
	name          TEXT NOT NULL UNIQUE COLLATE NOCASE,
	password_hash TEXT NOT NULL,
	board_view    TEXT NOT NULL DEFAULT 'diamond' CHECK (board_view IN ('diamond', 'square')),
	created_at    INTEGER NOT NULL -- unix seconds
);

-- A match is the unit a challenge creates: one game, or TRENCH's official
-- two-game match with its decider. player0 plays side 0 in game 1.
CREATE TABLE matches (
	id            INTEGER PRIMARY KEY,
	game          TEXT NOT NULL,
	variant       TEXT NOT NULL,
	player0_id    INTEGER NOT NULL REFERENCES users(id),
	player1_id    INTEGER NOT NULL REFERENCES users(id),
	days_per_move INTEGER NOT NULL CHECK (days_per_move > 0),
	seed          INTEGER NOT NULL,
	status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
	winner        INTEGER CHECK (winner IN (-1, 0, 1)), -- match player; -1 drawn
	total0        INTEGER NOT NULL DEFAULT 0,
	total1        INTEGER NOT NULL DEFAULT 0,
	created_at    INTEGER NOT NULL,
	ended_at      INTEGER
);

CREATE TABLE challenges (
	id            INTEGER PRIMARY KEY,
	creator_id    INTEGER NOT NULL REFERENCES users(id),
	opponent_id   INTEGER REFERENCES users(id), -- NULL: open to anyone
	game          TEXT NOT NULL,
	variant       TEXT NOT NULL,
	color         TEXT NOT NULL CHECK (color IN ('0', '1', 'random')), -- creator's side in game 1
	days_per_move INTEGER NOT NULL CHECK (days_per_move > 0),
	status        TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'declined', 'cancelled')),
	match_id      INTEGER REFERENCES matches(id),
	created_at    INTEGER NOT NULL
);
CREATE INDEX challenges_status ON challenges(status);

CREATE TABLE games (
	id            INTEGER PRIMARY KEY,
	match_id      INTEGER NOT NULL REFERENCES matches(id),
	number        INTEGER NOT NULL, -- 1, 2, 3 within the match
	game          TEXT NOT NULL,
	variant       TEXT NOT NULL,
	swapped       INTEGER NOT NULL DEFAULT 0, -- match player 0 plays side 1
	side0_id      INTEGER NOT NULL REFERENCES users(id),
	side1_id      INTEGER NOT NULL REFERENCES users(id),
	seed          INTEGER NOT NULL,
	start_state   TEXT NOT NULL,
	state         TEXT NOT NULL,
	ply           INTEGER NOT NULL DEFAULT 0,
	to_move       INTEGER NOT NULL, -- side; -1 once finished
	status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
	winner        INTEGER CHECK (winner IN (-1, 0, 1)), -- side; -1 drawn
	score0        INTEGER NOT NULL DEFAULT 0,
	score1        INTEGER NOT NULL DEFAULT 0,
	reason        TEXT NOT NULL DEFAULT '',
	days_per_move INTEGER NOT NULL,
	deadline      INTEGER NOT NULL, -- unix seconds: the side to move loses on time after it
	armistice_by  INTEGER CHECK (armistice_by IN (0, 1)), -- side with an open offer
	last_move     TEXT NOT NULL DEFAULT '',
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL,
	ended_at      INTEGER,
	UNIQUE (match_id, number)
);
CREATE INDEX games_active_deadline ON games(status, deadline);
CREATE INDEX games_side0 ON games(side0_id, status);
CREATE INDEX games_side1 ON games(side1_id, status);

CREATE TABLE moves (
	game_id    INTEGER NOT NULL REFERENCES games(id),
	ply        INTEGER NOT NULL, -- 1 for the first move
	side       INTEGER NOT NULL,
	move       TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
