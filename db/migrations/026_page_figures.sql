-- +goose Up
-- The leaderboard ranks in the index: listed_until is the moment a
-- rating stops being listed as established (unix seconds, 0 for a
-- provisional one): its deviation, widened as PlayerRating.at widens it
-- (Glicko-2 scale 173.7178, 0.21436 rating periods a day), reaches
-- ProvisionalRD (110), or LeaderboardDays (90) pass after its last rated
-- game, whichever comes first. A page reads its rows in rating order and
-- counts the listed players in a range of listed_until.
ALTER TABLE ratings ADD COLUMN listed_until INTEGER GENERATED ALWAYS AS (
	CASE WHEN rd > 110.0 THEN 0
		WHEN volatility <= 0 THEN updated_at + 7776000
		ELSE updated_at + MIN(7776000, CAST((12100.0 - rd * rd) / (173.7178 * 173.7178 * volatility * volatility * 0.21436) * 86400 AS INTEGER))
	END) VIRTUAL;
CREATE INDEX ratings_rank ON ratings(game, rating DESC, user_id, listed_until, updated_at);
CREATE INDEX ratings_listed ON ratings(game, listed_until);
