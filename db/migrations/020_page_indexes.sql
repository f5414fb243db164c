-- +goose Up
-- Indexes for the pages of a database that has run for years: a
-- player's games by status and end (the profile, the dashboard, the
-- archive filtered by player), a player's rating changes in game order
-- (the rating charts), a player's matches by status and end.
DROP INDEX games_side0;
DROP INDEX games_side1;
CREATE INDEX games_side0 ON games(side0_id, status, ended_at);
CREATE INDEX games_side1 ON games(side1_id, status, ended_at);
CREATE INDEX rating_changes_user ON rating_changes(user_id, game_id);
CREATE INDEX matches_player0 ON matches(player0_id, status, ended_at);
CREATE INDEX matches_player1 ON matches(player1_id, status, ended_at);
-- The latest finished matches of a kind (the archive's matches of
-- several games), the leaderboard's recent ratings of a game, the open
-- challenges newest first.
CREATE INDEX matches_kind ON matches(status, game, variant, ended_at);
CREATE INDEX ratings_game ON ratings(game, updated_at);
DROP INDEX challenges_status;
CREATE INDEX challenges_status ON challenges(status, created_at);

-- Counts the admin's figures read without counting every row: kept by
-- triggers in the transaction that inserts or deletes the rows.
CREATE TABLE counters (
	name TEXT PRIMARY KEY,
	n    INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO counters (name, n) VALUES
	('games', (SELECT COUNT(*) FROM games)),
	('moves', (SELECT COUNT(*) FROM moves));
-- +goose StatementBegin
CREATE TRIGGER counters_game_insert AFTER INSERT ON games BEGIN
	UPDATE counters SET n = n + 1 WHERE name = 'games';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_game_delete AFTER DELETE ON games BEGIN
	UPDATE counters SET n = n - 1 WHERE name = 'games';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_move_insert AFTER INSERT ON moves BEGIN
	UPDATE counters SET n = n + 1 WHERE name = 'moves';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_move_delete AFTER DELETE ON moves BEGIN
	UPDATE counters SET n = n - 1 WHERE name = 'moves';
END;
-- +goose StatementEnd
