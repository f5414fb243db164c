package db_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	_ "github.com/trench-games/trench/rules/trench"
	_ "github.com/trench-games/trench/rules/trenches"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func open(t *testing.T) (*db.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	store, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store, path
}

func users(t *testing.T, store *db.DB, names ...string) []db.User {
	t.Helper()
	var out []db.User
	for _, n := range names {
		u, err := store.CreateUser(context.Background(), n, "hash", t0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, u)
	}
	return out
}

// gameAndMoves returns game id and its moves as store shows them.
func gameAndMoves(t *testing.T, store *db.DB, id int64) (db.Game, []db.Move) {
	t.Helper()
	g, err := store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := store.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g, ms
}

func wantKind(t *testing.T, err error, kind db.Kind) {
	t.Helper()
	if err == nil || db.KindOf(err) != kind {
		t.Fatalf("error %v (kind %d), want kind %d", err, db.KindOf(err), kind)
	}
}

func TestOpenSetsPragmasAndMigratesOnce(t *testing.T) {
	store, path := open(t)
	users(t, store, "ann")
	store.Close()
	// Reopening runs no migration twice and keeps the data.
	store2, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer store2.Close()
	if _, err := store2.UserByName(context.Background(), "ANN"); err != nil {
		t.Fatalf("user lost on reopen (or name lookup is case-sensitive): %v", err)
	}
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var mode string
	if err := raw.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode %q (%v), want wal", mode, err)
	}
	if err := store2.IntegrityCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestForeignKeysAreEnforced(t *testing.T) {
	store, _ := open(t)
	// A challenge by a user who does not exist violates a foreign key.
	_, err := store.CreateChallenge(context.Background(), db.NewChallenge{CreatorID: 999, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, t0)
	if err == nil {
		t.Fatal("a challenge by a missing user was stored: foreign keys are off")
	}
}

func TestUsers(t *testing.T) {
	store, _ := open(t)
	users(t, store, "Ann")
	_, err := store.CreateUser(context.Background(), "ann", "h", t0)
	wantKind(t, err, db.KindConflict)
	_, err = store.UserByName(context.Background(), "nobody")
	wantKind(t, err, db.KindNotFound)
	u, _ := store.UserByName(context.Background(), "ann")
	if err := store.SetBoardView(context.Background(), u.ID, "square"); err != nil {
		t.Fatal(err)
	}
	wantKind(t, store.SetBoardView(context.Background(), u.ID, "hex"), db.KindInvalid)
	u, _ = store.UserByID(context.Background(), u.ID)
	if u.BoardView != "square" {
		t.Fatalf("board view %q", u.BoardView)
	}
}

func TestSecretIsStable(t *testing.T) {
	store, path := open(t)
	a, err := store.Secret(context.Background(), "k", 32)
	if err != nil || len(a) != 32 {
		t.Fatal(err, len(a))
	}
	store.Close()
	store2, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer store2.Close()
	b, _ := store2.Secret(context.Background(), "k", 32)
	if string(a) != string(b) {
		t.Fatal("the secret changed across a restart")
	}
}

func TestChallengeRules(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	u := users(t, store, "ann", "bob", "cat")
	ann, bob, cat := u[0], u[1], u[2]
	bad := []db.NewChallenge{
		{CreatorID: ann.ID, Game: "chess", Variant: "x", Color: "0", DaysPerMove: 3},
		{CreatorID: ann.ID, Game: "trench", Variant: "blitz", Color: "0", DaysPerMove: 3},
		{CreatorID: ann.ID, Game: "trench", Variant: "match", Color: "green", DaysPerMove: 3},
		{CreatorID: ann.ID, Game: "trench", Variant: "match", Color: "0", DaysPerMove: 4},
		{CreatorID: ann.ID, Game: "trench", Variant: "match", Color: "0", DaysPerMove: 3, Opponent: "ann"},
	}
	for _, c := range bad {
		_, err := store.CreateChallenge(ctx, c, t0)
		wantKind(t, err, db.KindInvalid)
	}
	_, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: ann.ID, Game: "trench", Variant: "match", Color: "0", DaysPerMove: 3, Opponent: "zed"}, t0)
	wantKind(t, err, db.KindNotFound)

	to, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: ann.ID, Game: "trench", Variant: "match", Color: "1", DaysPerMove: 3, Opponent: "bob"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if open, _ := store.OpenChallenges(ctx, cat.ID); len(open) != 0 {
		t.Fatal("cat sees a challenge addressed to bob")
	}
	if open, _ := store.OpenChallenges(ctx, bob.ID); len(open) != 1 {
		t.Fatal("bob does not see his challenge")
	}
	_, err = store.AcceptChallenge(ctx, to.ID, cat.ID, 1, t0)
	wantKind(t, err, db.KindForbidden)
	_, err = store.AcceptChallenge(ctx, to.ID, ann.ID, 1, t0)
	wantKind(t, err, db.KindForbidden)
	wantKind(t, store.DeclineChallenge(ctx, to.ID, cat.ID), db.KindForbidden)
	wantKind(t, store.CancelChallenge(ctx, to.ID, bob.ID), db.KindForbidden)
	gameID, err := store.AcceptChallenge(ctx, to.ID, bob.ID, 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := store.Game(ctx, gameID)
	if g.Side[0].ID != bob.ID || g.Side[1].ID != ann.ID {
		t.Fatalf("ann chose White (side 1) but plays side %d", g.SideOf(ann.ID))
	}
	_, err = store.AcceptChallenge(ctx, to.ID, bob.ID, 1, t0)
	wantKind(t, err, db.KindConflict)
	wantKind(t, store.CancelChallenge(ctx, to.ID, ann.ID), db.KindConflict)

	open1, _ := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: ann.ID, Game: "trench", Variant: "single", Color: "random", DaysPerMove: 1}, t0)
	if err := store.CancelChallenge(ctx, open1.ID, ann.ID); err != nil {
		t.Fatal(err)
	}
	_, err = store.AcceptChallenge(ctx, open1.ID, cat.ID, 1, t0)
	wantKind(t, err, db.KindConflict)
}

// newGame creates and accepts a challenge; ann plays side 0 in game 1.
func newGame(t *testing.T, store *db.DB, game, variant string) (db.Game, db.User, db.User) {
	t.Helper()
	u := users(t, store, "ann", "bob")
	c, err := store.CreateChallenge(context.Background(), db.NewChallenge{CreatorID: u[0].ID, Game: game, Variant: variant, Color: "0", DaysPerMove: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptChallenge(context.Background(), c.ID, u[1].ID, 99, t0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := store.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g, u[0], u[1]
}

func playerOf(g db.Game, side rules.Side) int64 { return g.Side[side].ID }

// TestRandomGamesStoredEqualsReplay plays whole random games through the
// store and checks after every move that the stored state is the replay
// of the stored moves.
func TestRandomGamesStoredEqualsReplay(t *testing.T) {
	for _, tc := range []struct{ game, variant string }{{"trench", "bga"}, {"trench", "single"}, {"trenches", "standard"}} {
		t.Run(tc.game+"/"+tc.variant, func(t *testing.T) {
			store, _ := open(t)
			ctx := context.Background()
			g, _, _ := newGame(t, store, tc.game, tc.variant)
			rng := rand.New(rand.NewPCG(5, 6))
			for i := 0; i < 3000 && !g.Finished(); i++ {
				st, err := g.Decode()
				if err != nil {
					t.Fatal(err)
				}
				legal := st.Legal(g.ToMove)
				move := legal[rng.IntN(len(legal))]
				g, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: playerOf(g, g.ToMove), Ply: g.Ply, Move: move}, t0)
				if err != nil {
					t.Fatalf("ply %d %s: %v", i, move, err)
				}
				if i%25 == 0 || g.Finished() {
					assertReplay(t, store, g.ID)
				}
			}
			if !g.Finished() {
				t.Fatal("game did not end")
			}
			if g.ToMove != rules.NoSide || g.EndedAt.IsZero() {
				t.Fatalf("finished game: to move %d, ended %v", g.ToMove, g.EndedAt)
			}
		})
	}
}

func assertReplay(t *testing.T, store *db.DB, id int64) {
	t.Helper()
	ctx := context.Background()
	g, _ := store.Game(ctx, id)
	moves, err := store.Moves(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := g.Engine()
	st, err := eng.Decode(g.Variant, g.StartState)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		if st, err = st.Apply(m.Move); err != nil {
			t.Fatal(err)
		}
	}
	if st.Encode() != g.State || g.Ply != len(moves) {
		t.Fatalf("stored %q at ply %d; replay %q at %d", g.State, g.Ply, st.Encode(), len(moves))
	}
}

func TestPlayMoveGuards(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, ann, bob := newGame(t, store, "trench", "single")
	_, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: bob.ID, Ply: 0, Move: "e5-e4"}, t0)
	wantKind(t, err, db.KindForbidden)
	_, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d8"}, t0)
	wantKind(t, err, db.KindIllegal)
	_, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "nonsense"}, t0)
	wantKind(t, err, db.KindInvalid)
	_, err = store.PlayMove(ctx, db.Play{GameID: g.ID + 50, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0)
	wantKind(t, err, db.KindNotFound)
	g2, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if g2.Ply != 1 || g2.ToMove != rules.Side1 || !g2.Deadline.Equal(t0.Add(time.Hour+48*time.Hour)) {
		t.Fatalf("after a move: ply %d to move %d deadline %v", g2.Ply, g2.ToMove, g2.Deadline)
	}
	// The same move again, against the old ply: a conflict, not a second move.
	_, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0)
	wantKind(t, err, db.KindConflict)
	moves, _ := store.Moves(ctx, g.ID)
	if len(moves) != 1 {
		t.Fatalf("%d moves stored", len(moves))
	}
}

// TestConcurrentPlayMove races many goroutines submitting the same move
// against the same ply: exactly one wins.
func TestConcurrentPlayMove(t *testing.T) {
	store, _ := open(t)
	g, ann, _ := newGame(t, store, "trench", "single")
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, conflicts := 0, 0
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := store.PlayMove(context.Background(), db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case db.KindOf(err) == db.KindConflict:
				conflicts++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 || conflicts != 31 {
		t.Fatalf("%d applied, %d conflicts", ok, conflicts)
	}
}

// TestMatchFlow: game 2 swaps colours, equal totals bring a decider whose
// colours come from the match seed, and the match ends with its result.
func TestMatchFlow(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g1, ann, bob := newGame(t, store, "trench", "match")
	if _, err := store.Resign(ctx, g1.ID, ann.ID, 0, t0); err != nil { // bob +72
		t.Fatal(err)
	}
	games, _ := store.MatchGames(ctx, g1.MatchID)
	if len(games) != 2 || games[1].Side[0].ID != bob.ID || !games[1].Swapped {
		t.Fatalf("game 2: %+v", games)
	}
	if _, err := store.Resign(ctx, games[1].ID, bob.ID, 0, t0); err != nil { // ann +72
		t.Fatal(err)
	}
	games, _ = store.MatchGames(ctx, g1.MatchID)
	if len(games) != 3 || games[2].Variant != "decider" {
		t.Fatalf("no decider after 72–72: %+v", games)
	}
	m, _ := store.Match(ctx, g1.MatchID)
	if m.Status != "active" {
		t.Fatal("match finished before the decider")
	}
	// The loser of the decider resigns: the other player wins the match.
	d := games[2]
	if _, err := store.Resign(ctx, d.ID, d.Side[1].ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	m, _ = store.Match(ctx, g1.MatchID)
	winner := m.Player[m.Winner].ID
	if m.Status != "finished" || winner != d.Side[0].ID {
		t.Fatalf("match %+v, want won by %d", m, d.Side[0].ID)
	}
	if _, err := store.Resign(ctx, d.ID, d.Side[0].ID, 0, t0); db.KindOf(err) != db.KindConflict {
		t.Fatalf("resigning a finished game: %v", err)
	}
}

// TestArchiveRowsShowTheirMatch: an archive row carries its match's
// games, state, totals, winner and players in the match's order, for an
// official match in progress and finished (its second game swaps the
// sides), and a single game is its own match.
func TestArchiveRowsShowTheirMatch(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g1, ann, bob := newGame(t, store, "trench", "match")
	if _, err := store.Resign(ctx, g1.ID, ann.ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	p, err := store.Archive(ctx, db.ArchiveFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rows) != 1 || p.Rows[0].MatchGames != 2 || p.Rows[0].MatchStatus != "active" {
		t.Fatalf("game 1 of a match in progress: %+v", p.Rows)
	}
	games, _ := store.MatchGames(ctx, g1.MatchID)
	if _, err := store.Resign(ctx, games[1].ID, bob.ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	games, _ = store.MatchGames(ctx, g1.MatchID)
	d := games[2]
	if _, err := store.Resign(ctx, d.ID, d.Side[1].ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	m, _ := store.Match(ctx, g1.MatchID)
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: ann.ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	single, err := store.AcceptChallenge(ctx, c.ID, bob.ID, 5, t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Resign(ctx, single, bob.ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	if p, err = store.Archive(ctx, db.ArchiveFilter{}); err != nil {
		t.Fatal(err)
	}
	if len(p.Rows) != 4 {
		t.Fatalf("%d rows, want 4", len(p.Rows))
	}
	for _, r := range p.Rows {
		g := r.Game
		got := fmt.Sprintf("%d %s %d %v %s %s", r.MatchGames, r.MatchStatus, r.MatchWinner, r.MatchTotals, r.MatchPlayer[0].Name, r.MatchPlayer[1].Name)
		want := fmt.Sprintf("3 finished %d %v %s %s", m.Winner, m.Totals, m.Player[0].Name, m.Player[1].Name)
		if g.ID == single {
			want = fmt.Sprintf("1 finished 0 %v ann bob", g.Score)
		}
		if got != want {
			t.Errorf("game %d (%s): match %q, want %q", g.ID, g.Variant, got, want)
		}
	}
}

// TestArchiveNamesFollowTheirAccounts: the archive shows a player's
// name as the account has it now: after the account is deleted, and after
// another process renames it, though the names were remembered before.
func TestArchiveNamesFollowTheirAccounts(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	g, ann, bob := newGame(t, store, "trench", "single")
	if _, err := store.Resign(ctx, g.ID, ann.ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	names := func() string {
		t.Helper()
		p, err := store.Archive(ctx, db.ArchiveFilter{})
		if err != nil || len(p.Rows) != 1 {
			t.Fatalf("archive: %+v, %v", p, err)
		}
		s := p.Rows[0].Game.Side
		return s[0].Name + " " + s[1].Name
	}
	if got := names(); got != "ann bob" {
		t.Fatalf("players %q, want ann bob", got)
	}
	if err := store.DeleteAccount(ctx, bob.ID, t0); err != nil {
		t.Fatal(err)
	}
	if got, want := names(), fmt.Sprintf("ann %s%d", db.TombstonePrefix, bob.ID); got != want {
		t.Fatalf("after bob's account was deleted: %q, want %q", got, want)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.ExecContext(ctx, `UPDATE users SET name = 'anna' WHERE id = ?`, ann.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for names()[:4] != "anna" {
		if time.Now().After(deadline) {
			t.Fatalf("5 s after another process renamed ann: %q", names())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A new account, or a change of an account that is not its name, leaves
// the names remembered: the archive reads none again.
func TestArchiveNamesOutliveOtherAccountChanges(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, ann, _ := newGame(t, store, "trench", "single")
	if _, err := store.Resign(ctx, g.ID, ann.ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	namesRead := func(store *db.DB) int {
		t.Helper()
		n := 0
		stop := db.TraceReads(store, func(q string, _ []any) {
			if strings.Contains(q, "FROM users") {
				n++
			}
		})
		defer stop()
		p, err := store.Archive(ctx, db.ArchiveFilter{})
		if err != nil || len(p.Rows) != 1 {
			t.Fatalf("archive: %+v, %v", p, err)
		}
		if s := p.Rows[0].Game.Side; s[0].Name != "ann" || s[1].Name != "bob" {
			t.Fatalf("players %q and %q, want ann and bob", s[0].Name, s[1].Name)
		}
		return n
	}
	if n := namesRead(store); n != 1 {
		t.Fatalf("the first archive page read the accounts %d times, want once", n)
	}
	if _, err := store.CreateUser(ctx, "cara", "x", t0); err != nil {
		t.Fatal(err)
	}
	if err := store.SetPassword(ctx, ann.ID, "y", 0); err != nil {
		t.Fatal(err)
	}
	if n := namesRead(store); n != 0 {
		t.Fatalf("after a new account and a new password, the archive read the accounts %d times, want none", n)
	}
}

func TestArmistice(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, ann, bob := newGame(t, store, "trench", "single")
	_, err := store.AnswerArmistice(ctx, g.ID, bob.ID, 0, true, t0)
	wantKind(t, err, db.KindConflict)
	if _, err := store.OfferArmistice(ctx, g.ID, ann.ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	_, err = store.OfferArmistice(ctx, g.ID, ann.ID, 0, t0)
	wantKind(t, err, db.KindConflict)
	_, err = store.AnswerArmistice(ctx, g.ID, ann.ID, 0, true, t0)
	wantKind(t, err, db.KindConflict) // one cannot accept one's own offer
	if _, err := store.AnswerArmistice(ctx, g.ID, bob.ID, 0, false, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OfferArmistice(ctx, g.ID, bob.ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	// A move withdraws the offer.
	g, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if g.ArmisticeBy != rules.NoSide {
		t.Fatal("the offer survived a move")
	}
	if _, err := store.OfferArmistice(ctx, g.ID, bob.ID, 1, t0); err != nil {
		t.Fatal(err)
	}
	g, err = store.AnswerArmistice(ctx, g.ID, ann.ID, 1, true, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Finished() || g.Reason != rules.ReasonArmistice || g.Winner != rules.NoSide {
		t.Fatalf("after an accepted armistice: %+v", g)
	}
	// Trenches has no armistice.
	store2, _ := open(t)
	tg, tann, _ := newGame(t, store2, "trenches", "standard")
	_, err = store2.OfferArmistice(ctx, tg.ID, tann.ID, 0, t0)
	wantKind(t, err, db.KindInvalid)
}

func TestExpireGames(t *testing.T) {
	store, _ := open(t)
	store.SetVacationDays(0) // no vacation to use up first
	ctx := context.Background()
	g, ann, _ := newGame(t, store, "trench", "single")
	if n, err := store.ExpireGames(ctx, t0.Add(47*time.Hour)); err != nil || n != 0 {
		t.Fatalf("expired %d %v before the deadline", n, err)
	}
	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0.Add(47*time.Hour)); err != nil {
		t.Fatal(err)
	}
	// The deadline moved with the move: 2 days after it.
	if n, _ := store.ExpireGames(ctx, t0.Add(50*time.Hour)); n != 0 {
		t.Fatal("expired although the clock was reset by a move")
	}
	n, err := store.ExpireGames(ctx, t0.Add(96*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("expired %d (%v), want 1", n, err)
	}
	g, _ = store.Game(ctx, g.ID)
	if g.Winner != rules.Side0 || g.Reason != rules.ReasonTimeout {
		t.Fatalf("after White's timeout: winner %d reason %q", g.Winner, g.Reason)
	}
	if n, _ := store.ExpireGames(ctx, t0.Add(500*time.Hour)); n != 0 {
		t.Fatal("a finished game expired again")
	}
}
