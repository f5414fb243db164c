package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/cmd/trench/internal/bench"
	"github.com/trench-games/trench/cmd/trench/internal/crashtest"
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
	if err := bench.BuildBinary(ctx, bin); err != nil {
		t.Fatal(err)
	}
	path, logPath := filepath.Join(dir, "trench.db"), filepath.Join(dir, "server.log")
	replica := "file://" + filepath.Join(dir, "replica")
	srv, err := bench.StartServerProcess(ctx, bin, path, logPath, "--replicate", replica)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Kill() }()
	acks := crashtest.NewAckLog()
	ld, err := bench.NewLoad(ctx, bench.LoadConfig{BaseURL: srv.URL, Users: 8, Games: 4, Clients: 4, Game: "mix", Prefix: "r" + bench.RandomTag(), OnAck: acks.Add})
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
		st := ld.Run(ctx, bench.RunLimits{PerGame: 6})
		if st.Errors > 0 || st.Moves == 0 {
			t.Fatalf("%s round: %d moves, %d errors: %v", stop, st.Moves, st.Errors, st.ErrorSamples)
		}
		if stop == "SIGTERM" {
			// A clean stop sends the rest before it exits.
			if err := srv.Stop(); err != nil {
				t.Fatal(err)
			}
		} else {
			// The replica trails the commits by about a second: what was
			// acknowledged that long before the kill is safe.
			time.Sleep(2 * time.Second)
			srv.Kill()
		}
		deleteDB()
		if srv, err = bench.StartServerProcess(ctx, bin, path, logPath, "--replicate", replica); err != nil {
			t.Fatalf("start after %s and deleting the database: %v", stop, err)
		}
		ld.SetBase(srv.URL)
		if err := crashtest.CheckDatabase(ctx, &out, path, acks, "after "+stop); err != nil {
			t.Fatalf("after %s and deleting the database: %v\n%s", stop, err, bench.Tail(logPath))
		}
		if err := ld.Resync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	t.Log("\n" + out.String())
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	var restored bytes.Buffer
	dest := filepath.Join(dir, "restored.db")
	if err := restoreCommand(ctx, &restored, []string{"--from", replica, dest}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(restored.String(), "quick check ok") {
		t.Fatalf("restore said %q", restored.String())
	}
	if err := crashtest.CheckDatabase(ctx, &out, dest, acks, "restored copy"); err != nil {
		t.Fatal(err)
	}
	if err := restoreCommand(ctx, &restored, []string{"--from", replica, "--timestamp", "yesterday", filepath.Join(dir, "x.db")}); err == nil {
		t.Fatal("a timestamp that is not RFC 3339 was accepted")
	}
}
