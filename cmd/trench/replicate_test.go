package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReplicationEndToEnd plays moves on the built server with a file
// replica, stops it (cleanly, then with SIGKILL), deletes the database,
// starts it again with --replicate, and finds every acknowledged move;
// `trench restore` gives the same copy. Skipped with -short.
func TestReplicationEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a server: not with -short")
	}
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "trench")
	if err := buildBinary(ctx, bin); err != nil {
		t.Fatal(err)
	}
	path, logPath := filepath.Join(dir, "trench.db"), filepath.Join(dir, "server.log")
	replica := "file://" + filepath.Join(dir, "replica")
	srv, err := startServerProcess(ctx, bin, path, logPath, "--replicate", replica)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.kill() }()
	acks := &ackLog{moves: map[int64]map[int]string{}}
	ld, err := newLoad(ctx, loadConfig{BaseURL: srv.URL, Users: 8, Games: 4, Clients: 4, Game: "mix", Prefix: "r" + randomTag(), OnAck: acks.add})
	if err != nil {
		t.Fatal(err)
	}
	deleteDB := func() {
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
	}
	var out bytes.Buffer
	for _, stop := range []string{"SIGTERM", "SIGKILL"} {
		st := ld.run(ctx, runLimits{perGame: 6})
		if st.Errors > 0 || st.Moves == 0 {
			t.Fatalf("%s round: %d moves, %d errors: %v", stop, st.Moves, st.Errors, st.ErrorSamples)
		}
		if stop == "SIGTERM" {
			// A clean stop sends the rest before it exits.
			if err := srv.stop(); err != nil {
				t.Fatal(err)
			}
		} else {
			// The replica trails the commits by about a second: what was
			// acknowledged that long before the kill is safe.
			time.Sleep(2 * time.Second)
			srv.kill()
		}
		deleteDB()
		if srv, err = startServerProcess(ctx, bin, path, logPath, "--replicate", replica); err != nil {
			t.Fatalf("start after %s and deleting the database: %v", stop, err)
		}
		ld.SetBase(srv.URL)
		if err := checkDatabase(ctx, &out, path, acks, "after "+stop); err != nil {
			t.Fatalf("after %s and deleting the database: %v\n%s", stop, err, tail(logPath))
		}
		if err := ld.Resync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	t.Log("\n" + out.String())
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	var restored bytes.Buffer
	dest := filepath.Join(dir, "restored.db")
	if err := restoreCommand(ctx, &restored, []string{"--from", replica, dest}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(restored.String(), "integrity ok") {
		t.Fatalf("restore said %q", restored.String())
	}
	if err := checkDatabase(ctx, &out, dest, acks, "restored copy"); err != nil {
		t.Fatal(err)
	}
	if err := restoreCommand(ctx, &restored, []string{"--from", replica, "--timestamp", "yesterday", filepath.Join(dir, "x.db")}); err == nil {
		t.Fatal("a timestamp that is not RFC 3339 was accepted")
	}
}
