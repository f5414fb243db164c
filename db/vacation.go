package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// DefaultVacationDays is the yearly vacation allowance of every player
// unless the server sets another (SetVacationDays).
const DefaultVacationDays = 20

// SetVacationDays sets the yearly vacation allowance of every player, in
// days (0 turns vacations off). Call it before serving.
func (db *DB) SetVacationDays(days int) {
	db.vacationDays = max(days, 0)
}

func (db *DB) vacationAllowance() time.Duration {
	return time.Duration(db.vacationDays) * 24 * time.Hour
}

// execer is what both *sql.DB and *Tx offer for writes.
type execer interface {
	queryer
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// vacationsOf returns userID's vacations that end after since, oldest
// first. A vacation the player has not ended lasts until its ends_by.
func vacationsOf(ctx context.Context, q queryer, userID int64, since time.Time) ([]Vacation, error) {
	rows, err := q.QueryContext(ctx, `SELECT started_at, COALESCE(ended_at, ends_by), ended_at IS NULL, auto
		FROM vacations WHERE user_id = ? AND COALESCE(ended_at, ends_by) > ? ORDER BY started_at`, userID, unix(since))
	if err != nil {
		return nil, fmt.Errorf("db: vacations: %w", err)
	}
	defer rows.Close()
	var out []Vacation
	for rows.Next() {
		var start, end int64
		var v Vacation
		if err := rows.Scan(&start, &end, &v.Open, &v.Auto); err != nil {
			return nil, err
		}
		v.Start, v.End = fromUnix(start), fromUnix(end)
		out = append(out, v)
	}
	return out, rows.Err()
}

// deadlineFor is when userID runs out of time on a turn started at start
// with allowance, seen from now (their vacations stop the clock).
func deadlineFor(ctx context.Context, q queryer, userID int64, start, now time.Time, allowance time.Duration) (time.Time, error) {
	vs, err := vacationsOf(ctx, q, userID, start)
	if err != nil {
		return time.Time{}, err
	}
	return runsOut(start, now, allowance, vs), nil
}

// refreshDeadlines recomputes the deadlines of userID's games where it is
// their turn, after their vacations changed.
func refreshDeadlines(ctx context.Context, tx execer, userID int64, now time.Time) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, clock, days_per_move, bank0_s, bank1_s, to_move, turn_started FROM games
		WHERE status = 'active' AND ((to_move = 0 AND side0_id = ?1) OR (to_move = 1 AND side1_id = ?1))`, userID)
	if err != nil {
		return fmt.Errorf("db: games to refresh: %w", err)
	}
	type turn struct {
		id        int64
		allowance time.Duration
		start     time.Time
	}
	var turns []turn
	for rows.Next() {
		var id, b0, b1, started int64
		var tc TimeControl
		var toMove int
		if err := rows.Scan(&id, &tc.Kind, &tc.DaysPerMove, &b0, &b1, &toMove, &started); err != nil {
			rows.Close()
			return err
		}
		bank := secs(b0)
		if toMove == 1 {
			bank = secs(b1)
		}
		turns = append(turns, turn{id, tc.allowance(bank), fromUnix(started)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range turns {
		dl, err := deadlineFor(ctx, tx, userID, t.start, now, t.allowance)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET deadline = ? WHERE id = ?`, unix(dl), t.id); err != nil {
			return fmt.Errorf("db: refresh deadline: %w", err)
		}
	}
	return nil
}

// VacationStatus is a player's vacation as pages show it.
type VacationStatus struct {
	On     bool
	Auto   bool      // started by the server when their time ran out
	Since  time.Time // when it started
	EndsBy time.Time // when it ends at the latest (the allowance runs out)
	// Left is the allowance left this year, not counting a vacation that
	// lasts now.
	Left time.Duration
	// Allowance is the yearly allowance.
	Allowance time.Duration
}

// vacationUse returns how much of the allowance userID has used in now's
// year, and the vacation lasting now. Vacations are charged to the year
// they started in when they end; one that reached its ends_by without
// being closed yet counts as ended then. It only reads.
func (db *DB) vacationUse(ctx context.Context, q queryer, userID int64, now time.Time) (time.Duration, *Vacation, error) {
	var year int
	var usedS, lapsedS int64
	if err := q.QueryRowContext(ctx, `SELECT vacation_year, vacation_used_s FROM users WHERE id = ?`, userID).Scan(&year, &usedS); err != nil {
		return 0, nil, fmt.Errorf("db: vacation allowance: %w", err)
	}
	if year != now.Year() {
		usedS = 0
	}
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(SUM(ends_by - started_at), 0) FROM vacations
		WHERE user_id = ? AND ended_at IS NULL AND ends_by <= ? AND started_at >= ?`,
		userID, unix(now), time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC).Unix()).Scan(&lapsedS); err != nil {
		return 0, nil, fmt.Errorf("db: lapsed vacations: %w", err)
	}
	usedS += lapsedS
	vs, err := vacationsOf(ctx, q, userID, now)
	if err != nil {
		return 0, nil, err
	}
	if v, ok := vacationAt(vs, now); ok {
		return secs(usedS), &v, nil
	}
	return secs(usedS), nil, nil
}

// closeVacations ends userID's open vacations at now — all of them when
// all is true, else only those whose allowance ran out by now — and
// charges their length to the allowance of the year they started in.
func closeVacations(ctx context.Context, tx execer, userID int64, now time.Time, all bool) error {
	cond := `ends_by <= ?2`
	if all {
		cond = `1`
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, started_at, MIN(ends_by, ?2) FROM vacations
		WHERE user_id = ?1 AND ended_at IS NULL AND `+cond, userID, unix(now))
	if err != nil {
		return fmt.Errorf("db: open vacations: %w", err)
	}
	type span struct{ id, start, end int64 }
	var spans []span
	for rows.Next() {
		var s span
		if err := rows.Scan(&s.id, &s.start, &s.end); err != nil {
			rows.Close()
			return err
		}
		spans = append(spans, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, s := range spans {
		if _, err := tx.ExecContext(ctx, `UPDATE vacations SET ended_at = ? WHERE id = ?`, s.end, s.id); err != nil {
			return fmt.Errorf("db: end vacation: %w", err)
		}
		year := fromUnix(s.start).Year()
		if _, err := tx.ExecContext(ctx, `UPDATE users SET
			vacation_used_s = CASE WHEN vacation_year = ?1 THEN vacation_used_s ELSE 0 END + ?2, vacation_year = ?1
			WHERE id = ?3 AND vacation_year <= ?1`, year, max(s.end-s.start, 0), userID); err != nil {
			return fmt.Errorf("db: charge vacation: %w", err)
		}
	}
	return nil
}

// Vacation returns userID's vacation status at now.
func (db *DB) Vacation(ctx context.Context, userID int64, now time.Time) (VacationStatus, error) {
	return db.vacationStatus(ctx, db.read, userID, now)
}

func (db *DB) vacationStatus(ctx context.Context, tx queryer, userID int64, now time.Time) (VacationStatus, error) {
	usedSoFar, v, err := db.vacationUse(ctx, tx, userID, now)
	if err != nil {
		return VacationStatus{}, err
	}
	st := VacationStatus{Allowance: db.vacationAllowance(), Left: max(db.vacationAllowance()-usedSoFar, 0)}
	if v != nil {
		st.On, st.Auto, st.Since, st.EndsBy = true, v.Auto, v.Start, v.End
	}
	return st, nil
}

// StartVacation stops userID's clocks in every game from now until they
// end the vacation or their yearly allowance runs out. Errors:
// KindConflict when already on vacation or no allowance is left.
func (db *DB) StartVacation(ctx context.Context, userID int64, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := db.startVacation(ctx, tx, userID, now, now, false); err != nil {
		return err
	}
	return tx.Commit()
}

// startVacation starts a vacation at start (now, or the moment a player's
// time ran out for an automatic one).
func (db *DB) startVacation(ctx context.Context, tx execer, userID int64, start, now time.Time, auto bool) error {
	if err := closeVacations(ctx, tx, userID, start, false); err != nil {
		return err
	}
	st, err := db.vacationStatus(ctx, tx, userID, start)
	if err != nil {
		return err
	}
	switch {
	case st.On:
		return Errorf(KindConflict, "You are already on vacation.")
	case st.Left <= 0:
		return Errorf(KindConflict, "No vacation is left this year (the allowance is %d days).", db.vacationDays)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO vacations (user_id, started_at, ends_by, auto) VALUES (?, ?, ?, ?)`,
		userID, unix(start), unix(start.Add(st.Left)), auto); err != nil {
		return fmt.Errorf("db: start vacation: %w", err)
	}
	return refreshDeadlines(ctx, tx, userID, now)
}

// EndVacation ends userID's vacation now: their clocks run again.
// Errors: KindConflict when not on vacation.
func (db *DB) EndVacation(ctx context.Context, userID int64, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st, err := db.vacationStatus(ctx, tx, userID, now)
	if err != nil {
		return err
	}
	if !st.On {
		return Errorf(KindConflict, "You are not on vacation.")
	}
	if err := closeVacations(ctx, tx, userID, now, true); err != nil {
		return err
	}
	if err := refreshDeadlines(ctx, tx, userID, now); err != nil {
		return err
	}
	return tx.Commit()
}

// endAutoVacation ends a vacation the server started for userID (they
// are back: they moved).
func endAutoVacation(ctx context.Context, tx *Tx, userID int64, now time.Time) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM vacations WHERE user_id = ? AND ended_at IS NULL AND auto = 1 AND ends_by > ?`,
		userID, unix(now)).Scan(&n); err != nil {
		return fmt.Errorf("db: automatic vacation: %w", err)
	}
	if n == 0 {
		return nil
	}
	if err := closeVacations(ctx, tx, userID, now, true); err != nil {
		return err
	}
	return refreshDeadlines(ctx, tx, userID, now)
}

// ClockState is a game's clock as the game page shows it.
type ClockState struct {
	// Left is how long the side to move has left (vacations not counted).
	Left time.Duration
	// Stopped is true while the side to move is on vacation.
	Stopped bool
	// Banks are each side's bank now (time bank only): the side to move's
	// is Left.
	Banks [2]time.Duration
	// Vacation is each player's vacation lasting now, if any (index =
	// side; Left and Allowance are not filled in).
	Vacation [2]VacationStatus
}

// Clock returns the clock of an active game g at now (one query: both
// players' vacations since the turn started).
func (db *DB) Clock(ctx context.Context, g Game, now time.Time) (ClockState, error) {
	var cs ClockState
	since := g.TurnStarted
	if now.Before(since) {
		since = now
	}
	rows, err := db.read.QueryContext(ctx, `SELECT user_id, started_at, COALESCE(ended_at, ends_by), ended_at IS NULL, auto
		FROM vacations WHERE user_id IN (?, ?) AND COALESCE(ended_at, ends_by) > ? ORDER BY started_at`,
		g.Side[0].ID, g.Side[1].ID, unix(since))
	if err != nil {
		return cs, fmt.Errorf("db: vacations: %w", err)
	}
	defer rows.Close()
	var vs [2][]Vacation
	for rows.Next() {
		var user, start, end int64
		var v Vacation
		if err := rows.Scan(&user, &start, &end, &v.Open, &v.Auto); err != nil {
			return cs, err
		}
		v.Start, v.End = fromUnix(start), fromUnix(end)
		for i := range g.Side {
			if g.Side[i].ID == user {
				vs[i] = append(vs[i], v)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return cs, err
	}
	for i := range vs {
		if v, ok := vacationAt(vs[i], now); ok {
			cs.Vacation[i] = VacationStatus{On: true, Auto: v.Auto, Since: v.Start, EndsBy: v.End}
		}
	}
	cs.Banks = g.Bank
	if g.ToMove.Valid() {
		cs.Left = timeLeft(g.TurnStarted, now, g.Clock.allowance(g.Bank[g.ToMove]), vs[g.ToMove])
		cs.Banks[g.ToMove] = max(cs.Left, 0)
		cs.Stopped = cs.Vacation[g.ToMove].On
	}
	return cs, nil
}
