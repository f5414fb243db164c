-- +goose Up
-- A leaderboard's page is read along ratings_rank, in rating order: the
-- index now holds every column a line shows (the RD, the volatility and
-- the rated games besides the rating), so that a page reads its lines
-- from the index alone, never a rating's row.
DROP INDEX ratings_rank;
CREATE INDEX ratings_rank ON ratings(game, rating DESC, user_id, listed_until, updated_at, rd, volatility, games);
-- The planner's statistics of the new index.
ANALYZE ratings_rank;

-- +goose Down
DROP INDEX ratings_rank;
CREATE INDEX ratings_rank ON ratings(game, rating DESC, user_id, listed_until, updated_at);
