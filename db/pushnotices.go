package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// NoticeKind is what a notice tells a player about; a device chooses the
// kinds it is sent (PushSubscription.Wants).
type NoticeKind string

// The kinds of notice.
const (
	NoticeMove      NoticeKind = "move"      // a game waits for their move
	NoticeEnd       NoticeKind = "end"       // a game of theirs ended
	NoticeChallenge NoticeKind = "challenge" // a challenge addressed to them
	NoticeMessage   NoticeKind = "message"   // a message to them in a game
	NoticeRound     NoticeKind = "round"     // a tournament round began: their new game
)

// NoticeWindow is how old an event (a game's end, a challenge, a message,
// a round's start) can be and still be told: what happened longer ago,
// while the server was stopped, is no longer news.
const NoticeWindow = 24 * time.Hour

// wantsKind is the condition "device d wants notices of kind k".
func wantsKind(k NoticeKind) string {
	return `',' || d.wants || ',' LIKE '%,` + string(k) + `,%'`
}

// notYetTold is the condition "no push notice of kind k about subject
// (an SQL expression) is recorded for user d.user_id".
func notYetTold(k NoticeKind, subject string) string {
	return `NOT EXISTS (SELECT 1 FROM notices n WHERE n.channel = 'push' AND n.user_id = d.user_id AND n.kind = '` +
		string(k) + `' AND n.subject = ` + subject + ` AND n.ply = 0)`
}

// The queries of the notices due start from the devices (CROSS JOIN
// keeps SQLite to that order): there are few, and each player's games are
// found along the players' indexes. Started from the games, a query would
// read every game in progress, or every game ended in the last day, at
// each pass.

// dueEvents is, per kind other than NoticeMove, a query of the push
// notices due: user_id, subject, for each device d that wants the kind,
// was added before the event and whose player was not told about it yet
// (nor ended it: a player who resigned is not told the game is over);
// ?1 is the oldest event still told (unix seconds). A player with several
// devices appears once for each.
var dueEvents = map[NoticeKind]string{
	NoticeEnd: `SELECT d.user_id AS user_id, g.id AS subject FROM push_subscriptions d CROSS JOIN games g ON g.side0_id = d.user_id
			WHERE g.status = 'finished' AND g.ended_at >= ?1 AND d.created_at <= g.ended_at AND NOT (g.reason = 'resignation' AND g.winner = 1)
			AND ` + wantsKind(NoticeEnd) + ` AND ` + notYetTold(NoticeEnd, "g.id") + `
		UNION ALL
		SELECT d.user_id AS user_id, g.id AS subject FROM push_subscriptions d CROSS JOIN games g ON g.side1_id = d.user_id
			WHERE g.status = 'finished' AND g.ended_at >= ?1 AND d.created_at <= g.ended_at AND NOT (g.reason = 'resignation' AND g.winner = 0)
			AND ` + wantsKind(NoticeEnd) + ` AND ` + notYetTold(NoticeEnd, "g.id"),
	NoticeChallenge: `SELECT d.user_id AS user_id, c.id AS subject FROM challenges c JOIN push_subscriptions d ON d.user_id = c.opponent_id
			WHERE c.status = 'open' AND c.created_at >= ?1 AND d.created_at <= c.created_at AND ` + wantsKind(NoticeChallenge) + ` AND ` + notYetTold(NoticeChallenge, "c.id"),
	NoticeMessage: `SELECT d.user_id AS user_id, m.id AS subject FROM push_subscriptions d CROSS JOIN messages m ON m.to_id = d.user_id AND m.read_at IS NULL
			WHERE m.created_at >= ?1 AND d.created_at <= m.created_at AND ` + wantsKind(NoticeMessage) + ` AND ` + notYetTold(NoticeMessage, "m.id"),
	NoticeRound: `SELECT d.user_id AS user_id, g.id AS subject FROM push_subscriptions d CROSS JOIN games g ON g.side0_id = d.user_id AND g.status = 'active'
			JOIN matches m ON m.id = g.match_id AND m.tournament_id IS NOT NULL
			WHERE g.number = 1 AND g.created_at >= ?1 AND d.created_at <= g.created_at AND ` + wantsKind(NoticeRound) + ` AND ` + notYetTold(NoticeRound, "g.id") + `
		UNION ALL
		SELECT d.user_id AS user_id, g.id AS subject FROM push_subscriptions d CROSS JOIN games g ON g.side1_id = d.user_id AND g.status = 'active'
			JOIN matches m ON m.id = g.match_id AND m.tournament_id IS NOT NULL
			WHERE g.number = 1 AND g.created_at >= ?1 AND d.created_at <= g.created_at AND ` + wantsKind(NoticeRound) + ` AND ` + notYetTold(NoticeRound, "g.id"),
}

// dueMoves is the query of the "your move" push notices due: user_id,
// subject (the game), ply (the turn's first ply), for each game waiting
// for the move of a player with a device that wants NoticeMove, in a turn
// they were not told about.
const dueMoves = `SELECT u.user_id AS user_id, g.id AS subject, g.turn_ply AS ply
		FROM (SELECT DISTINCT d.user_id FROM push_subscriptions d WHERE ` + wantsMove + `) u
		CROSS JOIN games g ON g.side0_id = u.user_id AND g.status = 'active' AND g.to_move = 0
		WHERE NOT EXISTS (SELECT 1 FROM notices n WHERE n.channel = 'push' AND n.user_id = u.user_id AND n.kind = 'move' AND n.subject = g.id AND n.ply >= g.turn_ply)
	UNION ALL
	SELECT u.user_id, g.id, g.turn_ply
		FROM (SELECT DISTINCT d.user_id FROM push_subscriptions d WHERE ` + wantsMove + `) u
		CROSS JOIN games g ON g.side1_id = u.user_id AND g.status = 'active' AND g.to_move = 1
		WHERE NOT EXISTS (SELECT 1 FROM notices n WHERE n.channel = 'push' AND n.user_id = u.user_id AND n.kind = 'move' AND n.subject = g.id AND n.ply >= g.turn_ply)`

// wantsMove is wantsKind(NoticeMove), as a constant.
const wantsMove = `',' || d.wants || ',' LIKE '%,move,%'`

// noticeKinds are the kinds of notice, in the order they are claimed.
var noticeKinds = []NoticeKind{NoticeMove, NoticeEnd, NoticeChallenge, NoticeMessage, NoticeRound}

// dueQuery is the query of the push notices of kind k due: user_id,
// subject, ply.
func dueQuery(k NoticeKind) string {
	if k == NoticeMove {
		return dueMoves
	}
	return `SELECT user_id, subject, 0 AS ply FROM (` + dueEvents[k] + `)`
}

// PushResult is what became of a delivery handed out by ClaimPushNotices,
// to be recorded by the next call: the outcome at At, and for PushRetry
// when to try again.
type PushResult struct {
	Delivery PushDelivery
	Outcome  PushOutcome
	At       time.Time
	RetryAt  time.Time
}

// ClaimPushNotices reads what is due without a lock, then does, in one
// transaction (none when there is nothing to do): it records results (see FinishPushDeliveries);
// it records every push notice due at now (a game waiting for a player's
// move in a turn not yet told, and within NoticeWindow a game of theirs
// that ended, a challenge addressed to them, a message to them not yet
// read and a tournament game that began, each for the devices that want
// its kind and, but for "your move", were added before it), each never
// due again, even after a restart; and it hands out at most limit
// deliveries to try now: first those of the notices just recorded, one for
// each device of the player that wants the kind, then stored ones due
// again. A delivery handed out is never handed out again: one just made is
// not stored at all (PushDelivery.ID 0; a stop before its result is
// recorded loses the notice rather than ever sending it twice), a stored
// one is marked as being sent. The deliveries of new notices beyond limit
// are stored, due now, for the next calls.
func (db *DB) ClaimPushNotices(ctx context.Context, now time.Time, results []PushResult, limit int) ([]PushDelivery, error) {
	// What is due is read first, outside the write: the write then only
	// records, so that a move waits for it as little as possible. A notice
	// read as due twice is recorded once (the notices' key), and one whose
	// turn passed in between is dropped when it is composed.
	since := unix(now.Add(-NoticeWindow))
	type told struct {
		kind          NoticeKind
		user, subject int64
		ply           int
	}
	var due []told
	for _, k := range noticeKinds {
		rows, err := db.read.QueryContext(ctx, `SELECT DISTINCT user_id, subject, ply FROM (`+dueQuery(k)+`)`, since, unix(now))
		if err != nil {
			return nil, fmt.Errorf("db: %s notices due: %w", k, err)
		}
		for rows.Next() {
			t := told{kind: k}
			if err := rows.Scan(&t.user, &t.subject, &t.ply); err != nil {
				rows.Close()
				return nil, err
			}
			due = append(due, t)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("db: %s notices due: %w", k, err)
		}
	}
	if len(results) == 0 && len(due) == 0 {
		var stored bool
		if err := db.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM push_deliveries WHERE sending = 0 AND next_at <= ?)`,
			unix(now)).Scan(&stored); err != nil {
			return nil, fmt.Errorf("db: push notices due: %w", err)
		}
		if !stored {
			return nil, nil
		}
	}
	subs := map[int64][]PushSubscription{} // the devices of each player told, by user
	lang := map[int64]string{}
	for _, t := range due {
		if _, ok := subs[t.user]; ok {
			continue
		}
		devices, err := userPushSubscriptions(ctx, db.read, t.user)
		if err != nil {
			return nil, err
		}
		subs[t.user] = devices
		var l string
		if err := db.read.QueryRowContext(ctx, `SELECT language FROM users WHERE id = ?`, t.user).Scan(&l); err != nil {
			return nil, fmt.Errorf("db: push notice's language: %w", err)
		}
		lang[t.user] = l
	}

	tx, err := db.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if err := finishPushDeliveries(ctx, tx, results); err != nil {
		return nil, err
	}
	var out []PushDelivery
	for _, t := range due {
		res, err := tx.ExecContext(ctx, `INSERT INTO notices (channel, kind, user_id, subject, ply, sent_at)
			VALUES ('push', ?, ?, ?, ?, ?) ON CONFLICT (channel, user_id, kind, subject, ply) DO NOTHING`,
			string(t.kind), t.user, t.subject, t.ply, unix(now))
		if err != nil {
			return nil, fmt.Errorf("db: record %s notice: %w", t.kind, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err != nil {
				return nil, fmt.Errorf("db: record %s notice: %w", t.kind, err)
			}
			continue // told already
		}
		for _, d := range subs[t.user] {
			if !slices.Contains(d.Wants, string(t.kind)) {
				continue
			}
			pd := PushDelivery{Sub: d, Language: lang[t.user], Kind: t.kind, Subject: t.subject, TurnPly: t.ply, Attempts: 1}
			if len(out) < limit {
				out = append(out, pd)
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO push_deliveries (subscription_id, kind, subject, turn_ply, next_at)
				VALUES (?, ?, ?, ?, ?)`, d.ID, string(t.kind), t.subject, t.ply, unix(now)); err != nil {
				return nil, fmt.Errorf("db: queue push notice: %w", err)
			}
		}
	}
	if len(out) < limit {
		stored, err := claimStoredDeliveries(ctx, tx, now, limit-len(out))
		if err != nil {
			return nil, err
		}
		out = append(out, stored...)
	}
	return out, tx.Commit()
}

// userPushSubscriptions returns userID's devices, the oldest first, read
// with q (the read pool or a transaction).
func userPushSubscriptions(ctx context.Context, q queryer, userID int64) ([]PushSubscription, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+pushColumns+` FROM push_subscriptions WHERE user_id = ? ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("db: push subscriptions: %w", err)
	}
	defer rows.Close()
	var out []PushSubscription
	for rows.Next() {
		s, err := scanPush(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// FinishPushDeliveries records results in one transaction: PushSent notes
// the device's last success (and removes a stored delivery); PushGone
// removes the device with every delivery to it; PushRetry stores the
// delivery (or updates the stored one) due at RetryAt; PushDropped
// removes a stored delivery.
func (db *DB) FinishPushDeliveries(ctx context.Context, results []PushResult) error {
	if len(results) == 0 {
		return nil
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := finishPushDeliveries(ctx, tx, results); err != nil {
		return err
	}
	return tx.Commit()
}

func finishPushDeliveries(ctx context.Context, tx *Tx, results []PushResult) error {
	for _, r := range results {
		d := r.Delivery
		var qs []string
		var args []any
		switch r.Outcome {
		case PushSent:
			qs = []string{`DELETE FROM push_deliveries WHERE id = ?1`, `UPDATE push_subscriptions SET last_success_at = MAX(last_success_at, ?3) WHERE id = ?2`}
			args = []any{d.ID, d.Sub.ID, unix(r.At)}
		case PushGone:
			qs = []string{`DELETE FROM push_deliveries WHERE subscription_id = ?1`, `DELETE FROM push_subscriptions WHERE id = ?1`}
			args = []any{d.Sub.ID}
		case PushRetry:
			if d.ID == 0 {
				// Only while the device exists: a device removed meanwhile
				// is not written back.
				qs = []string{`INSERT INTO push_deliveries (subscription_id, kind, subject, turn_ply, attempts, next_at)
					SELECT id, ?2, ?3, ?4, ?5, ?6 FROM push_subscriptions WHERE id = ?1`}
				args = []any{d.Sub.ID, string(d.Kind), d.Subject, d.TurnPly, d.Attempts, unix(r.RetryAt)}
			} else {
				qs = []string{`UPDATE push_deliveries SET sending = 0, next_at = ?2 WHERE id = ?1`}
				args = []any{d.ID, unix(r.RetryAt)}
			}
		default:
			qs = []string{`DELETE FROM push_deliveries WHERE id = ?1`}
			args = []any{d.ID}
		}
		for _, q := range qs {
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return fmt.Errorf("db: finish push delivery: %w", err)
			}
		}
	}
	return nil
}

// SetPushWants sets the kinds of notice userID's device id is sent.
// Errors: KindInvalid for a kind not in PushWants; KindNotFound when
// userID has no such device.
func (db *DB) SetPushWants(ctx context.Context, userID, id int64, wants []string) error {
	w, err := cleanWants(wants)
	if err != nil {
		return err
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE push_subscriptions SET wants = ? WHERE id = ? AND user_id = ?`, w, id, userID)
	if err != nil {
		return fmt.Errorf("db: set push wants: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return Errorf(KindNotFound, "No such device.")
	}
	return tx.Commit()
}

// PushMessage returns message id as its addressee sees it (Unread until
// they read it). Errors: KindNotFound for an unknown message.
func (db *DB) PushMessage(ctx context.Context, id int64) (GameMessage, error) {
	var m GameMessage
	var created int64
	var read sql.NullInt64
	err := db.read.QueryRowContext(ctx, `SELECT m.id, m.game_id, m.from_id, u.name, m.to_id, m.ply, m.body, m.created_at, m.read_at
		FROM messages m JOIN users u ON u.id = m.from_id WHERE m.id = ?`, id).
		Scan(&m.ID, &m.GameID, &m.From.ID, &m.From.Name, &m.ToID, &m.Ply, &m.Body, &created, &read)
	if errors.Is(err, sql.ErrNoRows) {
		return m, Errorf(KindNotFound, "No such message.")
	}
	if err != nil {
		return m, fmt.Errorf("db: message: %w", err)
	}
	m.CreatedAt, m.Unread = fromUnix(created), !read.Valid
	return m, nil
}

// GameRound names the tournament round game gameID belongs to: the
// tournament's id and name and the round's number. ok is false for a
// game outside any tournament.
func (db *DB) GameRound(ctx context.Context, gameID int64) (tournamentID int64, name string, round int, ok bool, err error) {
	err = db.read.QueryRowContext(ctx, `SELECT t.id, t.name, p.round FROM games g JOIN matches m ON m.id = g.match_id
		JOIN tournaments t ON t.id = m.tournament_id JOIN tournament_pairings p ON p.match_id = m.id WHERE g.id = ?`, gameID).
		Scan(&tournamentID, &name, &round)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", 0, false, nil
	}
	if err != nil {
		return 0, "", 0, false, fmt.Errorf("db: game's round: %w", err)
	}
	return tournamentID, name, round, true, nil
}
