-- +goose Up
-- Computer players as tournament entrants. rated says whether the games
-- against this entrant change ratings: 1 for people; for a computer
-- account, whether the server rated games against the computer when the
-- organiser added it (a rated tournament's games against an entrant with
-- rated 0 are unrated).
ALTER TABLE tournament_entrants ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
