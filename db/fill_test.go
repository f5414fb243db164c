package db_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
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

// filledStore opens a database filled with n games (fill), closed when
// the test ends.
func filledStore(t *testing.T, n int) (*db.DB, string, db.FillResult) {
	t.Helper()
	path, res := fill(t, n)
	store, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store, path, res
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
	var most, median, years, changes, ratings, pairings, admins, future int
	for q, dst := range map[string]*int{
		`SELECT MAX(n) FROM (SELECT COUNT(*) n FROM games g JOIN users u ON u.id IN (g.side0_id, g.side1_id) GROUP BY u.id)`:                          &most,
		`SELECT n FROM (SELECT COUNT(*) n FROM games g JOIN users u ON u.id IN (g.side0_id, g.side1_id) GROUP BY u.id) ORDER BY n LIMIT 1 OFFSET 250`: &median,
		`SELECT COUNT(DISTINCT strftime('%Y', ended_at, 'unixepoch')) FROM games WHERE status = 'finished'`:                                           &years,
		`SELECT COUNT(*) FROM rating_changes`:                              &changes,
		`SELECT COUNT(*) FROM ratings`:                                     &ratings,
		`SELECT COUNT(*) FROM tournament_pairings`:                         &pairings,
		`SELECT COUNT(*) FROM users WHERE is_admin = 1 AND name = 'admin'`: &admins,
		fmt.Sprintf(`SELECT (SELECT COUNT(*) FROM games WHERE ended_at > %[1]d OR updated_at > %[1]d OR created_at > %[1]d)
			+ (SELECT COUNT(*) FROM moves WHERE created_at > %[1]d)`, t0.Unix()): &future,
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
	if future != 0 {
		t.Errorf("%d games or moves after the fill's present", future)
	}
	if most < 300 || median > 30 || years < 5 || changes != 2*res.Rated || ratings == 0 || pairings == 0 || admins != 1 || res.HeaviestGames != most {
		t.Fatal("the fill is not spread as a server's after years")
	}
	if _, err := db.Fill(ctx, path, db.FillOptions{Games: 10, PasswordHash: "hash", Now: t0}); err == nil {
		t.Fatal("a second fill of a filled database was accepted")
	}
}

// TestArchiveCursorPages walks the archive from its first page to its
// last by the cursors of its links, then back: every finished game once,
// in order, and the same pages on the way back; a page of a player's
// games too.
func TestArchiveCursorPages(t *testing.T) {
	ctx := context.Background()
	path, res := fill(t, 400)
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, f := range []db.ArchiveFilter{{}, {Player: res.Heaviest}} {
		var forward [][]int64
		p, err := store.Archive(ctx, f)
		for err == nil {
			var ids []int64
			for _, r := range p.Rows {
				ids = append(ids, r.Game.ID)
			}
			forward = append(forward, ids)
			if p.Older == "" {
				break
			}
			next := f
			next.Before = p.Older
			p, err = store.Archive(ctx, next)
		}
		if err != nil {
			t.Fatal(err)
		}
		var all []int64
		for _, ids := range forward {
			all = append(all, ids...)
		}
		first, err := store.Archive(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != first.Total || len(forward) != (first.Total+db.ArchivePageSize-1)/db.ArchivePageSize {
			t.Fatalf("%+v: %d games on %d pages, the count says %d", f, len(all), len(forward), first.Total)
		}
		seen := map[int64]bool{}
		for _, id := range all {
			if seen[id] {
				t.Fatalf("%+v: game %d twice", f, id)
			}
			seen[id] = true
		}
		// Back from the last page by the Newer cursors.
		for i := len(forward) - 1; i > 0; i-- {
			back := f
			back.After = p.Newer
			if p, err = store.Archive(ctx, back); err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, r := range p.Rows {
				ids = append(ids, r.Game.ID)
			}
			if fmt.Sprint(ids) != fmt.Sprint(forward[i-1]) {
				t.Fatalf("%+v: page %d back is %v, forward it was %v", f, i, ids, forward[i-1])
			}
		}
		if p.Newer != "" {
			t.Errorf("%+v: the first page has a newer page", f)
		}
	}
	if _, err := store.Archive(ctx, db.ArchiveFilter{Before: "x.1"}); db.KindOf(err) != db.KindInvalid {
		t.Errorf("a malformed cursor: %v", err)
	}
}

// Every filter of a player's archive (a game, rules, a result) lists, over
// its numbered pages, exactly the player's finished games it should,
// newest first, and counts them.
func TestArchiveByEveryFilter(t *testing.T) {
	ctx := context.Background()
	store, path, res := filledStore(t, 1500)
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var player int64
	if err := raw.QueryRow(`SELECT id FROM users WHERE name = ?`, res.Heaviest).Scan(&player); err != nil {
		t.Fatal(err)
	}
	for _, f := range []db.ArchiveFilter{
		{Player: res.Heaviest}, {Player: res.Heaviest, Result: "won"}, {Player: res.Heaviest, Result: "lost"},
		{Player: res.Heaviest, Result: "drawn"}, {Player: res.Heaviest, Result: "decisive"},
		{Player: res.Heaviest, Game: "trench"}, {Player: res.Heaviest, Game: "cards", Result: "won"},
		{Player: res.Heaviest, Game: "trench", Variant: "single"}, {Player: res.Heaviest, Variant: "long", Result: "lost"},
		{Variant: "single"}, {Variant: "long", Result: "drawn"}, {Result: "decisive"}, {Game: "trench", Result: "decisive"},
		{Variant: "short", Result: "decisive"},
	} {
		// What the filter means, read the simple way.
		q := `SELECT id FROM games WHERE status = 'finished' AND (?1 = 0 OR side0_id = ?1 OR side1_id = ?1)`
		player := player
		if f.Player == "" {
			player = 0
		}
		switch f.Result {
		case "won":
			q += ` AND ((side0_id = ?1 AND winner = 0) OR (side1_id = ?1 AND winner = 1))`
		case "lost":
			q += ` AND ((side0_id = ?1 AND winner = 1) OR (side1_id = ?1 AND winner = 0))`
		case "drawn":
			q += ` AND winner = -1`
		case "decisive":
			q += ` AND winner IN (0, 1)`
		}
		if f.Game != "" {
			q += ` AND game = '` + f.Game + `'`
		}
		if f.Variant != "" {
			q += ` AND COALESCE(match_variant, variant) = '` + f.Variant + `'`
		}
		rows, err := raw.Query(q+` ORDER BY ended_at DESC, id DESC`, player)
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			want = append(want, id)
		}
		rows.Close()
		if len(want) == 0 {
			t.Fatalf("%+v: no game to list; the test shows nothing", f)
		}
		var got []int64
		for page := 1; ; page++ {
			pf := f
			pf.Page = page
			p, err := store.Archive(ctx, pf)
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != len(want) {
				t.Fatalf("%+v: counted %d games, want %d", f, p.Total, len(want))
			}
			for _, r := range p.Rows {
				got = append(got, r.Game.ID)
			}
			if p.Page*db.ArchivePageSize >= p.Total {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%+v: listed %d games, want %d (%v…, want %v…)", f, len(got), len(want), got[:min(5, len(got))], want[:min(5, len(want))])
		}
	}
	// Rules no game has are refused; rules of another game list nothing.
	if _, err := store.Archive(ctx, db.ArchiveFilter{Variant: "nosuchrules"}); db.KindOf(err) != db.KindInvalid {
		t.Errorf("unknown rules: %v, want KindInvalid", err)
	}
	if p, err := store.Archive(ctx, db.ArchiveFilter{Game: "cards", Variant: "single"}); err != nil || p.Total != 0 || len(p.Rows) != 0 {
		t.Errorf("the cards with TRENCH's rules: %d games (%d listed), %v; want none", p.Total, len(p.Rows), err)
	}
}

// TestArchivePagesThroughGamesEndedTogether: when many games ended in the
// same second (a sweep of timeouts ends them together), the archive's
// numbered pages, its cursors forward and back, and a player's pages
// still list every finished game once, in the archive's order (newest
// first, then by id), as a plain query does.
func TestArchivePagesThroughGamesEndedTogether(t *testing.T) {
	ctx := context.Background()
	path, res := fill(t, 400)
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	// 180 games, more than three pages, end in one second, in the
	// middle of the archive.
	_, err = raw.Exec(`UPDATE games SET ended_at = (SELECT ended_at FROM games WHERE status = 'finished' ORDER BY ended_at DESC LIMIT 1 OFFSET 100)
		WHERE id IN (SELECT id FROM games WHERE status = 'finished' ORDER BY ended_at DESC, id DESC LIMIT 180 OFFSET 60)`)
	if err != nil {
		t.Fatal(err)
	}
	want := func(player string) []int64 {
		q := `SELECT g.id FROM games g WHERE g.status = 'finished' ORDER BY g.ended_at DESC, g.id DESC`
		var args []any
		if player != "" {
			q = `SELECT g.id FROM games g JOIN users u ON u.id IN (g.side0_id, g.side1_id) WHERE g.status = 'finished' AND u.name = ?
				ORDER BY g.ended_at DESC, g.id DESC`
			args = append(args, player)
		}
		rows, err := raw.Query(q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		return ids
	}
	wantAll, wantHeavy := want(""), want(res.Heaviest)
	raw.Close()
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ids := func(p db.ArchivePage) []int64 {
		var out []int64
		for _, r := range p.Rows {
			out = append(out, r.Game.ID)
		}
		return out
	}
	for _, c := range []struct {
		f    db.ArchiveFilter
		want []int64
	}{{db.ArchiveFilter{}, wantAll}, {db.ArchiveFilter{Player: res.Heaviest}, wantHeavy}} {
		var numbered, forward []int64
		var pages [][]int64
		for n := 1; ; n++ {
			f := c.f
			f.Page = n
			p, err := store.Archive(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if p.Page != n {
				break // past the last page: the last again
			}
			numbered = append(numbered, ids(p)...)
		}
		p, err := store.Archive(ctx, c.f)
		for err == nil {
			pages = append(pages, ids(p))
			forward = append(forward, ids(p)...)
			if p.Older == "" {
				break
			}
			next := c.f
			next.Before = p.Older
			p, err = store.Archive(ctx, next)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(numbered, c.want) || !slices.Equal(forward, c.want) {
			t.Fatalf("%+v: %d games by numbered pages and %d by cursors, want %d in the archive's order\nnumbered %v\nforward  %v\nwant     %v",
				c.f, len(numbered), len(forward), len(c.want), numbered, forward, c.want)
		}
		for i := len(pages) - 1; i > 0; i-- {
			back := c.f
			back.After = p.Newer
			if p, err = store.Archive(ctx, back); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(p), pages[i-1]) {
				t.Fatalf("%+v: page %d back is %v, forward it was %v", c.f, i, ids(p), pages[i-1])
			}
		}
	}
}
