package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"modernc.org/sqlite"
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

// NotifySettings is what a player chose to be told. (Their personal
// feed's token is kept as a hash only: RegenerateFeedToken returns it
// once.)
type NotifySettings struct {
	Email    string
	Verified bool // Email was proven to reach its owner (VerifyEmail)
	Mode     NotifyMode
	// FailedAt and Failure are when the last mail to Email was refused
	// and the mail server's answer; zero and "" when none was.
	FailedAt time.Time
	Failure  string
}

// notifyColumns are the columns scanNotify reads.
const notifyColumns = `email, email_verified, mode, CASE WHEN failed_email = email THEN failed_at ELSE 0 END,
	CASE WHEN failed_email = email THEN failure ELSE '' END`

func scanNotify(row *sql.Row) (NotifySettings, error) {
	var s NotifySettings
	var failed int64
	err := row.Scan(&s.Email, &s.Verified, &s.Mode, &failed, &s.Failure)
	if failed != 0 {
		s.FailedAt = fromUnix(failed)
	}
	return s, err
}

// feedTokenBytes is the feed token's size: 128 random bits.
const feedTokenBytes = 16

// newFeedToken returns a new feed token and the hash it is stored under.
func newFeedToken() (tok, hash string, err error) {
	b := make([]byte, feedTokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("db: feed token: %w", err)
	}
	tok = base64.RawURLEncoding.EncodeToString(b)
	return tok, feedHash(tok), nil
}

// feedHash is the stored form of feed token tok: its SHA-256 in lower-case
// hex, as migration 018 computed it for the tokens stored before.
func feedHash(tok string) string { return hex.EncodeToString(hashToken(tok)) }

// trench_sha256(text) is the SHA-256 of text's bytes, as a blob, for the
// migrations (018 hashes the feed tokens stored in clear before).
func init() {
	err := sqlite.RegisterDeterministicScalarFunction("trench_sha256", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		s, ok := args[0].(string)
		if !ok {
			return nil, fmt.Errorf("trench_sha256: want text, got %T", args[0])
		}
		return hashToken(s), nil
	})
	if err != nil {
		panic(fmt.Sprintf("db: register trench_sha256: %v", err))
	}
}

// ensureNotifyRow makes userID's settings row (no mail, a feed token
// nobody is shown until the player makes a new one) unless there is one.
func ensureNotifyRow(ctx context.Context, tx *Tx, userID int64) error {
	_, hash, err := newFeedToken()
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO notify_settings (user_id, feed_hash) VALUES (?, ?)
		ON CONFLICT (user_id) DO NOTHING`, userID, hash); err != nil {
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
// verified until VerifyEmail, and the reset links sent to the old one
// stop working. Errors: KindInvalid for
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
	var old string
	if err := tx.QueryRowContext(ctx, `SELECT email FROM notify_settings WHERE user_id = ?`, userID).Scan(&old); err != nil {
		return fmt.Errorf("db: set notify: %w", err)
	}
	if !strings.EqualFold(old, email) {
		if err := endResetLinks(ctx, tx, userID); err != nil {
			return err
		}
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
// old one stops working at once. Only the token's hash is stored, so this
// is the one time it is known. Errors: KindNotFound for an unknown user.
func (db *DB) RegenerateFeedToken(ctx context.Context, userID int64) (string, error) {
	tok, hash, err := newFeedToken()
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
	if _, err := tx.ExecContext(ctx, `UPDATE notify_settings SET feed_hash = ? WHERE user_id = ?`, hash, userID); err != nil {
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
		WHERE id = (SELECT user_id FROM notify_settings WHERE feed_hash = ?)`, feedHash(token)))
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

// Channel is a way a player is told that a game waits for their move.
type Channel string

// The channels.
const (
	ChannelMail Channel = "mail" // an e-mail, for players who chose NotifyMove and have a verified address
	ChannelPush Channel = "push" // a push notification to each device that asked for "your move"
)

// MoveNotice is a "your move" notice due on a channel: game Game waits
// for the recipient's move, in the turn that began at Game.TurnPly, and
// they have not been told about that turn on the channel.
type MoveNotice struct {
	To   Recipient
	Game Game
}

// wantsChannel is, per channel, the condition "user s.user_id wants a
// notice on the channel" over notify_settings s (mail) or users u (push).
var wantsChannel = map[Channel]string{
	ChannelMail: `EXISTS (SELECT 1 FROM notify_settings s WHERE s.user_id = u.id AND s.mode = 'move' AND s.email <> '' AND s.email_verified)`,
	ChannelPush: `EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.user_id = u.id AND ',' || p.wants || ',' LIKE '%,move,%')`,
}

// DueMoveNotices returns the "your move" notices due on channel ch: for
// every player who wants them there (ChannelMail: chose NotifyMove and has
// a verified address; ChannelPush: has a device that wants "your move"),
// each game waiting for their move in a turn not yet recorded for ch by
// ClaimMoveNotice (one notice a turn, however many moves the turn takes).
// Errors: KindInvalid for an unknown channel.
func (db *DB) DueMoveNotices(ctx context.Context, ch Channel) ([]MoveNotice, error) {
	wants, ok := wantsChannel[ch]
	if !ok {
		return nil, Errorf(KindInvalid, "Unknown notification channel %q.", ch)
	}
	rows, err := db.read.QueryContext(ctx, `SELECT u.id, u.name, COALESCE((SELECT email FROM notify_settings WHERE user_id = u.id), ''), `+mailLanguage+`, g.id
		FROM games g JOIN users u ON g.status = 'active'
			AND ((g.to_move = 0 AND g.side0_id = u.id) OR (g.to_move = 1 AND g.side1_id = u.id))
		WHERE `+wants+`
			AND NOT EXISTS (SELECT 1 FROM notices n WHERE n.channel = ?1 AND n.user_id = u.id AND n.kind = 'move' AND n.subject = g.id AND n.ply >= g.turn_ply)
		ORDER BY u.id, g.id`, string(ch))
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

// ClaimMoveNotice records that userID is told on channel ch about their
// turn in gameID, as it stands at ply, before the notice is sent. It
// reports false, recording nothing, when a notice about that turn is
// already recorded for ch (by another run) or the game is no longer at
// ply waiting for userID: the caller then must not send it. A recorded
// notice is never due again, so a failure after this call loses the
// notice rather than ever sending it twice. For ChannelPush the same
// transaction queues one delivery (stored, see ClaimPushNotices) for each of
// userID's devices that wants "your move". Errors: KindInvalid for an
// unknown channel.
func (db *DB) ClaimMoveNotice(ctx context.Context, ch Channel, userID, gameID int64, ply int, now time.Time) (bool, error) {
	if _, ok := wantsChannel[ch]; !ok {
		return false, Errorf(KindInvalid, "Unknown notification channel %q.", ch)
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO notices (channel, kind, user_id, subject, ply, sent_at)
		SELECT ?5, 'move', ?1, g.id, g.turn_ply, ?4 FROM games g WHERE g.id = ?2 AND g.ply = ?3 AND `+yourTurn+`
			AND NOT EXISTS (SELECT 1 FROM notices n WHERE n.channel = ?5 AND n.user_id = ?1 AND n.kind = 'move' AND n.subject = g.id AND n.ply >= g.turn_ply)
		ON CONFLICT (channel, user_id, kind, subject, ply) DO NOTHING`, userID, gameID, ply, unix(now), string(ch))
	if err != nil {
		return false, fmt.Errorf("db: record notice: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	if n == 1 && ch == ChannelPush {
		if _, err := tx.ExecContext(ctx, `INSERT INTO push_deliveries (subscription_id, kind, subject, turn_ply, next_at)
			SELECT p.id, 'move', g.id, g.turn_ply, ?3 FROM push_subscriptions p JOIN games g ON g.id = ?2
			WHERE p.user_id = ?1 AND ',' || p.wants || ',' LIKE '%,move,%'`, userID, gameID, unix(now)); err != nil {
			return false, fmt.Errorf("db: queue push notices: %w", err)
		}
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
