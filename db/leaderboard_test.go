package db_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// playRated plays one rated Trenches game between a and b at when, won by
// winner (a resignation of the other).
func playRated(t *testing.T, store *db.DB, a, b, winner db.User, when time.Time) {
	t.Helper()
	ctx := context.Background()
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: a.ID, Opponent: b.Name, Game: "trenches", Variant: "standard",
		Color: "0", DaysPerMove: 3, Rated: true}, when)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptChallenge(ctx, c.ID, b.ID, 7, when)
	if err != nil {
		t.Fatal(err)
	}
	loser := a
	if winner.ID == a.ID {
		loser = b
	}
	g, err := store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	g = playOpeningAt(t, store, g, when) // a game resigned before both have moved is not rated
	if _, err := store.Resign(ctx, id, loser.ID, g.Ply, when); err != nil {
		t.Fatal(err)
	}
}

// TestLeaderboardRules: established ratings of players active in the last
// 90 days are listed, best first with shared ranks; provisional ones of
// active players below them, unranked; inactive players are left out but
// the directory and the history still know them.
func TestLeaderboardRules(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob", "cid", "dan", "eve")
	ann, bob, cid, dan, eve := us[0], us[1], us[2], us[3], us[4]
	// eve plays as much as the others, but long ago.
	old := t0.AddDate(0, 0, -200)
	for i := 0; i < 20; i++ {
		playRated(t, store, eve, cid, []db.User{eve, cid}[i%2], old)
	}
	// ann, bob and cid play 20 rounds: ann wins most, bob beats cid more
	// often than not.
	at := t0
	for i := 0; i < 20; i++ {
		w := ann
		if i%3 == 0 {
			w = bob
		}
		playRated(t, store, ann, bob, w, at)
		w = ann
		if i%4 == 0 {
			w = cid
		}
		playRated(t, store, ann, cid, w, at)
		w = bob
		if i%3 == 1 {
			w = cid
		}
		playRated(t, store, bob, cid, w, at)
		at = at.Add(time.Hour)
	}
	// dan plays once, recently: provisional.
	playRated(t, store, dan, bob, dan, at)

	now := t0.AddDate(0, 0, 30)
	rows, counts, err := store.Leaderboard(ctx, "trenches", now, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, r := range rows {
		names = append(names, r.Name)
		if db.Provisional(r.RD) != (i == 3) || r.Provisional != (i == 3) {
			t.Errorf("%s listed at %d with deviation %.0f, provisional %v", r.Name, i, r.RD, r.Provisional)
		}
	}
	if counts != (db.LeaderCounts{Established: 3, Provisional: 1}) || len(rows) != 4 || names[0] != "ann" || names[1] != "bob" || names[2] != "cid" || names[3] != "dan" {
		t.Fatalf("leaderboard %v (%+v), want ann, bob, cid and then dan, provisional", names, counts)
	}
	for i, r := range rows[:3] {
		if r.Rank != i+1 {
			t.Errorf("%s ranked %d, want %d", r.Name, r.Rank, i+1)
		}
	}
	if rows[3].Rank != 0 {
		t.Errorf("provisional dan ranked %d", rows[3].Rank)
	}
	page2, counts2, err := store.Leaderboard(ctx, "trenches", now, 2, 2)
	if err != nil || counts2.Lines() != 4 || len(page2) != 2 || page2[0].Name != "cid" || page2[0].Rank != 3 || page2[1].Name != "dan" {
		t.Fatalf("second page of two: %+v %+v %v, want cid ranked 3, then dan", page2, counts2, err)
	}
	if r, ok, err := store.LeaderboardRank(ctx, "trenches", cid.ID, now); err != nil || !ok || r.Rank != 3 || r.Provisional {
		t.Errorf("cid's own rank: %+v %v %v, want 3", r, ok, err)
	}
	if r, ok, err := store.LeaderboardRank(ctx, "trenches", dan.ID, now); err != nil || !ok || !r.Provisional || r.Rank != 0 {
		t.Errorf("dan's own line: %+v %v %v, want provisional, unranked", r, ok, err)
	}
	if _, ok, err := store.LeaderboardRank(ctx, "trenches", eve.ID, now); err != nil || ok {
		t.Errorf("eve is listed (%v, %v); inactive players are not", ok, err)
	}
	// 100 days later nobody has played for 90 days.
	if rows, counts, err := store.Leaderboard(ctx, "trenches", t0.AddDate(0, 0, 100), 0, 50); err != nil || counts.Lines() != 0 || len(rows) != 0 {
		t.Errorf("after 100 idle days: %+v listed, want none (%v)", counts, err)
	}
	// 60 days later everyone is still active, but a rating idle for 60
	// days has widened past the established deviation of a few games.
	later := t0.AddDate(0, 0, 60)
	if _, c, err := store.Leaderboard(ctx, "trenches", later, 0, 50); err != nil || c.Lines() != 4 {
		t.Errorf("after 60 days: %+v (%v), want the four", c, err)
	} else {
		for _, u := range []db.User{ann, bob, cid, dan} {
			r, _, _ := store.LeaderboardRank(ctx, "trenches", u.ID, later)
			pr, _ := store.Rating(ctx, u.ID, "trenches", later)
			if r.Provisional != db.Provisional(pr.RD) {
				t.Errorf("%s after 60 days: listed provisional %v, deviation %.1f", u.Name, r.Provisional, pr.RD)
			}
		}
	}
	// A new player's first rated game lists them at once; months later
	// nobody is listed any more.
	fay := users(t, store, "fay")[0]
	playRated(t, store, fay, bob, fay, at.Add(time.Hour))
	if _, c, err := store.Leaderboard(ctx, "trenches", now, 0, 50); err != nil || c.Provisional != 2 || c.Lines() != 5 {
		t.Errorf("after fay's first rated game: %+v (%v), want her listed provisional too", c, err)
	}
	if _, c, err := store.Leaderboard(ctx, "trenches", now.AddDate(0, 0, 89), 0, 50); err != nil || c.Lines() != 0 {
		t.Errorf("89 days later, 90 after the games: %+v (%v), want nobody", c, err)
	}
	// No rated game of TRENCH: an empty board.
	if _, counts, err := store.Leaderboard(ctx, "trench", now, 0, 50); err != nil || counts.Lines() != 0 {
		t.Errorf("TRENCH leaderboard: %+v listed, want none (%v)", counts, err)
	}

	hist, err := store.RatingHistory(ctx, ann.ID, "trenches", 0)
	if err != nil || len(hist) != 40 || hist[0].Before != 1500 {
		t.Fatalf("ann's history: %d points, want 40 from 1500 (%v)", len(hist), err)
	}
	last, err := store.RatingHistory(ctx, ann.ID, "trenches", 5)
	if err != nil || len(last) != 5 || last[0] != hist[35] || last[4] != hist[39] || last[0].Before != hist[34].Rating {
		t.Fatalf("ann's last 5 rating changes: %+v (%v), want %+v", last, err, hist[35:])
	}
	for i := 1; i < len(hist); i++ {
		if hist[i].At.Before(hist[i-1].At) {
			t.Fatalf("ann's history goes back in time: %v → %v", hist[i-1], hist[i])
		}
	}
}

func TestPlayersDirectory(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	us := users(t, store, "Alice", "alfred", "bob", "al_x", "alyx")
	playRated(t, store, us[0], us[2], us[0], t0.Add(48*time.Hour))
	rows, total, err := store.Players(ctx, "AL", t0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Name)
	}
	if total != 4 || len(names) != 4 || names[0] != "al_x" || names[1] != "alfred" || names[2] != "Alice" || names[3] != "alyx" {
		t.Fatalf("prefix AL: %v (total %d), want al_x, alfred, Alice, alyx", names, total)
	}
	if len(rows[2].Ratings) != 1 || rows[2].Ratings[0].Game != "trenches" || !rows[2].LastActive.Equal(t0.Add(48*time.Hour)) {
		t.Errorf("Alice: %+v, want her Trenches rating and her game's time as last activity", rows[2])
	}
	if len(rows[0].Ratings) != 0 || len(rows[1].Ratings) != 0 {
		t.Errorf("al_x and alfred, who never played: %+v, %+v, want no rating", rows[0].Ratings, rows[1].Ratings)
	}
	// A player's ratings are listed by game, however many.
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, game := range []string{"trench", "cards"} {
		if _, err := raw.ExecContext(ctx, `INSERT INTO ratings (user_id, game, rating, rd, volatility, games, updated_at)
			VALUES (?, ?, 1600, 100, 0.06, 3, ?)`, us[0].ID, game, t0.Unix()); err != nil {
			t.Fatal(err)
		}
	}
	rows, _, err = store.Players(ctx, "Alice", t0.Add(time.Second), 0, 10)
	if err != nil || len(rows) != 1 {
		t.Fatalf("prefix Alice: %+v, %v", rows, err)
	}
	var games []string
	for _, r := range rows[0].Ratings {
		games = append(games, r.Game)
	}
	if strings.Join(games, " ") != "cards trench trenches" {
		t.Errorf("Alice's ratings: %v, want cards, trench and trenches", games)
	}
	// _ and % are letters in a name, not wildcards.
	if rows, total, _ := store.Players(ctx, "al_", t0, 0, 10); total != 1 || rows[0].Name != "al_x" {
		t.Errorf("prefix al_: %d players, want al_x alone", total)
	}
	// Everyone: the five and the three computer players.
	if rows, total, _ := store.Players(ctx, "", t0, 1, 2); total != 8 || len(rows) != 2 || rows[0].Name != "alfred" {
		t.Errorf("everyone, page of 2 from 1: %+v (total %d)", rows, total)
	}
	if rows, total, _ := store.Players(ctx, "computer", t0, 0, 10); total != 3 || rows[0].Name != "Computer · easy" {
		t.Errorf("prefix computer: %+v (total %d), want the three computer players", rows, total)
	}
	if _, total, _ := store.Players(ctx, "zz", t0, 0, 10); total != 0 {
		t.Errorf("prefix zz: %d players", total)
	}
}

// TestDirectoryOfEveryoneKeepsNoConnection: the directory without a
// search, asked for many times, answers every time (each call gives back
// the read connections it took).
func TestDirectoryOfEveryoneKeepsNoConnection(t *testing.T) {
	store, _ := open(t)
	users(t, store, "ann", "bob")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i := 0; i < 100; i++ {
		if _, total, err := store.Players(ctx, "", t0, 0, 50); err != nil || total != 5 {
			t.Fatalf("call %d: %d players, %v", i+1, total, err)
		}
	}
}

// A page far down the directory or a leaderboard is read from the list's
// nearer end: every page, wherever it starts, shows the very lines the
// whole list shows there, in the same order.
func TestPagesFromEitherEndAgree(t *testing.T) {
	ctx := context.Background()
	store, _, _ := filledStore(t, 3000)
	const size = 3 // pages starting at every line
	for _, prefix := range []string{"", "b"} {
		all, total, err := store.Players(ctx, prefix, t0, 0, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != total || total < 3*size {
			t.Fatalf("directory %q: %d rows of %d; want all of them, and more than a few pages", prefix, len(all), total)
		}
		sameRow := func(a, b db.DirectoryRow) bool { return a.ID == b.ID && len(a.Ratings) == len(b.Ratings) }
		pagesAgree(t, fmt.Sprintf("directory %q", prefix), all, size, func(off int) ([]db.DirectoryRow, error) {
			page, _, err := store.Players(ctx, prefix, t0, off, size)
			return page, err
		}, sameRow)
		// Read from the marks of where every fourth name begins, then
		// again once an account is added and one deleted: the marks of
		// the accounts before must not serve the accounts after.
		restore := db.MarkDirectoryFrom(0, 4)
		pagesAgree(t, fmt.Sprintf("directory %q from its marks", prefix), all, size, func(off int) ([]db.DirectoryRow, error) {
			page, _, err := store.Players(ctx, prefix, t0, off, size)
			return page, err
		}, sameRow)
		newcomer := users(t, store, prefix+"Aaron"+prefix)[0]
		if err := store.DeleteAccount(ctx, all[len(all)/2].ID, t0); err != nil {
			t.Fatal(err)
		}
		restore()
		after, _, err := store.Players(ctx, prefix, t0, 0, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(after, func(r db.DirectoryRow) bool { return r.ID == newcomer.ID }) {
			t.Fatalf("directory %q: the new account is not listed", prefix)
		}
		restore = db.MarkDirectoryFrom(0, 4)
		pagesAgree(t, fmt.Sprintf("directory %q from its marks, accounts added and deleted", prefix), after, size, func(off int) ([]db.DirectoryRow, error) {
			page, _, err := store.Players(ctx, prefix, t0, off, size)
			return page, err
		}, sameRow)
		restore()
	}
	for _, game := range []string{"trench", "cards"} {
		_, counts, err := store.Leaderboard(ctx, game, t0, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		lines := counts.Lines()
		if counts.Established < 3*size || counts.Provisional < 3*size {
			t.Fatalf("%s leaderboard: %+v; want a few pages of each part", game, counts)
		}
		all, _, err := store.Leaderboard(ctx, game, t0, 0, lines)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != lines {
			t.Fatalf("%s leaderboard: %d lines, want %d", game, len(all), lines)
		}
		pagesAgree(t, game+" leaderboard", all, size, func(off int) ([]db.LeaderRow, error) {
			page, _, err := store.Leaderboard(ctx, game, t0, off, size)
			return page, err
		}, func(a, b db.LeaderRow) bool { return a == b })
		// Read from the marks of where every fourth line begins, at
		// moments as ratings leave the established part and the
		// leaderboard (the deviations widen meanwhile): the marks of a
		// moment before must not serve one after.
		for _, later := range []time.Duration{time.Second, 10 * 24 * time.Hour, 40 * 24 * time.Hour, 95 * 24 * time.Hour} {
			at := t0.Add(later)
			_, counts, err := store.Leaderboard(ctx, game, at, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			all, _, err := store.Leaderboard(ctx, game, at, 0, counts.Lines())
			if err != nil {
				t.Fatal(err)
			}
			restore := db.MarkLeaderboardsFrom(0, 4)
			pagesAgree(t, fmt.Sprintf("%s leaderboard %s later from its marks", game, later), all, size, func(off int) ([]db.LeaderRow, error) {
				page, _, err := store.Leaderboard(ctx, game, at, off, size)
				return page, err
			}, func(a, b db.LeaderRow) bool { return a == b })
			restore()
		}
	}
}

// pagesAgree reads the page of size lines at every start (read) and finds
// on each the lines of all from that start, alike by same.
func pagesAgree[T any](t *testing.T, list string, all []T, size int, read func(offset int) ([]T, error), same func(a, b T) bool) {
	t.Helper()
	for off := 0; off < len(all)+size; off++ {
		page, err := read(off)
		if err != nil {
			t.Fatal(err)
		}
		want := all[min(off, len(all)):min(off+size, len(all))]
		if len(page) != len(want) {
			t.Fatalf("%s from %d: %d lines, want %d", list, off, len(page), len(want))
		}
		for i := range page {
			if !same(page[i], want[i]) {
				t.Fatalf("%s from %d, line %d: %+v, want %+v", list, off, i, page[i], want[i])
			}
		}
	}
}

// A leaderboard's counts follow the clock with no rating changing: as
// listings end, players leave the established part (and the
// leaderboard), the counts kept from an earlier moment notwithstanding.
func TestLeaderCountsFollowListingsEnding(t *testing.T) {
	ctx := context.Background()
	store, path, _ := filledStore(t, 800)
	seen := map[int]bool{}
	for day := 0.0; day <= 100; day += 2.5 {
		at := t0.Add(time.Duration(day * float64(24*time.Hour)))
		fresh, err := db.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		for _, game := range []string{"trench", "trenches", "cards"} {
			_, got, err := store.Leaderboard(ctx, game, at, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			_, want, err := fresh.Leaderboard(ctx, game, at, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s leaderboard %.1f days on: %+v, want %+v as counted afresh", game, day, got, want)
			}
			seen[want.Established] = true
		}
		if err := fresh.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) < 4 {
		t.Errorf("the established counts took %d values over 100 days; want listings ending", len(seen))
	}
}
