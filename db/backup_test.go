package db_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	_ "github.com/trench-games/trench/rules/trench"
	_ "github.com/trench-games/trench/rules/trenches"
)

// backupGame creates a challenge from a to b and has b accept it.
func backupGame(t testing.TB, store *db.DB, a, b db.User, game, variant string) int64 {
	t.Helper()
	id, err := startBackupGame(store, a, b, game, variant)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func startBackupGame(store *db.DB, a, b db.User, game, variant string) (int64, error) {
	ctx := context.Background()
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: a.ID, Opponent: b.Name, Game: game, Variant: variant,
		Color: "0", DaysPerMove: 3}, time.Now())
	if err != nil {
		return 0, err
	}
	return store.AcceptChallenge(ctx, c.ID, b.ID, 1, time.Now())
}

// randomMove plays one random legal move in game id; it reports false
// once the game is over.
func randomMove(store *db.DB, id int64, rng *rand.Rand) (bool, error) {
	ctx := context.Background()
	g, err := store.Game(ctx, id)
	if err != nil || g.Finished() {
		return false, err
	}
	st, err := g.Decode()
	if err != nil {
		return false, err
	}
	legal := st.Legal(st.ToMove())
	if len(legal) == 0 {
		return false, nil
	}
	_, err = store.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply,
		Move: legal[rng.IntN(len(legal))]}, time.Now())
	return err == nil, err
}

func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := db.Open(ctx, filepath.Join(dir, "live.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var us []db.User
	for _, n := range []string{"ann", "bob", "cid", "dee"} {
		u, err := store.CreateUser(ctx, n, "hash", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		us = append(us, u)
	}
	kinds := [][2]string{{"trench", "single"}, {"trenches", "standard"}}
	games := []int64{backupGame(t, store, us[0], us[1], kinds[0][0], kinds[0][1]),
		backupGame(t, store, us[2], us[3], kinds[1][0], kinds[1][1])}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		for _, id := range games {
			if _, err := randomMove(store, id, rng); err != nil {
				t.Fatal(err)
			}
		}
	}

	// A writer keeps playing (and starting new games) during the backups.
	var moves atomic.Int64
	var failed atomic.Bool
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var werr error // read after wg.Wait
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(3, 4))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			k := i % len(games)
			ok, err := randomMove(store, games[k], rng)
			if !ok && err == nil {
				games[k], err = startBackupGame(store, us[2*k], us[2*k+1], kinds[k][0], kinds[k][1])
			}
			if err != nil {
				werr = err
				failed.Store(true)
				return
			}
			if ok {
				moves.Add(1)
			}
		}
	}()
	var copies []string
	for i := range 5 {
		// Let the writer get some moves in before each backup.
		for n := moves.Load(); moves.Load() < n+10 && !failed.Load(); {
			time.Sleep(time.Millisecond)
		}
		dest := filepath.Join(dir, "copy"+string(rune('a'+i))+".db")
		if err := store.Backup(ctx, dest); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, dest)
	}
	before := moves.Load()
	for moves.Load() < before+10 && !failed.Load() {
		time.Sleep(time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if werr != nil {
		t.Fatalf("writer: %v", werr)
	}

	prev := 0
	for _, c := range copies {
		checked, err := db.VerifyFile(ctx, c)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if checked.Games < 2 || checked.Moves < 40 {
			t.Fatalf("%s: %d games, %d moves, want at least 2 and 40", c, checked.Games, checked.Moves)
		}
		if checked.Moves <= prev {
			t.Fatalf("%s holds %d moves, the backup before it %d: the writer was not writing in between", c, checked.Moves, prev)
		}
		prev = checked.Moves
		// The copy opens as a database of its own and passes the same checks.
		cp, err := db.Open(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if err := cp.IntegrityCheck(ctx); err != nil {
			t.Fatal(err)
		}
		again, err := cp.Verify(ctx)
		if err != nil || again != checked {
			t.Fatalf("%s opened: %+v %v, want %+v", c, again, err, checked)
		}
		if _, err := cp.UserByName(ctx, "dee"); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		cp.Close()
	}
	live, err := store.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if live.Moves <= prev {
		t.Fatalf("the live database holds %d moves, the last backup %d", live.Moves, prev)
	}
}

func TestBackupRefusesExistingFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := db.Open(ctx, filepath.Join(dir, "live.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	dest := filepath.Join(dir, "taken.db")
	if err := os.WriteFile(dest, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := store.Backup(ctx, dest); err == nil {
		t.Fatal("a backup over an existing file succeeded")
	}
	if b, _ := os.ReadFile(dest); string(b) != "keep me" {
		t.Fatalf("the existing file was changed: %q", b)
	}
	if err := store.Backup(ctx, filepath.Join(dir, "missing", "x.db")); err == nil {
		t.Fatal("a backup into a missing directory succeeded")
	}
}

func TestVerifyFindsATamperedGame(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := db.Open(ctx, filepath.Join(dir, "live.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	a, _ := store.CreateUser(ctx, "ann", "hash", time.Now())
	b, _ := store.CreateUser(ctx, "bob", "hash", time.Now())
	id := backupGame(t, store, a, b, "trench", "single")
	rng := rand.New(rand.NewPCG(5, 6))
	for range 6 {
		if _, err := randomMove(store, id, rng); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := store.Verify(ctx); err != nil || c.Games != 1 || c.Moves != 6 {
		t.Fatalf("verify: %+v %v, want 1 game and 6 moves", c, err)
	}
	// A stored position that is not the replay of the moves is found.
	g, err := store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.BenchCommit(ctx, id, g.Ply, g.ToMove, g.StartState, "d4-d5", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Verify(ctx); err == nil {
		t.Fatal("verify passed a game whose position is not the replay of its moves")
	}
}

// The database, its -wal and -shm files and a backup can be read by their
// owner only, whatever the umask.
func TestFilesArePrivate(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.CreateUser(ctx, "alice", "hash", time.Now()); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "copy.db")
	if err := store.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + "-wal", path + "-shm", dest} {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", filepath.Base(f), info.Mode().Perm())
		}
	}
}
