package db

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
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

// VacationAllowance is every player's yearly vacation allowance; 0 when
// vacations are off.
func (db *DB) VacationAllowance() time.Duration {
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
	by, err := usersVacations(ctx, q, []int64{userID}, since)
	return by[userID], err
}

// usersVacations reads the vacations of users ids that end after since,
// oldest first, by user. One or two players (a move's, a turn's) are read
// with a list of two: a page's 50 would cost a move 48 lookups of nobody.
func usersVacations(ctx context.Context, q queryer, ids []int64, since time.Time) (map[int64][]Vacation, error) {
	pad := 50
	if len(ids) <= 2 {
		pad = 2
	}
	in, args := idList(ids, pad)
	rows, err := q.QueryContext(ctx, `SELECT user_id, started_at, COALESCE(ended_at, ends_by), ended_at IS NULL, auto
		FROM vacations WHERE user_id IN (`+in+`) AND COALESCE(ended_at, ends_by) > ? ORDER BY started_at`,
		append(args, unix(since))...)
	if err != nil {
		return nil, fmt.Errorf("db: vacations: %w", err)
	}
	defer rows.Close()
	vs := map[int64][]Vacation{}
	for rows.Next() {
		var user, start, end int64
		var v Vacation
		if err := rows.Scan(&user, &start, &end, &v.Open, &v.Auto); err != nil {
			return nil, err
		}
		v.Start, v.End = fromUnix(start), fromUnix(end)
		vs[user] = append(vs[user], v)
	}
	return vs, rows.Err()
}

// turnVacations returns the vacations of each side of g (by side) that
// end after since, oldest first, as vacationsOf does for each, in one
// read within q (a move's transaction).
func turnVacations(ctx context.Context, q queryer, g Game, since time.Time) ([2][]Vacation, error) {
	by, err := usersVacations(ctx, q, []int64{g.Side[0].ID, g.Side[1].ID}, since)
	return [2][]Vacation{by[g.Side[0].ID], by[g.Side[1].ID]}, err
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

// yearStart is 1 January of year at 00:00 UTC.
func yearStart(year int) time.Time { return time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC) }

// chargedTo returns how much of the vacations vs falls in the calendar
// year (UTC): each day of a vacation counts against the allowance of the
// year it falls in. A vacation not ended counts until its ends_by.
func chargedTo(vs []Vacation, year int) time.Duration {
	return overlap(vs, yearStart(year), yearStart(year+1))
}

// endsBy returns when a vacation starting at start ends at the latest:
// when the allowance of a year it reaches is used up, each year's part
// charged to that year, the other vacations vs charged as well.
func endsBy(vs []Vacation, start time.Time, allowance time.Duration) time.Time {
	at := start
	for range 100 { // an allowance of a whole year or more would go on for ever
		year := at.UTC().Year()
		left := max(allowance-chargedTo(vs, year), 0)
		if next := yearStart(year + 1); at.Add(left).Before(next) {
			return at.Add(left)
		} else {
			at = next
		}
	}
	return at
}

// vacationUse returns userID's vacations that end after 1 January of
// now's year, with the one lasting at now apart (nil when none). It only
// reads.
func vacationUse(ctx context.Context, q queryer, userID int64, now time.Time) ([]Vacation, *Vacation, error) {
	vs, err := vacationsOf(ctx, q, userID, yearStart(now.UTC().Year()))
	if err != nil {
		return nil, nil, err
	}
	v, ok := vacationAt(vs, now)
	if !ok {
		return vs, nil, nil
	}
	others := make([]Vacation, 0, len(vs)-1)
	for _, o := range vs {
		if o != v {
			others = append(others, o)
		}
	}
	return others, &v, nil
}

// closeVacations ends userID's open vacations at now — all of them when
// all is true, else only those whose allowance ran out by now (they end
// at their ends_by).
func closeVacations(ctx context.Context, tx execer, userID int64, now time.Time, all bool) error {
	cond := `ends_by <= ?2`
	if all {
		cond = `1`
	}
	if _, err := tx.ExecContext(ctx, `UPDATE vacations SET ended_at = MIN(ends_by, ?2)
		WHERE user_id = ?1 AND ended_at IS NULL AND `+cond, userID, unix(now)); err != nil {
		return fmt.Errorf("db: end vacation: %w", err)
	}
	return nil
}

// Vacation returns userID's vacation status at now.
func (db *DB) Vacation(ctx context.Context, userID int64, now time.Time) (VacationStatus, error) {
	return db.vacationStatus(ctx, db.read, userID, now)
}

func (db *DB) vacationStatus(ctx context.Context, tx queryer, userID int64, now time.Time) (VacationStatus, error) {
	others, v, err := vacationUse(ctx, tx, userID, now)
	if err != nil {
		return VacationStatus{}, err
	}
	st := VacationStatus{Allowance: db.VacationAllowance(), Left: max(db.VacationAllowance()-chargedTo(others, now.UTC().Year()), 0)}
	if v != nil {
		st.On, st.Auto, st.Since, st.EndsBy = true, v.Auto, v.Start, v.End
	}
	return st, nil
}

// StartVacation stops userID's clocks in every game from now until they
// end the vacation or their yearly allowance runs out. Errors:
// KindConflict when vacations are off, when already on vacation or when
// no allowance is left.
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
	case st.Allowance == 0:
		return Errorf(KindConflict, "Vacations are off on this server.")
	case st.On:
		return Errorf(KindConflict, "You are already on vacation.")
	case st.Left <= 0:
		return Errorf(KindConflict, "No vacation is left this year (the allowance is %d days).", db.vacationDays)
	}
	vs, _, err := vacationUse(ctx, tx, userID, start)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO vacations (user_id, started_at, ends_by, auto) VALUES (?, ?, ?, ?)`,
		userID, unix(start), unix(endsBy(vs, start, db.VacationAllowance())), auto); err != nil {
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
	cs, err := db.Clocks(ctx, []Game{g}, now)
	if err != nil {
		return ClockState{}, err
	}
	return cs[0], nil
}

// Clocks returns the clocks of games at now, by index, as Clock does for
// each (one query for all: the players' vacations since the earliest
// turn started). Finished games get a zero ClockState.
func (db *DB) Clocks(ctx context.Context, games []Game, now time.Time) ([]ClockState, error) {
	out := make([]ClockState, len(games))
	since := now
	ids := make([]int64, 0, 2*len(games))
	for i := range games {
		g := &games[i]
		if g.Finished() {
			continue
		}
		if g.TurnStarted.Before(since) {
			since = g.TurnStarted
		}
		ids = append(ids, g.Side[0].ID, g.Side[1].ID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) == 0 {
		return out, nil
	}
	vs, err := db.vacationsSince(ctx, ids, since)
	if err != nil {
		return nil, err
	}
	for k := range games {
		g := &games[k]
		if g.Finished() {
			continue
		}
		cs := &out[k]
		for i, p := range g.Side {
			if v, ok := vacationAt(vs[p.ID], now); ok {
				cs.Vacation[i] = VacationStatus{On: true, Auto: v.Auto, Since: v.Start, EndsBy: v.End}
			}
		}
		cs.Banks = g.Bank
		if g.ToMove.Valid() {
			cs.Left = timeLeft(g.TurnStarted, now, g.Clock.allowance(g.Bank[g.ToMove]), vs[g.Side[g.ToMove].ID])
			cs.Banks[g.ToMove] = max(cs.Left, 0)
			cs.Stopped = cs.Vacation[g.ToMove].On
		}
	}
	return out, nil
}

// vacationsSince returns the vacations of users ids that end
// after since, in order, by user, and maybe some that ended before it:
// what is read is kept, by users, until the vacations change
// (writeLog.vacationGen), and answers a later since too (the next turn's
// start); the callers count only what overlaps their span. The slices are
// shared: the caller must not change them.
func (db *DB) vacationsSince(ctx context.Context, ids []int64, since time.Time) (map[int64][]Vacation, error) {
	key := vacationsKey(ids)
	gen := db.log.vacationGen.Load()
	if kept, ok := db.vacations.get(key, gen); ok && !since.Before(kept.since) {
		return kept.by, nil
	}
	vs, err := usersVacations(ctx, db.read, ids, since)
	if err != nil {
		return nil, err
	}
	db.vacations.keep(key, gen, vacationsRead{since: fromUnix(unix(since)), by: vs}, db.log.vacationGen.Load())
	return vs, nil
}

// vacationsKey is the key vacationsSince remembers the vacations of
// users ids under: "vacations 3 17 42".
func vacationsKey(ids []int64) string {
	b := make([]byte, 0, len("vacations")+8*len(ids))
	b = append(b, "vacations"...)
	for _, id := range ids {
		b = append(b, ' ')
		b = strconv.AppendInt(b, id, 10)
	}
	return string(b)
}

// vacationsRead is what vacationsSince read: the vacations ending after
// since, by user.
type vacationsRead struct {
	since time.Time
	by    map[int64][]Vacation
}
