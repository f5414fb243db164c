package puzzlegen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules/puzzles"
)

// TestSelfPlayToFileAndDatabase: `puzzles generate --selfplay` writes a
// set that reads back, stores the same puzzles in a database, and reports
// the counts; a bad command line is refused.
func TestSelfPlayToFileAndDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	out := filepath.Join(dir, "set.txt")
	var stdout bytes.Buffer
	if err := Command(ctx, &stdout, []string{"generate", "--selfplay", "2", "--level", "easy", "--game", "trench", "--seed", "3", "--out", out}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := puzzles.ParseSet(f)
	if err != nil {
		t.Fatal(err)
	}
	rep := stdout.String()
	for _, want := range []string{"games: 2 (trench 2, trenches 0)", "rejected: not unique", "lengths (solver moves): 1:", "themes:"} {
		if !strings.Contains(rep, want) {
			t.Fatalf("report lacks %q:\n%s", want, rep)
		}
	}
	if len(ps) == 0 || !strings.Contains(rep, "puzzles: ") {
		t.Fatalf("%d puzzles:\n%s", len(ps), rep)
	}
	path := filepath.Join(dir, "t.db")
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	r, err := Run(ctx, Options{DB: path, SelfPlay: 2, Level: "easy", Seed: 3, Games: []string{"trench"}}, time.Now)
	if err != nil || r.Stored != len(ps) {
		t.Fatalf("stored %v, want %d: %v", r, len(ps), err)
	}
	// The database's own games: none finished, nothing to do.
	r, err = Run(ctx, Options{DB: path, Games: []string{"trench"}}, time.Now)
	if err != nil || r.Stats.Positions != 0 {
		t.Fatalf("database run: %+v %v", r, err)
	}
	for _, bad := range [][]string{{"generate"}, {"generate", "--game", "cards", "--db", path}, {"solve"}, {"generate", "--db", path, "extra"}} {
		if err := Command(ctx, &stdout, bad); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}

// TestStoppedRunReports: a run stopped (Ctrl-C) still prints the report
// of the games done and says it stopped.
func TestStoppedRunReports(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout bytes.Buffer
	err := Command(ctx, &stdout, []string{"generate", "--selfplay", "5", "--out", filepath.Join(t.TempDir(), "s.txt")})
	if err == nil || !strings.Contains(stdout.String(), "games: 0 ") || !strings.Contains(stdout.String(), "stopped before the end") {
		t.Fatalf("%v:\n%s", err, stdout.String())
	}
}

// TestDatabaseGames: with --db the finished games not yet looked at are
// searched once, their puzzles stored with their source; a game in
// progress is left alone.
func TestDatabaseGames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var ids []int64
	for i, pair := range [][2]string{{"ann", "bob"}, {"cat", "dan"}} {
		a, err := store.CreateUser(ctx, pair[0], "hash", now)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := store.CreateUser(ctx, pair[1], "hash", now)
		ch, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: a.ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, now)
		if err != nil {
			t.Fatal(err)
		}
		id, err := store.AcceptChallenge(ctx, ch.ID, b.ID, 5, now)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := store.Game(ctx, id)
		for ply := 0; ply < 60 && !g.Finished(); ply++ {
			st, _ := g.Decode()
			legal := st.Legal(g.ToMove)
			if g, err = store.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: legal[(ply*7)%len(legal)]}, now); err != nil {
				t.Fatal(err)
			}
		}
		if i == 0 {
			if _, err := store.Resign(ctx, id, b.ID, g.Ply, now); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, id)
	}
	store.Close()
	var stdout bytes.Buffer
	if err := Command(ctx, &stdout, []string{"generate", "--db", path}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "games: 1 (trench 1, trenches 0)") {
		t.Fatalf("report:\n%s", stdout.String())
	}
	again, err := Run(ctx, Options{DB: path}, time.Now)
	if err != nil || again.Games["trench"] != 0 {
		t.Fatalf("second run: %+v %v", again, err)
	}
	store, err = db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var skip []int64
	for {
		p, ok, err := store.NextPuzzle(ctx, db.PuzzleQuery{Game: "trench", Rating: 1500, Skip: skip})
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		skip = append(skip, p.ID)
		if p.SourceGameID != ids[0] {
			t.Fatalf("puzzle %d from game %d, want the finished game %d", p.ID, p.SourceGameID, ids[0])
		}
	}
	t.Logf("%d puzzles:\n%s", len(skip), stdout.String())
}
