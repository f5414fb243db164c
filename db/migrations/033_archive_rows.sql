-- +goose Up
-- An archive page reads its 50 games by their keys (their end and id):
-- this index holds, for every finished game, each column a page shows,
-- in the order of the games' ends, so that the games of a page are read
-- from a few of its pages side by side instead of 50 rows scattered over
-- the games' table. Only finished games are in it: a move in a game in
-- progress never writes it.
CREATE INDEX games_archive_rows ON games(ended_at, id, match_id, number, game, variant, swapped, side0_id, side1_id,
	ply, winner, score0, score1, reason, days_per_move, created_at, updated_at, match_variant) WHERE status = 'finished';
-- The planner's statistics of the new index.
ANALYZE games_archive_rows;

-- +goose Down
DROP INDEX games_archive_rows;
