package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// TestAdminCommandsAreLogged: each `trench admin` command that changes
// something leaves an entry in the admin log, with the operating-system
// user, the command line as its origin and its target (named as before
// the command); listing commands and refused commands leave none, and
// `trench admin log` prints the entries.
func TestAdminCommandsAreLogged(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ann", "bob"} {
		if _, err := store.CreateUser(ctx, name, "hash", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	store.Close()
	t.Setenv("SUDO_USER", "")
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := adminCommand(ctx, &out, append([]string{"--db", path}, args...))
		return out.String(), err
	}
	for _, args := range [][]string{{"grant", "bob"}, {"users"}, {"suspend", "bob"}, {"announce", "Back soon"}, {"figures"}, {"delete", "bob"}} {
		if _, err := run(args...); err != nil {
			t.Fatalf("admin %v: %v", args, err)
		}
	}
	if _, err := run("suspend", "nobody"); err == nil {
		t.Fatal("suspending nobody: no error")
	}

	store, err = db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	log, err := store.AdminLog(ctx, 10)
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range log {
		if a.Via != db.ViaCLI || a.AdminName != osUser() || a.AdminID != 0 || a.Address != "" || time.Since(a.At) > time.Minute {
			t.Errorf("entry %+v: want the command line, by %s, just now", a, osUser())
		}
		got = append(got, a.Action+" "+a.TargetName)
	}
	if want := "delete bob, announce Back soon, suspend bob, grant bob"; strings.Join(got, ", ") != want {
		t.Errorf("the admin log holds %q, want %q", strings.Join(got, ", "), want)
	}

	out, err := run("log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.Contains(lines[1], "cli ("+osUser()+")") || !strings.Contains(lines[1], "delete") ||
		!strings.Contains(lines[1], `"bob"`) || !strings.Contains(lines[1], "command line") {
		t.Errorf("admin log prints:\n%s", out)
	}
}
