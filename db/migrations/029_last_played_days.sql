-- +goose Up
-- How many players last played on each UTC day (day = last_played / 86400;
-- players who never played are not counted): the admin's count of the
-- players active in the last 30 days adds up 30 of these, not an index
-- entry per such player. Kept by triggers on users.last_played.
CREATE TABLE last_played_days (
	day     INTEGER PRIMARY KEY,
	players INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO last_played_days (day, players)
	SELECT last_played / 86400, COUNT(*) FROM users WHERE last_played > 0 GROUP BY last_played / 86400;
-- +goose StatementBegin
CREATE TRIGGER last_played_days_insert AFTER INSERT ON users WHEN NEW.last_played > 0 BEGIN
	INSERT INTO last_played_days (day, players) VALUES (NEW.last_played / 86400, 1)
		ON CONFLICT (day) DO UPDATE SET players = players + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER last_played_days_update AFTER UPDATE OF last_played ON users
	WHEN NEW.last_played / 86400 IS NOT OLD.last_played / 86400 OR (NEW.last_played > 0) IS NOT (OLD.last_played > 0) BEGIN
	UPDATE last_played_days SET players = players - 1 WHERE OLD.last_played > 0 AND day = OLD.last_played / 86400;
	INSERT INTO last_played_days (day, players) SELECT NEW.last_played / 86400, 1 WHERE NEW.last_played > 0
		ON CONFLICT (day) DO UPDATE SET players = players + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER last_played_days_delete AFTER DELETE ON users WHEN OLD.last_played > 0 BEGIN
	UPDATE last_played_days SET players = players - 1 WHERE day = OLD.last_played / 86400;
END;
-- +goose StatementEnd
