-- +goose Up
-- How many moves of the game have been taken back: a page shows it with
-- its forms, so that a form drawn before a takeback is refused even when
-- the game is back at the ply it was made against.
ALTER TABLE games ADD COLUMN taken_back INTEGER NOT NULL DEFAULT 0;
