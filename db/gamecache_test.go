package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

// screen reads what a game page reads (the game, its moves, its match),
// twice: the second time from memory; both must agree.
func screen(t *testing.T, store *db.DB, id int64) (db.Game, []db.Move, db.Match) {
	t.Helper()
	ctx := context.Background()
	var g [2]db.Game
	var ms [2][]db.Move
	var m [2]db.Match
	for i := range 2 {
		var err error
		if g[i], err = store.Game(ctx, id); err != nil {
			t.Fatal(err)
		}
		if ms[i], err = store.Moves(ctx, id); err != nil {
			t.Fatal(err)
		}
		if m[i], err = store.Match(ctx, g[i].MatchID); err != nil {
			t.Fatal(err)
		}
	}
	if g[0] != g[1] || len(ms[0]) != len(ms[1]) || m[0] != m[1] {
		t.Fatalf("the remembered game differs from the one read: %+v %+v", g[0], g[1])
	}
	return g[1], ms[1], m[1]
}

// TestRememberedGamesFollowEveryWrite: a game read from memory is the
// stored one after a move, a stale move (refused, nothing changed), an
// armistice offer, a rename of nothing, a timeout, a resignation and an
// account's deletion, and after a move made by another process.
func TestRememberedGamesFollowEveryWrite(t *testing.T) {
	ctx := context.Background()
	store, path := open(t)
	g, ann, bob := newGame(t, store, "trench", "single")
	play := func(g db.Game) db.Game {
		t.Helper()
		st, err := g.Decode()
		if err != nil {
			t.Fatal(err)
		}
		next, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: st.Legal(g.ToMove)[0]}, t0)
		if err != nil {
			t.Fatal(err)
		}
		return next
	}
	screen(t, store, g.ID)
	g1 := play(g)
	if got, ms, _ := screen(t, store, g.ID); got.Ply != 1 || len(ms) != 1 || got.State != g1.State {
		t.Fatalf("after a move: ply %d, %d moves", got.Ply, len(ms))
	}
	// The same submit again (a double click): a conflict, nothing changed.
	st, _ := g.Decode()
	_, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: g.Side[g.ToMove].ID, Ply: 0, Move: st.Legal(g.ToMove)[0]}, t0)
	if db.KindOf(err) != db.KindConflict {
		t.Fatalf("a stale move: %v, want a conflict", err)
	}
	if got, ms, _ := screen(t, store, g.ID); got.Ply != 1 || len(ms) != 1 {
		t.Fatalf("after a refused move: ply %d, %d moves", got.Ply, len(ms))
	}
	if _, err := store.OfferArmistice(ctx, g.ID, g1.Side[g1.ToMove].ID, 1, t0); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := screen(t, store, g.ID); got.ArmisticeBy != g1.ToMove {
		t.Fatalf("after an armistice offer: %v", got.ArmisticeBy)
	}

	// Another process moves: seen within a second.
	other, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	og, err := other.Game(ctx, g.ID)
	if err == nil {
		st, _ := og.Decode()
		_, err = other.PlayMove(ctx, db.Play{GameID: g.ID, UserID: og.Side[og.ToMove].ID, Ply: og.Ply, Move: st.Legal(og.ToMove)[0]}, t0)
	}
	other.Close()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Second); ; time.Sleep(20 * time.Millisecond) {
		if got, ms, _ := screen(t, store, g.ID); got.Ply == 2 && len(ms) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a move made by another process is not seen after a second")
		}
	}

	// A timeout ends the game: its page and its match say so.
	store.SetVacationDays(0) // time running out would start a vacation first
	if n, err := store.ExpireGames(ctx, t0.Add(400*24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("expire: %d %v", n, err)
	}
	if got, _, m := screen(t, store, g.ID); !got.Finished() || got.Reason != rules.ReasonTimeout || m.Status != "finished" {
		t.Fatalf("after the timeout: %s %s, match %s", got.Status, got.Reason, m.Status)
	}

	// A resignation, and an account's deletion (its games resigned, its
	// name replaced), in a second game.
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: ann.ID, Opponent: bob.Name, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	id2, err := store.AcceptChallenge(ctx, c.ID, bob.ID, 7, t0)
	if err != nil {
		t.Fatal(err)
	}
	g2, _, _ := screen(t, store, id2)
	play(g2)
	screen(t, store, id2)
	if err := store.DeleteAccount(ctx, bob.ID, t0); err != nil {
		t.Fatal(err)
	}
	got, _, m := screen(t, store, id2)
	if !got.Finished() || got.Reason != rules.ReasonResigned {
		t.Fatalf("after the deletion: %s %s", got.Status, got.Reason)
	}
	for _, name := range []string{got.Side[0].Name, got.Side[1].Name, m.Player[0].Name, m.Player[1].Name} {
		if name == bob.Name {
			t.Fatalf("the deleted account's name %q is still shown", name)
		}
	}
}

// TestRememberedTurnCounts: the count of games waiting for a player's
// move and the next one, read from memory, follow the moves, a new game
// and its end.
func TestRememberedTurnCounts(t *testing.T) {
	ctx := context.Background()
	store, _ := open(t)
	g, ann, bob := newGame(t, store, "trench", "single")
	want := func(what string, annTurns, bobTurns int, annNext int64) {
		t.Helper()
		for range 2 { // the second answer from memory
			a, err1 := store.TurnCount(ctx, ann.ID)
			b, err2 := store.TurnCount(ctx, bob.ID)
			n, err3 := store.NextWaiting(ctx, ann.ID, 0)
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatal(err1, err2, err3)
			}
			if a != annTurns || b != bobTurns || n != annNext {
				t.Fatalf("%s: ann %d bob %d, ann's next game %d; want %d %d %d", what, a, b, n, annTurns, bobTurns, annNext)
			}
		}
	}
	want("a new game", 1, 0, g.ID)
	st, _ := g.Decode()
	g, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: st.Legal(g.ToMove)[0]}, t0)
	if err != nil {
		t.Fatal(err)
	}
	want("after ann's move", 0, 1, 0)
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: bob.ID, Opponent: ann.Name, Game: "trench", Variant: "single", Color: "1", DaysPerMove: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	id2, err := store.AcceptChallenge(ctx, c.ID, ann.ID, 3, t0)
	if err != nil {
		t.Fatal(err)
	}
	want("a second game, ann to move", 1, 1, id2)
	if _, err := store.Resign(ctx, g.ID, bob.ID, g.Ply, t0); err != nil {
		t.Fatal(err)
	}
	want("bob resigned the first", 1, 0, id2)
}

// TestRememberedClocksFollowVacations: a game's clock, asked twice (the
// second time its vacations come from memory), stops when the player to
// move starts a vacation and runs again when it ends.
func TestRememberedClocksFollowVacations(t *testing.T) {
	ctx := context.Background()
	store, _ := open(t)
	g, ann, _ := newGame(t, store, "trench", "single")
	stopped := func(at time.Time) bool {
		t.Helper()
		var out [2]bool
		for i := range out {
			cs, err := store.Clock(ctx, g, at)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = cs.Stopped
		}
		if out[0] != out[1] {
			t.Fatal("the remembered clock differs from the one read")
		}
		return out[1]
	}
	if stopped(t0.Add(time.Hour)) {
		t.Fatal("the clock is stopped before any vacation")
	}
	if err := store.StartVacation(ctx, ann.ID, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if !stopped(t0.Add(2 * time.Hour)) {
		t.Fatal("the clock runs during the vacation of the player to move")
	}
	if err := store.EndVacation(ctx, ann.ID, t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if stopped(t0.Add(4 * time.Hour)) {
		t.Fatal("the clock is still stopped after the vacation")
	}
}

// TestRememberedRatingsFollowRatedGames: the ratings a game page shows,
// asked twice (the second time from memory), change on every page of the
// players when one of their rated games ends.
func TestRememberedRatingsFollowRatedGames(t *testing.T) {
	ctx := context.Background()
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	g1 := startMatch(t, store, u[0], u[1], "trench", "single", true)
	g2 := startMatch(t, store, u[1], u[0], "trench", "single", true)
	ratingsOf := func(g db.Game) db.GameRatings {
		t.Helper()
		var out [2]db.GameRatings
		for i := range out {
			var err error
			if out[i], err = store.GameRatings(ctx, g, t0); err != nil {
				t.Fatal(err)
			}
		}
		if out[0] != out[1] {
			t.Fatalf("the remembered ratings differ from those read: %+v %+v", out[0], out[1])
		}
		return out[1]
	}
	if r := ratingsOf(g2); !r.Rated || r.Current[0].Rating != 1500 {
		t.Fatalf("before any rated game: %+v", r)
	}
	resignAs(t, store, playOpening(t, store, g1), u[1]) // ann wins the first
	r := ratingsOf(g2)
	if r.Current[0].Rating >= 1500 || r.Current[1].Rating <= 1500 { // bob plays side 0 of the second
		t.Fatalf("the second game's page still shows the ratings before the first ended: %+v", r.Current)
	}
}

// TestRememberedGameIsTheStoredOne: after each kind of write to a game,
// what its page reads from memory (the move's own transaction leaves the
// game and its moves remembered) is what SQLite holds, as a server started
// afresh on the same file reads it: a move, a move with the planned reply
// played in the same transaction, a takeback, a resignation; and so are
// its match and the players' counts of games waiting for their move and
// the next one.
func TestRememberedGameIsTheStoredOne(t *testing.T) {
	ctx := context.Background()
	store, path := open(t)
	g, ann, bob := takebackGame(t, store, "trenches", "standard", false, "on", db.TimeControl{})
	now := t0
	// A second game between them, with a shorter time per move: the next
	// game waiting for a player's move is the one with the earlier
	// deadline.
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: bob.ID, Opponent: ann.Name, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 14}, t0)
	if err != nil {
		t.Fatal(err)
	}
	other, err := store.AcceptChallenge(ctx, c.ID, ann.ID, 7, t0)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, ply int) db.Game {
		t.Helper()
		got, ms := gameAndMoves(t, store, g.ID)
		fresh, err := db.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer fresh.Close()
		want, wms := gameAndMoves(t, fresh, g.ID)
		m, err := store.Match(ctx, want.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if wm, err := fresh.Match(ctx, want.MatchID); err != nil || m != wm {
			t.Fatalf("after %s, the remembered match differs from the stored one (%v):\n%+v\n%+v", what, err, m, wm)
		}
		for _, p := range want.Side {
			n, err := store.TurnCount(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if wn, err := fresh.TurnCount(ctx, p.ID); err != nil || n != wn {
				t.Fatalf("after %s, %s's count of games waiting for their move is remembered as %d, stored %d (%v)", what, p.Name, n, wn, err)
			}
			// The next game waiting, as the stored games say.
			for _, except := range []int64{0, g.ID, other} {
				var wnext int64
				var at time.Time
				for _, id := range []int64{g.ID, other} {
					sg, err := fresh.Game(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					if id == except || sg.Finished() || sg.Side[sg.ToMove].ID != p.ID {
						continue
					}
					if wnext == 0 || sg.Deadline.Before(at) {
						wnext, at = id, sg.Deadline
					}
				}
				if next, err := store.NextWaiting(ctx, p.ID, except); err != nil || next != wnext {
					t.Fatalf("after %s, %s's next game waiting (but %d) is remembered as %d, stored %d (%v)", what, p.Name, except, next, wnext, err)
				}
			}
		}
		if got != want {
			t.Fatalf("after %s, the remembered game differs from the stored one:\n%+v\n%+v", what, got, want)
		}
		if len(ms) != len(wms) || len(ms) != ply || want.Ply != ply {
			t.Fatalf("after %s: %d moves remembered, %d stored, ply %d; want %d", what, len(ms), len(wms), want.Ply, ply)
		}
		for i := range ms {
			if ms[i].Ply != wms[i].Ply || ms[i].Side != wms[i].Side || ms[i].Move != wms[i].Move || !ms[i].CreatedAt.Equal(wms[i].CreatedAt) {
				t.Fatalf("after %s, move %d remembered as %+v, stored as %+v", what, i+1, ms[i], wms[i])
			}
		}
		return got
	}
	play := func(g db.Game, move string) db.Game {
		t.Helper()
		now = now.Add(time.Minute)
		if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: move}, now); err != nil {
			t.Fatal(err)
		}
		return g
	}
	legal := func(g db.Game) (rules.State, []string) {
		t.Helper()
		st, err := g.Decode()
		if err != nil {
			t.Fatal(err)
		}
		return st, st.Legal(g.ToMove)
	}

	g = check("the start", 0)
	_, ms := legal(g)
	play(g, ms[0])
	g = check("a move", 1)

	// The player waiting plans a reply to the next move: both are played
	// in the move's transaction.
	st, ms := legal(g)
	next, err := st.Apply(ms[0])
	if err != nil {
		t.Fatal(err)
	}
	reply := next.Legal(next.ToMove())[0]
	if err := store.SetPlan(ctx, g.ID, g.Side[1-g.ToMove].ID, g.Ply, [][]string{{ms[0], reply}}, now); err != nil {
		t.Fatal(err)
	}
	play(g, ms[0])
	g = check("a move and its planned reply", 3)

	// The last mover takes the reply back.
	mover := g.Side[1-g.ToMove].ID
	if _, err := store.AskTakeback(ctx, g.ID, mover, g.Ply, now); err != nil {
		t.Fatal(err)
	}
	if _, err := store.AnswerTakeback(ctx, g.ID, g.Side[g.ToMove].ID, g.Ply, true, now); err != nil {
		t.Fatal(err)
	}
	g = check("a takeback", 2)
	_, ms = legal(g)
	play(g, ms[len(ms)-1])
	g = check("a move after the takeback", 3)

	if _, err := store.Resign(ctx, g.ID, g.Side[g.ToMove].ID, g.Ply, now); err != nil {
		t.Fatal(err)
	}
	if g = check("a resignation", 3); !g.Finished() {
		t.Fatalf("after the resignation the game is %s", g.Status)
	}
	if m, err := store.Match(ctx, g.MatchID); err != nil || m.Status != "finished" {
		t.Fatalf("after the resignation the match is %q (%v)", m.Status, err)
	}
}

// TestMovesLaterLeaveTheirGameAndPlayersRemembered: each move moves its
// players' last-played time on; that alone changes no game, name or
// session shown, so after a move made an hour after the last one the
// game's page (its game, moves and match) and each player's session are
// still answered from memory, without a query.
func TestMovesLaterLeaveTheirGameAndPlayersRemembered(t *testing.T) {
	ctx := context.Background()
	store, _ := open(t)
	g, ann, bob := newGame(t, store, "trench", "single")
	var tokens [][]byte
	for i, u := range []db.User{ann, bob} {
		token := []byte{byte(i), 1, 2, 3}
		if _, err := store.CreateSession(ctx, u.ID, token, "test", "127.0.0.1", t0, 24*time.Hour); err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, token)
	}
	at := t0
	for ply := range 4 {
		at = at.Add(time.Hour)
		st, err := g.Decode()
		if err != nil {
			t.Fatal(err)
		}
		if g, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: playerOf(g, g.ToMove), Ply: g.Ply, Move: st.Legal(g.ToMove)[0]}, at); err != nil {
			t.Fatal(err)
		}
		if ply == 0 {
			// The first move names the players' games waiting and
			// their sessions for the first time.
			screen(t, store, g.ID)
			for _, token := range tokens {
				if _, _, err := store.SessionByToken(ctx, token, at); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		var queries []string
		stop := db.TraceReads(store, func(q string, _ []any) { queries = append(queries, q) })
		got, ms, _ := screen(t, store, g.ID)
		for _, token := range tokens {
			if _, _, err := store.SessionByToken(ctx, token, at); err != nil {
				t.Fatal(err)
			}
		}
		stop()
		if got.Ply != ply+1 || len(ms) != ply+1 {
			t.Fatalf("after move %d, an hour after the last: ply %d, %d moves", ply+1, got.Ply, len(ms))
		}
		if len(queries) > 0 {
			t.Fatalf("after move %d, an hour after the last, the game's page and the players' sessions read the database %d times: %q", ply+1, len(queries), queries)
		}
	}
}
