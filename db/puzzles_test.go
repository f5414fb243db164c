package db_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules/puzzles"
)

// testPuzzles are three TRENCH puzzles (the positions need only differ).
func testPuzzles() []puzzles.Puzzle {
	return []puzzles.Puzzle{
		{Game: "trench", Variant: "single", Position: "c7/8/r7/3c4/8/2C5/a5G1/6C1 b 4 23 23", Solution: []string{"d5-g5", "g1-f1", "g5xg2"}, Themes: []string{"race", "win"}},
		{Game: "trench", Variant: "single", Position: "C7/8/5c2/2sC1A2/4S3/5G2/sca5/4g3 b 13 19 18", Solution: []string{"f6xf5"}},
		{Game: "trench", Variant: "single", Position: "G6S/AR2C1S1/5R2/6aS/8/3C4/cas3c1/g6a w 10 13 13", Solution: []string{"h5xg5"}, Themes: []string{"trench-capture"}},
	}
}

// TestPuzzlesFromFinishedGamesOnly: a game in progress gives no puzzle;
// a finished one does, is recorded as looked at, and a position stored
// twice is kept once.
func TestPuzzlesFromFinishedGamesOnly(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob")
	ch, _ := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: us[0].ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, t0)
	running, err := store.AcceptChallenge(ctx, ch.ID, us[1].ID, 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = store.AddPuzzles(ctx, running, testPuzzles()[:1], t0)
	wantKind(t, err, db.KindConflict)
	if n, _ := store.CountPuzzles(ctx, ""); n != 0 {
		t.Fatalf("%d puzzles from a running game", n)
	}
	g := finishedGame(t, store, us[0], us[1], 4)
	next, ok, err := store.NextPuzzleScan(ctx)
	if err != nil || !ok || next.ID != g.ID {
		t.Fatalf("next scan %v %v %v, want game %d", next.ID, ok, err, g.ID)
	}
	if n, err := store.AddPuzzles(ctx, g.ID, testPuzzles()[:2], t0); err != nil || n != 2 {
		t.Fatalf("added %d, %v", n, err)
	}
	if n, err := store.AddPuzzles(ctx, 0, testPuzzles(), t0); err != nil || n != 1 {
		t.Fatalf("added again %d, %v", n, err)
	}
	if _, ok, _ := store.NextPuzzleScan(ctx); ok {
		t.Fatal("a game looked at is offered again")
	}
	_, err = store.AddPuzzles(ctx, 0, []puzzles.Puzzle{{Game: "cards", Position: "x", Solution: []string{"a"}}}, t0)
	wantKind(t, err, db.KindInvalid)
	p, ok, err := store.NextPuzzle(ctx, db.PuzzleQuery{Game: "trench", Theme: "race", Rating: 1500})
	if err != nil || !ok || p.SourceGameID != g.ID || p.Solution[2] != "g5xg2" || p.Themes[0] != "race" {
		t.Fatalf("race puzzle %+v %v %v", p, ok, err)
	}
}

// TestPuzzleAttemptRatesBoth: a solved first attempt raises the player's
// rating and lowers the puzzle's, a failed one the reverse, both in one
// go; a second attempt changes nothing; the next puzzle skips those
// attempted and is the nearest to the player's rating.
func TestPuzzleAttemptRatesBoth(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	ann := users(t, store, "ann")[0]
	if _, err := store.AddPuzzles(ctx, 0, testPuzzles(), t0); err != nil {
		t.Fatal(err)
	}
	first, ok, err := store.NextPuzzle(ctx, db.PuzzleQuery{Game: "trench", UserID: ann.ID, Rating: 1500})
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	a, err := store.RecordPuzzleAttempt(ctx, ann.ID, first.ID, true, t0)
	if err != nil || !a.Rated || a.After.Rating <= 1500 || a.PuzzleAfter.Rating >= 1500 {
		t.Fatalf("solved: %+v %v", a, err)
	}
	again, err := store.RecordPuzzleAttempt(ctx, ann.ID, first.ID, false, t0)
	if err != nil || again.Rated || !again.Solved || again.After != a.After {
		t.Fatalf("second attempt: %+v %v", again, err)
	}
	if kept, ok, err := store.PuzzleAttempted(ctx, ann.ID, first.ID); err != nil || !ok || !kept.Solved || kept.Before != a.Before.Rating || kept.After != a.After.Rating {
		t.Fatalf("the first attempt kept: %+v %v %v", kept, ok, err)
	}
	r, n, _ := store.PuzzleRating(ctx, ann.ID, "trench")
	if r != a.After || n != 1 {
		t.Fatalf("rating %+v after %d attempts", r, n)
	}
	second, ok, _ := store.NextPuzzle(ctx, db.PuzzleQuery{Game: "trench", UserID: ann.ID, Rating: r.Rating})
	if !ok || second.ID == first.ID {
		t.Fatalf("next puzzle %d, the first was %d", second.ID, first.ID)
	}
	b, err := store.RecordPuzzleAttempt(ctx, ann.ID, second.ID, false, t0)
	if err != nil || !b.Rated || b.After.Rating >= a.After.Rating || b.PuzzleAfter.Rating <= 1500 {
		t.Fatalf("failed: %+v %v", b, err)
	}
	if p, _ := store.Puzzle(ctx, second.ID); p.Rating != b.PuzzleAfter || p.Plays != 1 {
		t.Fatalf("stored puzzle %+v", p)
	}
	// The nearest rating comes first: the failed puzzle rose above 1500,
	// the solved one fell below; from 1500 - 1 the solved one is nearer.
	low, _, _ := store.NextPuzzle(ctx, db.PuzzleQuery{Game: "trench", Rating: a.PuzzleAfter.Rating})
	high, _, _ := store.NextPuzzle(ctx, db.PuzzleQuery{Game: "trench", Rating: b.PuzzleAfter.Rating})
	if low.ID != first.ID || high.ID != second.ID {
		t.Fatalf("nearest: %d and %d", low.ID, high.ID)
	}
	if _, err := store.RecordPuzzleAttempt(ctx, ann.ID, 999, true, t0); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("no such puzzle: %v", err)
	}
	if err := store.DeleteAccount(ctx, ann.ID, t0); err != nil {
		t.Fatal(err)
	}
}

// TestDailyPuzzle: the same all day, another on another day, none
// without puzzles.
func TestDailyPuzzle(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	if _, ok, err := store.DailyPuzzle(ctx, t0); ok || err != nil {
		t.Fatalf("daily without puzzles: %v %v", ok, err)
	}
	if _, err := store.AddPuzzles(ctx, 0, testPuzzles(), t0.Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	morning, _, _ := store.DailyPuzzle(ctx, t0.Truncate(24*time.Hour))
	evening, ok, err := store.DailyPuzzle(ctx, t0.Truncate(24*time.Hour).Add(23*time.Hour))
	if err != nil || !ok || morning.ID != evening.ID {
		t.Fatalf("morning %d evening %d %v", morning.ID, evening.ID, err)
	}
	seen := map[int64]bool{}
	for d := 0; d < 6; d++ {
		p, _, _ := store.DailyPuzzle(ctx, t0.Add(time.Duration(d)*24*time.Hour))
		seen[p.ID] = true
	}
	if len(seen) < 2 {
		t.Fatalf("six days showed %d puzzles", len(seen))
	}
}

// TestNextPuzzleSkips: a visitor's skipped puzzles are never given again:
// walking the puzzles with the ones seen skipped gives each once.
func TestNextPuzzleSkips(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	if _, err := store.AddPuzzles(ctx, 0, testPuzzles(), t0); err != nil {
		t.Fatal(err)
	}
	var seen []int64
	for i := 0; i < 10; i++ {
		p, ok, err := store.NextPuzzle(ctx, db.PuzzleQuery{Game: "trench", Rating: 1500, Skip: seen})
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		for _, id := range seen {
			if id == p.ID {
				t.Fatalf("puzzle %d given again after %v", id, seen)
			}
		}
		seen = append(seen, p.ID)
	}
	if len(seen) != 3 {
		t.Fatalf("walked %v, want the 3 puzzles", seen)
	}
}

// TestAnalysisScores: the scores of an analysed game's positions, by ply,
// for the puzzle search; none for a game without analysis.
func TestAnalysisScores(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob")
	g := finishedGame(t, store, us[0], us[1], 4)
	if s, err := store.AnalysisScores(ctx, g.ID); err != nil || s != nil {
		t.Fatalf("without analysis: %v %v", s, err)
	}
	if _, err := store.QueueAnalysis(ctx, g.ID, us[0].ID, 100, t0); err != nil {
		t.Fatal(err)
	}
	for ply, score := range []int{10, -250} {
		if err := store.StoreAnalysisPly(ctx, g.ID, db.AnalysisPly{Ply: ply, Score: score}, t0); err != nil {
			t.Fatal(err)
		}
	}
	s, err := store.AnalysisScores(ctx, g.ID)
	if err != nil || len(s) != 2 || s[0] != 10 || s[1] != -250 {
		t.Fatalf("scores %v %v", s, err)
	}
}

// TestPuzzleScanGoesOnFromTheLatestGameLookedAt: the puzzle job looks
// for games not looked at from a day before the latest one it has looked
// at, so the games it has looked at are not read again, however many.
func TestPuzzleScanGoesOnFromTheLatestGameLookedAt(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob")
	var gs []db.Game
	for range 4 {
		gs = append(gs, finishedGame(t, store, us[0], us[1], 2))
	}
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	// Ended: the first three days before the others; the second an hour
	// before the third; the last ten seconds after the third.
	for i, at := range []time.Time{t0, t0.Add(3*24*time.Hour - time.Hour), t0.Add(3 * 24 * time.Hour), t0.Add(3*24*time.Hour + 10*time.Second)} {
		if _, err := raw.ExecContext(ctx, `UPDATE games SET ended_at = ? WHERE id = ?`, at.Unix(), gs[i].ID); err != nil {
			t.Fatal(err)
		}
	}
	want := func(id int64) {
		t.Helper()
		g, ok, err := store.NextPuzzleScan(ctx)
		if err != nil || ok != (id != 0) || g.ID != id {
			t.Fatalf("next game to look at: %d (%v, %v), want %d", g.ID, ok, err, id)
		}
	}
	want(gs[0].ID)
	// The third looked at first: the second, an hour before it, is still
	// looked for; the first, three days before, no more.
	if _, err := store.AddPuzzles(ctx, gs[2].ID, nil, t0); err != nil {
		t.Fatal(err)
	}
	want(gs[1].ID)
	if _, err := store.AddPuzzles(ctx, gs[1].ID, nil, t0); err != nil {
		t.Fatal(err)
	}
	want(gs[3].ID)
	if _, err := store.AddPuzzles(ctx, gs[3].ID, nil, t0); err != nil {
		t.Fatal(err)
	}
	want(0)
}
