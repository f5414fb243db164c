package db

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"time"
)

// Token lifetimes: a password reset link asked for by its owner, one made
// by an admin (to be passed on by hand), and an e-mail verification link.
const (
	ResetTokenTTL       = time.Hour
	AdminResetTokenTTL  = 72 * time.Hour
	VerifyTokenTTL      = 48 * time.Hour
	maxResetsPerHour    = 3 // reset links one account may be sent in an hour
	accountTokenBytes   = 32
	tokenPurposeReset   = "reset"
	tokenPurposeVerify  = "verify"
	invalidTokenMessage = "This link is not valid: it was used already, it has expired, or it was mistyped."
)

// newAccountToken returns a new random token (URL-safe, 256 bits) and the
// hash under which it is stored.
func newAccountToken() (string, []byte, error) {
	b := make([]byte, accountTokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", nil, fmt.Errorf("db: token: %w", err)
	}
	tok := base64.RawURLEncoding.EncodeToString(b)
	return tok, hashToken(tok), nil
}

func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// storeToken makes a token of purpose for userID valid until now+ttl and
// returns it.
func storeToken(ctx context.Context, tx *Tx, userID int64, purpose, email string, now time.Time, ttl time.Duration) (string, error) {
	tok, hash, err := newAccountToken()
	if err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO account_tokens (hash, user_id, purpose, email, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?)`, hash, userID, purpose, email, unix(now), unix(now.Add(ttl))); err != nil {
		return "", fmt.Errorf("db: store token: %w", err)
	}
	return tok, nil
}

// tokenRow is a stored token found by its hash.
type tokenRow struct {
	userID int64
	email  string
}

// findToken returns the unexpired token tok of purpose. Errors:
// KindNotFound for a malformed, unknown, used or expired token.
func findToken(ctx context.Context, q queryer, tok, purpose string, now time.Time) (tokenRow, error) {
	if b, err := base64.RawURLEncoding.DecodeString(tok); err != nil || len(b) != accountTokenBytes {
		return tokenRow{}, Errorf(KindNotFound, invalidTokenMessage)
	}
	var r tokenRow
	err := q.QueryRowContext(ctx, `SELECT t.user_id, t.email FROM account_tokens t JOIN users u ON u.id = t.user_id
		WHERE t.hash = ? AND t.purpose = ? AND t.expires_at > ? AND u.deleted_at IS NULL AND u.suspended_at IS NULL`,
		hashToken(tok), purpose, unix(now)).Scan(&r.userID, &r.email)
	if errors.Is(err, sql.ErrNoRows) {
		return r, Errorf(KindNotFound, invalidTokenMessage)
	}
	if err != nil {
		return r, fmt.Errorf("db: find token: %w", err)
	}
	return r, nil
}

// endSessions ends every session of userID at once, on every device, in
// tx: it removes the account's session records (see Session) and moves
// the account's User.SessionGen on. A password reset (by the player or
// forced by the admin) and a suspension call it; a deletion ends them as
// well (handlers admit active accounts only).
func endSessions(ctx context.Context, tx *Tx, userID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE users SET session_gen = session_gen + 1 WHERE id = ?`, userID); err != nil {
		return fmt.Errorf("db: end sessions: %w", err)
	}
	_, err := deleteSessions(ctx, tx, userID, 0)
	return err
}

// PasswordReset is a reset link due to be mailed: the token goes into the
// link, and only its hash is kept.
type PasswordReset struct {
	To    Recipient
	Token string
}

// RequestPasswordReset makes a password reset token, valid for
// ResetTokenTTL, for the account whose verified e-mail address is email
// (any case). Errors: KindNotFound when no active account has that
// verified address; KindTooMany when the account was sent
// maxResetsPerHour links in the last hour. The caller answers the same in
// every case, so that nobody learns whether an address is known.
func (db *DB) RequestPasswordReset(ctx context.Context, email string, now time.Time) (PasswordReset, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return PasswordReset{}, err
	}
	defer tx.Rollback()
	var r PasswordReset
	err = tx.QueryRowContext(ctx, `SELECT u.id, u.name, s.email, `+mailLanguage+` FROM notify_settings s JOIN users u ON u.id = s.user_id
		WHERE s.email = ? COLLATE NOCASE AND s.email <> '' AND s.email_verified AND u.deleted_at IS NULL AND u.suspended_at IS NULL
		ORDER BY u.id LIMIT 1`, email).Scan(&r.To.UserID, &r.To.Name, &r.To.Email, &r.To.Language)
	if errors.Is(err, sql.ErrNoRows) {
		return r, Errorf(KindNotFound, "No account has this verified address.")
	} else if err != nil {
		return r, fmt.Errorf("db: find address: %w", err)
	}
	var recent int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM account_tokens WHERE user_id = ? AND purpose = 'reset' AND created_at > ?`,
		r.To.UserID, unix(now.Add(-time.Hour))).Scan(&recent); err != nil {
		return r, fmt.Errorf("db: count resets: %w", err)
	}
	if recent >= maxResetsPerHour {
		return r, Errorf(KindTooMany, "Too many reset links for this account; please wait an hour.")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM account_tokens WHERE expires_at <= ?`, unix(now.Add(-time.Hour))); err != nil {
		return r, fmt.Errorf("db: expire tokens: %w", err)
	}
	if r.Token, err = storeToken(ctx, tx, r.To.UserID, tokenPurposeReset, "", now, ResetTokenTTL); err != nil {
		return r, err
	}
	return r, tx.Commit()
}

// endResetLinks makes every reset link of userID stop working. The rows
// stay (expiring at their creation) so that the links sent in the last
// hour are still counted (maxResetsPerHour).
func endResetLinks(ctx context.Context, tx *Tx, userID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE account_tokens SET expires_at = MIN(expires_at, created_at) WHERE user_id = ? AND purpose = 'reset'`, userID); err != nil {
		return fmt.Errorf("db: end reset links: %w", err)
	}
	return nil
}

// ResetTokenUser returns the account that reset token tok is for, without
// using it. Errors: KindNotFound for a malformed, unknown, used or expired
// token.
func (db *DB) ResetTokenUser(ctx context.Context, tok string, now time.Time) (User, error) {
	r, err := findToken(ctx, db.read, tok, tokenPurposeReset, now)
	if err != nil {
		return User{}, err
	}
	return db.UserByID(ctx, r.userID)
}

// ResetPassword uses reset token tok: the account gets passwordHash, every
// reset link it has stops working and every session of it ends. It
// returns the account. Errors: KindNotFound for a malformed, unknown,
// used or expired token.
func (db *DB) ResetPassword(ctx context.Context, tok, passwordHash string, now time.Time) (User, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return User{}, err
	}
	defer tx.Rollback()
	r, err := findToken(ctx, tx, tok, tokenPurposeReset, now)
	if err != nil {
		return User{}, err
	}
	// Used and left over tokens expire now; the rows stay an hour to count
	// the links sent (maxResetsPerHour).
	if _, err := tx.ExecContext(ctx, `UPDATE account_tokens SET expires_at = MIN(expires_at, ?) WHERE user_id = ? AND purpose = 'reset'`, unix(now), r.userID); err != nil {
		return User{}, fmt.Errorf("db: use token: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, passwordHash, r.userID); err != nil {
		return User{}, fmt.Errorf("db: set password: %w", err)
	}
	if err := endSessions(ctx, tx, r.userID); err != nil {
		return User{}, err
	}
	u, err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, r.userID))
	if err != nil {
		return User{}, fmt.Errorf("db: reset password: %w", err)
	}
	return u, tx.Commit()
}

// ForcePasswordReset is the admin's reset of userID: the password stops
// working, every session ends, and a reset token valid for
// AdminResetTokenTTL is made. It returns the token, and the account's
// verified address (To.Email "" when there is none) to mail it to.
// Errors: KindNotFound for an unknown or deleted account; KindForbidden
// for a computer account.
func (db *DB) ForcePasswordReset(ctx context.Context, userID int64, now time.Time) (PasswordReset, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return PasswordReset{}, err
	}
	defer tx.Rollback()
	var r PasswordReset
	err = tx.QueryRowContext(ctx, `SELECT u.id, u.name, CASE WHEN s.email_verified THEN COALESCE(s.email, '') ELSE '' END, `+mailLanguage+`
		FROM users u LEFT JOIN notify_settings s ON s.user_id = u.id WHERE u.id = ? AND u.deleted_at IS NULL`, userID).
		Scan(&r.To.UserID, &r.To.Name, &r.To.Email, &r.To.Language)
	if errors.Is(err, sql.ErrNoRows) {
		return r, Errorf(KindNotFound, "No such player.")
	} else if err != nil {
		return r, fmt.Errorf("db: force reset: %w", err)
	}
	if err := refuseComputer(ctx, tx, userID); err != nil {
		return r, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = '' WHERE id = ?`, userID); err != nil {
		return r, fmt.Errorf("db: force reset: %w", err)
	}
	if err := endSessions(ctx, tx, userID); err != nil {
		return r, err
	}
	if r.Token, err = storeToken(ctx, tx, userID, tokenPurposeReset, "", now, AdminResetTokenTTL); err != nil {
		return r, err
	}
	return r, tx.Commit()
}

// EmailVerification is a verification link due to be mailed.
type EmailVerification struct {
	To    Recipient
	Token string
}

// StartEmailVerification makes a token, valid for VerifyTokenTTL, proving
// that userID's current address (notify settings) is theirs once used.
// Errors: KindInvalid when the user has no address or it is verified
// already; KindTooMany past maxResetsPerHour links in an hour.
func (db *DB) StartEmailVerification(ctx context.Context, userID int64, now time.Time) (EmailVerification, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return EmailVerification{}, err
	}
	defer tx.Rollback()
	var v EmailVerification
	var verified bool
	err = tx.QueryRowContext(ctx, `SELECT u.id, u.name, COALESCE(s.email, ''), COALESCE(s.email_verified, 0), `+mailLanguage+`
		FROM users u LEFT JOIN notify_settings s ON s.user_id = u.id WHERE u.id = ?`, userID).
		Scan(&v.To.UserID, &v.To.Name, &v.To.Email, &verified, &v.To.Language)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return v, Errorf(KindNotFound, "No such player.")
	case err != nil:
		return v, fmt.Errorf("db: verify address: %w", err)
	case v.To.Email == "":
		return v, Errorf(KindInvalid, "Save an e-mail address first.")
	case verified:
		return v, Errorf(KindInvalid, "Your address %s is verified already.", v.To.Email)
	}
	var recent int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM account_tokens WHERE user_id = ? AND purpose = 'verify' AND created_at > ?`,
		userID, unix(now.Add(-time.Hour))).Scan(&recent); err != nil {
		return v, fmt.Errorf("db: count verifications: %w", err)
	}
	if recent >= maxResetsPerHour {
		return v, Errorf(KindTooMany, "Too many verification links in the last hour; please use the last one or wait.")
	}
	if v.Token, err = storeToken(ctx, tx, userID, tokenPurposeVerify, v.To.Email, now, VerifyTokenTTL); err != nil {
		return v, err
	}
	return v, tx.Commit()
}

// VerifyEmail uses verification token tok: the address it was made for
// is marked verified if it is still the account's address. It returns the
// account and the address. Errors: KindNotFound for a malformed, unknown,
// used or expired token; KindConflict when the address changed since.
func (db *DB) VerifyEmail(ctx context.Context, tok string, now time.Time) (User, string, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return User{}, "", err
	}
	defer tx.Rollback()
	r, err := findToken(ctx, tx, tok, tokenPurposeVerify, now)
	if err != nil {
		return User{}, "", err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE account_tokens SET expires_at = ? WHERE hash = ?`, unix(now), hashToken(tok)); err != nil {
		return User{}, "", fmt.Errorf("db: use token: %w", err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE notify_settings SET email_verified = 1 WHERE user_id = ? AND email = ?`, r.userID, r.email)
	if err != nil {
		return User{}, "", fmt.Errorf("db: verify address: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return User{}, "", err
	} else if n != 1 {
		return User{}, "", Errorf(KindConflict, "This link was for %s, which is no longer your address.", r.email)
	}
	u, err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, r.userID))
	if err != nil {
		return User{}, "", fmt.Errorf("db: verify address: %w", err)
	}
	return u, r.email, tx.Commit()
}

// DeleteAccount deletes userID's account in one transaction: every game
// it is playing is resigned (a match's next game too, until none is left),
// its open challenges are withdrawn (and those to it declined), the
// messages it wrote are removed, and its settings, tokens and ratings are
// dropped, and so are its private notes and its lessons done. The account row stays so that finished games keep both sides:
// its name becomes the tombstone "deleted-ID" and it can never sign in
// again. Errors: KindNotFound for an unknown or already deleted account;
// KindForbidden for a computer account.
func (db *DB) DeleteAccount(ctx context.Context, userID int64, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE id = ? AND deleted_at IS NULL`, userID).Scan(&n); err != nil {
		return fmt.Errorf("db: delete account: %w", err)
	} else if n != 1 {
		return Errorf(KindNotFound, "No such player.")
	}
	if err := refuseComputer(ctx, tx, userID); err != nil {
		return err
	}
	if err := resignAll(ctx, tx, userID, now); err != nil {
		return err
	}
	for _, q := range []string{
		`UPDATE challenges SET status = 'cancelled' WHERE status = 'open' AND creator_id = ?1`,
		`UPDATE challenges SET status = 'declined' WHERE status = 'open' AND opponent_id = ?1`,
		`DELETE FROM reports WHERE reporter_id = ?1 OR message_id IN (SELECT id FROM messages WHERE from_id = ?1)`,
		`DELETE FROM messages WHERE from_id = ?1`,
		`DELETE FROM notify_settings WHERE user_id = ?1`,
		`DELETE FROM account_tokens WHERE user_id = ?1`,
		`DELETE FROM sessions WHERE user_id = ?1`,
		`DELETE FROM push_deliveries WHERE subscription_id IN (SELECT id FROM push_subscriptions WHERE user_id = ?1)`,
		`DELETE FROM push_subscriptions WHERE user_id = ?1`,
		`DELETE FROM ratings WHERE user_id = ?1`,
		`DELETE FROM game_notes WHERE user_id = ?1`,
		`DELETE FROM lesson_progress WHERE user_id = ?1`,
		`DELETE FROM puzzle_attempts WHERE user_id = ?1`,
		`DELETE FROM puzzle_ratings WHERE user_id = ?1`,
		`UPDATE users SET name = '` + TombstonePrefix + `' || id, password_hash = '', is_admin = 0, suspended_at = NULL,
			deleted_at = ?2, session_gen = session_gen + 1 WHERE id = ?1`,
	} {
		if _, err := tx.ExecContext(ctx, q, userID, unix(now)); err != nil {
			return fmt.Errorf("db: delete account: %w", err)
		}
	}
	return tx.Commit()
}

// resignAll resigns every active game of userID through the game flow
// (finishGame), including the games a match starts meanwhile.
func resignAll(ctx context.Context, tx *Tx, userID int64, now time.Time) error {
	return resignGames(ctx, tx, userID, 0, now)
}

// resignGames resigns userID's active games, those of tournament
// tournamentID only when it is not 0, through the game flow (finishGame),
// including the games a match starts meanwhile.
func resignGames(ctx context.Context, tx *Tx, userID, tournamentID int64, now time.Time) error {
	for range 100 {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT g.id FROM games g WHERE g.status = 'active' AND (g.side0_id = ?1 OR g.side1_id = ?1)
			AND (?2 = 0 OR g.match_id IN (SELECT match_id FROM tournament_pairings WHERE tournament_id = ?2))
			ORDER BY g.id LIMIT 1`, userID, tournamentID).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return fmt.Errorf("db: games to resign: %w", err)
		}
		g, err := gameByID(ctx, tx, id)
		if err != nil {
			return err
		}
		st, err := g.Decode()
		if err != nil {
			return err
		}
		if err := finishGame(ctx, tx, g, st.Concede(g.SideOf(userID), false), now); err != nil {
			return err
		}
	}
	return fmt.Errorf("db: resign games of user %d: too many", userID)
}

// GameWithMoves is a game and its moves, oldest first.
type GameWithMoves struct {
	Game  Game
	Moves []Move
	// Note is the exporting player's own notes on the game (an empty
	// Note when none); never the opponent's.
	Note Note
}

// AccountData is everything the server keeps about a player, for the
// player to download (ExportAccount).
type AccountData struct {
	User    User
	Notify  NotifySettings
	Push    []PushSubscription // the devices that get push notifications
	Ratings []PlayerRating
	Games   []GameWithMoves // every game the player played or plays, oldest first
}

// ExportAccount returns userID's data: the account, notification
// settings, ratings, and every game with its moves and userID's own notes
// on it (only theirs). Errors: KindNotFound.
func (db *DB) ExportAccount(ctx context.Context, userID int64) (AccountData, error) {
	var d AccountData
	var err error
	if d.User, err = db.UserByID(ctx, userID); err != nil {
		return d, err
	}
	if d.Notify, err = db.NotifySettings(ctx, userID); err != nil {
		return d, err
	}
	if d.Push, err = db.PushSubscriptions(ctx, userID); err != nil {
		return d, err
	}
	// The ratings as stored after the last rated game (not widened).
	if d.Ratings, err = db.Ratings(ctx, userID, time.Time{}); err != nil {
		return d, err
	}
	games, err := db.games(ctx, `WHERE g.side0_id = ?1 OR g.side1_id = ?1 ORDER BY g.id`, userID)
	if err != nil {
		return d, err
	}
	for _, g := range games {
		moves, err := db.Moves(ctx, g.ID)
		if err != nil {
			return d, err
		}
		note, err := db.NoteOf(ctx, g.ID, userID)
		if err != nil {
			return d, err
		}
		d.Games = append(d.Games, GameWithMoves{Game: g, Moves: moves, Note: note})
	}
	return d, nil
}
