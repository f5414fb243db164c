-- +goose Up
-- The lesson steps a player has completed: one row a step (game is the
-- engine's key, step counts from 1).
CREATE TABLE lesson_progress (
	user_id    INTEGER NOT NULL REFERENCES users(id),
	game       TEXT    NOT NULL,
	step       INTEGER NOT NULL,
	done_at    INTEGER NOT NULL, -- unix seconds
	PRIMARY KEY (user_id, game, step)
);

-- +goose Down
DROP TABLE lesson_progress;
