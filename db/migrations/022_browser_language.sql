-- +goose Up
-- The language a player's browser last asked for (Accept-Language, at
-- sign-up and each sign-in): mails and the feed use it while the player
-- has chosen none ('' before the first sign-in that named one).
ALTER TABLE users ADD COLUMN browser_language TEXT NOT NULL DEFAULT '' CHECK (browser_language IN ('', 'en', 'fr', 'pt', 'es', 'de'));
