-- +goose Up
-- Takebacks: a challenge says whether its match allows them (a rematch
-- and the match's next games keep the choice; tournament and computer
-- matches have none).
ALTER TABLE challenges ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0 CHECK (takebacks IN (0, 1));

-- The side asking to take back its last move (NULL: no request open),
-- and the ply of the move whose takeback the opponent declined (NULL:
-- none): that move may not be asked about again.
ALTER TABLE games ADD COLUMN takeback_by INTEGER CHECK (takeback_by IN (0, 1));
ALTER TABLE games ADD COLUMN takeback_declined INTEGER;

-- What a takeback restores of the mover's clock, as it was when the move
-- was made: their bank at the start of the turn (seconds), when that
-- turn started (unix seconds) and the ply it began at. NULL for moves
-- stored before takebacks existed.
ALTER TABLE moves ADD COLUMN bank_before_s INTEGER;
ALTER TABLE moves ADD COLUMN turn_started_before INTEGER;
ALTER TABLE moves ADD COLUMN turn_ply_before INTEGER;
