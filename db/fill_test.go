package db_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/trench-games/trench/db"
	_ "github.com/trench-games/trench/rules/cards"
)

// fill builds a filled database of n games in a temporary directory.
func fill(t *testing.T, n int) (string, db.FillResult) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "filled.db")
	res, err := db.Fill(context.Background(), path, db.FillOptions{Games: n, PasswordHash: "hash", Now: t0, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return path, res
}

// TestFill builds a small database for measurement: every game replays
// from its moves, the players' games spread from a handful to many, about
// 2% are in progress, there are tournaments, ratings and rating changes,
// an administrator, and a second fill of the same file is refused.
func TestFill(t *testing.T) {
	ctx := context.Background()
	path, res := fill(t, 5000)
	t.Logf("%+v", res)
	if res.Games != 5000 || res.Users != 500 || res.Tournaments == 0 || res.Rated == 0 || res.Moves < 5000*20 {
		t.Fatalf("filled %+v", res)
	}
	if res.Active < 5000/50-5 || res.Active > 5000/50+5 {
		t.Errorf("%d games in progress, want about 2%%", res.Active)
	}
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	checked, err := store.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if checked.Games != 5000 || checked.Moves != res.Moves {
		t.Fatalf("verified %+v, filled %+v", checked, res)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var most, median, years, changes, ratings, pairings, admins int
	for q, dst := range map[string]*int{
		`SELECT MAX(n) FROM (SELECT COUNT(*) n FROM games g JOIN users u ON u.id IN (g.side0_id, g.side1_id) GROUP BY u.id)`:                          &most,
		`SELECT n FROM (SELECT COUNT(*) n FROM games g JOIN users u ON u.id IN (g.side0_id, g.side1_id) GROUP BY u.id) ORDER BY n LIMIT 1 OFFSET 250`: &median,
		`SELECT COUNT(DISTINCT strftime('%Y', ended_at, 'unixepoch')) FROM games WHERE status = 'finished'`:                                           &years,
		`SELECT COUNT(*) FROM rating_changes`:                              &changes,
		`SELECT COUNT(*) FROM ratings`:                                     &ratings,
		`SELECT COUNT(*) FROM tournament_pairings`:                         &pairings,
		`SELECT COUNT(*) FROM users WHERE is_admin = 1 AND name = 'admin'`: &admins,
	} {
		if err := raw.QueryRow(q).Scan(dst); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	fk, err := raw.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	if fk.Next() {
		t.Error("a row refers to one that is not there")
	}
	fk.Close()
	t.Logf("most games %d, median %d, years %d, rating changes %d, ratings %d, pairings %d", most, median, years, changes, ratings, pairings)
	if most < 300 || median > 30 || years < 5 || changes != 2*res.Rated || ratings == 0 || pairings == 0 || admins != 1 || res.HeaviestGames != most {
		t.Fatal("the fill is not spread as a server's after years")
	}
	if _, err := db.Fill(ctx, path, db.FillOptions{Games: 10, PasswordHash: "hash", Now: t0}); err == nil {
		t.Fatal("a second fill of a filled database was accepted")
	}
}
