package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

func computer(t *testing.T, store *db.DB, level string) db.Computer {
	t.Helper()
	cs, err := store.Computers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.Level == level {
			return c
		}
	}
	t.Fatalf("no computer account for %s in %v", level, cs)
	return db.Computer{}
}

func TestComputerAccounts(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	cs, err := store.Computers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 3 || cs[0].Name != "Computer · easy" || cs[1].Level != "medium" || cs[2].Name != "Computer · hard" {
		t.Fatalf("computer accounts %+v", cs)
	}
	// Nobody can take their names, in any case, nor names that read as
	// theirs.
	for _, name := range []string{"computer · HARD", "Computer", "computer_hard", "Computer-easy", "c-o-m-p-u-t-e-r99"} {
		_, err = store.CreateUser(ctx, name, "hash", t0)
		wantKind(t, err, db.KindInvalid)
	}
	if _, err := store.CreateUser(ctx, "my_computer", "hash", t0); err != nil {
		t.Fatal(err)
	}
	// Their password hash is no hash: no password matches it.
	u, err := store.UserByName(ctx, "Computer · hard")
	if err != nil {
		t.Fatal(err)
	}
	if u.PasswordHash != "!" {
		t.Fatalf("computer password hash %q", u.PasswordHash)
	}
}

func TestStartComputerGameAndTurns(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	ann := users(t, store, "ann")[0]
	hard := computer(t, store, "hard")

	_, err := store.StartComputerGame(ctx, db.NewComputerGame{UserID: ann.ID, Game: "trench", Variant: "single", Level: "expert", Color: "0"}, 1, t0)
	wantKind(t, err, db.KindInvalid)
	_, err = store.StartComputerGame(ctx, db.NewComputerGame{UserID: ann.ID, Game: "trench", Variant: "nope", Level: "hard", Color: "0"}, 1, t0)
	wantKind(t, err, db.KindInvalid)

	// Ann plays Black (moves first): nothing waits for the computer.
	id, err := store.StartComputerGame(ctx, db.NewComputerGame{UserID: ann.ID, Game: "trench", Variant: "single", Level: "hard", Color: "0"}, 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Side[0].ID != ann.ID || g.Side[1].ID != hard.ID || g.Clock.DaysPerMove != db.ComputerDaysPerMove || g.Ply != 0 {
		t.Fatalf("game %+v", g)
	}
	if r, err := store.GameRatings(ctx, g, t0); err != nil || r.Rated {
		t.Fatalf("rated %v (%v): a game against the computer is unrated unless asked", r.Rated, err)
	}
	turns, err := store.ComputerTurns(ctx)
	if err != nil || len(turns) != 0 {
		t.Fatalf("turns %+v (%v), want none", turns, err)
	}
	// Ann moves: the game waits for the computer.
	st, _ := g.Decode()
	if _, err := store.PlayMove(ctx, db.Play{GameID: id, UserID: ann.ID, Ply: 0, Move: st.Legal(rules.Side0)[0]}, t0); err != nil {
		t.Fatal(err)
	}
	turns, err = store.ComputerTurns(ctx)
	if err != nil || len(turns) != 1 {
		t.Fatalf("turns %+v (%v), want one", turns, err)
	}
	want := db.ComputerTurn{GameID: id, Ply: 1, ComputerID: hard.ID, Level: "hard", Side: rules.Side1, OpponentID: ann.ID}
	if turns[0] != want {
		t.Fatalf("turn %+v, want %+v", turns[0], want)
	}

	// A second game where Ann plays White: the computer moves first; an
	// armistice offer addressed to it waits for its answer.
	id2, err := store.StartComputerGame(ctx, db.NewComputerGame{UserID: ann.ID, Game: "trench", Variant: "single", Level: "easy", Color: "1", Rated: true}, 2, t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.OfferArmistice(ctx, id2, ann.ID, 0, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	turns, err = store.ComputerTurns(ctx)
	if err != nil || len(turns) != 2 || turns[1].GameID != id2 || !turns[1].Armistice || turns[1].Side != rules.Side0 {
		t.Fatalf("turns %+v (%v)", turns, err)
	}
	g2, _ := store.Game(ctx, id2)
	if r, _ := store.GameRatings(ctx, g2, t0); !r.Rated {
		t.Fatal("a game against the computer asked rated is not")
	}

	// The game ends; Ann offers a rematch: the computer accepts it as a
	// challenge addressed to it, unrated unless the server rates.
	if _, err := store.Resign(ctx, id, ann.ID, 1, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OfferRematch(ctx, g.MatchID, ann.ID, t0); err != nil {
		t.Fatal(err)
	}
	chs, err := store.ComputerChallenges(ctx)
	if err != nil || len(chs) != 1 || chs[0].ComputerID != hard.ID {
		t.Fatalf("computer challenges %+v (%v)", chs, err)
	}
	_, err = store.AcceptAsComputer(ctx, chs[0].ID, ann.ID, false, 0, 3, t0)
	wantKind(t, err, db.KindForbidden)
	newID, err := store.AcceptAsComputer(ctx, chs[0].ID, hard.ID, false, 0, 3, t0)
	if err != nil {
		t.Fatal(err)
	}
	ng, _ := store.Game(ctx, newID)
	if ng.Side[0].ID != hard.ID || ng.Side[1].ID != ann.ID {
		t.Fatalf("rematch sides %+v: the colours swap", ng.Side)
	}
	if r, ok := store.Rematch(ctx, g.MatchID); ok != nil || r.Status != "accepted" {
		t.Fatalf("rematch %+v", r)
	}
	if chs, _ := store.ComputerChallenges(ctx); len(chs) != 0 {
		t.Fatalf("challenges left: %+v", chs)
	}
}

// finishedGame plays a few random plies of a TRENCH single game and
// resigns it.
func finishedGame(t *testing.T, store *db.DB, a, b db.User, plies int) db.Game {
	t.Helper()
	ctx := context.Background()
	ch, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: a.ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, t0)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptChallenge(ctx, ch.ID, b.ID, 7, t0)
	if err != nil {
		t.Fatal(err)
	}
	for ply := 0; ply < plies; ply++ {
		g, _ := store.Game(ctx, id)
		st, _ := g.Decode()
		mover := g.Side[g.ToMove].ID
		if _, err := store.PlayMove(ctx, db.Play{GameID: id, UserID: mover, Ply: ply, Move: st.Legal(g.ToMove)[0]}, t0); err != nil {
			t.Fatal(err)
		}
	}
	g, err := store.Resign(ctx, id, a.ID, plies, t0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestAnalysisQueueCapAndRestart(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob")
	ann, bob := us[0], us[1]

	// A game in progress is not analysed.
	ch, _ := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: ann.ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, t0)
	active, _ := store.AcceptChallenge(ctx, ch.ID, bob.ID, 1, t0)
	_, err := store.QueueAnalysis(ctx, active, ann.ID, 100, t0)
	wantKind(t, err, db.KindConflict)

	var games []db.Game
	for i := 0; i < db.MaxQueuedAnalyses+1; i++ {
		games = append(games, finishedGame(t, store, ann, bob, 3))
	}
	for i, g := range games[:db.MaxQueuedAnalyses] {
		a, err := store.QueueAnalysis(ctx, g.ID, ann.ID, 100, t0.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if a.State != "queued" || a.Total != 4 || a.Done != 0 {
			t.Fatalf("queued %+v", a)
		}
	}
	// Asking again for a queued game changes nothing; a fourth is refused
	// for Ann, not for Bob.
	if a, err := store.QueueAnalysis(ctx, games[0].ID, ann.ID, 100, t0); err != nil || a.State != "queued" {
		t.Fatalf("again: %+v %v", a, err)
	}
	_, err = store.QueueAnalysis(ctx, games[3].ID, ann.ID, 100, t0)
	wantKind(t, err, db.KindTooMany)
	if _, err := store.QueueAnalysis(ctx, games[3].ID, bob.ID, 100, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}

	// The job works on the oldest: two positions, then a restart.
	next, ok, err := store.NextAnalysis(ctx)
	if err != nil || !ok || next.GameID != games[0].ID {
		t.Fatalf("next %+v %v %v", next, ok, err)
	}
	for ply := 0; ply < 2; ply++ {
		if err := store.StoreAnalysisPly(ctx, next.GameID, db.AnalysisPly{Ply: ply, Expect: 0.5, Best: "x", Line: []string{"x", "y"}}, t0); err != nil {
			t.Fatal(err)
		}
	}
	// A position stored twice, or out of order, is refused.
	err = store.StoreAnalysisPly(ctx, next.GameID, db.AnalysisPly{Ply: 1, Expect: 0.9}, t0)
	wantKind(t, err, db.KindConflict)
	err = store.StoreAnalysisPly(ctx, next.GameID, db.AnalysisPly{Ply: 3, Expect: 0.9}, t0)
	wantKind(t, err, db.KindConflict)
	store.Close()

	store, err = db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	// A fresh game queued after it does not overtake the running one.
	next, ok, err = store.NextAnalysis(ctx)
	if err != nil || !ok || next.GameID != games[0].ID || next.State != "running" || next.Done != 2 {
		t.Fatalf("after restart: %+v %v %v", next, ok, err)
	}
	for ply := next.Done; ply < next.Total; ply++ {
		if err := store.StoreAnalysisPly(ctx, next.GameID, db.AnalysisPly{Ply: ply, Expect: float64(ply) / 4}, t0); err != nil {
			t.Fatal(err)
		}
	}
	a, ok, err := store.Analysis(ctx, games[0].ID)
	if err != nil || !ok || a.State != "done" || a.Done != 4 || len(a.Plies) != 4 {
		t.Fatalf("done: %+v %v %v", a, ok, err)
	}
	for i, p := range a.Plies {
		if p.Ply != i {
			t.Fatalf("plies %+v", a.Plies)
		}
	}
	if a.Plies[0].Best != "x" || len(a.Plies[0].Line) != 2 || a.Plies[3].Expect != 0.75 {
		t.Fatalf("plies %+v", a.Plies)
	}
	// With one done, Ann may queue another.
	if _, err := store.QueueAnalysis(ctx, games[1].ID, ann.ID, 100, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := store.QueueAnalysis(ctx, games[0].ID, ann.ID, 100, t0); err != nil {
		t.Fatalf("a done game asked again: %v", err)
	}
	// A failed analysis may be queued again and starts over.
	if err := store.FailAnalysis(ctx, games[1].ID, "broken", t0); err != nil {
		t.Fatal(err)
	}
	if a, err := store.QueueAnalysis(ctx, games[1].ID, bob.ID, 100, t0); err != nil || a.State != "queued" || a.Done != 0 {
		t.Fatalf("requeue: %+v %v", a, err)
	}
}
