package main

import (
	"context"
	"fmt"
	"io"
	"os"
	osuser "os/user"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/trench-games/trench/db"
)

// cliAction is what `trench admin CMD ARGS` is about to do, for the
// admin log: read before the command runs (a deleted account loses its
// name). ok is false for a command that changes nothing (users, figures…).
type cliAction struct {
	ok     bool
	action db.AdminAction
}

// cliTarget describes command cmd with args for the admin log.
func cliTarget(ctx context.Context, store *db.DB, cmd string, args []string) (cliAction, error) {
	a := db.AdminAction{Via: db.ViaCLI, AdminName: osUser()}
	if len(args) != 1 {
		return cliAction{}, nil // refused by the command itself
	}
	arg := args[0]
	id, _ := strconv.ParseInt(arg, 10, 64)
	switch cmd {
	case "grant", "revoke", "suspend", "unsuspend", "reset", "delete":
		a.Action, a.TargetKind, a.TargetName = cmd, db.TargetUser, arg
		if u, err := store.UserByName(ctx, arg); err == nil {
			a.TargetID, a.TargetName = u.ID, u.Name
		} else if db.KindOf(err) != db.KindNotFound {
			return cliAction{}, err
		}
	case "remove-challenge":
		a.Action, a.TargetKind, a.TargetID = db.ActionRemoveChallenge, db.TargetChallenge, id
		if ch, err := store.Challenge(ctx, id); err == nil {
			a.TargetName = ch.Creator.Name
		} else if db.KindOf(err) != db.KindNotFound {
			return cliAction{}, err
		}
	case "dismiss-report", "delete-message":
		a.Action, a.TargetID, a.TargetKind = cmd, id, db.TargetReport
		if cmd == "delete-message" {
			a.TargetKind = db.TargetMessage
		}
		reports, err := store.Reports(ctx)
		if err != nil {
			return cliAction{}, err
		}
		for _, r := range reports {
			if cmd == "dismiss-report" && r.ID == id || cmd == "delete-message" && r.MessageID == id {
				a.TargetName = r.From.Name
				break
			}
		}
	case "announce":
		a.Action, a.TargetKind, a.TargetName = db.ActionAnnounce, db.TargetAnnouncement, strings.TrimSpace(arg)
	default:
		return cliAction{}, nil
	}
	return cliAction{ok: true, action: a}, nil
}

// record adds the action to the admin log unless the command's own
// transaction did (ctx is the one the command ran with).
func (c cliAction) record(ctx context.Context, store *db.DB) error {
	if !c.ok || db.Audited(ctx) {
		return nil
	}
	if err := store.RecordAdminAction(ctx, c.action); err != nil {
		return fmt.Errorf("admin: done, but not recorded in the admin log: %w", err)
	}
	return nil
}

// osUser is who runs the command: the operating-system user, and under
// sudo the user who called sudo.
func osUser() string {
	name := os.Getenv("USER")
	if u, err := osuser.Current(); err == nil {
		name = u.Username
	}
	if s := os.Getenv("SUDO_USER"); s != "" && s != name {
		name = s + " as " + name
	}
	if name == "" {
		name = "uid " + strconv.Itoa(os.Getuid())
	}
	return name
}

// printAdminLog writes the latest admin actions (args: how many, 20 by
// default), newest first.
func printAdminLog(ctx context.Context, out io.Writer, store *db.DB, args []string) error {
	n := 20
	if len(args) > 1 {
		return fmt.Errorf("admin log: want at most a number of entries\n%s", adminUsage)
	}
	if len(args) == 1 {
		v, err := strconv.Atoi(args[0])
		if err != nil || v < 1 {
			return fmt.Errorf("admin log: %q is not a number of entries", args[0])
		}
		n = v
	}
	log, err := store.AdminLog(ctx, n)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "WHEN (UTC)\tWHO\tACTION\tTARGET\tFROM")
	for _, a := range log {
		who, from := a.AdminName, a.Address
		if a.Via == db.ViaCLI {
			who, from = "cli ("+a.AdminName+")", "command line"
		}
		target := a.TargetName
		if a.TargetID != 0 && a.TargetKind != db.TargetUser {
			target = fmt.Sprintf("%s %d (%s)", a.TargetKind, a.TargetID, a.TargetName)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", a.At.UTC().Format(time.DateTime), who, a.Action, strconv.Quote(target), from)
	}
	return w.Flush()
}
