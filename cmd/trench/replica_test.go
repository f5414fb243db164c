package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/trench-games/trench/cmd/trench/internal/bench"
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
	if !strings.Contains(out.String(), "quick check ok") {
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

// failingS3 is an S3-compatible server in memory (gofakes3) that answers
// 503 to everything once failing is set.
func failingS3(t *testing.T) (endpoint string, failing *atomic.Bool) {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("trench"); err != nil {
		t.Fatal(err)
	}
	faker := gofakes3.New(backend).Server()
	failing = &atomic.Bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			http.Error(w, "SlowDown", http.StatusServiceUnavailable)
			return
		}
		faker.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	t.Setenv("AWS_CA_BUNDLE", "")
	return srv.URL, failing
}

// replicaLagForTest is how long the replica fails before the checks: past
// what doctor accepts.
const replicaLagForTest = 17 * time.Second

// With a replica that takes nothing (a file replica whose directory is
// gone, an S3 answering 503), /metrics answers at once, counts the
// transactions the replica lacks and ages the oldest of them; Litestream's
// own metrics carry Prometheus names and no path.
func TestReplicationMetricsWhenTheReplicaFails(t *testing.T) {
	for _, kind := range []string{"file", "s3"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			path := filepath.Join(dir, "trench.db")
			replicaDir := filepath.Join(dir, "replica")
			replica := "file://" + replicaDir
			var failing *atomic.Bool
			if kind == "s3" {
				var endpoint string
				endpoint, failing = failingS3(t)
				replica = "s3://trench/games?endpoint=" + endpoint + "&region=us-east-1&forcePathStyle=true"
			}
			replicatedDatabase(t, path, replica, 2)
			port, err := bench.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			metricsURL := fmt.Sprintf("http://127.0.0.1:%d/metrics", port)
			hc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil}}
			args := []string{"--addr", "127.0.0.1:0", "--db", path, "--replicate", replica, "--metrics-addr", fmt.Sprintf("127.0.0.1:%d", port)}
			err, _ = serveFor(args, 2*time.Second, func() {
				if m := scrape(t, hc, metricsURL); sum(m, "trench_replication_behind_transactions", nil) != 0 {
					t.Errorf("behind before the replica broke: %v", sum(m, "trench_replication_behind_transactions", nil))
				}
				if kind == "s3" {
					failing.Store(true)
				} else {
					os.Rename(replicaDir, replicaDir+".moved")
					os.WriteFile(replicaDir, nil, 0o600)
				}
				broke := time.Now()
				other, err := db.Open(ctx, path)
				if err != nil {
					t.Fatal(err)
				}
				addAccounts(t, other, "late", 3)
				other.Close()
				time.Sleep(replicaLagForTest)
				start := time.Now()
				m := scrape(t, hc, metricsURL)
				if d := time.Since(start); d > 500*time.Millisecond {
					t.Errorf("a scrape took %s with the replica failing", d)
				}
				behind, lag := sum(m, "trench_replication_behind_transactions", nil), sum(m, "trench_replication_lag_seconds", nil)
				if behind < 1 || lag < replicaLagForTest.Seconds()-1 || lag > time.Since(broke).Seconds() {
					t.Errorf("replica failing for %s: behind %v, lag %v s; want transactions behind and their age", time.Since(broke).Round(time.Second), behind, lag)
				}
				// Doctor asks the running server rather than the files' times.
				var out bytes.Buffer
				if err := doctorCommand(ctx, &out, args); err == nil || !strings.Contains(out.String(), "lacks") {
					t.Errorf("doctor with the replica failing for %s: %v\n%s", time.Since(broke).Round(time.Second), err, out.String())
				}
				if _, ok := m["trench_litestream_syncs_total"]; !ok {
					t.Error("no trench_litestream_syncs_total")
				}
				for name, f := range m {
					if strings.HasPrefix(name, "litestream_") {
						t.Errorf("Litestream's own name %s on /metrics", name)
					}
					for _, x := range f.GetMetric() {
						for _, l := range x.GetLabel() {
							if strings.Contains(l.GetValue(), dir) {
								t.Errorf("%s has a path as its label %s", name, l.GetName())
							}
						}
					}
				}
			})
			if err == nil || !strings.Contains(err.Error(), "not sent to the replica") {
				t.Errorf("stop with the replica failing: %v; want how many transactions were not sent", err)
			}
		})
	}
}
