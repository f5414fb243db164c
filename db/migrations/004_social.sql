-- +goose Up
-- Rated challenges. A match is rated when the challenge it came from was:
-- the challenge row keeps the setting (challenges.match_id links them).
-- Challenges made before ratings existed were not rated.
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE INDEX challenges_match ON challenges(match_id);

-- Glicko-2 ratings: one per player and game (engine key). A player without
-- a row is a new player (1500, RD 350, volatility 0.06).
CREATE TABLE ratings (
	user_id    INTEGER NOT NULL REFERENCES users(id),
	game       TEXT NOT NULL,
	rating     REAL NOT NULL,
	rd         REAL NOT NULL,
	volatility REAL NOT NULL,
	games      INTEGER NOT NULL DEFAULT 0, -- rated games played
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (user_id, game)
) WITHOUT ROWID;

-- What each rated game did to its players' ratings, written in the
-- transaction that stored the game's result.
CREATE TABLE rating_changes (
	game_id       INTEGER NOT NULL REFERENCES games(id),
	side          INTEGER NOT NULL CHECK (side IN (0, 1)),
	user_id       INTEGER NOT NULL REFERENCES users(id),
	rating_before REAL NOT NULL,
	rd_before     REAL NOT NULL,
	rating_after  REAL NOT NULL,
	rd_after      REAL NOT NULL,
	PRIMARY KEY (game_id, side)
) WITHOUT ROWID;

-- A rematch offer of a finished match is an addressed challenge with the
-- same settings and the colours swapped; this row ties it to the match
-- (one offer at a time: a declined or withdrawn one may be replaced).
CREATE TABLE rematches (
	match_id     INTEGER PRIMARY KEY REFERENCES matches(id),
	challenge_id INTEGER NOT NULL REFERENCES challenges(id)
);

-- Messages between the two players of a game.
CREATE TABLE messages (
	id         INTEGER PRIMARY KEY,
	game_id    INTEGER NOT NULL REFERENCES games(id),
	from_id    INTEGER NOT NULL REFERENCES users(id),
	to_id      INTEGER NOT NULL REFERENCES users(id),
	ply        INTEGER NOT NULL, -- the game's ply when it was sent
	body       TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 500),
	created_at INTEGER NOT NULL,
	read_at    INTEGER
);
CREATE INDEX messages_game ON messages(game_id, id);
CREATE INDEX messages_unread ON messages(to_id, game_id) WHERE read_at IS NULL;
