package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// User is an account. Name is unique without regard to case.
type User struct {
	ID           int64
	Name         string
	PasswordHash string
	BoardView    string // "diamond" or "square"
	CreatedAt    time.Time
}

// CreateUser stores a new account with an already hashed password.
// Errors: KindConflict when the name is taken (in any case).
func (db *DB) CreateUser(ctx context.Context, name, passwordHash string, now time.Time) (User, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return User{}, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx,
		`INSERT INTO users (name, password_hash, created_at) VALUES (?, ?, ?)`,
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
	if err := tx.Commit(); err != nil {
		return User{}, err
	}
	return User{ID: id, Name: name, PasswordHash: passwordHash, BoardView: "diamond", CreatedAt: now.UTC()}, nil
}

const userColumns = `id, name, password_hash, board_view, created_at`

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var u User
	var created int64
	err := row.Scan(&u.ID, &u.Name, &u.PasswordHash, &u.BoardView, &created)
	u.CreatedAt = fromUnix(created)
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
// one that changed it; 0 ends them all). Errors: KindNotFound.
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
	if _, err := endSessions(ctx, tx, id, keep); err != nil {
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
