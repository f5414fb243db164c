-- +goose Up
-- A player's language for pages and mails ('' follows the browser) and
-- colour theme ('system' follows the browser's light or dark setting).
ALTER TABLE users ADD COLUMN language TEXT NOT NULL DEFAULT '' CHECK (language IN ('', 'en', 'fr', 'pt', 'es', 'de'));
ALTER TABLE users ADD COLUMN theme TEXT NOT NULL DEFAULT 'system' CHECK (theme IN ('system', 'light', 'dark'));
