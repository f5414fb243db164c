package db

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The admin actions recorded in the admin log (AdminAction.Action).
const (
	ActionGrant           = "grant"            // the admin right given
	ActionRevoke          = "revoke"           // the admin right taken away
	ActionSuspend         = "suspend"          // an account suspended
	ActionUnsuspend       = "unsuspend"        // a suspension lifted
	ActionReset           = "reset"            // a password reset forced
	ActionDelete          = "delete"           // an account deleted
	ActionRemoveChallenge = "remove-challenge" // an open challenge withdrawn
	ActionDismissReport   = "dismiss-report"   // a report closed, its message kept
	ActionDeleteMessage   = "delete-message"   // a reported message deleted
	ActionAnnounce        = "announce"         // the announcement set or removed
)

// The kinds of thing an admin action is done to (AdminAction.TargetKind).
const (
	TargetUser         = "user"
	TargetChallenge    = "challenge"
	TargetReport       = "report"
	TargetMessage      = "message"
	TargetAnnouncement = "announcement"
)

// The ways an admin action comes (AdminAction.Via).
const (
	ViaWeb = "web" // the admin page
	ViaCLI = "cli" // `trench admin` on the server
)

// maxTargetName is the most characters of a target's name kept (an
// announcement's text is cut there).
const maxTargetName = 120

// AdminAction is one entry of the admin log: who did what, to whom or
// what, when and from where.
type AdminAction struct {
	ID int64
	At time.Time
	// AdminID is the admin's account (0 from the command line); AdminName
	// its name at the time, or the operating-system user of the command.
	AdminID   int64
	AdminName string
	// Via is ViaWeb or ViaCLI; Address the client's address on the web,
	// "" from the command line.
	Via     string
	Address string
	// Action is one of the Action constants.
	Action string
	// TargetKind is one of the Target constants ("" for none), TargetID
	// its id (0 for none) and TargetName its name at the time: the
	// player's name, the announcement's text (cut to 120 characters).
	TargetKind string
	TargetID   int64
	TargetName string
}

// RecordAdminAction adds a to the admin log (its ID is ignored), in a
// transaction of its own: for an action that wrote nothing itself, or
// one whose writes could not carry its entry (see WithAudit). Errors (a
// caller's mistake, not the admin's): a Via other than ViaWeb and
// ViaCLI, an empty action or admin name, an unknown target kind.
func (db *DB) RecordAdminAction(ctx context.Context, a AdminAction) error {
	if err := a.check(); err != nil {
		return err
	}
	// Not the action ctx may carry as well: a is recorded here, once.
	ctx = context.WithValue(ctx, auditKey{}, (*audit)(nil))
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := a.insert(ctx, tx.Tx); err != nil {
		return err
	}
	return tx.Commit()
}

// check says what is wrong with a as an entry of the admin log (nil:
// nothing).
func (a AdminAction) check() error {
	if a.Via != ViaWeb && a.Via != ViaCLI || a.Action == "" || strings.TrimSpace(a.AdminName) == "" {
		return fmt.Errorf("db: record admin action: %q by %q via %q: want an action, an admin and web or cli", a.Action, a.AdminName, a.Via)
	}
	switch a.TargetKind {
	case "", TargetUser, TargetChallenge, TargetReport, TargetMessage, TargetAnnouncement:
	default:
		return fmt.Errorf("db: record admin action: unknown kind of target %q", a.TargetKind)
	}
	return nil
}

// insert adds a, checked, to the admin log in tx.
func (a AdminAction) insert(ctx context.Context, tx *sql.Tx) error {
	name := strings.ToValidUTF8(a.TargetName, "?")
	if utf8.RuneCountInString(name) > maxTargetName {
		name = string([]rune(name)[:maxTargetName-1]) + "…"
	}
	var admin any
	if a.AdminID != 0 {
		admin = a.AdminID
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO admin_log (at, admin_id, admin_name, via, address, action, target_kind, target_id, target_name)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, unix(a.At), admin, a.AdminName, a.Via, a.Address, a.Action, a.TargetKind, a.TargetID, name); err != nil {
		return fmt.Errorf("db: record admin action: %w", err)
	}
	return nil
}

// audit is an admin action waiting to be recorded by the first write
// transaction that commits under its context.
type audit struct {
	a        AdminAction
	mu       sync.Mutex
	recorded bool
}

type auditKey struct{}

// WithAudit returns ctx carrying a, an admin action about to be done: the
// first write transaction begun with the returned context records a in
// the admin log as it commits, so that the action and its entry are kept
// or lost together (a failing entry rolls the action back). Audited then
// says whether that happened; if it did not (the action wrote nothing,
// or its writes went through a group of changes), record a with
// RecordAdminAction. Errors: as RecordAdminAction's.
func WithAudit(ctx context.Context, a AdminAction) (context.Context, error) {
	if err := a.check(); err != nil {
		return ctx, err
	}
	return context.WithValue(ctx, auditKey{}, &audit{a: a}), nil
}

// Audited says whether the admin action ctx carries (WithAudit) has been
// recorded with a transaction of the action.
func Audited(ctx context.Context) bool {
	au, _ := ctx.Value(auditKey{}).(*audit)
	if au == nil {
		return false
	}
	au.mu.Lock()
	defer au.mu.Unlock()
	return au.recorded
}

// AdminLog returns the latest limit entries of the admin log, newest
// first.
func (db *DB) AdminLog(ctx context.Context, limit int) ([]AdminAction, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, at, COALESCE(admin_id, 0), admin_name, via, address, action, target_kind, target_id, target_name
		FROM admin_log ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("db: admin log: %w", err)
	}
	defer rows.Close()
	var out []AdminAction
	for rows.Next() {
		var a AdminAction
		var at int64
		if err := rows.Scan(&a.ID, &at, &a.AdminID, &a.AdminName, &a.Via, &a.Address, &a.Action, &a.TargetKind, &a.TargetID, &a.TargetName); err != nil {
			return nil, fmt.Errorf("db: admin log: %w", err)
		}
		a.At = fromUnix(at)
		out = append(out, a)
	}
	return out, rows.Err()
}
