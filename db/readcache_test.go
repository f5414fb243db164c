package db_test

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// TestRememberedPageReadsFollowEveryCommit: the reads behind the archive,
// a profile and a dashboard, asked twice, are answered the second time
// from memory, and a move, a resignation and another process's rename
// show at once (the other process's within a second).
func TestRememberedPageReadsFollowEveryCommit(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	g, ann, bob := newGame(t, store, "trench", "single")
	type seen struct {
		archive  db.ArchivePage
		active   []db.Game
		finished []db.Game
		records  []db.Record
	}
	look := func() seen {
		t.Helper()
		var s seen
		var err error
		if s.archive, err = store.Archive(ctx, db.ArchiveFilter{}); err != nil {
			t.Fatal(err)
		}
		if s.active, err = store.ActiveGames(ctx, ann.ID); err != nil {
			t.Fatal(err)
		}
		if s.finished, err = store.FinishedGames(ctx, ann.ID, 10); err != nil {
			t.Fatal(err)
		}
		if s.records, err = store.PlayerRecords(ctx, ann.ID); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := look()
	if s.archive.Total != 0 || len(s.active) != 1 || s.active[0].Ply != 0 || len(s.finished) != 0 || len(s.records) != 0 {
		t.Fatalf("a new game: archive %d, active %d, finished %d, records %v", s.archive.Total, len(s.active), len(s.finished), s.records)
	}
	hits, _ := store.ReadCacheStats()
	s = look()
	if h, _ := store.ReadCacheStats(); h != hits+4 {
		t.Errorf("the same four reads again, nothing committed: %d answered from memory, want 4", h-hits)
	}
	// The games in progress are shared: see
	// TestSharedGamesInProgressTakeAppendsApart.

	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	if g, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: playerOf(g, g.ToMove), Ply: 0, Move: st.Legal(g.ToMove)[0]}, t0); err != nil {
		t.Fatal(err)
	}
	hits, _ = store.ReadCacheStats()
	if s = look(); len(s.active) != 1 || s.active[0].Ply != 1 {
		t.Fatalf("after a move, the games in progress show ply %d, want 1", s.active[0].Ply)
	}
	// A move in a game in progress leaves the archive, the finished
	// games and the records remembered.
	if h, _ := store.ReadCacheStats(); h != hits+3 {
		t.Errorf("after a move: %d of the settled reads answered from memory, want 3", h-hits)
	}
	if st, err = g.Decode(); err != nil {
		t.Fatal(err)
	}
	if g, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: playerOf(g, g.ToMove), Ply: 1, Move: st.Legal(g.ToMove)[0]}, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Resign(ctx, g.ID, ann.ID, 2, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	s = look()
	if s.archive.Total != 1 || len(s.archive.Rows) != 1 || len(s.active) != 0 || len(s.finished) != 1 ||
		len(s.records) != 1 || s.records[0].Losses != 1 {
		t.Fatalf("after a resignation: archive %d, active %d, finished %d, records %+v", s.archive.Total, len(s.active), len(s.finished), s.records)
	}

	// Another process renames bob: the archive names him anew within
	// a second.
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.ExecContext(ctx, `UPDATE users SET name = 'robert' WHERE id = ?`, bob.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		p, err := store.Archive(ctx, db.ArchiveFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Rows[0].Game.Side[1].Name == "robert" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("2 s after another process renamed bob, the archive still says %q", p.Rows[0].Game.Side[1].Name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRememberedReadRunsOnceForReadersAtOnce: readers that ask for the
// same read while it runs wait for it and get its answer, each its own
// copy; when it fails for its own reader (whose client went), the others
// read for themselves; a commit between two reads makes the second read
// again.
func TestRememberedReadRunsOnceForReadersAtOnce(t *testing.T) {
	store, _ := open(t)
	var runs atomic.Int32
	release := make(chan struct{})
	read := func(ctx context.Context) ([]int, error) {
		runs.Add(1)
		select {
		case <-release:
			return []int{1, 2, 3}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	var wg sync.WaitGroup
	got := make([][]int, 8)
	errs := make([]error, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = db.Remember(context.Background(), store, "k", read)
		}()
	}
	for runs.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Errorf("8 readers at once ran the read %d times, want 1", n)
	}
	for i := range got {
		if errs[i] != nil || len(got[i]) != 3 {
			t.Fatalf("reader %d: %v %v", i, got[i], errs[i])
		}
	}
	got[0][0] = 42
	if got[1][0] != 1 {
		t.Error("two readers share one answer")
	}

	// The first reader's client goes while the read runs: the one that
	// waited for it reads for itself.
	runs.Store(0)
	block := make(chan struct{})
	slow := func(ctx context.Context) ([]int, error) {
		runs.Add(1)
		if runs.Load() == 1 {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		<-block
		return []int{7}, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := db.Remember(ctx, store, "gone", slow)
		first <- err
	}()
	for runs.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	second := make(chan []int, 1)
	go func() {
		v, err := db.Remember(context.Background(), store, "gone", slow)
		if err != nil {
			t.Error(err)
		}
		second <- v
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Errorf("the reader whose client went: %v", err)
	}
	close(block)
	if v := <-second; len(v) != 1 || v[0] != 7 {
		t.Errorf("the reader that waited got %v, want its own read [7]", v)
	}

	// A commit between two reads: the second reads again.
	runs.Store(0)
	count := func(ctx context.Context) ([]int, error) { runs.Add(1); return []int{int(runs.Load())}, nil }
	if _, err := db.Remember(context.Background(), store, "c", count); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Remember(context.Background(), store, "c", count); err != nil || runs.Load() != 1 {
		t.Fatalf("the same read, nothing committed: %d runs, %v", runs.Load(), err)
	}
	users(t, store, "carl")
	if _, err := db.Remember(context.Background(), store, "c", count); err != nil || runs.Load() != 2 {
		t.Fatalf("after a commit: %d runs, want 2 (%v)", runs.Load(), err)
	}
}

// TestQuietTablesExist: every table whose changes leave the settled reads
// remembered is a table of the schema (a misspelt one would be a table
// whose changes move them on, which is safe but slow).
func TestQuietTablesExist(t *testing.T) {
	_, path := open(t)
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		have[n] = true
	}
	for n := range db.QuietTables() {
		switch n {
		case "sqlite_stat4", "_litestream_lock", "_litestream_seq":
			continue // made by SQLite's ANALYZE or by replication, when there is one
		}
		if !have[n] {
			t.Errorf("quiet table %q is not in the schema", n)
		}
	}
	for n := range db.BackgroundTables() {
		if !have[n] && n != "sqlite_stat4" {
			t.Errorf("background table %q is not in the schema", n)
		}
	}
}

// TestArchivePagesShareTheirStatements: reading page after page of the
// archive prepares no new statement after the first page (the ids of a
// page's games are parameters, not text), so that a server whose visitors
// page through years of games keeps its statements prepared.
func TestArchivePagesShareTheirStatements(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	u := users(t, store, "ann", "bob")
	for i := range 4*db.ArchivePageSize - 7 {
		c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: u[0].ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 2}, t0)
		if err != nil {
			t.Fatal(err)
		}
		id, err := store.AcceptChallenge(ctx, c.ID, u[1].ID, int64(i), t0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Resign(ctx, id, u[i%2].ID, 0, t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	p, err := store.Archive(ctx, db.ArchiveFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var after2 int
	pages := 1
	for p.Older != "" {
		if p, err = store.Archive(ctx, db.ArchiveFilter{Before: p.Older}); err != nil {
			t.Fatal(err)
		}
		pages++
		if len(p.Rows) == 0 {
			t.Fatal("an empty page before the end")
		}
		if pages == 2 {
			after2 = db.PreparedReads(store)
		}
	}
	if pages != 4 {
		t.Fatalf("%d pages of %d games, want 4", pages, 4*db.ArchivePageSize-7)
	}
	// The pages after the first read older games along their cursor:
	// the second page prepared what that takes, the third and fourth
	// nothing more.
	if grew := db.PreparedReads(store) - after2; grew > 0 {
		t.Errorf("the third and fourth pages prepared %d new statements, want none", grew)
	}
}

// TestRememberedReadThatPanicsLeavesNoOneWaiting: a read that panics
// passes its panic on, and the readers that waited on it, and those that
// come after, read for themselves instead of waiting for ever.
func TestRememberedReadThatPanicsLeavesNoOneWaiting(t *testing.T) {
	store, _ := open(t)
	started, release := make(chan struct{}), make(chan struct{})
	go func() {
		defer func() { _ = recover() }()
		_, _ = db.Remember(context.Background(), store, "p", func(context.Context) ([]int, error) {
			close(started)
			<-release
			panic("a read that fails badly")
		})
	}()
	<-started
	waited := make(chan []int, 1)
	go func() {
		v, err := db.Remember(context.Background(), store, "p", func(context.Context) ([]int, error) { return []int{5}, nil })
		if err != nil {
			t.Error(err)
		}
		waited <- v
	}()
	time.Sleep(20 * time.Millisecond)
	close(release)
	select {
	case v := <-waited:
		if len(v) != 1 || v[0] != 5 {
			t.Errorf("the reader that waited got %v, want its own read [5]", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the reader that waited on a read that panicked is still waiting")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if v, err := db.Remember(ctx, store, "p", func(context.Context) ([]int, error) { return []int{6}, nil }); err != nil || len(v) != 1 || v[0] != 6 {
		t.Errorf("a later reader: %v %v, want [6]", v, err)
	}
}

// The puzzle search's commits (a puzzle found in a finished game, the
// game marked as looked at) leave the pages of games in progress, the
// directory, the tournaments and the administrator's figures remembered:
// a server searching its archive does not make every dashboard read again.
// A move still does.
func TestBackgroundWorkLeavesPagesRemembered(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, ann, bob := newGame(t, store, "trench", "single")
	done := finishedGame(t, store, ann, bob, 4)
	look := func() []db.Game {
		t.Helper()
		active, err := store.ActiveGames(ctx, ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := store.Players(ctx, "", t0, 0, 50); err != nil {
			t.Fatal(err)
		}
		if _, _, err := store.Tournaments(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Figures(ctx, t0); err != nil {
			t.Fatal(err)
		}
		return active
	}
	look()
	hits, _ := store.ReadCacheStats()
	if n, err := store.AddPuzzles(ctx, done.ID, testPuzzles()[:2], t0); err != nil || n != 2 {
		t.Fatalf("added %d puzzles, %v", n, err)
	}
	if _, err := store.AddPuzzles(ctx, 0, testPuzzles()[2:], t0); err != nil {
		t.Fatal(err)
	}
	look()
	if h, _ := store.ReadCacheStats(); h != hits+4 {
		t.Errorf("after the puzzle search's commits: %d of 4 reads answered from memory", h-hits)
	}
	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: playerOf(g, g.ToMove), Ply: 0, Move: st.Legal(g.ToMove)[0]}, t0); err != nil {
		t.Fatal(err)
	}
	hits, _ = store.ReadCacheStats()
	if active := look(); len(active) != 1 || active[0].Ply != 1 {
		t.Fatalf("after a move, the games in progress: %+v, want one at ply 1", active)
	}
	if h, _ := store.ReadCacheStats(); h != hits {
		t.Errorf("after a move: %d of 4 reads answered from memory, want none", h-hits)
	}
}

// TestSharedGamesInProgressTakeAppendsApart: the games in progress are
// shared by the callers that read them; what two callers each append to
// their answer stays their own, and the next answer lists the games alone.
func TestSharedGamesInProgressTakeAppendsApart(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	u := users(t, store, "ann", "bob")
	for range 3 {
		startGame(t, store, u[0], u[1])
	}
	read := func() []db.Game {
		t.Helper()
		gs, err := store.ActiveGames(ctx, u[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(gs) != 3 {
			t.Fatalf("ann has %d games in progress, want 3", len(gs))
		}
		return gs
	}
	a := append(read(), db.Game{ID: -1})
	b := append(read(), db.Game{ID: -2})
	if a[3].ID != -1 || b[3].ID != -2 {
		t.Errorf("two callers' appends met: %d and %d, want -1 and -2", a[3].ID, b[3].ID)
	}
	read()
}
