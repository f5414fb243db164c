package db_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// After each change of a game in play (a move, an armistice offered and
// declined, a takeback asked and answered, a resignation, a match's next
// game) the game the change returns, which the pages are shown from, is
// the game as stored: reading again only the columns play can change
// leaves nothing behind.
func TestAGameAfterEachChangeIsAsStored(t *testing.T) {
	ctx := context.Background()
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: u[0].ID, Game: "trench", Variant: "match", Color: "0",
		Clock:     db.TimeControl{Kind: "bank", BankInitial: 3 * 24 * time.Hour, BankAdd: 24 * time.Hour, BankMax: 5 * 24 * time.Hour},
		Takebacks: "on"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptChallenge(ctx, c.ID, u[1].ID, 7, t0)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	now := t0
	checks := 0
	same := func(what string, got db.Game, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want, err := db.StoredGame(ctx, store, got.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the game returned is not the game stored:\n got  %+v\n want %+v", what, got, want)
		}
		checks++
	}
	games := map[int64]bool{}
	for step := 0; len(games) < 2 && step < 400; step++ {
		g, err := db.StoredGame(ctx, store, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Finished() {
			next, err := store.MatchGames(ctx, g.MatchID)
			if err != nil {
				t.Fatal(err)
			}
			last := next[len(next)-1]
			if last.ID == g.ID || last.Finished() {
				break
			}
			id = last.ID
			continue
		}
		games[g.ID] = true
		now = now.Add(time.Duration(1+rng.IntN(20)) * time.Hour)
		mover := g.Side[g.ToMove].ID
		other := g.Side[g.ToMove.Other()].ID
		switch {
		case step%17 == 5:
			got, err := store.OfferArmistice(ctx, g.ID, mover, g.Ply, now)
			same("armistice offered", got, err)
			got, err = store.AnswerArmistice(ctx, g.ID, other, g.Ply, false, now)
			same("armistice declined", got, err)
		case step%13 == 7 && g.Ply > 0:
			got, err := store.AskTakeback(ctx, g.ID, other, g.Ply, now)
			same("takeback asked", got, err)
			got, err = store.AnswerTakeback(ctx, g.ID, mover, g.Ply, step%2 == 0, now)
			same("takeback answered", got, err)
		case step == 60 || step == 160:
			got, err := store.Resign(ctx, g.ID, mover, g.Ply, now)
			same("resigned", got, err)
		default:
			st, err := g.Decode()
			if err != nil {
				t.Fatal(err)
			}
			legal := st.Legal(st.ToMove())
			got, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: mover, Ply: g.Ply, Move: legal[rng.IntN(len(legal))]}, now)
			same("move", got, err)
		}
	}
	if len(games) < 2 || checks < 50 {
		t.Fatalf("%d games of the match played, %d changes checked: the test shows little", len(games), checks)
	}
}
