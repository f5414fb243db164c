package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"
)

// SetAdmin makes the account named name an admin (admin true) or takes
// the right away. Errors: KindNotFound for an unknown or deleted account.
func (db *DB) SetAdmin(ctx context.Context, name string, admin bool) (User, error) {
	u, err := db.UserByName(ctx, name)
	if err != nil {
		return User{}, err
	}
	if u.Deleted() {
		return User{}, Errorf(KindNotFound, "There is no player named %q.", name)
	}
	if err := db.exec1(ctx, "set admin", `UPDATE users SET is_admin = ? WHERE id = ?`, admin, u.ID); err != nil {
		return User{}, err
	}
	u.Admin = admin
	return u, nil
}

// refuseComputer returns the refusal of an admin action on userID when it
// is a computer account (KindForbidden): the computer players are not
// people's accounts to reset, suspend or delete.
func refuseComputer(ctx context.Context, q queryer, userID int64) error {
	var name string
	err := q.QueryRowContext(ctx, `SELECT name FROM users WHERE id = ? AND computer_level IS NOT NULL`, userID).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("db: computer account: %w", err)
	}
	return Errorf(KindForbidden, "%s is a computer player: its account cannot be reset, suspended or deleted.", name)
}

// SuspendUser suspends userID: every session of it ends, it cannot sign
// in, and its open challenges are withdrawn; its games go on (its clocks
// run). Errors: KindNotFound for an unknown or deleted account;
// KindForbidden for a computer account; KindConflict when it is
// suspended already.
func (db *DB) SuspendUser(ctx context.Context, userID int64, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	u, err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ? AND deleted_at IS NULL`, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return Errorf(KindNotFound, "No such player.")
	} else if err != nil {
		return fmt.Errorf("db: suspend: %w", err)
	}
	if err := refuseComputer(ctx, tx, userID); err != nil {
		return err
	}
	if u.Suspended() {
		return Errorf(KindConflict, "%s is suspended already.", u.Name)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET suspended_at = ? WHERE id = ?`, unix(now), userID); err != nil {
		return fmt.Errorf("db: suspend: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE challenges SET status = 'cancelled' WHERE status = 'open' AND creator_id = ?`, userID); err != nil {
		return fmt.Errorf("db: suspend: withdraw challenges: %w", err)
	}
	if err := endSessions(ctx, tx, userID); err != nil {
		return err
	}
	return tx.Commit()
}

// UnsuspendUser lifts userID's suspension. Errors: KindNotFound for an
// unknown, deleted or unsuspended account.
func (db *DB) UnsuspendUser(ctx context.Context, userID int64) error {
	err := db.exec1(ctx, "unsuspend", `UPDATE users SET suspended_at = NULL WHERE id = ? AND suspended_at IS NOT NULL AND deleted_at IS NULL`, userID)
	if KindOf(err) == KindNotFound {
		return Errorf(KindNotFound, "No suspended player with this id.")
	}
	return err
}

// MaxUserList is the most accounts SearchUsers returns.
const MaxUserList = 100

// SearchUsers returns the accounts whose name contains query (any case;
// "" for all), by name, at most MaxUserList: the living ones first, then
// the deleted ones. Each part is read along the names' index in order,
// and stops when the list is full.
// What it returns is remembered until the next commit but the background
// work's (remember, playGen).
func (db *DB) SearchUsers(ctx context.Context, query string) ([]User, error) {
	return remember(ctx, db, &db.log.playGen, fmt.Sprintf("search users %q", query), cloneSlice[User], func(ctx context.Context) ([]User, error) {
		return db.searchUsersRead(ctx, query)
	})
}

// searchUsersRead reads what SearchUsers returns.
func (db *DB) searchUsersRead(ctx context.Context, query string) ([]User, error) {
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(query)
	var out []User
	for _, deleted := range []string{"deleted_at IS NULL", "deleted_at IS NOT NULL"} {
		if len(out) >= MaxUserList {
			break
		}
		rows, err := db.read.QueryContext(ctx, `SELECT `+userColumns+` FROM users WHERE name LIKE ? ESCAPE '\' AND computer_level IS NULL
			AND `+deleted+` ORDER BY name LIMIT ?`, "%"+esc+"%", MaxUserList-len(out))
		if err != nil {
			return nil, fmt.Errorf("db: search users: %w", err)
		}
		for rows.Next() {
			u, err := scanUser(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, u)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("db: search users: %w", err)
		}
	}
	return out, nil
}

// AllOpenChallenges returns every open challenge, newest first (at most
// 200), for the admin.
func (db *DB) AllOpenChallenges(ctx context.Context) ([]Challenge, error) {
	return db.challenges(ctx, `WHERE c.status = 'open'`)
}

// RemoveChallenge withdraws open challenge id as the admin. Errors:
// KindNotFound; KindConflict when it is no longer open.
func (db *DB) RemoveChallenge(ctx context.Context, id int64) error {
	return db.closeChallenge(ctx, id, 0, "cancelled", func(Challenge) error { return nil })
}

// MaxReportReason is the longest reason a report may give, in characters.
const MaxReportReason = 300

// ReportMessage records that userID reports message messageID of game
// gameID to the admin, with an optional reason. Only the player the
// message was sent to may report it, once. Errors: KindNotFound (no such
// message in that game); KindForbidden (not sent to userID); KindConflict
// (reported already); KindInvalid (a reason too long).
func (db *DB) ReportMessage(ctx context.Context, gameID, messageID, userID int64, reason string, now time.Time) error {
	reason = strings.TrimSpace(reason)
	if utf8.RuneCountInString(reason) > MaxReportReason || !utf8.ValidString(reason) {
		return Errorf(KindInvalid, "A reason is at most %d characters of text.", MaxReportReason)
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var to int64
	err = tx.QueryRowContext(ctx, `SELECT to_id FROM messages WHERE id = ? AND game_id = ?`, messageID, gameID).Scan(&to)
	if errors.Is(err, sql.ErrNoRows) {
		return Errorf(KindNotFound, "There is no such message in this game.")
	} else if err != nil {
		return fmt.Errorf("db: report: %w", err)
	}
	if to != userID {
		return Errorf(KindForbidden, "Only the player a message was sent to can report it.")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO reports (message_id, reporter_id, reason, created_at) VALUES (?, ?, ?, ?)`,
		messageID, userID, reason, unix(now)); err != nil {
		if strings.Contains(err.Error(), "UNIQUE constraint failed") {
			return Errorf(KindConflict, "You have reported this message already.")
		}
		return fmt.Errorf("db: report: %w", err)
	}
	return tx.Commit()
}

// Report is a message reported to the admin.
type Report struct {
	ID        int64
	MessageID int64
	GameID    int64
	From      Player // who wrote the message
	Reporter  Player
	Body      string
	Reason    string
	SentAt    time.Time
	CreatedAt time.Time // when it was reported
}

// Reports returns the open reports, oldest first.
func (db *DB) Reports(ctx context.Context) ([]Report, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT r.id, m.id, m.game_id, m.from_id, f.name, r.reporter_id, ru.name,
		m.body, r.reason, m.created_at, r.created_at
		FROM reports r JOIN messages m ON m.id = r.message_id JOIN users f ON f.id = m.from_id JOIN users ru ON ru.id = r.reporter_id
		ORDER BY r.id`)
	if err != nil {
		return nil, fmt.Errorf("db: reports: %w", err)
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		var r Report
		var sent, created int64
		if err := rows.Scan(&r.ID, &r.MessageID, &r.GameID, &r.From.ID, &r.From.Name, &r.Reporter.ID, &r.Reporter.Name,
			&r.Body, &r.Reason, &sent, &created); err != nil {
			return nil, err
		}
		r.SentAt, r.CreatedAt = fromUnix(sent), fromUnix(created)
		out = append(out, r)
	}
	return out, rows.Err()
}

// DismissReport closes report id, keeping the message. Errors:
// KindNotFound.
func (db *DB) DismissReport(ctx context.Context, id int64) error {
	return db.exec1(ctx, "dismiss report", `DELETE FROM reports WHERE id = ?`, id)
}

// DeleteMessage removes message id and the reports about it. Errors:
// KindNotFound.
func (db *DB) DeleteMessage(ctx context.Context, id int64) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM reports WHERE message_id = ?`, id); err != nil {
		return fmt.Errorf("db: delete message: %w", err)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("db: delete message: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return Errorf(KindNotFound, "There is no such message.")
	}
	return tx.Commit()
}

// MaxAnnouncement is the longest server announcement, in characters.
const MaxAnnouncement = 500

const announcementKey = "announcement"

// Announcement returns the server announcement shown on every page; ""
// for none.
func (db *DB) Announcement(ctx context.Context) (string, error) {
	// Every page asks: the answer is remembered while no row of settings
	// (or users, sessions) has changed.
	gen := db.log.accountGen.Load()
	if text, ok := db.accounts.announcement(gen); ok {
		return text, nil
	}
	var v []byte
	err := db.read.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, announcementKey).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		v = nil
	} else if err != nil {
		return "", fmt.Errorf("db: announcement: %w", err)
	}
	db.accounts.keepAnnouncement(string(v), gen, db.log.accountGen.Load())
	return string(v), nil
}

// SetAnnouncement replaces the server announcement with text (trimmed;
// "" removes it). Errors: KindInvalid for text longer than
// MaxAnnouncement characters or not UTF-8.
func (db *DB) SetAnnouncement(ctx context.Context, text string) error {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if utf8.RuneCountInString(text) > MaxAnnouncement || !utf8.ValidString(text) {
		return Errorf(KindInvalid, "An announcement is at most %d characters of text.", MaxAnnouncement)
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if text == "" {
		_, err = tx.ExecContext(ctx, `DELETE FROM settings WHERE key = ?`, announcementKey)
	} else {
		_, err = tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
			announcementKey, []byte(text))
	}
	if err != nil {
		return fmt.Errorf("db: set announcement: %w", err)
	}
	return tx.Commit()
}

// Figures are the server's own numbers for its admin.
type Figures struct {
	Players         int   // accounts, not counting deleted ones
	Suspended       int   // of which suspended
	ActivePlayers   int   // players with a game that changed in the last 30 days
	Games           int   // every game
	ActiveGames     int   // games in progress
	Moves           int   // every move
	OpenChallenges  int   // challenges waiting for an answer
	OpenReports     int   // reported messages not yet dealt with
	DatabaseBytes   int64 // the database file and its write-ahead log
	DatabasePages   int64 // SQLite pages in use
	DatabaseFreePgs int64 // of which free
}

// Figures counts the server's players, games and database size at now:
// the games and moves from the counters the database keeps, the active
// players from the players of each day (last_played_days) and those of
// the first day one by one, the others through indexes. What it returns
// is remembered until the next commit but the background work's
// (remember, playGen); the calls within one second of now share the
// first one's answer.
func (db *DB) Figures(ctx context.Context, now time.Time) (Figures, error) {
	return remember(ctx, db, &db.log.playGen, fmt.Sprintf("figures %d", now.Unix()), same[Figures],
		func(ctx context.Context) (Figures, error) { return db.figuresRead(ctx, now) })
}

// figuresRead reads what Figures returns.
func (db *DB) figuresRead(ctx context.Context, now time.Time) (Figures, error) {
	var f Figures
	err := db.read.QueryRowContext(ctx, `SELECT
		(SELECT n FROM counters WHERE name = 'players'),
		(SELECT COUNT(*) FROM users WHERE deleted_at IS NULL AND suspended_at IS NOT NULL),
		(SELECT COALESCE(SUM(players), 0) FROM last_played_days WHERE day > ?1 / 86400) +
			(SELECT COUNT(*) FROM users WHERE last_played > ?1 AND last_played < (?1 / 86400 + 1) * 86400),
		(SELECT n FROM counters WHERE name = 'games'),
		(SELECT n FROM counters WHERE name = 'active_games'),
		(SELECT n FROM counters WHERE name = 'moves'),
		(SELECT COUNT(*) FROM challenges WHERE status = 'open'),
		(SELECT COUNT(*) FROM reports)`, unix(now.Add(-30*24*time.Hour))).
		Scan(&f.Players, &f.Suspended, &f.ActivePlayers, &f.Games, &f.ActiveGames, &f.Moves, &f.OpenChallenges, &f.OpenReports)
	if err != nil {
		return f, fmt.Errorf("db: figures: %w", err)
	}
	if err := db.read.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&f.DatabasePages); err != nil {
		return f, fmt.Errorf("db: figures: %w", err)
	}
	if err := db.read.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&f.DatabaseFreePgs); err != nil {
		return f, fmt.Errorf("db: figures: %w", err)
	}
	for _, p := range []string{db.path, db.path + "-wal"} {
		if info, err := os.Stat(p); err == nil {
			f.DatabaseBytes += info.Size()
		} else if !errors.Is(err, os.ErrNotExist) {
			return f, fmt.Errorf("db: figures: %w", err)
		}
	}
	return f, nil
}
