-- +goose Up
-- A feed's secret address is kept as the SHA-256 of its token (hex), as
-- reset links are: the address is shown once, when it is made, and the
-- addresses made before keep working. trench_sha256 is registered by
-- package db.
ALTER TABLE notify_settings RENAME COLUMN feed_token TO feed_hash;
UPDATE notify_settings SET feed_hash = lower(hex(trench_sha256(feed_hash)));
