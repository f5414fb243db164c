package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/trench-games/trench/db"
)

// TestAdminCommands runs each `trench admin` command on a database file
// and checks the database and what is printed.
func TestAdminCommands(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	var ids []int64
	for _, name := range []string{"ann", "bob", "cy"} {
		u, err := store.CreateUser(ctx, name, "hash", now)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	ch, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: ids[1], Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, now)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()

	run := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := adminCommand(ctx, &out, append([]string{"--db", path, "--base-url", "https://trench.example.org"}, args...)); err != nil {
			t.Fatalf("admin %v: %v", args, err)
		}
		return out.String()
	}
	check := func(f func(s *db.DB) error) {
		t.Helper()
		s, err := db.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := f(s); err != nil {
			t.Fatal(err)
		}
	}
	user := func(s *db.DB, id int64) db.User {
		u, err := s.UserByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}

	if out := run("grant", "BOB"); out != "bob is an admin\n" {
		t.Fatalf("grant: %q", out)
	}
	out := run("users")
	if !strings.Contains(out, "ann") || !strings.Contains(out, "admin") || strings.Count(out, "\n") != 4 {
		t.Fatalf("users:\n%s", out)
	}
	if out := run("challenges"); !strings.Contains(out, "bob") || !strings.Contains(out, "anyone") {
		t.Fatalf("challenges:\n%s", out)
	}
	run("suspend", "bob")
	check(func(s *db.DB) error {
		if !user(s, ids[1]).Suspended() {
			t.Fatal("bob is not suspended")
		}
		if c, _ := s.Challenge(ctx, ch.ID); c.Status != "cancelled" {
			t.Fatalf("bob's challenge is %s", c.Status)
		}
		return nil
	})
	run("unsuspend", "bob")
	out = run("reset", "cy")
	if !strings.Contains(out, "https://trench.example.org/reset/") {
		t.Fatalf("reset prints no link:\n%s", out)
	}
	tok := out[strings.Index(out, "/reset/")+len("/reset/"):]
	tok = strings.TrimSpace(tok)
	check(func(s *db.DB) error {
		if u := user(s, ids[2]); u.PasswordHash != "" {
			t.Fatal("cy's password still works")
		}
		_, err := s.ResetTokenUser(ctx, tok, time.Now())
		return err
	})
	run("announce", "Back at 10:00")
	check(func(s *db.DB) error {
		if a, _ := s.Announcement(ctx); a != "Back at 10:00" {
			t.Fatalf("announcement %q", a)
		}
		return nil
	})
	if out := run("announce", ""); out != "announcement removed\n" {
		t.Fatalf("announce \"\": %q", out)
	}
	if out := run("figures"); !strings.Contains(out, "players: 3 (0 suspended)") {
		t.Fatalf("figures:\n%s", out)
	}
	// A reported message: listed, dismissed, reported again, deleted.
	var msgID, gameID int64
	check(func(s *db.DB) error {
		c, err := s.CreateChallenge(ctx, db.NewChallenge{CreatorID: ids[0], Opponent: "bob", Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, now)
		if err != nil {
			return err
		}
		if gameID, err = s.AcceptChallenge(ctx, c.ID, ids[1], 1, now); err != nil {
			return err
		}
		m, err := s.SendMessage(ctx, gameID, ids[1], "rude words", now)
		msgID = m.ID
		if err != nil {
			return err
		}
		return s.ReportMessage(ctx, gameID, m.ID, ids[0], "insult", now)
	})
	if out := run("reports"); !strings.Contains(out, "rude words") || !strings.Contains(out, "reported by ann") || !strings.Contains(out, "(insult)") {
		t.Fatalf("reports:\n%s", out)
	}
	run("dismiss-report", "1")
	if out := run("reports"); out != "" {
		t.Fatalf("reports after dismissing:\n%s", out)
	}
	run("delete-message", strconv.FormatInt(msgID, 10))
	check(func(s *db.DB) error {
		g, err := s.Game(ctx, gameID)
		if err != nil {
			return err
		}
		if msgs, _ := s.ReadMessages(ctx, g, ids[0], now); len(msgs) != 0 {
			t.Fatal("the message was not deleted")
		}
		return nil
	})
	run("delete", "cy")
	check(func(s *db.DB) error {
		if u := user(s, ids[2]); !u.Deleted() || u.Name != fmt.Sprintf("deleted-%d", ids[2]) {
			t.Fatalf("cy after delete: %+v", u)
		}
		return nil
	})
	if out := run("revoke", "bob"); out != "bob is no longer an admin\n" {
		t.Fatalf("revoke: %q", out)
	}

	// Mistakes are errors and change nothing.
	var sink bytes.Buffer
	for _, args := range [][]string{{"grant", "nobody"}, {"remove-challenge", "x"}, {"remove-challenge", "999"}, {"frobnicate"}, {"suspend"}} {
		if err := adminCommand(ctx, &sink, append([]string{"--db", path}, args...)); err == nil {
			t.Fatalf("admin %v: no error", args)
		}
	}
	if err := adminCommand(ctx, &sink, []string{"--db", filepath.Join(t.TempDir(), "missing.db"), "users"}); err == nil {
		t.Fatal("admin on a missing database: no error")
	}
}

// olderDatabase makes a database at path with the schema of the
// migration before this binary's last one and one account, as the
// previous release left it; it returns that schema version.
func olderDatabase(t *testing.T, path string) int64 {
	t.Helper()
	ctx := context.Background()
	files := os.DirFS(filepath.Join("..", "..", "db", "migrations"))
	names, err := fs.Glob(files, "*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("migrations: %v %v", names, err)
	}
	var prev int64
	for _, n := range names {
		if v, err := goose.NumericComponent(n); err == nil && v < db.SchemaVersion() && v > prev {
			prev = v
		}
	}
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, w, files)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, prev); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(ctx, `INSERT INTO users (name, password_hash, created_at) VALUES ('ann', 'x', 1)`); err != nil {
		t.Fatal(err)
	}
	return prev
}

// `trench admin` refuses a database of an older schema and leaves it as it
// is (a server of the older release may still be running on it): the
// new release's server upgrades it, after a backup.
func TestAdminRefusesAnOlderSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	old := olderDatabase(t, path)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"users"}, {"grant", "ann"}} {
		var out bytes.Buffer
		err := adminCommand(ctx, &out, append([]string{"--db", path}, args...))
		if err == nil {
			t.Fatalf("admin %v on schema %d: no error, printed %q", args, old, out.String())
		}
		for _, want := range []string{"older", "trench serve", "not changed"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("admin %v: error %q does not say %q", args, err, want)
			}
		}
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the refused database file changed")
	}
	if have, _, err := db.FileSchemaVersion(ctx, path); err != nil || have != old {
		t.Errorf("schema version %d (%v), want %d", have, err, old)
	}
	if b, _ := db.UpgradeBackups(path); len(b) != 0 {
		t.Errorf("upgrade backups of a refused database: %v", b)
	}
}
