package db_test

import (
	"context"
	"encoding/pem"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/trench-games/trench/db"
)

// openReplicated opens path streaming to replica, restoring it first when
// the file is missing.
func openReplicated(t *testing.T, path, replica string) *db.DB {
	t.Helper()
	store, err := db.OpenWith(context.Background(), path, db.Options{Replica: replica, RestoreIfMissing: true,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return store
}

// playSome plays n random moves in game id and returns the game's ply.
func playSome(t *testing.T, store *db.DB, id int64, n int, rng *rand.Rand) int {
	t.Helper()
	for range n {
		if ok, err := randomMove(store, id, rng); err != nil {
			t.Fatal(err)
		} else if !ok {
			break
		}
	}
	g, err := store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g.Ply
}

func removeDatabase(t *testing.T, path string) {
	t.Helper()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
}

func TestReplicaRestoresADeletedDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, replica := filepath.Join(dir, "trench.db"), "file://"+filepath.Join(dir, "replica")
	store := openReplicated(t, path, replica)
	u := users(t, store, "ann", "bob")
	id := backupGame(t, store, u[0], u[1], "trench", "single")
	ply := playSome(t, store, id, 40, rand.New(rand.NewPCG(1, 2)))
	// Within about a second of the commit the replica has every move.
	deadline := time.Now().Add(5 * time.Second)
	for {
		st, err := store.Replication(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !st.On || st.URL != replica {
			t.Fatalf("status %+v", st)
		}
		if st.Behind == 0 && !st.LastSync.IsZero() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica is still %d transactions behind after 5 s", st.Behind)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	removeDatabase(t, path)

	store = openReplicated(t, path, replica)
	defer store.Close()
	g, err := store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Ply != ply {
		t.Fatalf("restored game at ply %d, want %d", g.Ply, ply)
	}
	assertReplay(t, store, id)
	// And it goes on replicating from there.
	ply = playSome(t, store, id, 5, rand.New(rand.NewPCG(3, 4)))
	if err := store.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, "copy.db")
	checked, err := db.Restore(ctx, replica, copyPath, time.Time{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if checked.Games != 1 || checked.Moves != ply {
		t.Fatalf("restored copy checked %+v, want 1 game with %d moves", checked, ply)
	}
	if fi, err := os.Stat(copyPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("restored file mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
}

func TestRestoreToATimestamp(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, replica := filepath.Join(dir, "trench.db"), "file://"+filepath.Join(dir, "replica")
	store := openReplicated(t, path, replica)
	defer store.Close()
	u := users(t, store, "ann", "bob")
	id := backupGame(t, store, u[0], u[1], "trench", "single")
	rng := rand.New(rand.NewPCG(5, 6))
	early := playSome(t, store, id, 10, rng)
	if err := store.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	at := time.Now()
	time.Sleep(50 * time.Millisecond)
	late := playSome(t, store, id, 10, rng)
	if err := store.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	if late <= early {
		t.Fatalf("no moves after the timestamp (%d, %d)", early, late)
	}
	checked, err := db.Restore(ctx, replica, filepath.Join(dir, "then.db"), at, true)
	if err != nil {
		t.Fatal(err)
	}
	if checked.Moves != early {
		t.Fatalf("restored to the timestamp: %d moves, want %d (the latest has %d)", checked.Moves, early, late)
	}
	checked, err = db.Restore(ctx, replica, filepath.Join(dir, "now.db"), time.Time{}, true)
	if err != nil || checked.Moves != late {
		t.Fatalf("restored latest: %+v, %v; want %d moves", checked, err, late)
	}
	if _, err := db.Restore(ctx, replica, filepath.Join(dir, "now.db"), time.Time{}, true); err == nil {
		t.Fatal("restore overwrote an existing file")
	}
}

func TestReplicaErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := db.OpenWith(ctx, filepath.Join(dir, "a.db"), db.Options{Replica: "ftp://example.org/x"}); err == nil {
		t.Fatal("an ftp replica was accepted")
	}
	_, err := db.Restore(ctx, "file://"+filepath.Join(dir, "empty"), filepath.Join(dir, "b.db"), time.Time{}, true)
	if !errors.Is(err, db.ErrNoReplica) {
		t.Fatalf("restore from an empty replica: %v, want ErrNoReplica", err)
	}
	// With an empty replica a missing database starts new.
	store := openReplicated(t, filepath.Join(dir, "c.db"), "file://"+filepath.Join(dir, "empty"))
	store.Close()
	// Without a replica there is no status to report.
	plain, _ := open(t)
	if st, err := plain.Replication(ctx); err != nil || st.On {
		t.Fatalf("status without a replica: %+v, %v", st, err)
	}
}

// An S3-compatible server on loopback (gofakes3, in memory) stands in for
// S3: the same restore story holds.
func TestS3Replica(t *testing.T) {
	ctx := context.Background()
	backend := s3mem.New()
	faker := gofakes3.New(backend)
	if err := backend.CreateBucket("trench"); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: faker.Server()}
	go srv.Serve(ln)
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	// Plain HTTP on loopback: no CA bundle (see TestS3ReplicaWithAPrivateCA).
	t.Setenv("AWS_CA_BUNDLE", "")
	replica := "s3://trench/games?endpoint=http://" + ln.Addr().String() + "&region=us-east-1&forcePathStyle=true"

	dir := t.TempDir()
	path := filepath.Join(dir, "trench.db")
	store := openReplicated(t, path, replica)
	u := users(t, store, "ann", "bob")
	id := backupGame(t, store, u[0], u[1], "trenches", "standard")
	ply := playSome(t, store, id, 20, rand.New(rand.NewPCG(7, 8)))
	if err := store.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	removeDatabase(t, path)
	store = openReplicated(t, path, replica)
	defer store.Close()
	if g, err := store.Game(ctx, id); err != nil || g.Ply != ply {
		t.Fatalf("restored from S3: ply %d (%v), want %d", g.Ply, err, ply)
	}
}

// waitReplica waits until the replica has every transaction.
func waitReplica(t *testing.T, store *db.DB) {
	t.Helper()
	if err := store.SyncReplica(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A database with fewer transactions than its replica (here a new, empty
// one) does not replace the replica's copy: the start is refused, the
// replica keeps its games, a restored copy replicates again, and only
// ReplicaOverwrite starts the replica anew.
func TestEmptyDatabaseDoesNotOverwriteItsReplica(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, replica := filepath.Join(dir, "trench.db"), "file://"+filepath.Join(dir, "replica")
	store := openReplicated(t, path, replica)
	u := users(t, store, "ann", "bob")
	id := backupGame(t, store, u[0], u[1], "trench", "single")
	ply := playSome(t, store, id, 20, rand.New(rand.NewPCG(9, 10)))
	waitReplica(t, store)
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	// The server restarts on its own database: no refusal.
	store = openReplicated(t, path, replica)
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	// A new machine: served once without a replica, then with it.
	fresh := filepath.Join(dir, "new", "trench.db")
	os.MkdirAll(filepath.Dir(fresh), 0o700)
	plain, err := db.Open(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	plain.Close()
	local, remote, err := db.ReplicaPosition(ctx, fresh, replica)
	if err != nil || local != 0 || remote == 0 {
		t.Fatalf("positions of the new database: %d, %d, %v; want 0 and more", local, remote, err)
	}
	_, err = db.OpenWith(ctx, fresh, db.Options{Replica: replica, RestoreIfMissing: true, Logger: slog.New(slog.DiscardHandler)})
	var behind *db.BehindReplicaError
	if !errors.As(err, &behind) || behind.Local != 0 || behind.Remote != remote || behind.DB != fresh {
		t.Fatalf("opening an empty database with a full replica: %v, want a BehindReplicaError", err)
	}
	time.Sleep(1500 * time.Millisecond) // what a started replication would have sent meanwhile
	restored, err := db.Restore(ctx, replica, filepath.Join(dir, "check.db"), time.Time{}, true)
	if err != nil || restored.Games != 1 || restored.Moves != ply {
		t.Fatalf("the replica after the refusal: %+v, %v; want 1 game of %d moves", restored, err, ply)
	}

	// A copy restored with trench restore replicates to the same replica.
	copyPath := filepath.Join(dir, "copy", "trench.db")
	if _, err := db.Restore(ctx, replica, copyPath, time.Time{}, true); err != nil {
		t.Fatal(err)
	}
	store = openReplicated(t, copyPath, replica)
	more := playSome(t, store, id, 3, rand.New(rand.NewPCG(11, 12)))
	waitReplica(t, store)
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	if r, err := db.Restore(ctx, replica, filepath.Join(dir, "check2.db"), time.Time{}, true); err != nil || r.Moves != more {
		t.Fatalf("after replicating the restored copy: %+v, %v; want %d moves", r, err, more)
	}

	// Overwriting is a choice.
	store, err = db.OpenWith(ctx, fresh, db.Options{Replica: replica, ReplicaOverwrite: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("--replica-overwrite: %v", err)
	}
	waitReplica(t, store)
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	if r, err := db.Restore(ctx, replica, filepath.Join(dir, "check3.db"), time.Time{}, true); err != nil || r.Games != 0 {
		t.Fatalf("after overwriting: %+v, %v; want the new, empty database", r, err)
	}
}

// breakReplica puts a file where the file replica's directory was, so
// that no change reaches it any more.
func breakReplica(t *testing.T, dir string) {
	t.Helper()
	if err := os.Rename(dir, dir+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// When the replica takes nothing, the status says how many transactions
// it lacks and since when (without waiting on it), and closing says how
// many were not sent.
func TestBrokenReplicaLagAndClose(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, replicaDir := filepath.Join(dir, "trench.db"), filepath.Join(dir, "replica")
	store := openReplicated(t, path, "file://"+replicaDir)
	u := users(t, store, "ann", "bob")
	id := backupGame(t, store, u[0], u[1], "trench", "single")
	playSome(t, store, id, 5, rand.New(rand.NewPCG(13, 14)))
	waitReplica(t, store)
	breakReplica(t, replicaDir)
	broke := time.Now()
	playSome(t, store, id, 5, rand.New(rand.NewPCG(15, 16)))
	time.Sleep(2 * time.Second)
	st, err := store.Replication(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Behind == 0 || st.Lag < time.Second || st.Lag > time.Since(broke) {
		t.Fatalf("status of a broken replica: %+v; want transactions behind, lagging between 1 s and %s", st, time.Since(broke))
	}
	start := time.Now()
	for range 20 {
		if _, err := store.Replication(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Fatalf("20 status reads took %s", d)
	}
	err = store.Close()
	if err == nil || !strings.Contains(err.Error(), " not sent to the replica") {
		t.Fatalf("closing with a broken replica: %v, want how many transactions were not sent", err)
	}
	t.Log(err)
}

// An S3-compatible server whose certificate a private CA signed (here
// httptest's own) is trusted through AWS_CA_BUNDLE: replication and
// restore work over HTTPS.
func TestS3ReplicaWithAPrivateCA(t *testing.T) {
	ctx := context.Background()
	backend := s3mem.New()
	if err := backend.CreateBucket("trench"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(gofakes3.New(backend).Server())
	defer srv.Close()
	dir := t.TempDir()
	bundle := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(bundle, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	replica := "s3://trench/games?endpoint=" + srv.URL + "&region=us-east-1&forcePathStyle=true"

	// Without the bundle the server's certificate is not trusted.
	t.Setenv("AWS_CA_BUNDLE", "")
	if _, err := db.OpenWith(ctx, filepath.Join(dir, "x.db"), db.Options{Replica: replica, Logger: slog.New(slog.DiscardHandler)}); err == nil {
		t.Fatal("an S3 server with an unknown CA was trusted")
	}
	t.Setenv("AWS_CA_BUNDLE", bundle)
	path := filepath.Join(dir, "trench.db")
	store := openReplicated(t, path, replica)
	u := users(t, store, "ann", "bob")
	id := backupGame(t, store, u[0], u[1], "trench", "single")
	ply := playSome(t, store, id, 10, rand.New(rand.NewPCG(17, 18)))
	waitReplica(t, store)
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := db.Restore(ctx, replica, filepath.Join(dir, "copy.db"), time.Time{}, true)
	if err != nil || r.Moves != ply {
		t.Fatalf("restore over HTTPS with a private CA: %+v, %v; want %d moves", r, err, ply)
	}
	if os.Getenv("AWS_CA_BUNDLE") != bundle {
		t.Fatal("AWS_CA_BUNDLE was not given back")
	}
}
