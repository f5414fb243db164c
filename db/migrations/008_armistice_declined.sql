-- +goose Up
-- The side whose armistice offer was declined (NULL: none): it may not
-- offer again until it has moved.
ALTER TABLE games ADD COLUMN armistice_declined INTEGER CHECK (armistice_declined IN (0, 1));

