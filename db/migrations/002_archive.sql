-- +goose Up
CREATE INDEX games_finished ON games(status, ended_at);
CREATE INDEX games_match ON games(match_id, number);
