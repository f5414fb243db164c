package db_test

import (
	"context"
	"database/sql"
	"math"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

// startMatch has a challenge from creator (side 0 in game 1) to opponent
// accepted and returns the first game.
func startMatch(t *testing.T, store *db.DB, creator, opponent db.User, game, variant string, rated bool) db.Game {
	t.Helper()
	ctx := context.Background()
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: creator.ID, Opponent: opponent.Name, Game: game, Variant: variant,
		Color: "0", DaysPerMove: 3, Rated: rated}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if c.Rated != rated {
		t.Fatalf("challenge stored with rated = %v, want %v", c.Rated, rated)
	}
	id, err := store.AcceptChallenge(ctx, c.ID, opponent.ID, 7, t0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playOpening plays one legal move for each side, so that g is no longer
// abortable and its result is rated.
func playOpening(t *testing.T, store *db.DB, g db.Game) db.Game {
	t.Helper()
	return playOpeningAt(t, store, g, t0)
}

// playOpeningAt is playOpening with the moves made at when.
func playOpeningAt(t *testing.T, store *db.DB, g db.Game, when time.Time) db.Game {
	t.Helper()
	for g.Ply < 2 {
		st, err := g.Decode()
		if err != nil {
			t.Fatal(err)
		}
		g, err = store.PlayMove(context.Background(), db.Play{GameID: g.ID, UserID: playerOf(g, g.ToMove), Ply: g.Ply, Move: st.Legal(g.ToMove)[0]}, when)
		if err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// resignAs ends g by loser's resignation.
func resignAs(t *testing.T, store *db.DB, g db.Game, loser db.User) db.Game {
	t.Helper()
	g, err := store.Resign(context.Background(), g.ID, loser.ID, g.Ply, t0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func rating(t *testing.T, store *db.DB, u db.User, game string) db.PlayerRating {
	t.Helper()
	r, err := store.Rating(context.Background(), u.ID, game, t0)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func approx(a, b float64) bool { return math.Abs(a-b) < 0.05 }

func TestRatedGameUpdatesBothPlayers(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	g := startMatch(t, store, u[0], u[1], "trench", "single", true)
	if r := rating(t, store, u[0], "trench"); r.Rating != 1500 || r.RD != 350 || r.Volatility != 0.06 || r.Games != 0 {
		t.Fatalf("a new player's rating is %+v, want 1500/350/0.06 and no games", r)
	}
	g = resignAs(t, store, playOpening(t, store, g), u[1]) // ann wins
	ann, bob := rating(t, store, u[0], "trench"), rating(t, store, u[1], "trench")
	// Both new: the winner gains what the loser loses, about 162 points.
	if !approx(ann.Rating, 1662.31) || !approx(bob.Rating, 1337.69) {
		t.Fatalf("after ann beat bob: ann %.2f, bob %.2f; want about 1662.31 and 1337.69", ann.Rating, bob.Rating)
	}
	if ann.Games != 1 || bob.Games != 1 || !approx(ann.RD, 290.32) || ann.RD != bob.RD {
		t.Fatalf("ann %+v, bob %+v", ann, bob)
	}
	gr, err := store.GameRatings(context.Background(), g, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !gr.Rated || !gr.Changed || gr.Change[0].RatingBefore != 1500 || !approx(gr.Change[0].RatingAfter, ann.Rating) ||
		gr.Change[1].UserID != u[1].ID || !approx(gr.Change[1].RatingAfter, bob.Rating) {
		t.Fatalf("the game's rating change is %+v", gr)
	}
	list, err := store.Ratings(context.Background(), u[0].ID, t0)
	if err != nil || len(list) != 1 || list[0].Game != "trench" {
		t.Fatalf("ann's ratings: %+v, %v", list, err)
	}
}

func TestUnratedGameLeavesRatingsAlone(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	// A rated game first, then an unrated one: only the first counts.
	resignAs(t, store, playOpening(t, store, startMatch(t, store, u[0], u[1], "trench", "single", true)), u[1])
	before := rating(t, store, u[0], "trench")
	g := resignAs(t, store, startMatch(t, store, u[0], u[1], "trench", "single", false), u[0])
	if after := rating(t, store, u[0], "trench"); after != before {
		t.Fatalf("an unrated game changed ann's rating: %+v → %+v", before, after)
	}
	gr, err := store.GameRatings(context.Background(), g, t0)
	if err != nil {
		t.Fatal(err)
	}
	if gr.Rated || gr.Changed {
		t.Fatalf("the unrated game reports %+v", gr)
	}
}

func TestRatingsArePerGame(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	resignAs(t, store, playOpening(t, store, startMatch(t, store, u[0], u[1], "trench", "single", true)), u[1])     // ann wins TRENCH
	resignAs(t, store, playOpening(t, store, startMatch(t, store, u[0], u[1], "trenches", "standard", true)), u[0]) // bob wins Trenches
	if r := rating(t, store, u[0], "trench"); r.Rating <= 1500 || r.Games != 1 {
		t.Errorf("ann's TRENCH rating %+v, want above 1500 after one game", r)
	}
	if r := rating(t, store, u[0], "trenches"); r.Rating >= 1500 || r.Games != 1 {
		t.Errorf("ann's Trenches rating %+v, want below 1500 after one game", r)
	}
	if r := rating(t, store, u[1], "trenches"); r.Rating <= 1500 || r.Games != 1 {
		t.Errorf("bob's Trenches rating %+v, want above 1500", r)
	}
	if r := rating(t, store, u[0], "cards"); r.Games != 0 || r.Rating != 1500 {
		t.Errorf("ann's card game rating %+v, want a new player's", r)
	}
	list, _ := store.Ratings(context.Background(), u[1].ID, t0)
	if len(list) != 2 || list[0].Game != "trench" || list[1].Game != "trenches" {
		t.Errorf("bob's ratings %+v, want trench and trenches", list)
	}
}

func TestDrawScoresHalf(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	g := playOpening(t, store, startMatch(t, store, u[0], u[1], "trench", "single", true))
	ctx := context.Background()
	if _, err := store.OfferArmistice(ctx, g.ID, u[0].ID, g.Ply, t0); err != nil {
		t.Fatal(err)
	}
	if g, err := store.AnswerArmistice(ctx, g.ID, u[1].ID, g.Ply, true, t0); err != nil || g.Winner != rules.NoSide {
		t.Fatalf("armistice: winner %v, %v; want a draw", g.Winner, err)
	}
	ann, bob := rating(t, store, u[0], "trench"), rating(t, store, u[1], "trench")
	if !approx(ann.Rating, 1500) || !approx(bob.Rating, 1500) || ann.RD >= 350 || ann.Games != 1 {
		t.Fatalf("after a draw between new players: ann %+v, bob %+v", ann, bob)
	}
}

// TestAMatchIsRatedOnceByItsResult: a TRENCH match of two games is one
// result, rated when the match ends, by who won the match: nothing
// changes after its first game, and each player's rating counts one
// game, recorded with the match's last game.
func TestAMatchIsRatedOnceByItsResult(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	u := users(t, store, "ann", "bob")
	g1 := playOpening(t, store, startMatch(t, store, u[0], u[1], "trench", "match", true))
	resignAs(t, store, g1, u[1])
	for _, p := range u {
		if r := rating(t, store, p, "trench"); r.Games != 0 || r.Rating != 1500 {
			t.Fatalf("after game 1 of the match %s's rating is %+v, want it untouched until the match ends", p.Name, r)
		}
	}
	m, err := store.Match(ctx, g1.MatchID)
	if err != nil || m.Status != "active" {
		t.Fatalf("match %+v, %v: want it to go on", m, err)
	}
	active, err := store.ActiveGames(ctx, u[0].ID)
	if err != nil || len(active) != 1 || active[0].MatchID != g1.MatchID {
		t.Fatalf("the match's second game: %+v, %v", active, err)
	}
	g2 := resignAs(t, store, playOpening(t, store, active[0]), u[1])
	if m, err := store.Match(ctx, g1.MatchID); err != nil || m.Status != "finished" || m.Winner != 0 {
		t.Fatalf("after bob resigned both games the match is %+v (%v), want it won by ann", m, err)
	}
	ann, bob := rating(t, store, u[0], "trench"), rating(t, store, u[1], "trench")
	if ann.Games != 1 || bob.Games != 1 || ann.Rating <= 1500 || bob.Rating >= 1500 {
		t.Fatalf("after the match ann is %+v and bob %+v, want one rated result each, won by ann", ann, bob)
	}
	var games []int64
	rows, err := rawDB(t, path).Query(`SELECT DISTINCT game_id FROM rating_changes`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		games = append(games, id)
	}
	if len(games) != 1 || games[0] != g2.ID {
		t.Fatalf("rating changes recorded with games %v, want only the match's last game %d", games, g2.ID)
	}
}

// rawDB opens the database file beside the store, to plant a fault.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

// TestRatingFailureKeepsNoResult: when the rating update fails, the
// result is not stored either.
func TestRatingFailureKeepsNoResult(t *testing.T) {
	store, path := open(t)
	u := users(t, store, "ann", "bob")
	g := playOpening(t, store, startMatch(t, store, u[0], u[1], "trench", "single", true))
	raw := rawDB(t, path)
	if _, err := raw.Exec(`CREATE TRIGGER no_rating BEFORE INSERT ON rating_changes BEGIN SELECT RAISE(ABORT, 'planted fault'); END`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Resign(context.Background(), g.ID, u[1].ID, g.Ply, t0); err == nil {
		t.Fatal("the resignation went through although its rating update failed")
	}
	after, err := store.Game(context.Background(), g.ID)
	if err != nil || after.Finished() {
		t.Fatalf("the game is %q (%v): a result was stored without its rating change", after.Status, err)
	}
	if r := rating(t, store, u[0], "trench"); r.Games != 0 {
		t.Fatalf("ann's rating changed: %+v", r)
	}
	if _, err := raw.Exec(`DROP TRIGGER no_rating`); err != nil {
		t.Fatal(err)
	}
	resignAs(t, store, after, u[1])
	if r := rating(t, store, u[0], "trench"); r.Games != 1 {
		t.Fatalf("after the retried resignation ann's rating is %+v", r)
	}
}

// TestFailedFinishLeavesRatingsUntouched: when the next game of the match
// cannot start, the result is rolled back and no rating changes.
func TestFailedFinishLeavesRatingsUntouched(t *testing.T) {
	store, path := open(t)
	u := users(t, store, "ann", "bob")
	g := playOpening(t, store, startMatch(t, store, u[0], u[1], "trench", "match", true))
	raw := rawDB(t, path)
	if _, err := raw.Exec(`CREATE TRIGGER no_game_2 BEFORE INSERT ON games WHEN NEW.number = 2 BEGIN SELECT RAISE(ABORT, 'planted fault'); END`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Resign(context.Background(), g.ID, u[1].ID, g.Ply, t0); err == nil {
		t.Fatal("the resignation went through although the next game could not start")
	}
	for _, p := range u {
		if r := rating(t, store, p, "trench"); r.Games != 0 || r.Rating != 1500 {
			t.Fatalf("%s's rating is %+v after a failed finish, want it untouched", p.Name, r)
		}
	}
	var n int
	if err := raw.QueryRow(`SELECT COUNT(*) FROM rating_changes`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d rating changes stored (%v), want none", n, err)
	}
}

// TestRDWidensWithoutGames: a rating's RD grows with the time since the
// player's last rated game in that game, one Glicko-2 rating period per
// 1/0.21436 days (about 4.67), and the widened RD is what the next rated
// game starts from. Worked by hand: after two new players' first game
// both have RD 290.319 and σ 0.0599997; 100 days later that is 21.436
// periods, φ² = (290.319 / 173.7178)² = 2.792970, + 21.436 × 0.0036 =
// 2.870137, √ × 173.7178 = 294.30.
func TestRDWidensWithoutGames(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	u := users(t, store, "ann", "bob", "cid")
	resignAs(t, store, playOpening(t, store, startMatch(t, store, u[0], u[1], "trench", "single", true)), u[1])
	later := t0.Add(100 * 24 * time.Hour)
	if r, err := store.Rating(ctx, u[0].ID, "trench", t0); err != nil || math.Abs(r.RD-290.32) > 0.01 {
		t.Fatalf("RD right after the game %.2f (%v), want 290.32", r.RD, err)
	}
	r, err := store.Rating(ctx, u[0].ID, "trench", later)
	if err != nil || math.Abs(r.RD-294.30) > 0.01 || math.Abs(r.Rating-1662.31) > 0.01 {
		t.Fatalf("100 days later: %.2f ± %.2f (%v), want 1662.31 ± 294.30", r.Rating, r.RD, err)
	}
	list, err := store.Ratings(ctx, u[1].ID, later)
	if err != nil || len(list) != 1 || math.Abs(list[0].RD-294.30) > 0.01 {
		t.Fatalf("bob's ratings 100 days later: %+v (%v), want RD 294.30", list, err)
	}
	// A new player's RD stays at 350.
	if r, _ := store.Rating(ctx, u[2].ID, "trench", later); r.RD != 350 {
		t.Fatalf("a new player's RD is %.2f", r.RD)
	}
	// The next rated game starts from the widened RD.
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: u[0].ID, Opponent: "bob", Game: "trench", Variant: "single",
		Color: "0", DaysPerMove: 3, Rated: true}, later)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptChallenge(ctx, c.ID, u[1].ID, 7, later)
	if err != nil {
		t.Fatal(err)
	}
	g, err := store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	g = playOpeningAt(t, store, g, later)
	if g, err = store.Resign(ctx, id, u[1].ID, g.Ply, later); err != nil {
		t.Fatal(err)
	}
	gr, err := store.GameRatings(ctx, g, later)
	if err != nil {
		t.Fatal(err)
	}
	for i, ch := range gr.Change {
		if math.Abs(ch.RDBefore-294.30) > 0.01 {
			t.Errorf("side %d's RD before the second game %.2f, want 294.30", i, ch.RDBefore)
		}
	}
}

// TestAbortedGameIsNotRated: a game that ends before both sides have
// moved (an armistice at ply 0, a resignation at ply 1) changes no rating
// and counts in no record.
func TestAbortedGameIsNotRated(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	ctx := context.Background()
	g := startMatch(t, store, u[0], u[1], "trench", "single", true)
	if _, err := store.OfferArmistice(ctx, g.ID, u[0].ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	g, err := store.AnswerArmistice(ctx, g.ID, u[1].ID, 0, true, t0)
	if err != nil || !g.Aborted() {
		t.Fatalf("armistice at ply 0: %+v, %v; want an aborted game", g, err)
	}
	g = startMatch(t, store, u[0], u[1], "trench", "single", true)
	st, _ := g.Decode()
	g, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: u[0].ID, Ply: 0, Move: st.Legal(g.ToMove)[0]}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if g = resignAs(t, store, g, u[1]); !g.Aborted() {
		t.Fatalf("resignation at ply 1: %+v; want an aborted game", g)
	}
	for _, p := range u {
		if r := rating(t, store, p, "trench"); r.Games != 0 || r.Rating != 1500 {
			t.Errorf("%s's rating after two aborted games: %+v", p.Name, r)
		}
		if recs, err := store.PlayerRecords(ctx, p.ID); err != nil || len(recs) != 0 {
			t.Errorf("%s's records after two aborted games: %+v, %v", p.Name, recs, err)
		}
	}
}
