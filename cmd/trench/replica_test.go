package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// replicatedDatabase makes a database with n accounts at path, its
// replica at replica (a file:// URL), every transaction sent.
func replicatedDatabase(t *testing.T, path, replica string, n int) {
	t.Helper()
	ctx := context.Background()
	store, err := db.OpenWith(ctx, path, db.Options{Replica: replica, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	addAccounts(t, store, "kept", n)
	if err := store.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
}

func addAccounts(t *testing.T, store *db.DB, prefix string, n int) {
	t.Helper()
	for i := range n {
		if _, err := store.CreateUser(context.Background(), fmt.Sprintf("%s%d", prefix, i), "hash", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

// serveFor runs serve with args until it returns or d has passed (then
// it is stopped as by SIGTERM), and returns its error and whether it
// returned by itself.
func serveFor(args []string, d time.Duration, whileRunning func()) (err error, early bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- serve(ctx, args) }()
	select {
	case err := <-done:
		return err, true
	case <-time.After(d):
	}
	if whileRunning != nil {
		whileRunning()
	}
	cancel()
	return <-done, false
}

// A new, empty database beside a replica full of accounts: serve refuses
// to replicate it and names both ways on; the replica keeps its copy;
// --replica-overwrite starts it anew.
func TestServeRefusesADatabaseBehindItsReplica(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	replica := "file://" + filepath.Join(dir, "replica")
	replicatedDatabase(t, filepath.Join(dir, "old.db"), replica, 5)

	path := filepath.Join(dir, "trench.db")
	if err, _ := serveFor([]string{"--addr", "127.0.0.1:0", "--db", path}, time.Second, nil); err != nil {
		t.Fatal(err)
	}
	err, early := serveFor([]string{"--addr", "127.0.0.1:0", "--db", path, "--replicate", replica}, 5*time.Second, nil)
	if !early || err == nil {
		t.Fatalf("serve --replicate on an empty database with a full replica ran (%v)", err)
	}
	for _, want := range []string{"behind its replica", "trench restore --from " + replica + " " + path, "--replica-overwrite"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q:\n%v", want, err)
		}
	}
	var out bytes.Buffer
	if err := restoreCommand(ctx, &out, []string{"--from", replica, filepath.Join(dir, "check.db")}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "integrity ok") {
		t.Fatal(out.String())
	}
	check, err := db.Open(ctx, filepath.Join(dir, "check.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	if _, err := check.UserByName(ctx, "kept4"); err != nil {
		t.Fatalf("the replica lost its accounts: %v", err)
	}

	// The first command, as written, then serve: it replicates again.
	if err := os.Rename(path, path+".behind"); err != nil {
		t.Fatal(err)
	}
	if err := restoreCommand(ctx, &out, []string{"--from", replica, path}); err != nil {
		t.Fatal(err)
	}
	if err, early := serveFor([]string{"--addr", "127.0.0.1:0", "--db", path, "--replicate", replica}, 2*time.Second, nil); early || err != nil {
		t.Fatalf("serve after the restore: %v", err)
	}
	// The second one.
	if err, early := serveFor([]string{"--addr", "127.0.0.1:0", "--db", path + ".behind", "--replicate", replica, "--replica-overwrite"}, 2*time.Second, nil); early || err != nil {
		t.Fatalf("serve --replica-overwrite: %v", err)
	}
}

// A clean stop whose last transactions cannot reach the replica is an
// error that says how many were not sent.
func TestServeStopWithABrokenReplicaFails(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	replicaDir := filepath.Join(dir, "replica")
	path := filepath.Join(dir, "trench.db")
	replicatedDatabase(t, path, "file://"+replicaDir, 2)
	err, early := serveFor([]string{"--addr", "127.0.0.1:0", "--db", path, "--replicate", "file://" + replicaDir}, 2*time.Second, func() {
		// The replica's directory becomes a file: nothing reaches it.
		if err := os.Rename(replicaDir, replicaDir+".moved"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(replicaDir, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		other, err := db.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		addAccounts(t, other, "late", 3)
		other.Close()
		time.Sleep(time.Second)
	})
	if early {
		t.Fatalf("serve stopped by itself: %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "not sent to the replica") {
		t.Fatalf("stop with a broken replica: %v; want an error saying how many transactions were not sent", err)
	}
}

// A point-in-time restore says the moment it restored, and a time before
// the replica's first state is refused in words.
func TestRestoreSaysWhichMoment(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	replica := "file://" + filepath.Join(dir, "replica")
	before := time.Now().Add(-time.Hour)
	replicatedDatabase(t, filepath.Join(dir, "trench.db"), replica, 2)
	time.Sleep(1100 * time.Millisecond)
	asked := time.Now().Add(time.Second).Truncate(time.Second)
	var out bytes.Buffer
	if err := restoreCommand(ctx, &out, []string{"--from", replica, "--timestamp", asked.UTC().Format(time.RFC3339), filepath.Join(dir, "then.db")}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "state at "+asked.UTC().Format(time.RFC3339)) || !strings.Contains(out.String(), "at or before "+asked.UTC().Format(time.RFC3339)) {
		t.Fatalf("restore to %s said %q; want the moment restored, earlier than the one asked for", asked, out.String())
	}
	out.Reset()
	err := restoreCommand(ctx, &out, []string{"--from", replica, "--timestamp", before.UTC().Format(time.RFC3339), filepath.Join(dir, "before.db")})
	if err == nil || !strings.Contains(err.Error(), "earliest state is from") {
		t.Fatalf("restore to before the first state: %v, %q; want it said in words", err, out.String())
	}
}
