package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/trench-games/trench/db"
)

const adminUsage = `usage: trench admin [--db FILE] [--base-url URL] COMMAND
  grant NAME            make NAME an admin
  revoke NAME           take the admin right from NAME
  users [TEXT]          list the accounts (whose name contains TEXT)
  suspend NAME          suspend NAME: signed out, no sign-in, open challenges withdrawn
  unsuspend NAME        lift the suspension
  reset NAME            end NAME's password and sessions; print a link to choose a new one
  delete NAME           delete NAME's account (games resigned, name replaced by deleted-ID)
  challenges            list the open challenges
  remove-challenge ID   withdraw open challenge ID
  reports               list the reported messages
  dismiss-report ID     close report ID, keeping the message
  delete-message ID     delete message ID (and its reports)
  announce TEXT         show TEXT at the top of every page ("" removes it)
  figures               the server's figures: players, games, database size
  log [N]               the latest N admin actions (20), from the admin page and here`

// adminCommand runs `trench admin …`: the admin page's actions from a
// shell on the server, on the database file (while the server runs, too).
func adminCommand(ctx context.Context, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	path := fs.String("db", env("TRENCH_DB", "trench.db"), "the database (TRENCH_DB)")
	baseURL := fs.String("base-url", env("TRENCH_BASE_URL", ""), "the server's public URL, for reset links (TRENCH_BASE_URL)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("admin: %w\n%s", err, adminUsage)
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return fmt.Errorf("admin: which command?\n%s", adminUsage)
	}
	if rest[0] == "help" {
		fmt.Fprintln(stdout, adminUsage)
		return nil
	}
	// db.Open would create a missing database: refuse instead.
	if _, err := os.Stat(*path); err != nil {
		return fmt.Errorf("admin: %w", err)
	}
	// A server of the older release may still run on an older database:
	// only the new release's server upgrades it (after a backup).
	store, err := db.OpenWith(ctx, *path, db.Options{NoUpgrade: true})
	if errors.Is(err, db.ErrOlderSchema) {
		return fmt.Errorf("admin: %w; start the new release's server (trench serve) first, which upgrades the database after a verified backup, then run the command again", err)
	}
	if err != nil {
		return err
	}
	act, err := cliTarget(ctx, store, rest[0], rest[1:])
	actx := ctx
	if err == nil && act.ok {
		// The command's own transaction records it (db.WithAudit).
		act.action.At = time.Now()
		actx, err = db.WithAudit(ctx, act.action)
	}
	if err == nil {
		err = runAdmin(actx, stdout, store, strings.TrimRight(*baseURL, "/"), rest[0], rest[1:])
	}
	if err == nil {
		err = act.record(actx, store)
	}
	return errors.Join(err, store.Close())
}

// runAdmin runs one admin command on store.
func runAdmin(ctx context.Context, out io.Writer, store *db.DB, base, cmd string, args []string) error {
	now := time.Now()
	// one returns the command's single argument.
	one := func() (string, error) {
		if len(args) != 1 {
			return "", fmt.Errorf("admin %s: want one argument\n%s", cmd, adminUsage)
		}
		return args[0], nil
	}
	user := func() (db.User, error) {
		name, err := one()
		if err != nil {
			return db.User{}, err
		}
		return store.UserByName(ctx, name)
	}
	id := func() (int64, error) {
		s, err := one()
		if err != nil {
			return 0, err
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("admin %s: %q is not an id", cmd, s)
		}
		return n, nil
	}
	switch cmd {
	case "grant", "revoke":
		name, err := one()
		if err != nil {
			return err
		}
		u, err := store.SetAdmin(ctx, name, cmd == "grant")
		if err != nil {
			return err
		}
		if u.Admin {
			fmt.Fprintf(out, "%s is an admin\n", u.Name)
		} else {
			fmt.Fprintf(out, "%s is no longer an admin\n", u.Name)
		}
	case "users":
		if len(args) > 1 {
			return fmt.Errorf("admin users: want at most one search text\n%s", adminUsage)
		}
		users, err := store.SearchUsers(ctx, strings.Join(args, ""))
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tNAME\tSINCE\tSTATUS")
		for _, u := range users {
			fmt.Fprintf(w, "%d\t%s\t%s\t%s\n", u.ID, u.Name, u.CreatedAt.Format(time.DateOnly), userStatus(u))
		}
		return w.Flush()
	case "suspend", "unsuspend", "delete":
		u, err := user()
		if err != nil {
			return err
		}
		switch cmd {
		case "suspend":
			err = store.SuspendUser(ctx, u.ID, now)
		case "unsuspend":
			err = store.UnsuspendUser(ctx, u.ID)
		default:
			err = store.DeleteAccount(ctx, u.ID, now)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %s\n", u.Name, map[string]string{"suspend": "suspended", "unsuspend": "unsuspended", "delete": "deleted"}[cmd])
	case "reset":
		u, err := user()
		if err != nil {
			return err
		}
		r, err := store.ForcePasswordReset(ctx, u.ID, now)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s's password no longer works and their sessions have ended.\n", u.Name)
		fmt.Fprintf(out, "Pass this link on to them; it works once, for %s:\n%s/reset/%s\n", db.AdminResetTokenTTL, base, r.Token)
		if base == "" {
			fmt.Fprintln(out, "(put the server's address in front: --base-url or TRENCH_BASE_URL does it)")
		}
	case "challenges":
		chs, err := store.AllOpenChallenges(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tBY\tTO\tGAME\tSINCE")
		for _, c := range chs {
			to := c.Opponent.Name
			if to == "" {
				to = "anyone"
			}
			fmt.Fprintf(w, "%d\t%s\t%s\t%s %s\t%s\n", c.ID, c.Creator.Name, to, c.Game, c.Variant, c.CreatedAt.Format(time.DateTime))
		}
		return w.Flush()
	case "remove-challenge":
		n, err := id()
		if err != nil {
			return err
		}
		if err := store.RemoveChallenge(ctx, n); err != nil {
			return err
		}
		fmt.Fprintf(out, "challenge %d removed\n", n)
	case "reports":
		rs, err := store.Reports(ctx)
		if err != nil {
			return err
		}
		for _, r := range rs {
			fmt.Fprintf(out, "report %d: message %d in game %d from %s, reported by %s on %s", r.ID, r.MessageID, r.GameID,
				r.From.Name, r.Reporter.Name, r.CreatedAt.Format(time.DateTime))
			if r.Reason != "" {
				fmt.Fprintf(out, " (%s)", r.Reason)
			}
			fmt.Fprintf(out, "\n  %s\n", strings.ReplaceAll(r.Body, "\n", "\n  "))
		}
	case "dismiss-report", "delete-message":
		n, err := id()
		if err != nil {
			return err
		}
		if cmd == "dismiss-report" {
			err = store.DismissReport(ctx, n)
		} else {
			err = store.DeleteMessage(ctx, n)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s %d: done\n", strings.TrimPrefix(strings.TrimPrefix(cmd, "dismiss-"), "delete-"), n)
	case "announce":
		text, err := one()
		if err != nil {
			return err
		}
		if err := store.SetAnnouncement(ctx, text); err != nil {
			return err
		}
		if strings.TrimSpace(text) == "" {
			fmt.Fprintln(out, "announcement removed")
		} else {
			fmt.Fprintln(out, "announcement set")
		}
	case "log":
		return printAdminLog(ctx, out, store, args)
	case "figures":
		if len(args) != 0 {
			return fmt.Errorf("admin figures: no arguments\n%s", adminUsage)
		}
		f, err := store.Figures(ctx, now)
		if err != nil {
			return err
		}
		rs, err := store.Replication(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "players: %d (%d suspended), %d played in the last 30 days\n", f.Players, f.Suspended, f.ActivePlayers)
		fmt.Fprintf(out, "games: %d (%d in progress), %d moves\n", f.Games, f.ActiveGames, f.Moves)
		fmt.Fprintf(out, "open challenges: %d, reported messages: %d\n", f.OpenChallenges, f.OpenReports)
		fmt.Fprintf(out, "database: %d bytes, %d pages (%d free)\n", f.DatabaseBytes, f.DatabasePages, f.DatabaseFreePgs)
		if !rs.On {
			// This process opened the file without a replica; the server's
			// own state is on its admin page.
			fmt.Fprintln(out, "replication: see the admin page of the running server")
		}
	default:
		return fmt.Errorf("admin: unknown command %q\n%s", cmd, adminUsage)
	}
	return nil
}

// userStatus is an account's state in one word.
func userStatus(u db.User) string {
	switch {
	case u.Deleted():
		return "deleted"
	case u.Suspended():
		return "suspended"
	case u.Admin:
		return "admin"
	}
	return "active"
}
