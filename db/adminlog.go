package db

import (
	"context"
	"fmt"
	"strings"
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

// RecordAdminAction adds a to the admin log (its ID is ignored). Errors
// (a caller's mistake, not the admin's): a Via other than ViaWeb and
// ViaCLI, an empty action or admin name, an unknown target kind.
func (db *DB) RecordAdminAction(ctx context.Context, a AdminAction) error {
	if a.Via != ViaWeb && a.Via != ViaCLI || a.Action == "" || strings.TrimSpace(a.AdminName) == "" {
		return fmt.Errorf("db: record admin action: %q by %q via %q: want an action, an admin and web or cli", a.Action, a.AdminName, a.Via)
	}
	switch a.TargetKind {
	case "", TargetUser, TargetChallenge, TargetReport, TargetMessage, TargetAnnouncement:
	default:
		return fmt.Errorf("db: record admin action: unknown kind of target %q", a.TargetKind)
	}
	name := strings.ToValidUTF8(a.TargetName, "?")
	if utf8.RuneCountInString(name) > maxTargetName {
		name = string([]rune(name)[:maxTargetName-1]) + "…"
	}
	var admin any
	if a.AdminID != 0 {
		admin = a.AdminID
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO admin_log (at, admin_id, admin_name, via, address, action, target_kind, target_id, target_name)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, unix(a.At), admin, a.AdminName, a.Via, a.Address, a.Action, a.TargetKind, a.TargetID, name); err != nil {
		return fmt.Errorf("db: record admin action: %w", err)
	}
	return tx.Commit()
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
