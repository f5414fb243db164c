-- +goose Up
-- The ply at which the side to move began its turn: a turn of the card
-- game is several moves by the same side, and a "your move" mail or feed
-- entry is due once per turn. For games in progress: the last move by the
-- other side (0 when there is none).
ALTER TABLE games ADD COLUMN turn_ply INTEGER NOT NULL DEFAULT 0;
UPDATE games SET turn_ply = COALESCE((SELECT MAX(m.ply) FROM moves m
	WHERE m.game_id = games.id AND m.side <> games.to_move), 0) WHERE status = 'active';

-- The last mail to a player's address that the mail server refused: the
-- address it was for, when, and the server's answer.
ALTER TABLE notify_settings ADD COLUMN failed_email TEXT NOT NULL DEFAULT '';
ALTER TABLE notify_settings ADD COLUMN failed_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notify_settings ADD COLUMN failure TEXT NOT NULL DEFAULT '';

-- Vacations are charged to the years their days fall in, reckoned from
-- the vacations themselves: the per-year total kept on users goes.
ALTER TABLE users DROP COLUMN vacation_year;
ALTER TABLE users DROP COLUMN vacation_used_s;
