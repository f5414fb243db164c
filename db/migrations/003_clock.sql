-- +goose Up
-- Time controls: "move" (days per move) or "bank" (a time bank per player).
ALTER TABLE challenges ADD COLUMN clock TEXT NOT NULL DEFAULT 'move' CHECK (clock IN ('move', 'bank'));
ALTER TABLE challenges ADD COLUMN bank_initial_s INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN bank_add_s INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN bank_max_s INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN clock TEXT NOT NULL DEFAULT 'move' CHECK (clock IN ('move', 'bank'));
ALTER TABLE matches ADD COLUMN bank_initial_s INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN bank_add_s INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN bank_max_s INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT 'move' CHECK (clock IN ('move', 'bank'));
ALTER TABLE games ADD COLUMN bank_add_s INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN bank_max_s INTEGER NOT NULL DEFAULT 0;
-- Each side's bank in seconds at the start of its current (or next) turn.
ALTER TABLE games ADD COLUMN bank0_s INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN bank1_s INTEGER NOT NULL DEFAULT 0;
-- When the side to move started its turn (unix seconds).
ALTER TABLE games ADD COLUMN turn_started INTEGER NOT NULL DEFAULT 0;
UPDATE games SET turn_started = updated_at;

-- Vacations: a player's clocks stop in every game. ends_by is when it ends
-- at the latest (the yearly allowance runs out); ended_at when the player
-- ended it.
CREATE TABLE vacations (
	id         INTEGER PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users(id),
	started_at INTEGER NOT NULL,
	ends_by    INTEGER NOT NULL,
	ended_at   INTEGER,
	auto       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX vacations_user ON vacations(user_id, started_at);
-- The vacation allowance used in vacation_year, in seconds.
ALTER TABLE users ADD COLUMN vacation_year INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN vacation_used_s INTEGER NOT NULL DEFAULT 0;
