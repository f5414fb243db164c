package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
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

// dueEvents is, per kind other than NoticeMove, a query of the push
// notices due: user_id, subject, for each device d that wants the kind,
// was added before the event and whose player was not told about it yet;
// ?1 is the oldest event still told (unix seconds). A player with several
// devices appears once for each.
var dueEvents = map[NoticeKind]string{
	NoticeEnd: `SELECT d.user_id AS user_id, g.id AS subject FROM games g JOIN push_subscriptions d ON d.user_id = g.side0_id
			WHERE g.status = 'finished' AND g.ended_at >= ?1 AND d.created_at <= g.ended_at AND ` + wantsKind(NoticeEnd) + ` AND ` + notYetTold(NoticeEnd, "g.id") + `
		UNION ALL
		SELECT d.user_id AS user_id, g.id AS subject FROM games g JOIN push_subscriptions d ON d.user_id = g.side1_id
			WHERE g.status = 'finished' AND g.ended_at >= ?1 AND d.created_at <= g.ended_at AND ` + wantsKind(NoticeEnd) + ` AND ` + notYetTold(NoticeEnd, "g.id"),
	NoticeChallenge: `SELECT d.user_id AS user_id, c.id AS subject FROM challenges c JOIN push_subscriptions d ON d.user_id = c.opponent_id
			WHERE c.status = 'open' AND c.created_at >= ?1 AND d.created_at <= c.created_at AND ` + wantsKind(NoticeChallenge) + ` AND ` + notYetTold(NoticeChallenge, "c.id"),
	NoticeMessage: `SELECT d.user_id AS user_id, m.id AS subject FROM push_subscriptions d JOIN messages m ON m.to_id = d.user_id AND m.read_at IS NULL
			WHERE m.created_at >= ?1 AND d.created_at <= m.created_at AND ` + wantsKind(NoticeMessage) + ` AND ` + notYetTold(NoticeMessage, "m.id"),
	NoticeRound: `SELECT d.user_id AS user_id, g.id AS subject FROM push_subscriptions d JOIN games g ON g.side0_id = d.user_id AND g.status = 'active'
			JOIN matches m ON m.id = g.match_id AND m.tournament_id IS NOT NULL
			WHERE g.number = 1 AND g.created_at >= ?1 AND d.created_at <= g.created_at AND ` + wantsKind(NoticeRound) + ` AND ` + notYetTold(NoticeRound, "g.id") + `
		UNION ALL
		SELECT d.user_id AS user_id, g.id AS subject FROM push_subscriptions d JOIN games g ON g.side1_id = d.user_id AND g.status = 'active'
			JOIN matches m ON m.id = g.match_id AND m.tournament_id IS NOT NULL
			WHERE g.number = 1 AND g.created_at >= ?1 AND d.created_at <= g.created_at AND ` + wantsKind(NoticeRound) + ` AND ` + notYetTold(NoticeRound, "g.id"),
}

// eventKinds are the kinds of dueEvents, in the order they are claimed.
var eventKinds = []NoticeKind{NoticeEnd, NoticeChallenge, NoticeMessage, NoticeRound}

// ClaimPushEvents records, in one transaction, the push notices due at
// now about games that ended, challenges addressed to a player, messages
// not yet read and tournament games that began (within NoticeWindow, each
// for the devices that want its kind and were added before it), and
// queues one delivery (see ClaimPushDeliveries) for each device of the
// player that wants the kind. It returns how many notices it recorded. A
// recorded notice is never due again, even after a restart. When nothing
// is due it takes no write lock.
func (db *DB) ClaimPushEvents(ctx context.Context, now time.Time) (int, error) {
	since := unix(now.Add(-NoticeWindow))
	var due bool
	var parts []string
	for _, k := range eventKinds {
		parts = append(parts, `EXISTS (`+dueEvents[k]+`)`)
	}
	if err := db.read.QueryRowContext(ctx, `SELECT `+strings.Join(parts, ` OR `), since).Scan(&due); err != nil {
		return 0, fmt.Errorf("db: push notices due: %w", err)
	}
	if !due {
		return 0, nil
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	total := 0
	for _, k := range eventKinds {
		rows, err := tx.QueryContext(ctx, `INSERT INTO notices (channel, kind, user_id, subject, ply, sent_at)
			SELECT DISTINCT 'push', ?2, user_id, subject, 0, ?3 FROM (`+dueEvents[k]+`)
			WHERE true ON CONFLICT (channel, user_id, kind, subject, ply) DO NOTHING
			RETURNING user_id, subject`, since, string(k), unix(now))
		if err != nil {
			return 0, fmt.Errorf("db: record %s notices: %w", k, err)
		}
		var told [][2]int64
		for rows.Next() {
			var t [2]int64
			if err := rows.Scan(&t[0], &t[1]); err != nil {
				rows.Close()
				return 0, err
			}
			told = append(told, t)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return 0, fmt.Errorf("db: record %s notices: %w", k, err)
		}
		total += len(told)
		for _, t := range told {
			if _, err := tx.ExecContext(ctx, `INSERT INTO push_deliveries (subscription_id, kind, subject, turn_ply, next_at)
				SELECT d.id, ?2, ?3, 0, ?4 FROM push_subscriptions d WHERE d.user_id = ?1 AND `+wantsKind(k),
				t[0], string(k), t[1], unix(now)); err != nil {
				return 0, fmt.Errorf("db: queue %s notices: %w", k, err)
			}
		}
	}
	return total, tx.Commit()
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
