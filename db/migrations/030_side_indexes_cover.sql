-- +goose Up
-- A player's games in the archive are read along each side's index, in
-- the order of their end, and filtered by game, rules and result: the
-- indexes now hold all of these (and the game's id in its place in the
-- order), so that a page, and the lines its OFFSET skips, never read the
-- games' rows.
DROP INDEX games_side0;
DROP INDEX games_side1;
CREATE INDEX games_side0 ON games(side0_id, status, ended_at, id, winner, game, COALESCE(match_variant, variant));
CREATE INDEX games_side1 ON games(side1_id, status, ended_at, id, winner, game, COALESCE(match_variant, variant));
-- The planner's statistics of the new indexes.
ANALYZE games_side0;
ANALYZE games_side1;

-- +goose Down
DROP INDEX games_side0;
DROP INDEX games_side1;
CREATE INDEX games_side0 ON games(side0_id, status, ended_at);
CREATE INDEX games_side1 ON games(side1_id, status, ended_at);
