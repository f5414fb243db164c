-- +goose Up
-- When a game is written, each of its two players' last_played is
-- updated by the player's id alone, one statement a player. With both ids
-- in one IN list, the planner walked the users_last_played index instead
-- (last_played < the game's time), or read the whole table, whenever the
-- statistics still described a table of a few accounts, as those of a new
-- database do until they are taken again: every game written then read
-- every account that had played before it (a fill of a million games
-- slowed to 40 games a second).
DROP TRIGGER users_last_played_insert;
DROP TRIGGER users_last_played_update;
-- +goose StatementBegin
CREATE TRIGGER users_last_played_insert AFTER INSERT ON games BEGIN
	UPDATE users SET last_played = NEW.updated_at WHERE id = NEW.side0_id AND last_played < NEW.updated_at;
	UPDATE users SET last_played = NEW.updated_at WHERE id = NEW.side1_id AND last_played < NEW.updated_at;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER users_last_played_update AFTER UPDATE OF updated_at ON games WHEN NEW.updated_at > OLD.updated_at BEGIN
	UPDATE users SET last_played = NEW.updated_at WHERE id = NEW.side0_id AND last_played < NEW.updated_at;
	UPDATE users SET last_played = NEW.updated_at WHERE id = NEW.side1_id AND last_played < NEW.updated_at;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER users_last_played_insert;
DROP TRIGGER users_last_played_update;
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
