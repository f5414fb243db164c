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

// User is an account. Name is unique without regard to case.
type User struct {
	ID           int64
	Name         string
	PasswordHash string
	BoardView    string // "diamond" or "square"
	// ConfirmMoves: a completed move waits on the page for "Send move"
	// instead of being sent at the click.
	ConfirmMoves bool
	// Language is the code of the language of the player's pages and
	// mails ("fr"); "" follows the browser.
	Language string
	// BrowserLanguage is the language the player's browser last asked for
	// at sign-up or sign-in ("fr"; "" when unknown): mails and the feed
	// are written in it while Language is "".
	BrowserLanguage string
	// Theme is the colour theme: "system" (the browser's), "light" or
	// "dark".
	Theme       string
	CreatedAt   time.Time
	Admin       bool      // may use the admin pages and actions
	SuspendedAt time.Time // zero unless suspended: no sign-in, no session
	DeletedAt   time.Time // zero unless deleted: Name is then a tombstone
	// SessionGen is the generation of the account's sessions: a session
	// started under another value has been ended (a password reset, a
	// suspension or a deletion moves it on).
	SessionGen int64
}

// Suspended reports whether the account is suspended.
func (u User) Suspended() bool { return !u.SuspendedAt.IsZero() }

// Deleted reports whether the account was deleted.
func (u User) Deleted() bool { return !u.DeletedAt.IsZero() }

// Active reports whether the account may sign in and keep a session:
// neither suspended nor deleted.
func (u User) Active() bool { return !u.Suspended() && !u.Deleted() }

// TombstonePrefix starts the name a deleted account gets ("deleted-12"):
// no new account may take a name with it.
const TombstonePrefix = "deleted-"

// ReservedName reports whether name is kept for deleted accounts.
func ReservedName(name string) bool {
	return strings.HasPrefix(strings.ToLower(name), TombstonePrefix)
}

// ComputerPrefix starts the names kept for the computer players
// ("Computer · hard"): no new account may take a name that reads as one.
const ComputerPrefix = "computer"

// ComputerLikeName reports whether name could be taken for a computer
// player's: it starts with ComputerPrefix in any case once the separators
// ("-", "_", ".", spaces, "·") are left out ("Computer", "computer_hard",
// "Com-puter").
func ComputerLikeName(name string) bool {
	bare := strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '.', '·', ' ':
			return -1
		}
		return r
	}, strings.ToLower(name))
	return strings.HasPrefix(bare, ComputerPrefix)
}

// CreateUser stores a new account with an already hashed password. The
// first account of a server is its admin. Errors: KindConflict when the
// name is taken (in any case); KindInvalid for a name kept for deleted
// accounts (ReservedName) or for the computer players (ComputerLikeName).
func (db *DB) CreateUser(ctx context.Context, name, passwordHash string, now time.Time) (User, error) {
	if ReservedName(name) {
		return User{}, Errorf(KindInvalid, "Names beginning with %q are kept for deleted accounts; please choose another.", TombstonePrefix)
	}
	if ComputerLikeName(name) {
		return User{}, Errorf(KindInvalid, "Names beginning with %q are kept for the computer players; please choose another.", ComputerPrefix)
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return User{}, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx,
		`INSERT INTO users (name, password_hash, created_at, is_admin) VALUES (?, ?, ?, NOT EXISTS (SELECT 1 FROM users WHERE computer_level IS NULL))`,
		name, passwordHash, unix(now))
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE constraint failed") {
			return User{}, Errorf(KindConflict, "The name %q is taken; please choose another.", name)
		}
		return User{}, fmt.Errorf("db: create user: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return User{}, err
	}
	u, err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
	if err != nil {
		return User{}, fmt.Errorf("db: create user: %w", err)
	}
	return u, tx.Commit()
}

const userColumns = `id, name, password_hash, board_view, created_at, is_admin, suspended_at, deleted_at, session_gen, confirm_moves, language, theme, browser_language`

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var u User
	var created int64
	var suspended, deleted sql.NullInt64
	err := row.Scan(&u.ID, &u.Name, &u.PasswordHash, &u.BoardView, &created, &u.Admin, &suspended, &deleted, &u.SessionGen, &u.ConfirmMoves, &u.Language, &u.Theme, &u.BrowserLanguage)
	u.CreatedAt = fromUnix(created)
	u.SuspendedAt, u.DeletedAt = fromNullUnix(suspended), fromNullUnix(deleted)
	return u, err
}

// UserByName returns the account named name (any case).
// Errors: KindNotFound.
func (db *DB) UserByName(ctx context.Context, name string) (User, error) {
	u, err := scanUser(db.read.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, Errorf(KindNotFound, "There is no player named %q.", name)
	}
	return u, err
}

// UserByID returns the account with id. Errors: KindNotFound.
func (db *DB) UserByID(ctx context.Context, id int64) (User, error) {
	u, err := scanUser(db.read.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, Errorf(KindNotFound, "No such player.")
	}
	return u, err
}

// SetPassword replaces the password hash of user id and, in the same
// transaction, ends every session of the user except session keep (the
// one that changed it; 0 ends them all) and every reset link of the
// user. Errors: KindNotFound.
func (db *DB) SetPassword(ctx context.Context, id int64, passwordHash string, keep int64) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, passwordHash, id)
	if err != nil {
		return fmt.Errorf("db: set password: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return Errorf(KindNotFound, "No such player.")
	}
	if _, err := deleteSessions(ctx, tx, id, keep); err != nil {
		return err
	}
	if err := endResetLinks(ctx, tx, id); err != nil {
		return err
	}
	return tx.Commit()
}

// SetBoardView stores the board view a player prefers ("diamond" or
// "square"). Errors: KindInvalid for any other value.
func (db *DB) SetBoardView(ctx context.Context, id int64, view string) error {
	if view != "diamond" && view != "square" {
		return Errorf(KindInvalid, "Unknown board view %q.", view)
	}
	return db.exec1(ctx, "set board view", `UPDATE users SET board_view = ? WHERE id = ?`, view, id)
}

// SetConfirmMoves stores whether a player confirms each move before it
// is sent. Errors: KindNotFound.
func (db *DB) SetConfirmMoves(ctx context.Context, id int64, on bool) error {
	return db.exec1(ctx, "set confirm moves", `UPDATE users SET confirm_moves = ? WHERE id = ?`, on, id)
}

// Languages are the codes SetLanguage accepts besides "" (the browser's).
var Languages = []string{"en", "fr", "pt", "es", "de"}

// SetLanguage stores the language of a player's pages and mails: one of
// Languages, or "" to follow the browser. Errors: KindInvalid for another
// code, KindNotFound.
func (db *DB) SetLanguage(ctx context.Context, id int64, lang string) error {
	if lang != "" && !slices.Contains(Languages, lang) {
		return Errorf(KindInvalid, "Unknown language %q.", lang)
	}
	return db.exec1(ctx, "set language", `UPDATE users SET language = ? WHERE id = ?`, lang, id)
}

// SetBrowserLanguage remembers lang, one of Languages, as the language
// player id's browser asks for (see User.BrowserLanguage). Errors:
// KindInvalid for another code, KindNotFound.
func (db *DB) SetBrowserLanguage(ctx context.Context, id int64, lang string) error {
	if !slices.Contains(Languages, lang) {
		return Errorf(KindInvalid, "Unknown language %q.", lang)
	}
	return db.exec1(ctx, "set browser language", `UPDATE users SET browser_language = ? WHERE id = ?`, lang, id)
}

// mailLanguage is the SQL expression of the language of the mails to
// the user u: the one they chose, else their browser's.
const mailLanguage = `CASE WHEN u.language <> '' THEN u.language ELSE u.browser_language END`

// SetTheme stores a player's colour theme: "system", "light" or "dark".
// Errors: KindInvalid for another, KindNotFound.
func (db *DB) SetTheme(ctx context.Context, id int64, theme string) error {
	if theme != "system" && theme != "light" && theme != "dark" {
		return Errorf(KindInvalid, "Unknown theme %q.", theme)
	}
	return db.exec1(ctx, "set theme", `UPDATE users SET theme = ? WHERE id = ?`, theme, id)
}

// exec1 runs one statement in its own transaction and expects it to change
// one row (KindNotFound otherwise).
func (db *DB) exec1(ctx context.Context, what, query string, args ...any) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("db: %s: %w", what, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return Errorf(KindNotFound, "Nothing to change.")
	}
	return tx.Commit()
}
