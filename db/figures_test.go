package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// wantFiguresAgree fails unless what the triggers keep (the players'
// records, their last game, the rating changes' game and time, the
// matches' variants on their games, the counters) is what the games
// themselves say.
func wantFiguresAgree(t *testing.T, store *db.DB, when string) {
	t.Helper()
	ctx := context.Background()
	checks := []struct{ what, query string }{
		{"records", `SELECT COUNT(*) FROM (
			SELECT user_id, game, SUM(won) w, SUM(lost) l, SUM(drawn) d, COUNT(*) n FROM (
				SELECT side0_id AS user_id, game, winner = 0 AS won, winner = 1 AS lost, winner = -1 AS drawn FROM games
					WHERE status = 'finished' AND NOT (ply < 2 AND reason IN ('armistice', 'resignation'))
				UNION ALL SELECT side1_id, game, winner = 1, winner = 0, winner = -1 FROM games
					WHERE status = 'finished' AND NOT (ply < 2 AND reason IN ('armistice', 'resignation')) AND side1_id != side0_id)
			GROUP BY user_id, game
			EXCEPT SELECT user_id, game, wins, losses, draws, games FROM player_records WHERE games > 0)`},
		{"records kept of no game", `SELECT COUNT(*) FROM player_records r WHERE games > 0 AND NOT EXISTS (SELECT 1 FROM games g
			WHERE g.status = 'finished' AND g.game = r.game AND (g.side0_id = r.user_id OR g.side1_id = r.user_id))`},
		{"last played", `SELECT COUNT(*) FROM users u WHERE last_played != COALESCE((SELECT MAX(updated_at) FROM games
			WHERE side0_id = u.id OR side1_id = u.id), 0)`},
		{"rating changes", `SELECT COUNT(*) FROM rating_changes c JOIN games g ON g.id = c.game_id
			WHERE c.game != g.game OR c.at != COALESCE(g.ended_at, g.updated_at)`},
		{"match variants", `SELECT COUNT(*) FROM games g JOIN matches m ON m.id = g.match_id
			WHERE COALESCE(g.match_variant, g.variant) != m.variant`},
		{"players", `SELECT (SELECT n FROM counters WHERE name = 'players') - COUNT(*) FROM users
			WHERE deleted_at IS NULL AND computer_level IS NULL`},
		{"games in progress", `SELECT (SELECT n FROM counters WHERE name = 'active_games') - COUNT(*) FROM games WHERE status = 'active'`},
		{"accounts", `SELECT (SELECT n FROM counters WHERE name = 'users') - COUNT(*) FROM users`},
		{"players of each day", `SELECT COUNT(*) FROM (
			SELECT * FROM (SELECT last_played / 86400, COUNT(*) FROM users WHERE last_played > 0 GROUP BY 1
				EXCEPT SELECT day, players FROM last_played_days WHERE players != 0)
			UNION ALL SELECT * FROM (SELECT day, players FROM last_played_days WHERE players != 0
				EXCEPT SELECT last_played / 86400, COUNT(*) FROM users WHERE last_played > 0 GROUP BY 1))`},
	}
	for _, c := range checks {
		var n int
		if err := db.ReadPool(store).QueryRowContext(ctx, c.query).Scan(&n); err != nil {
			t.Fatalf("%s: %s: %v", when, c.what, err)
		}
		if n != 0 {
			t.Errorf("%s: %s: %d disagree with the games", when, c.what, n)
		}
	}
}

// TestPageFiguresFollowTheGames: the profile's records, the directory's
// last game, the rating charts' rows, the archive's rules and the admin's
// counts are kept as games are stored, finished, resigned and accounts
// deleted, and agree with the games they come from.
func TestPageFiguresFollowTheGames(t *testing.T) {
	ctx := context.Background()
	path, res := fill(t, 1500)
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	wantFiguresAgree(t, store, "filled")
	heavy, err := store.UserByName(ctx, res.Heaviest)
	if err != nil {
		t.Fatal(err)
	}
	records, err := store.PlayerRecords(ctx, heavy.ID)
	if err != nil || len(records) == 0 {
		t.Fatalf("records of %s: %+v %v", heavy.Name, records, err)
	}
	// New players play rated games, resign and are deleted.
	us := users(t, store, "pat", "quinn", "ray")
	at := t0.Add(time.Hour)
	playRated(t, store, us[0], us[1], us[0], at)
	playRated(t, store, us[1], us[2], us[2], at.Add(time.Hour))
	playRated(t, store, us[0], us[2], us[0], at.Add(2*time.Hour))
	wantFiguresAgree(t, store, "after three rated games")
	if r, err := store.PlayerRecords(ctx, us[0].ID); err != nil || len(r) != 1 || r[0] != (db.Record{Game: "trenches", Wins: 2}) {
		t.Errorf("pat's record: %+v %v, want 2 Trenches wins", r, err)
	}
	if r, err := store.PlayerRecords(ctx, us[2].ID); err != nil || len(r) != 1 || r[0] != (db.Record{Game: "trenches", Wins: 1, Losses: 1}) {
		t.Errorf("ray's record: %+v %v, want a Trenches win and a loss", r, err)
	}
	if rows, _, err := store.Players(ctx, "quinn", at.Add(3*time.Hour), 0, 1); err != nil || len(rows) != 1 || !rows[0].LastActive.Equal(at.Add(time.Hour)) {
		t.Errorf("quinn in the directory: %+v %v, want her last game %v", rows, err, at.Add(time.Hour))
	}
	// A game in progress, then the account deleted: it is resigned.
	g, a, _ := newGame(t, store, "trench", "single")
	wantFiguresAgree(t, store, "a game started")
	if err := store.DeleteAccount(ctx, a.ID, at.Add(4*time.Hour)); err != nil {
		t.Fatal(err)
	}
	wantFiguresAgree(t, store, "an account deleted")
	if got, err := store.Game(ctx, g.ID); err != nil || got.Status != "finished" {
		t.Fatalf("the deleted player's game: %+v %v", got.Status, err)
	}
	f, err := store.Figures(ctx, at.Add(5*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if f.ActivePlayers < 4 {
		t.Errorf("figures: %d players active in the last 30 days, want the new ones at least", f.ActivePlayers)
	}
	// The count of active players, at moments in and between days, is
	// the players whose last game is less than 30 days old.
	for _, now := range []time.Time{t0, at.Add(5 * time.Hour), t0.Add(-20*24*time.Hour + 13*time.Hour + 7*time.Minute),
		t0.Add(10*24*time.Hour + 86399*time.Second), t0.Add(29 * 24 * time.Hour), t0.Add(45 * 24 * time.Hour)} {
		f, err := store.Figures(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		var want int
		if err := db.ReadPool(store).QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE last_played > ?`,
			now.Add(-30*24*time.Hour).Unix()).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if f.ActivePlayers != want || want == 0 && now.Before(t0.Add(24*time.Hour)) {
			t.Errorf("figures at %v: %d players active in the last 30 days, want %d", now, f.ActivePlayers, want)
		}
	}
}
