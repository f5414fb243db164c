-- +goose Up
-- A rated attempt keeps the player's puzzle rating before and after it,
-- so that the page the attempt ends on can say what it changed. NULL for
-- the attempts made before this migration.
ALTER TABLE puzzle_attempts ADD COLUMN rating_before REAL;
ALTER TABLE puzzle_attempts ADD COLUMN rating_after REAL;
