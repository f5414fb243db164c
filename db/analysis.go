package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/trench-games/trench/rules"
)

// An analysis is the computer's evaluation of every position of a
// finished game (TRENCH or Trenches: a game with hidden cards is not
// analysed). A player queues it; one background job works through the
// queue, one game and one position at a time, storing each position's
// evaluation with the count of positions done in one transaction, so that
// a job stopped at any point goes on after a restart where it stopped,
// with nothing lost or evaluated twice.

// MaxQueuedAnalyses is how many analyses one player may have waiting (queued
// or running) at once.
const MaxQueuedAnalyses = 3

// Analysis is the analysis of one game and how far it got.
type Analysis struct {
	GameID      int64
	RequestedBy int64
	State       string // "queued", "running", "done" or "failed"
	Done        int    // positions evaluated
	Total       int    // positions to evaluate: the game's plies + 1
	Nodes       int64  // the search budget of each position
	Error       string // why it failed
	// Plies are the evaluations of the positions after ply 0, 1, …,
	// Done-1 (filled in by Analysis, not by NextAnalysis).
	Plies []AnalysisPly
}

// Waiting reports whether the analysis is still to be done.
func (a Analysis) Waiting() bool { return a.State == "queued" || a.State == "running" }

// AnalysisPly is the evaluation of the position after one ply.
type AnalysisPly struct {
	Ply int
	// Expect is the expected result for side 0 (Black in TRENCH, Light in
	// Trenches), 0 to 1.
	Expect float64
	Score  int      // the search's own score, side 0's view
	Best   string   // the best move of the side to move; "" once the game is over
	Line   []string // the line the search expects, starting with Best
}

// QueueAnalysis queues the analysis of finished game gameID for userID,
// each position to be searched with a budget of nodes. A game already
// queued or analysed is returned as it is (a failed one is queued again).
// Errors: KindNotFound; KindConflict for a game in progress; KindInvalid
// for a game with hidden information; KindTooMany when userID already has
// MaxQueuedAnalyses waiting.
func (db *DB) QueueAnalysis(ctx context.Context, gameID, userID, nodes int64, now time.Time) (Analysis, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return Analysis{}, err
	}
	defer tx.Rollback()
	g, err := gameByID(ctx, tx, gameID)
	if err != nil {
		return Analysis{}, err
	}
	eng, err := g.Engine()
	if err != nil {
		return Analysis{}, err
	}
	switch {
	case rules.HidesInformation(eng):
		return Analysis{}, Errorf(KindInvalid, "Games with hidden cards are not analysed: the computer would have to see the cards.")
	case !g.Finished():
		return Analysis{}, Errorf(KindConflict, "A game can be analysed once it is over.")
	}
	a, found, err := analysisOf(ctx, tx, gameID)
	if err != nil {
		return Analysis{}, err
	}
	if found && a.State != "failed" {
		return a, nil
	}
	var waiting int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM analyses WHERE requested_by = ? AND state IN ('queued', 'running')`, userID).Scan(&waiting); err != nil {
		return Analysis{}, fmt.Errorf("db: count analyses: %w", err)
	}
	if waiting >= MaxQueuedAnalyses {
		return Analysis{}, Errorf(KindTooMany, "You have %d analyses waiting, the most at once: ask for another when one has finished.", waiting)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM analysis_plies WHERE game_id = ?`, gameID); err != nil {
		return Analysis{}, fmt.Errorf("db: queue analysis: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO analyses (game_id, requested_by, state, done, total, nodes, created_at, updated_at)
		VALUES (?, ?, 'queued', 0, ?, ?, ?, ?)
		ON CONFLICT (game_id) DO UPDATE SET requested_by = excluded.requested_by, state = 'queued', done = 0,
			total = excluded.total, nodes = excluded.nodes, error = '', created_at = excluded.created_at, updated_at = excluded.updated_at`,
		gameID, userID, g.Ply+1, nodes, unix(now), unix(now)); err != nil {
		return Analysis{}, fmt.Errorf("db: queue analysis: %w", err)
	}
	if a, _, err = analysisOf(ctx, tx, gameID); err != nil {
		return Analysis{}, err
	}
	return a, tx.Commit()
}

const analysisSelect = `SELECT game_id, requested_by, state, done, total, nodes, error FROM analyses `

func scanAnalysis(row interface{ Scan(...any) error }) (Analysis, error) {
	var a Analysis
	err := row.Scan(&a.GameID, &a.RequestedBy, &a.State, &a.Done, &a.Total, &a.Nodes, &a.Error)
	return a, err
}

func analysisOf(ctx context.Context, q queryer, gameID int64) (Analysis, bool, error) {
	a, err := scanAnalysis(q.QueryRowContext(ctx, analysisSelect+`WHERE game_id = ?`, gameID))
	if errors.Is(err, sql.ErrNoRows) {
		return Analysis{}, false, nil
	}
	if err != nil {
		return Analysis{}, false, fmt.Errorf("db: analysis: %w", err)
	}
	return a, true, nil
}

// Analysis returns the analysis of game gameID with the evaluations made
// so far, and whether there is one.
func (db *DB) Analysis(ctx context.Context, gameID int64) (Analysis, bool, error) {
	a, found, err := analysisOf(ctx, db.read, gameID)
	if err != nil || !found {
		return a, found, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT ply, expect, score, best, line FROM analysis_plies WHERE game_id = ? ORDER BY ply`, gameID)
	if err != nil {
		return a, false, fmt.Errorf("db: analysis plies: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p AnalysisPly
		var line string
		if err := rows.Scan(&p.Ply, &p.Expect, &p.Score, &p.Best, &line); err != nil {
			return a, false, err
		}
		p.Line = strings.Fields(line)
		a.Plies = append(a.Plies, p)
	}
	return a, true, rows.Err()
}

// NextAnalysis returns the analysis to work on: one already running (a
// job stopped by a restart) first, then the oldest queued; false when
// there is none. Plies is not filled in.
func (db *DB) NextAnalysis(ctx context.Context) (Analysis, bool, error) {
	a, err := scanAnalysis(db.read.QueryRowContext(ctx, analysisSelect+`WHERE state IN ('queued', 'running')
		ORDER BY state = 'running' DESC, created_at, game_id LIMIT 1`))
	if errors.Is(err, sql.ErrNoRows) {
		return Analysis{}, false, nil
	}
	if err != nil {
		return Analysis{}, false, fmt.Errorf("db: next analysis: %w", err)
	}
	return a, true, nil
}

// StoreAnalysisPly stores the evaluation p of the position after ply
// p.Ply of game gameID's analysis, which must be the next one to do
// (p.Ply == Done), and counts it done, in one transaction; the analysis is
// done with its last position. Errors: KindConflict when the analysis is
// not waiting or p is not its next position (nothing is stored twice);
// KindNotFound when there is no analysis.
func (db *DB) StoreAnalysisPly(ctx context.Context, gameID int64, p AnalysisPly, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE analyses SET done = done + 1, updated_at = ?,
		state = CASE WHEN done + 1 >= total THEN 'done' ELSE 'running' END
		WHERE game_id = ? AND done = ? AND done < total AND state IN ('queued', 'running')`, unix(now), gameID, p.Ply)
	if err != nil {
		return fmt.Errorf("db: store analysis: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		if _, found, err := analysisOf(ctx, tx, gameID); err != nil {
			return err
		} else if !found {
			return Errorf(KindNotFound, "This game has no analysis.")
		}
		return Errorf(KindConflict, "The analysis of game %d is not waiting for ply %d.", gameID, p.Ply)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO analysis_plies (game_id, ply, expect, score, best, line) VALUES (?, ?, ?, ?, ?, ?)`,
		gameID, p.Ply, p.Expect, p.Score, p.Best, strings.Join(p.Line, " ")); err != nil {
		return fmt.Errorf("db: store analysis ply: %w", err)
	}
	return tx.Commit()
}

// FailAnalysis marks game gameID's analysis failed with the reason msg (a
// player may queue it again).
func (db *DB) FailAnalysis(ctx context.Context, gameID int64, msg string, now time.Time) error {
	return db.exec1(ctx, "fail analysis", `UPDATE analyses SET state = 'failed', error = ?, updated_at = ? WHERE game_id = ?`, msg, unix(now), gameID)
}
