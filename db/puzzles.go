package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/trench-games/trench/rules/glicko2"
	"github.com/trench-games/trench/rules/puzzles"
)

// Puzzles: positions of TRENCH and Trenches with the line that solves
// them (rules/puzzles finds them), each with a Glicko-2 rating, and each
// player's puzzle rating per game. A puzzle comes from a finished game of
// this server or from a game the computer played against itself, never
// from a game in progress. A player's first attempt at a puzzle rates
// both the player and the puzzle, as one game between them.

// Puzzle is one stored puzzle.
type Puzzle struct {
	ID int64
	puzzles.Puzzle
	// SourceGameID is the finished game the position came from; 0 for a
	// game the computer played against itself.
	SourceGameID int64
	Rating       glicko2.Rating
	Plays        int // rated attempts
}

// maxPuzzleText bounds a stored position or solution (a Trenches
// position is about 110 bytes).
const maxPuzzleText = 400

// AddPuzzles stores ps, found in finished game sourceGameID (0: in games
// the computer played against itself), skipping a position already
// stored for its game, and returns how many were new. With a source game
// it also records that game as looked at (NextPuzzleScan skips it), in
// the same transaction. Errors: KindConflict when the source game is not
// finished; KindInvalid for a game without puzzles or an empty or
// over-long puzzle.
func (db *DB) AddPuzzles(ctx context.Context, sourceGameID int64, ps []puzzles.Puzzle, now time.Time) (int, error) {
	for _, p := range ps {
		sol := strings.Join(p.Solution, " ")
		if !puzzles.HasPuzzles(p.Game) || p.Position == "" || len(p.Solution) == 0 || len(p.Solution) > 9 ||
			len(p.Position) > maxPuzzleText || len(sol) > maxPuzzleText {
			return 0, Errorf(KindInvalid, "This is not a puzzle.")
		}
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var source any
	if sourceGameID != 0 {
		g, err := gameByID(ctx, tx, sourceGameID)
		if err != nil {
			return 0, err
		}
		if !g.Finished() {
			return 0, Errorf(KindConflict, "A game in progress gives no puzzles.")
		}
		source = sourceGameID
	}
	added := 0
	for _, p := range ps {
		themes := ""
		if len(p.Themes) > 0 {
			themes = " " + strings.Join(p.Themes, " ") + " "
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO puzzles (game, variant, position, solution, themes, source_game_id, source_ply, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, position) DO NOTHING`,
			p.Game, p.Variant, p.Position, strings.Join(p.Solution, " "), themes, source, p.Ply, unix(now))
		if err != nil {
			return 0, fmt.Errorf("db: add puzzle: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		added += int(n)
	}
	if sourceGameID != 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_scans (game_id, found, scanned_at) VALUES (?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET found = excluded.found, scanned_at = excluded.scanned_at`, sourceGameID, added, unix(now)); err != nil {
			return 0, fmt.Errorf("db: add puzzles: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) SELECT ?1, CAST(ended_at AS TEXT) FROM games WHERE id = ?2
			ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE CAST(excluded.value AS INTEGER) > CAST(settings.value AS INTEGER)`,
			puzzleScanKey, sourceGameID); err != nil {
			return 0, fmt.Errorf("db: add puzzles: %w", err)
		}
	}
	return added, tx.Commit()
}

// CountPuzzles returns how many puzzles game has ("" for every game).
func (db *DB) CountPuzzles(ctx context.Context, game string) (int, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM puzzles WHERE ?1 = '' OR game = ?1`, game).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("db: count puzzles: %w", err)
	}
	return n, nil
}

// puzzleScanKey is the settings key of the latest end (unix seconds) of
// a game the puzzle job has looked at.
const puzzleScanKey = "puzzle_scan_ended"

// puzzleScanMargin is how far before the latest game looked at the
// puzzle job looks again for games it has not (games that ended in the
// same second, a clock set back), in seconds.
const puzzleScanMargin = 86400

// NextPuzzleScan returns the oldest finished game of TRENCH or Trenches
// that the puzzle job has not looked at yet, from a day before the
// latest one it has looked at; false when there is none. The games
// looked at before that are not read again, however many they are.
func (db *DB) NextPuzzleScan(ctx context.Context) (Game, bool, error) {
	var id int64
	err := db.read.QueryRowContext(ctx, `SELECT g.id FROM games g
		WHERE g.status = 'finished' AND g.ended_at >= COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?1), 0) - ?2
		AND g.game IN ('trench', 'trenches') AND g.ply > 0
		AND NOT EXISTS (SELECT 1 FROM puzzle_scans s WHERE s.game_id = g.id)
		ORDER BY g.ended_at, g.id LIMIT 1`, puzzleScanKey, puzzleScanMargin).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, false, nil
	}
	if err != nil {
		return Game{}, false, fmt.Errorf("db: next puzzle scan: %w", err)
	}
	g, err := db.Game(ctx, id)
	return g, err == nil, err
}

// puzzleColumns are the columns scanPuzzle reads.
const puzzleColumns = `p.id, p.game, p.variant, p.position, p.solution, p.themes, coalesce(p.source_game_id, 0), p.source_ply,
	p.rating, p.rd, p.volatility, p.plays`

func scanPuzzle(row interface{ Scan(...any) error }) (Puzzle, error) {
	var p Puzzle
	var sol, themes string
	err := row.Scan(&p.ID, &p.Game, &p.Variant, &p.Position, &sol, &themes, &p.SourceGameID, &p.Ply,
		&p.Rating.Rating, &p.Rating.RD, &p.Rating.Volatility, &p.Plays)
	p.Solution = strings.Fields(sol)
	p.Themes = strings.Fields(themes)
	return p, err
}

// Puzzle returns puzzle id. Errors: KindNotFound.
func (db *DB) Puzzle(ctx context.Context, id int64) (Puzzle, error) {
	p, err := scanPuzzle(db.read.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Puzzle{}, Errorf(KindNotFound, "There is no such puzzle.")
	}
	if err != nil {
		return Puzzle{}, fmt.Errorf("db: puzzle: %w", err)
	}
	return p, nil
}

// PuzzleRating returns userID's puzzle rating in game and their rated
// attempts; a player who has none yet has glicko2.New().
func (db *DB) PuzzleRating(ctx context.Context, userID int64, game string) (glicko2.Rating, int, error) {
	r := glicko2.New()
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT rating, rd, volatility, attempts FROM puzzle_ratings WHERE user_id = ? AND game = ?`,
		userID, game).Scan(&r.Rating, &r.RD, &r.Volatility, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return glicko2.New(), 0, nil
	}
	if err != nil {
		return r, 0, fmt.Errorf("db: puzzle rating: %w", err)
	}
	return r, n, nil
}

// PuzzleQuery asks for the next puzzle of a game.
type PuzzleQuery struct {
	Game   string
	Theme  string  // "" for any theme
	Rating float64 // the puzzle nearest this rating comes first
	// UserID, when not 0, skips the puzzles the player has attempted.
	UserID int64
	Skip   []int64 // puzzles not to give (a visitor's last ones)
}

// NextPuzzle returns the puzzle of q.Game nearest q.Rating that q.UserID
// has not attempted and that is not in q.Skip, with q.Theme when it is
// set; false when there is none.
func (db *DB) NextPuzzle(ctx context.Context, q PuzzleQuery) (Puzzle, bool, error) {
	args := []any{q.Game, q.Theme, q.UserID, q.Rating}
	skip := ""
	for i, id := range q.Skip {
		if i >= 100 {
			break
		}
		args = append(args, id)
		skip += fmt.Sprintf(", ?%d", len(args))
	}
	p, err := scanPuzzle(db.read.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p
		WHERE p.game = ?1 AND (?2 = '' OR p.themes LIKE '% ' || ?2 || ' %')
		AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.user_id = ?3 AND a.puzzle_id = p.id)
		AND p.id NOT IN (0`+skip+`)
		ORDER BY abs(p.rating - ?4), p.id LIMIT 1`, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return Puzzle{}, false, nil
	}
	if err != nil {
		return Puzzle{}, false, fmt.Errorf("db: next puzzle: %w", err)
	}
	return p, true, nil
}

// PuzzleAttempt is what a rated attempt changed.
type PuzzleAttempt struct {
	// Rated is false when the player had attempted the puzzle before:
	// only the first attempt counts, and nothing changed.
	Rated         bool
	Before, After glicko2.Rating // the player's puzzle rating in the puzzle's game
	Solved        bool           // the first attempt's outcome
	PuzzleBefore  glicko2.Rating
	PuzzleAfter   glicko2.Rating
}

// RecordPuzzleAttempt rates userID's first attempt at puzzle id (solved
// or failed) as one game between the player and the puzzle, updating both
// ratings and the player's attempts in one transaction. A later attempt
// changes nothing (Rated false, the first outcome in Solved). Errors:
// KindNotFound for no such puzzle.
func (db *DB) RecordPuzzleAttempt(ctx context.Context, userID, id int64, solved bool, now time.Time) (PuzzleAttempt, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return PuzzleAttempt{}, err
	}
	defer tx.Rollback()
	p, err := scanPuzzle(tx.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p WHERE p.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return PuzzleAttempt{}, Errorf(KindNotFound, "There is no such puzzle.")
	}
	if err != nil {
		return PuzzleAttempt{}, fmt.Errorf("db: puzzle attempt: %w", err)
	}
	var a PuzzleAttempt
	a.Before = glicko2.New()
	switch err := tx.QueryRowContext(ctx, `SELECT rating, rd, volatility FROM puzzle_ratings WHERE user_id = ? AND game = ?`, userID, p.Game).
		Scan(&a.Before.Rating, &a.Before.RD, &a.Before.Volatility); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return PuzzleAttempt{}, fmt.Errorf("db: puzzle attempt: %w", err)
	}
	a.After, a.PuzzleBefore, a.PuzzleAfter = a.Before, p.Rating, p.Rating
	var prev int
	switch err := tx.QueryRowContext(ctx, `SELECT solved FROM puzzle_attempts WHERE user_id = ? AND puzzle_id = ?`, userID, id).Scan(&prev); {
	case err == nil:
		a.Solved = prev == 1
		return a, nil
	case !errors.Is(err, sql.ErrNoRows):
		return PuzzleAttempt{}, fmt.Errorf("db: puzzle attempt: %w", err)
	}
	score := glicko2.Loss
	if solved {
		score = glicko2.Win
	}
	a.Rated, a.Solved = true, solved
	a.After, a.PuzzleAfter = glicko2.Game(a.Before, p.Rating, score, glicko2.DefaultTau)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO puzzle_attempts (user_id, puzzle_id, solved, at, rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?)`,
			[]any{userID, id, solved, unix(now), a.Before.Rating, a.After.Rating}},
		{`INSERT INTO puzzle_ratings (user_id, game, rating, rd, volatility, attempts) VALUES (?, ?, ?, ?, ?, 1)
			ON CONFLICT (user_id, game) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,
			attempts = attempts + 1`, []any{userID, p.Game, a.After.Rating, a.After.RD, a.After.Volatility}},
		{`UPDATE puzzles SET rating = ?, rd = ?, volatility = ?, plays = plays + 1 WHERE id = ?`,
			[]any{a.PuzzleAfter.Rating, a.PuzzleAfter.RD, a.PuzzleAfter.Volatility, id}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return PuzzleAttempt{}, fmt.Errorf("db: puzzle attempt: %w", err)
		}
	}
	return a, tx.Commit()
}

// FirstPuzzleAttempt is a player's first, rated, attempt at a puzzle.
type FirstPuzzleAttempt struct {
	Solved bool
	// Before and After are the player's puzzle rating (Glicko-2 points)
	// before and after the attempt; both 0 for an attempt made before
	// they were kept (migration 028).
	Before, After float64
}

// PuzzleAttempted returns userID's first attempt at puzzle id, and false
// when they have not attempted it.
func (db *DB) PuzzleAttempted(ctx context.Context, userID, id int64) (FirstPuzzleAttempt, bool, error) {
	var a FirstPuzzleAttempt
	var before, after sql.NullFloat64
	err := db.read.QueryRowContext(ctx, `SELECT solved, rating_before, rating_after FROM puzzle_attempts WHERE user_id = ? AND puzzle_id = ?`, userID, id).
		Scan(&a.Solved, &before, &after)
	if errors.Is(err, sql.ErrNoRows) {
		return FirstPuzzleAttempt{}, false, nil
	}
	if err != nil {
		return FirstPuzzleAttempt{}, false, fmt.Errorf("db: puzzle attempted: %w", err)
	}
	a.Before, a.After = before.Float64, after.Float64
	return a, true, nil
}

// DailyPuzzle returns the puzzle of the UTC day of now: the games take
// turns by day, and within a game the day picks one of the puzzles stored
// before that day began (all of them on a server's first day), so that
// the whole day shows the same puzzle. False when there is no puzzle.
// What it returns is remembered until the next commit (remember).
func (db *DB) DailyPuzzle(ctx context.Context, now time.Time) (Puzzle, bool, error) {
	day := now.UTC().Truncate(24 * time.Hour)
	return remember2(ctx, db, &db.log.commitGen, fmt.Sprintf("daily puzzle %d", day.Unix()), clonePuzzle,
		func(ctx context.Context) (Puzzle, bool, error) { return db.dailyPuzzleRead(ctx, day) })
}

// dailyPuzzleRead reads what DailyPuzzle returns for the UTC day that
// begins at day.
func (db *DB) dailyPuzzleRead(ctx context.Context, day time.Time) (Puzzle, bool, error) {
	n := day.Unix() / 86400
	games := puzzles.Games
	for k := range games {
		game := games[(int(n)+k)%len(games)]
		for _, before := range []int64{day.Unix(), 1 << 62} {
			var count int64
			if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM puzzles WHERE game = ? AND created_at < ?`, game, before).Scan(&count); err != nil {
				return Puzzle{}, false, fmt.Errorf("db: daily puzzle: %w", err)
			}
			if count == 0 {
				continue
			}
			off := (n * 7919) % count
			p, err := scanPuzzle(db.read.QueryRowContext(ctx, `SELECT `+puzzleColumns+` FROM puzzles p
				WHERE p.game = ? AND p.created_at < ? ORDER BY p.id LIMIT 1 OFFSET ?`, game, before, off))
			if err != nil {
				return Puzzle{}, false, fmt.Errorf("db: daily puzzle: %w", err)
			}
			return p, true, nil
		}
	}
	return Puzzle{}, false, nil
}

// AnalysisScores returns the scores (side 0's view) of the positions of
// game gameID that its analysis evaluated, by ply; nil when it has none.
// The puzzle search takes them instead of searching those positions
// again.
func (db *DB) AnalysisScores(ctx context.Context, gameID int64) (map[int]int, error) {
	a, found, err := db.Analysis(ctx, gameID)
	if err != nil || !found || len(a.Plies) == 0 {
		return nil, err
	}
	out := make(map[int]int, len(a.Plies))
	for _, p := range a.Plies {
		out[p.Ply] = p.Score
	}
	return out, nil
}
