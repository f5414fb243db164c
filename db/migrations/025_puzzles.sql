-- +goose Up
-- Puzzles: a position of TRENCH or Trenches and the line that solves it
-- (moves separated by spaces, the solver's at even places), found in a
-- finished game of this server (source_game_id) or in a game the
-- computer played against itself (NULL). Each has a Glicko-2 rating.
CREATE TABLE puzzles (
	id             INTEGER PRIMARY KEY,
	game           TEXT    NOT NULL,
	variant        TEXT    NOT NULL,
	position       TEXT    NOT NULL,
	solution       TEXT    NOT NULL,
	themes         TEXT    NOT NULL DEFAULT '', -- space-separated, each between spaces: ' race win '
	source_game_id INTEGER REFERENCES games(id),
	source_ply     INTEGER NOT NULL DEFAULT 0,
	rating         REAL    NOT NULL DEFAULT 1500,
	rd             REAL    NOT NULL DEFAULT 350,
	volatility     REAL    NOT NULL DEFAULT 0.06,
	plays          INTEGER NOT NULL DEFAULT 0,
	created_at     INTEGER NOT NULL, -- unix seconds
	UNIQUE (game, position)
);
CREATE INDEX puzzles_game_rating ON puzzles(game, rating);

-- A player's puzzle rating, one a game.
CREATE TABLE puzzle_ratings (
	user_id    INTEGER NOT NULL REFERENCES users(id),
	game       TEXT    NOT NULL,
	rating     REAL    NOT NULL,
	rd         REAL    NOT NULL,
	volatility REAL    NOT NULL,
	attempts   INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (user_id, game)
);

-- A player's rated attempt at a puzzle: the first one only.
CREATE TABLE puzzle_attempts (
	user_id    INTEGER NOT NULL REFERENCES users(id),
	puzzle_id  INTEGER NOT NULL REFERENCES puzzles(id),
	solved     INTEGER NOT NULL, -- 1 solved, 0 failed
	at         INTEGER NOT NULL, -- unix seconds
	PRIMARY KEY (user_id, puzzle_id)
);

-- The finished games the puzzle job has looked at.
CREATE TABLE puzzle_scans (
	game_id    INTEGER PRIMARY KEY REFERENCES games(id),
	found      INTEGER NOT NULL,
	scanned_at INTEGER NOT NULL
);

-- +goose Down
DROP TABLE puzzle_scans;
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_ratings;
DROP TABLE puzzles;
