-- +goose Up
-- Correspondence tournaments and conditional moves.
-- Tournaments: round robin, Swiss and knockout. Each
-- pairing is an ordinary match (matches.tournament_id); a bye has none.
CREATE TABLE tournaments (
	id             INTEGER PRIMARY KEY,
	name           TEXT NOT NULL,
	organiser_id   INTEGER NOT NULL REFERENCES users(id),
	game           TEXT NOT NULL,
	variant        TEXT NOT NULL,
	format         TEXT NOT NULL CHECK (format IN ('roundrobin', 'swiss', 'knockout')),
	rounds         INTEGER NOT NULL DEFAULT 0, -- Swiss: how many rounds are played
	min_players    INTEGER NOT NULL CHECK (min_players >= 2),
	max_players    INTEGER NOT NULL CHECK (max_players >= min_players),
	days_per_move  INTEGER NOT NULL CHECK (days_per_move > 0),
	clock          TEXT NOT NULL DEFAULT 'move' CHECK (clock IN ('move', 'bank')),
	bank_initial_s INTEGER NOT NULL DEFAULT 0,
	bank_add_s     INTEGER NOT NULL DEFAULT 0,
	bank_max_s     INTEGER NOT NULL DEFAULT 0,
	rated          INTEGER NOT NULL DEFAULT 1,
	starts_at      INTEGER, -- unix seconds: the end of sign-up; NULL: starts when full
	seed           INTEGER NOT NULL,
	status         TEXT NOT NULL DEFAULT 'signup' CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
	round          INTEGER NOT NULL DEFAULT 0, -- the round being played (0 before the start)
	created_at     INTEGER NOT NULL,
	started_at     INTEGER,
	ended_at       INTEGER
);
CREATE INDEX tournaments_status ON tournaments(status, starts_at);

CREATE TABLE tournament_entrants (
	tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
	user_id       INTEGER NOT NULL REFERENCES users(id),
	rating        REAL NOT NULL, -- the rating it was seeded with
	joined_at     INTEGER NOT NULL,
	withdrawn_at  INTEGER, -- after the start: the remaining games were forfeited
	PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

-- One game (or match) of a round; leg > 1 is a knockout replay of a
-- drawn pairing with the colours reversed. side1_id NULL is a bye.
CREATE TABLE tournament_pairings (
	tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
	round         INTEGER NOT NULL,
	board         INTEGER NOT NULL,
	leg           INTEGER NOT NULL DEFAULT 1,
	side0_id      INTEGER NOT NULL REFERENCES users(id),
	side1_id      INTEGER REFERENCES users(id),
	match_id      INTEGER REFERENCES matches(id),
	points0       REAL, -- side0's points once decided: 1, 0.5 or 0; NULL while playing
	PRIMARY KEY (tournament_id, round, board, leg)
) WITHOUT ROWID;
CREATE UNIQUE INDEX tournament_pairings_match ON tournament_pairings(match_id) WHERE match_id IS NOT NULL;

ALTER TABLE matches ADD COLUMN tournament_id INTEGER REFERENCES tournaments(id);


-- A player's plan of conditional moves in a game: lines of moves starting
-- at base_ply (when the opponent is to move), the opponent's move and the
-- reply alternating; a JSON array of arrays of moves. Only its author ever
-- reads it.
CREATE TABLE conditional_moves (
	game_id    INTEGER NOT NULL REFERENCES games(id),
	user_id    INTEGER NOT NULL REFERENCES users(id),
	base_ply   INTEGER NOT NULL,
	lines      TEXT NOT NULL,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
