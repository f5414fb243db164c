-- +goose Up
-- The computer players: one account per level. computer_level is NULL for
-- people. The accounts cannot sign in: "!" is no bcrypt hash, so no
-- password matches it, and their names (with a space and a "·") are not
-- names sign-up accepts.
ALTER TABLE users ADD COLUMN computer_level TEXT CHECK (computer_level IN ('easy', 'medium', 'hard'));
CREATE UNIQUE INDEX users_computer ON users(computer_level) WHERE computer_level IS NOT NULL;
INSERT INTO users (name, password_hash, created_at, computer_level) VALUES
	('Computer · easy', '!', CAST(strftime('%s', 'now') AS INTEGER), 'easy'),
	('Computer · medium', '!', CAST(strftime('%s', 'now') AS INTEGER), 'medium'),
	('Computer · hard', '!', CAST(strftime('%s', 'now') AS INTEGER), 'hard');

-- Computer analyses of finished games: one per game, queued by a player.
-- A job evaluates the positions after ply 0, 1, …, total-1 in order;
-- done counts the positions evaluated (and stored in analysis_plies), so
-- a restarted job goes on where it stopped.
CREATE TABLE analyses (
	game_id      INTEGER PRIMARY KEY REFERENCES games(id),
	requested_by INTEGER NOT NULL REFERENCES users(id),
	state        TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
	done         INTEGER NOT NULL DEFAULT 0,
	total        INTEGER NOT NULL, -- positions: the game's plies + 1
	nodes        INTEGER NOT NULL, -- the search budget of each position
	error        TEXT NOT NULL DEFAULT '',
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL
);
CREATE INDEX analyses_state ON analyses(state, created_at);
CREATE INDEX analyses_requested ON analyses(requested_by, state);

-- The evaluation of the position after each ply of an analysed game.
CREATE TABLE analysis_plies (
	game_id INTEGER NOT NULL REFERENCES analyses(game_id),
	ply     INTEGER NOT NULL, -- the position after this ply (0: the start)
	expect  REAL NOT NULL,    -- expected result for side 0 (Black / Light), 0 to 1
	score   INTEGER NOT NULL, -- the search's own score, side 0's view
	best    TEXT NOT NULL,    -- the best move of the side to move ('' once over)
	line    TEXT NOT NULL,    -- the expected line, moves separated by spaces
	PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
