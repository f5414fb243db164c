package db_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trench-games/trench/db"
)

// pageQuery is one query a page ran, with its arguments.
type pageQuery struct {
	page, query string
	args        []any
}

// largeTables hold a row or more per game, move or player: a page may
// reach their rows only through an index, for a bounded number of rows.
var largeTables = []string{"games", "moves", "matches", "rating_changes", "ratings", "users", "messages",
	"tournament_entrants", "tournament_pairings", "notifications", "challenges"}

// TestEveryPageQueryUsesAnIndex runs the database reads of every page on a
// filled database (analysed, as the server analyses it) and asks SQLite
// how it runs each: no page reads a large table from end to end, or sorts
// many rows in a temporary B-tree to show a few (each exception is named,
// with why the rows are few).
func TestEveryPageQueryUsesAnIndex(t *testing.T) {
	ctx := context.Background()
	path, res := fill(t, 20000)
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	heavy, err := store.UserByName(ctx, res.Heaviest)
	if err != nil {
		t.Fatal(err)
	}
	ordinary, err := store.UserByName(ctx, "admin")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []pageQuery
	page := ""
	stop := db.TraceReads(store, func(q string, args []any) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, pageQuery{page, q, slices.Clone(args)})
	})
	run := func(name string, f func() error) {
		t.Helper()
		page = name
		if err := f(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for _, f := range []db.ArchiveFilter{{}, {Game: "trench"}, {Game: "trench", Variant: "single"}, {Variant: "single"}, {Variant: "match"}, {Result: "drawn"}, {Result: "decisive"},
		{Player: res.Heaviest}, {Player: "admin"}, {Player: res.Heaviest, Result: "won"}, {Page: 100}, {Page: 1 << 20}} {
		run(fmt.Sprintf("archive %+v", f), func() error { _, err := store.Archive(ctx, f); return err })
	}
	for _, u := range []db.User{heavy, ordinary} {
		name := "profile/dashboard of " + u.Name
		run(name, func() error {
			if _, err := store.PlayerRecords(ctx, u.ID); err != nil {
				return err
			}
			gs, err := store.ActiveGames(ctx, u.ID)
			if err != nil {
				return err
			}
			fin, err := store.FinishedGames(ctx, u.ID, 10)
			if err != nil {
				return err
			}
			var ids []int64
			for _, g := range append(gs, fin...) {
				ids = append(ids, g.ID)
				if _, err := store.GameRatings(ctx, g, t0); err != nil {
					return err
				}
			}
			if _, err := store.RatingChanges(ctx, ids); err != nil {
				return err
			}
			for _, fin := range []bool{false, true} {
				if _, err := store.Matches(ctx, db.MatchFilter{UserID: u.ID, Finished: fin, Multi: [][2]string{{"trench", "match"}}, Limit: 10}); err != nil {
					return err
				}
			}
			if _, err := store.Ratings(ctx, u.ID, t0); err != nil {
				return err
			}
			for _, g := range []string{"trench", "trenches", "cards"} {
				if _, err := store.RatingHistory(ctx, u.ID, g, 200); err != nil {
					return err
				}
			}
			if _, err := store.ChallengesBy(ctx, u.ID); err != nil {
				return err
			}
			if _, err := store.OpenChallenges(ctx, u.ID); err != nil {
				return err
			}
			if _, err := store.UnreadMessages(ctx, u.ID); err != nil {
				return err
			}
			if _, err := store.WaitingGames(ctx, u.ID); err != nil {
				return err
			}
			_, err = store.Clocks(ctx, gs, t0)
			return err
		})
	}
	run("leaderboard", func() error {
		for _, g := range []string{"trench", "trenches", "cards"} {
			_, c, err := store.Leaderboard(ctx, g, t0, 0, 50)
			if err != nil {
				return err
			}
			// The last established lines and the first provisional ones;
			// a provisional page.
			if _, _, err := store.Leaderboard(ctx, g, t0, max(0, c.Established-10), 50); err != nil {
				return err
			}
			if _, _, err := store.Leaderboard(ctx, g, t0, c.Established+50, 50); err != nil {
				return err
			}
			// The last page, read from the end.
			if _, _, err := store.Leaderboard(ctx, g, t0, max(0, c.Lines()-30), 50); err != nil {
				return err
			}
			for _, u := range []db.User{heavy, ordinary} {
				if _, _, err := store.LeaderboardRank(ctx, g, u.ID, t0); err != nil {
					return err
				}
			}
		}
		return nil
	})
	run("directory", func() error {
		for _, q := range []string{"", "ad", "zoe1"} {
			_, total, err := store.Players(ctx, q, t0, 0, 50)
			if err != nil {
				return err
			}
			// A page near the end, read from it; one in the middle, from
			// the marks.
			if _, _, err := store.Players(ctx, q, t0, max(0, total-60), 50); err != nil {
				return err
			}
			if _, _, err := store.Players(ctx, q, t0, total/2/50*50, 50); err != nil {
				return err
			}
		}
		return nil
	})
	run("admin", func() error {
		if _, err := store.Figures(ctx, t0); err != nil {
			return err
		}
		if _, err := store.SearchUsers(ctx, "ada"); err != nil {
			return err
		}
		if _, err := store.AllOpenChallenges(ctx); err != nil {
			return err
		}
		_, err := store.Reports(ctx)
		return err
	})
	run("tournaments", func() error {
		if _, _, err := store.Tournaments(ctx, 2); err != nil {
			return err
		}
		ts, _, err := store.Tournaments(ctx, 1)
		if err != nil {
			return err
		}
		_, err = store.Tournament(ctx, ts[0].ID)
		return err
	})
	stop()
	done := map[string]bool{}
	for _, q := range seen {
		// The plan may depend on the values (SQLite's STAT4): each
		// query is explained with every set of values it ran with.
		key := q.query + fmt.Sprint(q.args...)
		if done[key] {
			continue
		}
		done[key] = true
		rows, err := db.ReadPool(store).QueryContext(ctx, "EXPLAIN QUERY PLAN "+q.query, q.args...)
		if err != nil {
			t.Fatalf("%s: %v", q.query, err)
		}
		var plan []string
		var inner []bool
		sub := map[int]bool{} // the nodes inside a subquery run apart
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			sub[id] = sub[parent] || strings.HasPrefix(detail, "MATERIALIZE") || strings.HasPrefix(detail, "CO-ROUTINE")
			plan = append(plan, detail)
			inner = append(inner, sub[parent])
		}
		rows.Close()
		if bad := planProblems(q.query, plan, inner); len(bad) > 0 {
			t.Errorf("%s: %v\n%s\n  plan:\n    %s\n  %s", q.page, q.args, strings.Join(strings.Fields(q.query), " "), strings.Join(plan, "\n    "), strings.Join(bad, "; "))
		}
	}
}

// boundedSorts are queries that sort in a temporary B-tree to keep a
// few rows, and why the rows sorted are few.
var boundedSorts = map[string]string{
	"WHERE g.id IN ( SELECT id FROM (SELECT id FROM games WHERE side0_id": "at most twice the limit: the latest of each side, each read in order",
	"SELECT id FROM (SELECT * FROM (SELECT m.id,":                         "at most the limit per part: each part read in order",
	") ORDER BY g.ended_at DESC, g.id DESC":                               "the games of one page, by id",
	"FROM messages WHERE to_id = ? AND read_at IS NULL GROUP BY game_id":  "a player's unread messages",
	"SELECT rated, 0 AS o, id AS k FROM challenges WHERE match_id = ?1":   "the challenge and tournament of one match",
	"WHERE c.status = 'open' AND c.creator_id = ?":                        "a player's open challenges",
}

// offsetReads are queries whose OFFSET skips rows, not index entries,
// and why they are few.
var offsetReads = map[string]string{
	"FROM tournaments t JOIN users u ON u.id = t.organiser_id WHERE t.status IN ('finished', 'cancelled')": "finished tournaments are few (about a thousand after years), read by id from the newest",
	"WITH RECURSIVE mark(name) AS": "the directory's marks: each OFFSET skips entries of the names' index (the rows scanned are the recursion's own), every name once, then remembered while no account is added, changed or deleted",
}

// fullReads are queries that read a large table from end to end, and why
// that is acceptable.
var fullReads = map[string]string{}

// playerRows is a plan's read of a player's games or rating changes
// through the index by player (with the game's status, none or one);
// rangeRows a plan's read of games in a range of an index.
var (
	// rowValueBound is a comparison of two columns with two values at
	// once: (a, b) < (?, ?).
	rowValueBound = regexp.MustCompile(`\(\s*[\w.]+\s*,\s*[\w.]+\s*\)\s*[<>]=?\s*\(`)
	playerRows    = regexp.MustCompile(`^SEARCH (?:\w+ )?USING (?:COVERING )?INDEX (games_side[01]|rating_changes_user) \((?:side[01]_|user_)id=\?( AND status=\?)?\)$`)
	rangeRows     = regexp.MustCompile(`^SEARCH (?:games|g) USING (?:COVERING )?INDEX \w+ \(.*[<>]\?\)$`)
)

// planProblems says what is wrong with the plan of query ("" for
// nothing): a large table read from end to end (a scan, or a walk along
// a whole index when no LIMIT stops it), with a LIMIT a temporary B-tree
// (many rows sorted to keep a few), and with an OFFSET a row or a join
// read for each line skipped. inner[i] says the plan's line i runs in a
// subquery of its own (materialized, or a co-routine).
func planProblems(query string, plan []string, inner []bool) []string {
	flat := strings.Join(strings.Fields(query), " ")
	// (The takebacks of a game's challenge are read with a LIMIT 1.)
	limited := strings.Contains(strings.ReplaceAll(flat, "ORDER BY c.id LIMIT 1", ""), "LIMIT")
	excused := func(m map[string]string) bool {
		for frag := range m {
			if strings.Contains(flat, frag) {
				return true
			}
		}
		return false
	}
	var out []string
	// The archive's parts are each read in index order: only what they
	// return is sorted, never the games they read.
	if strings.HasPrefix(flat, "SELECT g.ended_at, g.id FROM games g WHERE") {
		for i := 1; i < len(plan); i++ {
			if strings.Contains(plan[i], "TEMP B-TREE") && (strings.HasPrefix(plan[i-1], "SEARCH g ") || strings.HasPrefix(plan[i-1], "SCAN g ")) {
				out = append(out, "sorts the archive's games instead of reading them in order")
			}
		}
	}
	// An archive page's games and a leaderboard's lines are read from
	// indexes that hold every column they show (games_archive_rows,
	// ratings_rank): no row of games or ratings is read for them.
	if strings.Contains(flat, "INDEXED BY games_archive_rows") || strings.HasPrefix(flat, "SELECT k.user_id, u.name, k.rating") {
		for _, line := range plan {
			if (strings.HasPrefix(line, "SEARCH g ") || strings.HasPrefix(line, "SEARCH r ")) && !strings.Contains(line, "COVERING INDEX") {
				out = append(out, "reads rows an index holds all of ("+line+")")
			}
		}
	}
	// An OFFSET skips its lines where they are read: from an index
	// alone, in a subquery of its own when the page's lines join others.
	if strings.Contains(flat, "OFFSET") {
		subqueries := slices.ContainsFunc(plan, func(l string) bool {
			return strings.HasPrefix(l, "MATERIALIZE") || strings.HasPrefix(l, "CO-ROUTINE")
		})
		for i, line := range plan {
			reads := strings.HasPrefix(line, "SEARCH") || strings.HasPrefix(line, "SCAN") && !strings.HasPrefix(line, "SCAN (subquery")
			if reads && (inner[i] || !subqueries) && !strings.Contains(line, "COVERING INDEX") && !excused(offsetReads) {
				out = append(out, "reads a row for each line an OFFSET skips ("+line+")")
			}
		}
	}
	// SQLite seeks a row value such as (ended_at, id) < (?, ?) by its
	// first column alone: bounded by one, a page walks every row that
	// shares that column's value with its bound.
	if rowValueBound.MatchString(flat) {
		out = append(out, "bounds a range by a row value, which SQLite seeks by its first column alone")
	}
	correlated := false
	for _, line := range plan {
		// A correlated subquery runs once a row: a LIMIT does not bound
		// what each run reads.
		correlated = correlated || strings.Contains(line, "CORRELATED")
		if (!limited || correlated) && !excused(fullReads) {
			if m := playerRows.FindStringSubmatch(line); m != nil && (m[2] == "" || strings.Contains(flat, "'finished'")) {
				what := "game"
				if m[1] == "rating_changes_user" {
					what = "rating change"
				}
				out = append(out, "reads every "+what+" of a player, however many")
			}
			if rangeRows.MatchString(line) {
				out = append(out, "reads a range of games, however many")
			}
		}
		// The archive's count of a filter without a player reads up to
		// ArchiveCountCap games: from their index entries alone, not
		// each game's row (and its match's).
		// So do the leaderboard's counts of ratings.
		if (strings.HasPrefix(flat, "SELECT COUNT(*) FROM (SELECT 1 FROM games") && !strings.Contains(flat, "side0_id") ||
			strings.HasPrefix(flat, "SELECT COUNT(*) FROM ratings")) &&
			(strings.HasPrefix(line, "SEARCH") || strings.HasPrefix(line, "SCAN")) && !strings.Contains(line, "COVERING INDEX") &&
			!strings.HasPrefix(line, "SCAN (subquery") {
			out = append(out, "counts from the rows, not from an index")
		}
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "SCAN" && slices.Contains(largeTables, f[1]) && !excused(fullReads) {
			if len(f) == 2 || !limited {
				out = append(out, "reads "+f[1]+" from end to end")
			}
		}
		if strings.Contains(line, "TEMP B-TREE") && limited && !excused(boundedSorts) && !excused(fullReads) {
			out = append(out, "sorts many rows in a temporary B-tree to keep a few")
		}
	}
	return out
}
