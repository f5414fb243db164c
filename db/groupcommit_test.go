package db_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// TestMovesSentTogetherLandOnce: moves sent at the same moment in many
// games (they share one commit) each land exactly once; the same move
// sent twice, and a move against a stale ply, are refused and change
// nothing, without costing the others theirs; and what the server then
// shows of every game is what a server started afresh on the file reads.
func TestMovesSentTogetherLandOnce(t *testing.T) {
	ctx := context.Background()
	store, path := open(t)
	const games = 6
	var gs []db.Game
	for i := range games {
		u := users(t, store, "white"+string(rune('a'+i)), "black"+string(rune('a'+i)))
		gs = append(gs, startMatch(t, store, u[0], u[1], "trenches", "standard", i%2 == 0))
	}
	var commits atomic.Int64
	store.ObserveCommits(func(time.Duration) { commits.Add(1) })

	type result struct {
		game db.Game
		err  error
	}
	results := make([][]result, games)
	release := db.HoldWriteTurn(store)
	var wg sync.WaitGroup
	sent := 0
	for i, g := range gs {
		st, err := g.Decode()
		if err != nil {
			t.Fatal(err)
		}
		move := st.Legal(g.ToMove)[0]
		if _, err := store.Moves(ctx, g.ID); err != nil { // remembered before the move
			t.Fatal(err)
		}
		plays := []db.Play{{GameID: g.ID, UserID: playerOf(g, g.ToMove), Ply: g.Ply, Move: move}}
		switch i % 3 {
		case 1: // a double submit
			plays = append(plays, plays[0])
		case 2: // a page left open on an older position
			plays = append(plays, db.Play{GameID: g.ID, UserID: playerOf(g, g.ToMove), Ply: g.Ply + 5, Move: move})
		}
		results[i] = make([]result, len(plays))
		for j, p := range plays {
			wg.Add(1)
			sent++
			go func() {
				defer wg.Done()
				g, err := store.PlayMove(ctx, p, t0)
				results[i][j] = result{g, err}
			}()
			for db.WaitingWrites(store) < sent { // each waits behind the one before
				time.Sleep(time.Millisecond)
			}
		}
	}
	release()
	wg.Wait()
	if n := commits.Load(); n >= int64(games) {
		t.Errorf("%d moves sent together took %d commits, want them to share", games, n)
	}
	for i, g := range gs {
		landed := 0
		for j, r := range results[i] {
			switch {
			case r.err == nil:
				landed++
				if r.game.Ply != g.Ply+1 {
					t.Errorf("game %d: the answer to the move shows ply %d, want %d", i, r.game.Ply, g.Ply+1)
				}
			case db.KindOf(r.err) != db.KindConflict:
				t.Errorf("game %d, send %d: %v, want a conflict", i, j, r.err)
			}
		}
		if landed != 1 {
			t.Errorf("game %d: %d of its sends landed, want exactly 1", i, landed)
		}
	}
	fresh, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	for i, g := range gs {
		got, shown := gameAndMoves(t, store, g.ID)
		want, ms := gameAndMoves(t, fresh, g.ID)
		if got.Ply != g.Ply+1 || want.Ply != g.Ply+1 || got.State != want.State {
			t.Errorf("game %d: shown at ply %d, stored at ply %d (want %d), same state %v", i, got.Ply, want.Ply, g.Ply+1, got.State == want.State)
		}
		if len(ms) != g.Ply+1 || len(shown) != len(ms) || (len(ms) > 0 && shown[len(shown)-1].Move != ms[len(ms)-1].Move) {
			t.Errorf("game %d: %d moves stored and %d shown, want %d, the same", i, len(ms), len(shown), g.Ply+1)
		}
	}
}

// BenchmarkConcurrentMoves plays moves in 64 games at once, each game by
// its own goroutine (as 64 players would), and reports the commits per
// move: moves waiting together share a commit.
func BenchmarkConcurrentMoves(b *testing.B) {
	ctx := context.Background()
	path := b.TempDir() + "/bench.db"
	store, err := db.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	const games = 64
	gs := make([]db.Game, games)
	for i := range gs {
		var us []db.User
		for _, n := range []string{"w", "b"} {
			u, err := store.CreateUser(ctx, fmt.Sprintf("%s%d", n, i), "hash", t0)
			if err != nil {
				b.Fatal(err)
			}
			us = append(us, u)
		}
		c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: us[0].ID, Opponent: us[1].Name, Game: "trenches", Variant: "standard",
			Color: "0", DaysPerMove: 3}, t0)
		if err != nil {
			b.Fatal(err)
		}
		id, err := store.AcceptChallenge(ctx, c.ID, us[1].ID, 7, t0)
		if err != nil {
			b.Fatal(err)
		}
		if gs[i], err = store.Game(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
	var commits atomic.Int64
	store.ObserveCommits(func(time.Duration) { commits.Add(1) })
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for i := range gs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := gs[i]
			for next.Add(1) <= int64(b.N) {
				st, err := g.Decode()
				if err != nil {
					b.Error(err)
					return
				}
				legal := st.Legal(g.ToMove)
				if len(legal) == 0 || g.Finished() {
					return // this game is over: the others play on
				}
				if g, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: legal[0]}, t0); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(commits.Load())/float64(b.N), "commits/move")
}

// TestMoveBehindManyIsAnswered: a move that arrives behind more changes
// than one commit carries is answered once those before it are.
func TestMoveBehindManyIsAnswered(t *testing.T) {
	ctx := context.Background()
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	g := startMatch(t, store, u[0], u[1], "trench", "single", false)
	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	release := db.HoldWriteTurn(store)
	db.QueueNoOps(store, 200)
	done := make(chan error, 1)
	go func() {
		_, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: playerOf(g, g.ToMove), Ply: g.Ply, Move: st.Legal(g.ToMove)[0]}, t0)
		done <- err
	}()
	for db.WaitingWrites(store) < 201 {
		time.Sleep(time.Millisecond)
	}
	release()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a move behind 200 waiting changes was never answered")
	}
	if g, err := store.Game(ctx, g.ID); err != nil || g.Ply != 1 {
		t.Fatalf("after the move the game is at ply %d (%v), want 1", g.Ply, err)
	}
}
