package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Session is one signed-in browser, recorded on the server so that it can
// be ended: the cookie carries a random token whose SHA-256 is the
// session's key here. A session ends when it is signed out, when its
// player changes the password elsewhere or signs out everywhere, or when
// ExpiresAt passes without the player coming back (each visit slides it
// on, see TouchSession).
type Session struct {
	ID        int64
	UserID    int64
	Device    string // the browser's User-Agent at sign-in (at most MaxDeviceLength bytes)
	IP        string // the client address last seen
	CreatedAt time.Time
	LastSeen  time.Time
	ExpiresAt time.Time
}

// MaxDeviceLength is the longest User-Agent kept with a session, in bytes.
const MaxDeviceLength = 256

const sessionColumns = `s.id, s.user_id, s.device, s.ip, s.created_at, s.last_seen, s.expires_at`

func scanSession(row interface{ Scan(...any) error }, extra ...any) (Session, error) {
	var s Session
	var created, seen, expires int64
	err := row.Scan(append([]any{&s.ID, &s.UserID, &s.Device, &s.IP, &created, &seen, &expires}, extra...)...)
	s.CreatedAt, s.LastSeen, s.ExpiresAt = fromUnix(created), fromUnix(seen), fromUnix(expires)
	return s, err
}

// CreateSession records a new session of user userID under tokenHash (the
// SHA-256 of the cookie's token), lasting until now+lifetime unless
// renewed, and removes every session that has expired by now.
// Errors: KindNotFound when the user does not exist.
func (db *DB) CreateSession(ctx context.Context, userID int64, tokenHash []byte, device, ip string, now time.Time, lifetime time.Duration) (Session, error) {
	if len(device) > MaxDeviceLength {
		device = device[:MaxDeviceLength]
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return Session{}, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= ?`, unix(now)); err != nil {
		return Session{}, fmt.Errorf("db: remove expired sessions: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE id = ?`, userID).Scan(&n); err != nil {
		return Session{}, fmt.Errorf("db: create session: %w", err)
	} else if n == 0 {
		return Session{}, Errorf(KindNotFound, "No such player.")
	}
	exp := now.Add(lifetime)
	res, err := tx.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, device, ip, created_at, last_seen, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, tokenHash, userID, device, ip, unix(now), unix(now), unix(exp))
	if err != nil {
		return Session{}, fmt.Errorf("db: create session: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Session{}, err
	}
	if err := tx.Commit(); err != nil {
		return Session{}, err
	}
	return Session{ID: id, UserID: userID, Device: device, IP: ip, CreatedAt: fromUnix(unix(now)),
		LastSeen: fromUnix(unix(now)), ExpiresAt: fromUnix(unix(exp))}, nil
}

// SessionByToken returns the session stored under tokenHash and its user,
// if it has not expired by now. Errors: KindNotFound when there is no such
// session (it was ended, or never existed) or it has expired.
func (db *DB) SessionByToken(ctx context.Context, tokenHash []byte, now time.Time) (Session, User, error) {
	// Every request of a signed-in player asks: the answer is remembered
	// while no row of users, sessions or settings has changed.
	gen := db.log.accountGen.Load()
	if e, ok := db.accounts.session(string(tokenHash), gen); ok && e.s.ExpiresAt.Unix() > unix(now) {
		return e.s, e.u, nil
	}
	s, err := scanSession(db.read.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions s
		WHERE s.token_hash = ? AND s.expires_at > ?`, tokenHash, unix(now)))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, User{}, Errorf(KindNotFound, "This session has ended; please sign in again.")
	} else if err != nil {
		return Session{}, User{}, fmt.Errorf("db: session: %w", err)
	}
	u, err := db.UserByID(ctx, s.UserID)
	if err != nil {
		return Session{}, User{}, err
	}
	db.accounts.keepSession(string(tokenHash), gen, cachedSession{s, u}, db.log.accountGen.Load())
	return s, u, nil
}

// TouchSession records that session id was seen at now from ip and moves
// its end to expires (sliding renewal). A session that has ended meanwhile
// stays ended. Errors: KindNotFound when it has ended.
func (db *DB) TouchSession(ctx context.Context, id int64, ip string, now, expires time.Time) error {
	return db.exec1(ctx, "touch session", `UPDATE sessions SET last_seen = ?, ip = ?, expires_at = ?
		WHERE id = ? AND expires_at > ?`, unix(now), ip, unix(expires), id, unix(now))
}

// Sessions returns the sessions of user userID that have not expired by
// now, the most recently seen first.
func (db *DB) Sessions(ctx context.Context, userID int64, now time.Time) ([]Session, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions s
		WHERE s.user_id = ? AND s.expires_at > ? ORDER BY s.last_seen DESC, s.id DESC`, userID, unix(now))
	if err != nil {
		return nil, fmt.Errorf("db: sessions: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// EndSession ends session id of user userID (signing out). Ending a
// session that has already ended is not an error.
func (db *DB) EndSession(ctx context.Context, userID, id int64) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ? AND user_id = ?`, id, userID); err != nil {
		return fmt.Errorf("db: end session: %w", err)
	}
	return tx.Commit()
}

// EndSessions ends every session of user userID except session keep (0
// for none) and returns how many it ended. With keep 0 (signed out
// everywhere) it also removes every device that gets push notifications.
func (db *DB) EndSessions(ctx context.Context, userID, keep int64) (int, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	n, err := deleteSessions(ctx, tx, userID, keep)
	if err != nil {
		return 0, err
	}
	if keep == 0 {
		if err := deletePushSubscriptions(ctx, tx, userID); err != nil {
			return 0, err
		}
	}
	return n, tx.Commit()
}

// deleteSessions removes the session records of userID except keep.
func deleteSessions(ctx context.Context, tx *Tx, userID, keep int64) (int, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ? AND id != ?`, userID, keep)
	if err != nil {
		return 0, fmt.Errorf("db: end sessions: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
