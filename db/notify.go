package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"
)

// NotifyMode is how often a player wants e-mail about games waiting for
// their move.
type NotifyMode string

// The notification modes.
const (
	NotifyNone  NotifyMode = "none"  // no mail (the default)
	NotifyMove  NotifyMode = "move"  // a mail whenever a game waits for their move
	NotifyDaily NotifyMode = "daily" // one mail a day listing every game waiting for them
)

// Valid reports whether m is one of the modes.
func (m NotifyMode) Valid() bool {
	return m == NotifyNone || m == NotifyMove || m == NotifyDaily
}

// MaxEmailLength is the longest e-mail address stored (RFC 5321's limit on
// a forward path).
const MaxEmailLength = 254

// NotifySettings is what a player chose to be told, and the secret token
// of their personal feed.
type NotifySettings struct {
	Email     string
	Verified  bool // Email was proven to reach its owner (VerifyEmail)
	Mode      NotifyMode
	FeedToken string
	// FailedAt and Failure are when the last mail to Email was refused
	// and the mail server's answer; zero and "" when none was.
	FailedAt time.Time
	Failure  string
}

// notifyColumns are the columns scanNotify reads.
const notifyColumns = `email, email_verified, mode, feed_token, CASE WHEN failed_email = email THEN failed_at ELSE 0 END,
	CASE WHEN failed_email = email THEN failure ELSE '' END`

func scanNotify(row *sql.Row) (NotifySettings, error) {
	var s NotifySettings
	var failed int64
	err := row.Scan(&s.Email, &s.Verified, &s.Mode, &s.FeedToken, &failed, &s.Failure)
	if failed != 0 {
		s.FailedAt = fromUnix(failed)
	}
	return s, err
}

// feedTokenBytes is the feed token's size: 128 random bits.
const feedTokenBytes = 16

func newFeedToken() (string, error) {
	b := make([]byte, feedTokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("db: feed token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// ensureNotifyRow makes userID's settings row (no mail, a new feed token)
// unless there is one.
func ensureNotifyRow(ctx context.Context, tx *Tx, userID int64) error {
	tok, err := newFeedToken()
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO notify_settings (user_id, feed_token) VALUES (?, ?)
		ON CONFLICT (user_id) DO NOTHING`, userID, tok); err != nil {
		if isForeignKey(err) {
			return Errorf(KindNotFound, "No such player.")
		}
		return fmt.Errorf("db: notify settings: %w", err)
	}
	return nil
}

func isForeignKey(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}

// NotifySettings returns userID's notification settings, making them (no
// mail, a new feed token) on first use. Errors: KindNotFound for an
// unknown user.
func (db *DB) NotifySettings(ctx context.Context, userID int64) (NotifySettings, error) {
	s, err := scanNotify(db.read.QueryRowContext(ctx, `SELECT `+notifyColumns+` FROM notify_settings WHERE user_id = ?`, userID))
	if err == nil {
		return s, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("db: notify settings: %w", err)
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return s, err
	}
	defer tx.Rollback()
	if err := ensureNotifyRow(ctx, tx, userID); err != nil {
		return s, err
	}
	if s, err = scanNotify(tx.QueryRowContext(ctx, `SELECT `+notifyColumns+` FROM notify_settings WHERE user_id = ?`, userID)); err != nil {
		return s, fmt.Errorf("db: notify settings: %w", err)
	}
	return s, tx.Commit()
}

// SetNotify stores userID's e-mail address (already validated and
// normalised by the caller; "" for none) and mode; a new address is not
// verified until VerifyEmail. Errors: KindInvalid for
// an unknown mode, an address that is too long, or a mode that mails
// without an address; KindNotFound for an unknown user.
func (db *DB) SetNotify(ctx context.Context, userID int64, email string, mode NotifyMode) error {
	switch {
	case !mode.Valid():
		return Errorf(KindInvalid, "Unknown notification choice %q.", mode)
	case len(email) > MaxEmailLength:
		return Errorf(KindInvalid, "An e-mail address can be at most %d characters long.", MaxEmailLength)
	case email == "" && mode != NotifyNone:
		return Errorf(KindInvalid, "Give an e-mail address to receive e-mail.")
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := ensureNotifyRow(ctx, tx, userID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE notify_settings SET email_verified = email_verified AND email = ?1, email = ?1, mode = ?2 WHERE user_id = ?3`,
		email, string(mode), userID); err != nil {
		return fmt.Errorf("db: set notify: %w", err)
	}
	return tx.Commit()
}

// RecordMailFailure records that the mail server refused a mail to
// userID at email at now, answering reason; NotifySettings shows the last
// one while email is their address.
func (db *DB) RecordMailFailure(ctx context.Context, userID int64, email, reason string, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE notify_settings SET failed_email = ?, failed_at = ?, failure = ? WHERE user_id = ?`,
		email, unix(now), reason, userID); err != nil {
		return fmt.Errorf("db: record mail failure: %w", err)
	}
	return tx.Commit()
}

// RegenerateFeedToken gives userID a new feed token and returns it; the
// old one stops working at once. Errors: KindNotFound for an unknown user.
func (db *DB) RegenerateFeedToken(ctx context.Context, userID int64) (string, error) {
	tok, err := newFeedToken()
	if err != nil {
		return "", err
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	if err := ensureNotifyRow(ctx, tx, userID); err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE notify_settings SET feed_token = ? WHERE user_id = ?`, tok, userID); err != nil {
		return "", fmt.Errorf("db: regenerate feed token: %w", err)
	}
	return tok, tx.Commit()
}

// UserByFeedToken returns the owner of feed token. Errors: KindNotFound
// for a malformed or unknown token (no difference is made).
func (db *DB) UserByFeedToken(ctx context.Context, token string) (User, error) {
	if b, err := base64.RawURLEncoding.DecodeString(token); err != nil || len(b) != feedTokenBytes {
		return User{}, Errorf(KindNotFound, "No such feed.")
	}
	u, err := scanUser(db.read.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users
		WHERE id = (SELECT user_id FROM notify_settings WHERE feed_token = ?)`, token))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, Errorf(KindNotFound, "No such feed.")
	}
	if err != nil {
		return User{}, fmt.Errorf("db: feed owner: %w", err)
	}
	return u, nil
}

// yourTurn is the condition "game g waits for user ?1's move".
const yourTurn = `g.status = 'active' AND ((g.to_move = 0 AND g.side0_id = ?1) OR (g.to_move = 1 AND g.side1_id = ?1))`

// WaitingGames returns the active games waiting for userID's move, the
// most urgent first.
func (db *DB) WaitingGames(ctx context.Context, userID int64) ([]Game, error) {
	return db.games(ctx, `WHERE `+yourTurn+` ORDER BY g.deadline, g.id`, userID)
}

// Recipient is a player to be mailed.
type Recipient struct {
	UserID int64
	Name   string
	Email  string
	// Language is the code of the language of the player's mails ("fr"):
	// the one they chose, else the one their browser last asked for at
	// sign-up or sign-in; "" when neither is known.
	Language string
}

// MoveNotice is a "your move" mail due: game Game waits for the
// recipient's move, in the turn that began at Game.TurnPly, and they have
// not been mailed about that turn.
type MoveNotice struct {
	To   Recipient
	Game Game
}

// DueMoveNotices returns the "your move" mails due: for every player who
// chose NotifyMove and has a verified address, each game waiting for their move
// in a turn not yet recorded by ClaimMoveNotice (one mail a turn, however
// many moves the turn takes).
func (db *DB) DueMoveNotices(ctx context.Context) ([]MoveNotice, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT s.user_id, u.name, s.email, `+mailLanguage+`, g.id
		FROM notify_settings s JOIN users u ON u.id = s.user_id
		JOIN games g ON g.status = 'active'
			AND ((g.to_move = 0 AND g.side0_id = s.user_id) OR (g.to_move = 1 AND g.side1_id = s.user_id))
		WHERE s.mode = 'move' AND s.email <> '' AND s.email_verified
			AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = s.user_id AND n.game_id = g.id AND n.ply >= g.turn_ply)
		ORDER BY s.user_id, g.id`)
	if err != nil {
		return nil, fmt.Errorf("db: due notices: %w", err)
	}
	type due struct {
		to     Recipient
		gameID int64
	}
	var ds []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.to.UserID, &d.to.Name, &d.to.Email, &d.to.Language, &d.gameID); err != nil {
			rows.Close()
			return nil, err
		}
		ds = append(ds, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]MoveNotice, 0, len(ds))
	for _, d := range ds {
		g, err := db.Game(ctx, d.gameID)
		if err != nil {
			return nil, err
		}
		if g.Finished() || !g.ToMove.Valid() || g.Side[g.ToMove].ID != d.to.UserID {
			continue // moved on since the query
		}
		out = append(out, MoveNotice{To: d.to, Game: g})
	}
	return out, nil
}

// ClaimMoveNotice records that userID is mailed about their turn in
// gameID, as it stands at ply, before the mail is sent. It reports false,
// recording nothing, when a mail about that turn is already recorded (by
// another run) or the game is no longer at ply waiting for userID: the
// caller then must not send it. A recorded mail is never due again, so a
// failure after this call loses the mail rather than ever sending it
// twice.
func (db *DB) ClaimMoveNotice(ctx context.Context, userID, gameID int64, ply int, now time.Time) (bool, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO notifications (user_id, game_id, ply, sent_at)
		SELECT ?1, g.id, g.turn_ply, ?4 FROM games g WHERE g.id = ?2 AND g.ply = ?3 AND `+yourTurn+`
			AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = ?1 AND n.game_id = g.id AND n.ply >= g.turn_ply)
		ON CONFLICT (user_id, game_id, ply) DO NOTHING`, userID, gameID, ply, unix(now))
	if err != nil {
		return false, fmt.Errorf("db: record notice: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	return n == 1, tx.Commit()
}

// Digest is a daily digest due: the games waiting for the recipient's
// move.
type Digest struct {
	To    Recipient
	Games []Game
}

// DigestDay is the day a digest sent at now counts for: the UTC date.
func DigestDay(now time.Time) string { return now.UTC().Format(time.DateOnly) }

// DueDigests returns the daily digests due at now: for every player who
// chose NotifyDaily, has an address, has at least one game waiting for
// their move and has no digest recorded for now's day.
func (db *DB) DueDigests(ctx context.Context, now time.Time) ([]Digest, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT s.user_id, u.name, s.email, `+mailLanguage+`
		FROM notify_settings s JOIN users u ON u.id = s.user_id
		WHERE s.mode = 'daily' AND s.email <> '' AND s.email_verified
			AND NOT EXISTS (SELECT 1 FROM digests d WHERE d.user_id = s.user_id AND d.day = ?1)
			AND EXISTS (SELECT 1 FROM games g WHERE g.status = 'active'
				AND ((g.to_move = 0 AND g.side0_id = s.user_id) OR (g.to_move = 1 AND g.side1_id = s.user_id)))
		ORDER BY s.user_id`, DigestDay(now))
	if err != nil {
		return nil, fmt.Errorf("db: due digests: %w", err)
	}
	var out []Digest
	for rows.Next() {
		var d Digest
		if err := rows.Scan(&d.To.UserID, &d.To.Name, &d.To.Email, &d.To.Language); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	kept := out[:0]
	for _, d := range out {
		if d.Games, err = db.WaitingGames(ctx, d.To.UserID); err != nil {
			return nil, err
		}
		if len(d.Games) > 0 {
			kept = append(kept, d)
		}
	}
	return kept, nil
}

// ClaimDigest records userID's digest of now's day listing games games,
// before it is sent. It reports false, recording nothing, when that day's
// digest is already recorded: the caller then must not send it.
func (db *DB) ClaimDigest(ctx context.Context, userID int64, games int, now time.Time) (bool, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO digests (user_id, day, games, sent_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, day) DO NOTHING`, userID, DigestDay(now), games, unix(now))
	if err != nil {
		return false, fmt.Errorf("db: record digest: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	return n == 1, tx.Commit()
}
