package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// MaxPushSubscriptions is the most devices a player can have push
// notifications sent to.
const MaxPushSubscriptions = 10

// PushWants are the kinds of push notification a device can ask for.
var PushWants = []string{"move", "end", "challenge", "message", "round"}

// PushSubscription is a device that asked for push notifications: the
// Push API's subscription of one browser.
type PushSubscription struct {
	ID       int64
	UserID   int64
	Endpoint string // the push service's https:// URL for this browser
	P256dh   string // the browser's P-256 public key, base64url (RFC 8291)
	Auth     string // the browser's 16-byte authentication secret, base64url
	Device   string // the device's name as its browser reported it ("Firefox on Android")
	// Wants is what the device asked to be told, a subset of PushWants.
	Wants       []string
	Created     time.Time
	LastSuccess time.Time // zero before the push service first accepted a notice
}

// Maximum sizes of a subscription's fields, in bytes.
const (
	MaxPushEndpoint = 2048
	MaxPushKey      = 256
	MaxPushDevice   = 100
)

// cleanWants returns wants as stored: the kinds of PushWants it names,
// in PushWants' order, comma-separated. Errors: KindInvalid for a kind
// not in PushWants.
func cleanWants(wants []string) (string, error) {
	for _, x := range wants {
		if !slices.Contains(PushWants, x) {
			return "", Errorf(KindInvalid, "Unknown notification kind %q.", x)
		}
	}
	var out []string
	for _, w := range PushWants {
		if slices.Contains(wants, w) {
			out = append(out, w)
		}
	}
	return strings.Join(out, ","), nil
}

// AddPushSubscription stores s (its endpoint already checked by the
// caller) for s.UserID at now, or, when its endpoint is stored already,
// replaces that one (a browser has one subscription per site: the device
// now belongs to s.UserID) and returns its id. Errors: KindInvalid for
// an empty or oversized field or an unknown kind in s.Wants; KindConflict
// when the player has MaxPushSubscriptions devices already; KindNotFound
// for an unknown user.
func (db *DB) AddPushSubscription(ctx context.Context, s PushSubscription, now time.Time) (int64, error) {
	switch {
	case s.Endpoint == "" || s.P256dh == "" || s.Auth == "":
		return 0, Errorf(KindInvalid, "A push subscription needs an endpoint and its two keys.")
	case len(s.Endpoint) > MaxPushEndpoint || len(s.P256dh) > MaxPushKey || len(s.Auth) > MaxPushKey:
		return 0, Errorf(KindInvalid, "The push subscription is too long.")
	}
	if len(s.Device) > MaxPushDevice {
		s.Device = s.Device[:MaxPushDevice]
	}
	wants, err := cleanWants(s.Wants)
	if err != nil {
		return 0, err
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM push_subscriptions WHERE user_id = ? AND endpoint <> ?`, s.UserID, s.Endpoint).Scan(&n); err != nil {
		return 0, fmt.Errorf("db: count devices: %w", err)
	}
	if n >= MaxPushSubscriptions {
		return 0, Errorf(KindConflict, "You have %d devices with notifications already: remove one first.", MaxPushSubscriptions)
	}
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, device, wants, created_at)
		VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
		ON CONFLICT (endpoint) DO UPDATE SET user_id = ?1, p256dh = ?3, auth = ?4, device = ?5, wants = ?6,
			created_at = CASE WHEN user_id = ?1 THEN created_at ELSE ?7 END
		RETURNING id`, s.UserID, s.Endpoint, s.P256dh, s.Auth, s.Device, wants, unix(now)).Scan(&id)
	if isForeignKey(err) {
		return 0, Errorf(KindNotFound, "No such player.")
	}
	if err != nil {
		return 0, fmt.Errorf("db: add push subscription: %w", err)
	}
	return id, tx.Commit()
}

const pushColumns = `id, user_id, endpoint, p256dh, auth, device, wants, created_at, last_success_at`

func scanPush(sc interface{ Scan(...any) error }) (PushSubscription, error) {
	var s PushSubscription
	var wants string
	var created, last int64
	if err := sc.Scan(&s.ID, &s.UserID, &s.Endpoint, &s.P256dh, &s.Auth, &s.Device, &wants, &created, &last); err != nil {
		return s, err
	}
	if wants != "" {
		s.Wants = strings.Split(wants, ",")
	}
	s.Created = fromUnix(created)
	if last != 0 {
		s.LastSuccess = fromUnix(last)
	}
	return s, nil
}

// PushSubscriptions returns userID's devices, the oldest first.
func (db *DB) PushSubscriptions(ctx context.Context, userID int64) ([]PushSubscription, error) {
	return userPushSubscriptions(ctx, db.read, userID)
}

// DeletePushSubscription removes userID's device id. Errors: KindNotFound
// when userID has no such device.
func (db *DB) DeletePushSubscription(ctx context.Context, userID, id int64) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE id = ? AND user_id = ?`, id, userID)
	if err != nil {
		return fmt.Errorf("db: delete push subscription: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return Errorf(KindNotFound, "No such device.")
	}
	return tx.Commit()
}

// deletePushSubscriptions removes every device of userID.
func deletePushSubscriptions(ctx context.Context, tx *Tx, userID int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE user_id = ?`, userID); err != nil {
		return fmt.Errorf("db: delete push subscriptions: %w", err)
	}
	return nil
}

// PushDelivery is a push notice being handed to a device's push service
// (ID 0 when it is not stored: see ClaimPushNotices): the device, what the
// notice is about (its kind and subject, and for
// NoticeMove the turn: the ply it began at), and how many times it was
// tried, this one included.
type PushDelivery struct {
	ID       int64
	Sub      PushSubscription
	Language string // the player's language ("" for none chosen)
	Kind     NoticeKind
	// Subject is the game's id (NoticeMove, NoticeEnd, NoticeRound), the
	// challenge's (NoticeChallenge) or the message's (NoticeMessage).
	Subject  int64
	TurnPly  int
	Attempts int
}

// claimStoredDeliveries marks at most limit stored deliveries due at now
// as being sent and returns them, the oldest first.
func claimStoredDeliveries(ctx context.Context, tx *Tx, now time.Time, limit int) ([]PushDelivery, error) {
	rows, err := tx.QueryContext(ctx, `UPDATE push_deliveries SET sending = 1, attempts = attempts + 1
		WHERE id IN (SELECT id FROM push_deliveries WHERE sending = 0 AND next_at <= ? ORDER BY next_at, id LIMIT ?)
		RETURNING id, subscription_id, kind, subject, turn_ply, attempts`, unix(now), limit)
	if err != nil {
		return nil, fmt.Errorf("db: claim push deliveries: %w", err)
	}
	var ds []PushDelivery
	for rows.Next() {
		var d PushDelivery
		if err := rows.Scan(&d.ID, &d.Sub.ID, &d.Kind, &d.Subject, &d.TurnPly, &d.Attempts); err != nil {
			rows.Close()
			return nil, err
		}
		ds = append(ds, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range ds {
		s, err := scanPush(tx.QueryRowContext(ctx, `SELECT `+pushColumns+` FROM push_subscriptions WHERE id = ?`, ds[i].Sub.ID))
		if err != nil {
			return nil, fmt.Errorf("db: push delivery's device: %w", err)
		}
		ds[i].Sub = s
		if err := tx.QueryRowContext(ctx, `SELECT language FROM users WHERE id = ?`, s.UserID).Scan(&ds[i].Language); err != nil {
			return nil, fmt.Errorf("db: push delivery's language: %w", err)
		}
	}
	return ds, nil
}

// PushOutcome is what became of a push delivery.
type PushOutcome int

// The outcomes.
const (
	PushSent    PushOutcome = iota // the push service accepted it
	PushGone                       // the subscription no longer exists (404, 410): it is removed
	PushRetry                      // try again at the given time (429, 5xx, no answer)
	PushDropped                    // never sent: stale, refused or tried too often
)

// DropInterruptedPushDeliveries removes the deliveries that were being
// handed to a push service when the server stopped, and returns how many:
// whether the push service got them is unknown, and a notice is lost
// rather than ever shown twice. Call it once at start, before any
// ClaimPushNotices.
func (db *DB) DropInterruptedPushDeliveries(ctx context.Context) (int, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM push_deliveries WHERE sending = 1`)
	if err != nil {
		return 0, fmt.Errorf("db: drop interrupted push deliveries: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	return int(n), tx.Commit()
}

// NextPushDelivery returns when the earliest waiting delivery is due, or
// the zero time when none waits.
func (db *DB) NextPushDelivery(ctx context.Context) (time.Time, error) {
	var at sql.NullInt64
	err := db.read.QueryRowContext(ctx, `SELECT MIN(next_at) FROM push_deliveries WHERE sending = 0`).Scan(&at)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, fmt.Errorf("db: next push delivery: %w", err)
	}
	if !at.Valid {
		return time.Time{}, nil
	}
	return fromUnix(at.Int64), nil
}
