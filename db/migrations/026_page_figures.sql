-- +goose Up
-- The leaderboard ranks in the index: listed_until is the moment a
-- rating stops being listed as established (unix seconds, 0 for a
-- provisional one): its deviation, widened as PlayerRating.at widens it
-- (Glicko-2 scale 173.7178, 0.21436 rating periods a day), reaches
-- ProvisionalRD (110), or LeaderboardDays (90) pass after its last rated
-- game, whichever comes first. A page reads its rows in rating order and
-- counts the listed players in a range of listed_until. Kept by triggers
-- in the transaction that writes the rating.
ALTER TABLE ratings ADD COLUMN listed_until INTEGER NOT NULL DEFAULT 0;
UPDATE ratings SET listed_until = CASE WHEN rd > 110.0 THEN 0
		WHEN volatility <= 0 THEN updated_at + 7776000
		ELSE updated_at + MIN(7776000, CAST((12100.0 - rd * rd) / (173.7178 * 173.7178 * volatility * volatility * 0.21436) * 86400 AS INTEGER))
	END;
-- +goose StatementBegin
CREATE TRIGGER ratings_listed_insert AFTER INSERT ON ratings BEGIN
	UPDATE ratings SET listed_until = CASE WHEN NEW.rd > 110.0 THEN 0
		WHEN NEW.volatility <= 0 THEN NEW.updated_at + 7776000
		ELSE NEW.updated_at + MIN(7776000, CAST((12100.0 - NEW.rd * NEW.rd) / (173.7178 * 173.7178 * NEW.volatility * NEW.volatility * 0.21436) * 86400 AS INTEGER))
	END
	WHERE user_id = NEW.user_id AND game = NEW.game;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER ratings_listed_update AFTER UPDATE OF rating, rd, volatility, updated_at ON ratings BEGIN
	UPDATE ratings SET listed_until = CASE WHEN NEW.rd > 110.0 THEN 0
		WHEN NEW.volatility <= 0 THEN NEW.updated_at + 7776000
		ELSE NEW.updated_at + MIN(7776000, CAST((12100.0 - NEW.rd * NEW.rd) / (173.7178 * 173.7178 * NEW.volatility * NEW.volatility * 0.21436) * 86400 AS INTEGER))
	END
	WHERE user_id = NEW.user_id AND game = NEW.game;
END;
-- +goose StatementEnd
CREATE INDEX ratings_rank ON ratings(game, rating DESC, user_id, listed_until, updated_at);
CREATE INDEX ratings_listed ON ratings(game, listed_until, rating);

-- A player's record per game (the profile's wins, losses and draws):
-- the finished games they played that were not aborted (ended by an
-- armistice or a resignation before both sides moved), kept by triggers
-- in the transaction that finishes, inserts or deletes a game.
CREATE TABLE player_records (
	user_id INTEGER NOT NULL REFERENCES users(id),
	game    TEXT NOT NULL,
	games   INTEGER NOT NULL DEFAULT 0,
	wins    INTEGER NOT NULL DEFAULT 0,
	losses  INTEGER NOT NULL DEFAULT 0,
	draws   INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (user_id, game)
) WITHOUT ROWID;
INSERT INTO player_records (user_id, game, games, wins, losses, draws)
	SELECT user_id, game, COUNT(*), SUM(won), SUM(lost), SUM(drawn) FROM (
		SELECT side0_id AS user_id, game, IFNULL(winner, -2) = 0 AS won, IFNULL(winner, -2) = 1 AS lost, IFNULL(winner, -2) = -1 AS drawn
			FROM games WHERE status = 'finished' AND NOT (ply < 2 AND reason IN ('armistice', 'resignation'))
		UNION ALL
		SELECT side1_id, game, IFNULL(winner, -2) = 1, IFNULL(winner, -2) = 0, IFNULL(winner, -2) = -1
			FROM games WHERE status = 'finished' AND NOT (ply < 2 AND reason IN ('armistice', 'resignation')) AND side1_id != side0_id
	) GROUP BY user_id, game;
-- +goose StatementBegin
CREATE TRIGGER player_records_game_insert AFTER INSERT ON games
WHEN NEW.status = 'finished' AND NOT (NEW.ply < 2 AND NEW.reason IN ('armistice', 'resignation')) BEGIN
	INSERT INTO player_records (user_id, game, games, wins, losses, draws)
		VALUES (NEW.side0_id, NEW.game, 1, IFNULL(NEW.winner, -2) = 0, IFNULL(NEW.winner, -2) = 1, IFNULL(NEW.winner, -2) = -1)
		ON CONFLICT (user_id, game) DO UPDATE SET games = games + 1, wins = wins + excluded.wins,
			losses = losses + excluded.losses, draws = draws + excluded.draws;
	INSERT INTO player_records (user_id, game, games, wins, losses, draws)
		SELECT NEW.side1_id, NEW.game, 1, IFNULL(NEW.winner, -2) = 1, IFNULL(NEW.winner, -2) = 0, IFNULL(NEW.winner, -2) = -1
		WHERE NEW.side1_id != NEW.side0_id
		ON CONFLICT (user_id, game) DO UPDATE SET games = games + 1, wins = wins + excluded.wins,
			losses = losses + excluded.losses, draws = draws + excluded.draws;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER player_records_game_delete AFTER DELETE ON games
WHEN OLD.status = 'finished' AND NOT (OLD.ply < 2 AND OLD.reason IN ('armistice', 'resignation')) BEGIN
	UPDATE player_records SET games = games - 1, wins = wins - (IFNULL(OLD.winner, -2) = 0),
		losses = losses - (IFNULL(OLD.winner, -2) = 1), draws = draws - (IFNULL(OLD.winner, -2) = -1)
		WHERE user_id = OLD.side0_id AND game = OLD.game;
	UPDATE player_records SET games = games - 1, wins = wins - (IFNULL(OLD.winner, -2) = 1),
		losses = losses - (IFNULL(OLD.winner, -2) = 0), draws = draws - (IFNULL(OLD.winner, -2) = -1)
		WHERE user_id = OLD.side1_id AND game = OLD.game AND OLD.side1_id != OLD.side0_id;
END;
-- +goose StatementEnd
-- A finished game changed (or a game finished): what it counted is
-- taken back and what it counts now is added.
-- +goose StatementBegin
CREATE TRIGGER player_records_game_update AFTER UPDATE ON games
WHEN OLD.status = 'finished' OR NEW.status = 'finished' BEGIN
	UPDATE player_records SET games = games - 1, wins = wins - (IFNULL(OLD.winner, -2) = 0),
		losses = losses - (IFNULL(OLD.winner, -2) = 1), draws = draws - (IFNULL(OLD.winner, -2) = -1)
		WHERE user_id = OLD.side0_id AND game = OLD.game
			AND OLD.status = 'finished' AND NOT (OLD.ply < 2 AND OLD.reason IN ('armistice', 'resignation'));
	UPDATE player_records SET games = games - 1, wins = wins - (IFNULL(OLD.winner, -2) = 1),
		losses = losses - (IFNULL(OLD.winner, -2) = 0), draws = draws - (IFNULL(OLD.winner, -2) = -1)
		WHERE user_id = OLD.side1_id AND game = OLD.game AND OLD.side1_id != OLD.side0_id
			AND OLD.status = 'finished' AND NOT (OLD.ply < 2 AND OLD.reason IN ('armistice', 'resignation'));
	INSERT INTO player_records (user_id, game, games, wins, losses, draws)
		SELECT NEW.side0_id, NEW.game, 1, IFNULL(NEW.winner, -2) = 0, IFNULL(NEW.winner, -2) = 1, IFNULL(NEW.winner, -2) = -1
		WHERE NEW.status = 'finished' AND NOT (NEW.ply < 2 AND NEW.reason IN ('armistice', 'resignation'))
		ON CONFLICT (user_id, game) DO UPDATE SET games = games + 1, wins = wins + excluded.wins,
			losses = losses + excluded.losses, draws = draws + excluded.draws;
	INSERT INTO player_records (user_id, game, games, wins, losses, draws)
		SELECT NEW.side1_id, NEW.game, 1, IFNULL(NEW.winner, -2) = 1, IFNULL(NEW.winner, -2) = 0, IFNULL(NEW.winner, -2) = -1
		WHERE NEW.status = 'finished' AND NOT (NEW.ply < 2 AND NEW.reason IN ('armistice', 'resignation')) AND NEW.side1_id != NEW.side0_id
		ON CONFLICT (user_id, game) DO UPDATE SET games = games + 1, wins = wins + excluded.wins,
			losses = losses + excluded.losses, draws = draws + excluded.draws;
END;
-- +goose StatementEnd

-- The rating charts read a player's latest rating changes in one game,
-- in the order they were made, from one index: each change names its
-- game (engine key) and when it was made (the end of its game).
ALTER TABLE rating_changes ADD COLUMN game TEXT NOT NULL DEFAULT '';
ALTER TABLE rating_changes ADD COLUMN at INTEGER NOT NULL DEFAULT 0;
UPDATE rating_changes SET (game, at) = (SELECT g.game, COALESCE(g.ended_at, g.updated_at) FROM games g WHERE g.id = rating_changes.game_id);
CREATE INDEX rating_changes_chart ON rating_changes(user_id, game, at, game_id);

-- When a player last played (the last change to one of their games; 0
-- before any): the directory shows it and the admin's figures count the
-- players active lately, without reading their games. Kept by triggers on
-- the games.
ALTER TABLE users ADD COLUMN last_played INTEGER NOT NULL DEFAULT 0;
UPDATE users SET last_played = x.at FROM (
	SELECT user_id, MAX(at) AS at FROM (
		SELECT side0_id AS user_id, updated_at AS at FROM games UNION ALL SELECT side1_id, updated_at FROM games
	) GROUP BY user_id) AS x
	WHERE x.user_id = users.id;
CREATE INDEX users_last_played ON users(last_played);
-- +goose StatementBegin
CREATE TRIGGER users_last_played_insert AFTER INSERT ON games BEGIN
	UPDATE users SET last_played = NEW.updated_at WHERE id IN (NEW.side0_id, NEW.side1_id) AND last_played < NEW.updated_at;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER users_last_played_update AFTER UPDATE OF updated_at ON games WHEN NEW.updated_at > OLD.updated_at BEGIN
	UPDATE users SET last_played = NEW.updated_at WHERE id IN (NEW.side0_id, NEW.side1_id) AND last_played < NEW.updated_at;
END;
-- +goose StatementEnd

-- The archive filtered by rules (the match's variant) or by result reads
-- its games along an index: COALESCE(match_variant, variant) is the
-- match's variant, which is the game's own but for a TRENCH official
-- match's decider (match_variant is set when it differs).
ALTER TABLE games ADD COLUMN match_variant TEXT;
UPDATE games SET match_variant = (SELECT m.variant FROM matches m WHERE m.id = games.match_id)
	WHERE variant != (SELECT m.variant FROM matches m WHERE m.id = games.match_id);
-- +goose StatementBegin
CREATE TRIGGER games_match_variant AFTER INSERT ON games
WHEN NEW.variant != (SELECT variant FROM matches WHERE id = NEW.match_id) BEGIN
	UPDATE games SET match_variant = (SELECT variant FROM matches WHERE id = NEW.match_id) WHERE id = NEW.id;
END;
-- +goose StatementEnd
CREATE INDEX games_archive_game ON games(status, game, ended_at);
CREATE INDEX games_archive_rules ON games(status, game, COALESCE(match_variant, variant), ended_at);
CREATE INDEX games_archive_result ON games(status, winner, ended_at);

-- The admin's figures: the players (not deleted, not computer players)
-- and the games in progress; the directory's count of every account.
-- Counted by triggers.
INSERT INTO counters (name, n) VALUES
	('users', (SELECT COUNT(*) FROM users)),
	('players', (SELECT COUNT(*) FROM users WHERE deleted_at IS NULL AND computer_level IS NULL)),
	('active_games', (SELECT COUNT(*) FROM games WHERE status = 'active'));
-- +goose StatementBegin
CREATE TRIGGER counters_account_insert AFTER INSERT ON users BEGIN
	UPDATE counters SET n = n + 1 WHERE name = 'users';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_account_delete AFTER DELETE ON users BEGIN
	UPDATE counters SET n = n - 1 WHERE name = 'users';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_user_insert AFTER INSERT ON users WHEN NEW.deleted_at IS NULL AND NEW.computer_level IS NULL BEGIN
	UPDATE counters SET n = n + 1 WHERE name = 'players';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_user_delete AFTER DELETE ON users WHEN OLD.deleted_at IS NULL AND OLD.computer_level IS NULL BEGIN
	UPDATE counters SET n = n - 1 WHERE name = 'players';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_user_update AFTER UPDATE OF deleted_at, computer_level ON users BEGIN
	UPDATE counters SET n = n + (NEW.deleted_at IS NULL AND NEW.computer_level IS NULL) - (OLD.deleted_at IS NULL AND OLD.computer_level IS NULL)
		WHERE name = 'players';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_active_game_insert AFTER INSERT ON games WHEN NEW.status = 'active' BEGIN
	UPDATE counters SET n = n + 1 WHERE name = 'active_games';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_active_game_delete AFTER DELETE ON games WHEN OLD.status = 'active' BEGIN
	UPDATE counters SET n = n - 1 WHERE name = 'active_games';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER counters_active_game_update AFTER UPDATE OF status ON games WHEN (OLD.status = 'active') != (NEW.status = 'active') BEGIN
	UPDATE counters SET n = n + (NEW.status = 'active') - (OLD.status = 'active') WHERE name = 'active_games';
END;
-- +goose StatementEnd
CREATE INDEX users_suspended ON users(suspended_at) WHERE deleted_at IS NULL AND suspended_at IS NOT NULL;

-- The planner's statistics of the new indexes (the server analyses the
-- tables again only when the games have grown by a quarter).
ANALYZE ratings_rank;
ANALYZE ratings_listed;
ANALYZE player_records;
ANALYZE rating_changes_chart;
ANALYZE users_last_played;
ANALYZE users_suspended;
ANALYZE games_archive_game;
ANALYZE games_archive_rules;
ANALYZE games_archive_result;
