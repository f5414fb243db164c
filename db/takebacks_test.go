package db_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	_ "github.com/trench-games/trench/rules/cards"
)

// takebackGame starts a game from a challenge with the given takeback
// choice and rating; ann plays side 0.
func takebackGame(t *testing.T, store *db.DB, game, variant string, rated bool, takebacks string, tc db.TimeControl) (db.Game, db.User, db.User) {
	t.Helper()
	u := users(t, store, "ann", "bob")
	ctx := context.Background()
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: u[0].ID, Game: game, Variant: variant, Color: "0",
		DaysPerMove: 2, Clock: tc, Rated: rated, Takebacks: takebacks}, t0)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptChallenge(ctx, c.ID, u[1].ID, 99, t0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return g, u[0], u[1]
}

// TestTakebackRestoresPositionClockAndScore plays a TRENCH match game
// with a time bank up to a capture, takes the capture back and finds the
// position (quiet-ply count included), the scores, the mover's time and
// the match as they were before it.
func TestTakebackRestoresPositionClockAndScore(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	bank := db.TimeControl{Kind: "bank", BankInitial: 240 * time.Hour, BankAdd: 36 * time.Hour, BankMax: 480 * time.Hour}
	g, _, _ := takebackGame(t, store, "trench", "match", false, "", bank)
	if !g.Takebacks {
		t.Fatal("an unrated challenge does not allow takebacks by default")
	}
	// Play first legal non-captures, each an hour apart, until the side to
	// move can capture and a few quiet plies have passed.
	now := t0
	var capture string
	for i := 0; i < 200 && capture == ""; i++ {
		st, _ := g.Decode()
		legal := st.Legal(g.ToMove)
		quiet := ""
		for _, m := range legal {
			if strings.Contains(m, "x") && i >= 6 {
				capture = m
			} else if !strings.Contains(m, "x") && quiet == "" {
				quiet = m
			}
		}
		if capture != "" {
			break
		}
		now = now.Add(time.Hour)
		var err error
		if g, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: quiet}, now); err != nil {
			t.Fatal(err)
		}
	}
	if capture == "" {
		t.Fatal("no capture came up")
	}
	before := g
	mover := g.ToMove
	moverID, oppID := g.Side[mover].ID, g.Side[mover.Other()].ID
	// The mover thinks 5 hours, captures; the request and the answer come
	// a day later.
	moveAt := now.Add(5 * time.Hour)
	clockAtMove, err := store.Clock(ctx, before, moveAt)
	if err != nil {
		t.Fatal(err)
	}
	after, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: moverID, Ply: g.Ply, Move: capture}, moveAt)
	if err != nil {
		t.Fatal(err)
	}
	if after.Score == before.Score {
		t.Fatalf("the capture %s changed no score (%v)", capture, after.Score)
	}
	// The opponent cannot ask; nor can a stranger.
	_, err = store.AskTakeback(ctx, g.ID, oppID, after.Ply, moveAt)
	wantKind(t, err, db.KindConflict)
	stranger := users(t, store, "cy")[0]
	_, err = store.AskTakeback(ctx, g.ID, stranger.ID, after.Ply, moveAt)
	wantKind(t, err, db.KindForbidden)
	// No request yet: nothing to accept.
	_, err = store.AnswerTakeback(ctx, g.ID, oppID, after.Ply, true, moveAt)
	wantKind(t, err, db.KindConflict)

	asked, err := store.AskTakeback(ctx, g.ID, moverID, after.Ply, moveAt.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if asked.TakebackBy != mover || asked.CanAskTakeback(mover) {
		t.Fatalf("after asking: by %d, may ask again %v", asked.TakebackBy, asked.CanAskTakeback(mover))
	}
	_, err = store.AskTakeback(ctx, g.ID, moverID, after.Ply, moveAt.Add(time.Hour))
	wantKind(t, err, db.KindConflict)
	// The asker cannot accept their own request.
	_, err = store.AnswerTakeback(ctx, g.ID, moverID, after.Ply, true, moveAt.Add(time.Hour))
	wantKind(t, err, db.KindConflict)

	answerAt := moveAt.Add(24 * time.Hour)
	back, err := store.AnswerTakeback(ctx, g.ID, oppID, after.Ply, true, answerAt)
	if err != nil {
		t.Fatal(err)
	}
	if back.State != before.State || back.Ply != before.Ply || back.ToMove != mover || back.Score != before.Score ||
		back.LastMove != before.LastMove || back.TakebackBy != rules.NoSide {
		t.Fatalf("after the takeback:\n got %q ply %d to move %d score %v last %q\nwant %q ply %d to move %d score %v last %q",
			back.State, back.Ply, back.ToMove, back.Score, back.LastMove, before.State, before.Ply, mover, before.Score, before.LastMove)
	}
	st, _ := back.Decode()
	if fields := strings.Fields(st.Encode()); len(fields) < 3 || fields[2] == "0" {
		t.Errorf("the quiet-ply count was not restored: %q", st.Encode())
	}
	moves, err := store.Moves(ctx, g.ID)
	if err != nil || len(moves) != before.Ply {
		t.Fatalf("%d moves stored after the takeback (%v), want %d", len(moves), err, before.Ply)
	}
	assertReplay(t, store, g.ID)
	// The mover has the time they had left when they captured, counted
	// from the answer; the opponent's bank is untouched.
	clockNow, err := store.Clock(ctx, back, answerAt)
	if err != nil {
		t.Fatal(err)
	}
	if clockNow.Left != clockAtMove.Left || clockNow.Banks != clockAtMove.Banks {
		t.Errorf("clock after the takeback: left %v banks %v; when the move was made: left %v banks %v",
			clockNow.Left, clockNow.Banks, clockAtMove.Left, clockAtMove.Banks)
	}
	if want := answerAt.Add(clockAtMove.Left); !back.Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v", back.Deadline, want)
	}
	// The match is as it was: one game, in progress.
	m, err := store.Match(ctx, g.MatchID)
	if err != nil || m.Status != "active" {
		t.Fatalf("match %+v %v", m, err)
	}
	if gs, _ := store.MatchGames(ctx, g.MatchID); len(gs) != 1 {
		t.Fatalf("the match has %d games", len(gs))
	}
	// The mover plays on: the same capture is legal again.
	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: moverID, Ply: back.Ply, Move: capture}, answerAt.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
}

// TestTakebackDeclineStaleAndVoid: a declined request may not be made
// again for that move; the opponent's move voids a request, and an accept
// made against the position before it is a conflict that changes nothing.
func TestTakebackDeclineStaleAndVoid(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, ann, bob := takebackGame(t, store, "trench", "single", false, "on", db.TimeControl{})
	play := func(uid int64, ply int) db.Game {
		t.Helper()
		cur, _ := store.Game(ctx, g.ID)
		st, _ := cur.Decode()
		next, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: uid, Ply: ply, Move: st.Legal(cur.ToMove)[0]}, t0)
		if err != nil {
			t.Fatal(err)
		}
		return next
	}
	_, err := store.AskTakeback(ctx, g.ID, ann.ID, 0, t0)
	wantKind(t, err, db.KindConflict) // nothing played yet
	g = play(ann.ID, 0)
	// Bob is mailed about his turn; ann takes her move back and plays
	// another: bob is mailed about that one too.
	if ok, err := store.ClaimMoveNotice(ctx, db.ChannelMail, bob.ID, g.ID, 1, t0); err != nil || !ok {
		t.Fatalf("claim bob's notice: %v %v", ok, err)
	}
	if _, err := store.AskTakeback(ctx, g.ID, ann.ID, 1, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := store.AnswerTakeback(ctx, g.ID, bob.ID, 1, true, t0); err != nil {
		t.Fatal(err)
	}
	g = play(ann.ID, 0)
	if ok, err := store.ClaimMoveNotice(ctx, db.ChannelMail, bob.ID, g.ID, 1, t0); err != nil || !ok {
		t.Fatalf("after a takeback bob is not mailed about the move played instead: %v %v", ok, err)
	}
	if _, err := store.AskTakeback(ctx, g.ID, ann.ID, 1, t0); err != nil {
		t.Fatal(err)
	}
	d, err := store.AnswerTakeback(ctx, g.ID, bob.ID, 1, false, t0)
	if err != nil {
		t.Fatal(err)
	}
	if d.Ply != 1 || d.TakebackBy != rules.NoSide || d.TakebackDeclined != 1 || d.CanAskTakeback(rules.Side0) {
		t.Fatalf("after declining: ply %d by %d declined %d", d.Ply, d.TakebackBy, d.TakebackDeclined)
	}
	_, err = store.AskTakeback(ctx, g.ID, ann.ID, 1, t0)
	wantKind(t, err, db.KindConflict)

	// Bob replies; ann cannot take back her move any more. Bob asks about
	// his, then ann moves instead of answering: the request is void.
	g = play(bob.ID, 1)
	_, err = store.AskTakeback(ctx, g.ID, ann.ID, 2, t0)
	wantKind(t, err, db.KindConflict)
	if _, err := store.AskTakeback(ctx, g.ID, bob.ID, 2, t0); err != nil {
		t.Fatal(err)
	}
	g = play(ann.ID, 2)
	if g.TakebackBy != rules.NoSide {
		t.Fatal("a move left the opponent's takeback request open")
	}
	_, err = store.AnswerTakeback(ctx, g.ID, ann.ID, 2, true, t0)
	wantKind(t, err, db.KindConflict) // stale: the game moved on
	_, err = store.AnswerTakeback(ctx, g.ID, ann.ID, 3, true, t0)
	wantKind(t, err, db.KindConflict) // no request open
	if cur, _ := store.Game(ctx, g.ID); cur.Ply != 3 || cur.State != g.State {
		t.Fatalf("a refused accept changed the game: ply %d", cur.Ply)
	}

	// Plans made against the move taken back are cleared.
	if _, err := store.AskTakeback(ctx, g.ID, ann.ID, 3, t0); err != nil {
		t.Fatal(err)
	}
	st, _ := g.Decode()
	reply := st.Legal(rules.Side1)[0]
	s1, _ := st.Apply(reply)
	if err := store.SetPlan(ctx, g.ID, ann.ID, 3, [][]string{{reply, s1.Legal(rules.Side0)[0]}}, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := store.AnswerTakeback(ctx, g.ID, bob.ID, 3, true, t0); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := store.PlanOf(ctx, g.ID, ann.ID); ok {
		t.Error("a plan made against the position taken back survived")
	}

	// A finished game takes nothing back.
	g, _ = store.Game(ctx, g.ID)
	g = play(ann.ID, g.Ply)
	if _, err := store.Resign(ctx, g.ID, bob.ID, g.Ply, t0); err != nil {
		t.Fatal(err)
	}
	_, err = store.AskTakeback(ctx, g.ID, ann.ID, g.Ply, t0)
	wantKind(t, err, db.KindConflict)
}

// TestTakebacksOffAndCards: a rated challenge has no takebacks unless it
// says so; the card game never has them; an unknown choice is refused.
func TestTakebacksOffAndCards(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, game, variant, choice string
		rated, want                 bool
	}{
		{"rated default", "trench", "single", "", true, false},
		{"rated on", "trench", "single", "on", true, true},
		{"unrated off", "trenches", "standard", "off", false, false},
		{"cards on", "cards", "single", "on", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, _ := open(t)
			eng, _ := rules.Lookup(tc.game)
			variant := eng.Variants()[0].Key
			g, ann, bob := takebackGame(t, store, tc.game, variant, tc.rated, tc.choice, db.TimeControl{})
			if g.Takebacks != tc.want {
				t.Fatalf("takebacks %v, want %v", g.Takebacks, tc.want)
			}
			if tc.want {
				return
			}
			st, _ := g.Decode()
			mover, other := ann, bob
			if g.ToMove == rules.Side1 {
				mover, other = bob, ann
			}
			g, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: mover.ID, Ply: 0, Move: st.Legal(g.ToMove)[0]}, t0)
			if err != nil {
				t.Fatal(err)
			}
			if g.ToMove != rules.Side0 && g.ToMove != rules.Side1 {
				t.Fatal("the game ended at once")
			}
			asker := mover
			if g.Side[g.ToMove].ID == mover.ID {
				asker = other // the card game: a turn of several moves
			}
			_, err = store.AskTakeback(ctx, g.ID, asker.ID, g.Ply, t0)
			wantKind(t, err, db.KindInvalid)
			if tc.game == "cards" && !strings.Contains(err.Error(), "card") {
				t.Errorf("the card game's refusal does not say why: %v", err)
			}
		})
	}
	store, _ := open(t)
	u := users(t, store, "ann")
	_, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: u[0].ID, Game: "trench", Variant: "single", Color: "0",
		DaysPerMove: 2, Takebacks: "maybe"}, t0)
	wantKind(t, err, db.KindInvalid)
}

// TestTakebacksKeptByNextGameAndRematch: a rated TRENCH match whose
// challenge allowed takebacks keeps them in its second game and in its
// rematch; one that did not, has none in either.
func TestTakebacksKeptByNextGameAndRematch(t *testing.T) {
	ctx := context.Background()
	for _, choice := range []string{"on", ""} {
		store, _ := open(t)
		g, ann, bob := takebackGame(t, store, "trench", "match", true, choice, db.TimeControl{})
		want := choice == "on"
		ids := map[rules.Side]int64{rules.Side0: ann.ID, rules.Side1: bob.ID}
		for n := 1; n <= 3; n++ {
			if g.Takebacks != want {
				t.Fatalf("choice %q: game %d has takebacks %v", choice, g.Number, g.Takebacks)
			}
			// Side 0 resigns at once: an aborted game, and the match goes on.
			if _, err := store.Resign(ctx, g.ID, ids[rules.Side0], 0, t0); err != nil {
				t.Fatal(err)
			}
			gs, err := store.MatchGames(ctx, g.MatchID)
			if err != nil {
				t.Fatal(err)
			}
			if last := gs[len(gs)-1]; last.Finished() {
				break
			} else {
				g = last
				ids = map[rules.Side]int64{rules.Side0: g.Side[0].ID, rules.Side1: g.Side[1].ID}
			}
		}
		if g.Number < 2 {
			t.Fatalf("choice %q: the match had no second game", choice)
		}
		r, err := store.OfferRematch(ctx, g.MatchID, ann.ID, t0)
		if err != nil {
			t.Fatal(err)
		}
		c, err := store.Challenge(ctx, r.ChallengeID)
		if err != nil || c.Takebacks != want {
			t.Fatalf("choice %q: the rematch challenge has takebacks %v (%v)", choice, c.Takebacks, err)
		}
	}
}

// TestTakebackRestoresDaysPerMove: with days per move, the mover gets
// back what was left of their time to move when they moved, counted from
// the accepted takeback.
func TestTakebackRestoresDaysPerMove(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, ann, bob := takebackGame(t, store, "trenches", "standard", false, "", db.TimeControl{})
	st, _ := g.Decode()
	movedAt := t0.Add(5 * time.Hour)
	g, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: st.Legal(rules.Side0)[0]}, movedAt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.AskTakeback(ctx, g.ID, ann.ID, 1, movedAt); err != nil {
		t.Fatal(err)
	}
	answerAt := movedAt.Add(30 * time.Hour)
	back, err := store.AnswerTakeback(ctx, g.ID, bob.ID, 1, true, answerAt)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := store.Clock(ctx, back, answerAt)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2*24*time.Hour - 5*time.Hour; cs.Left != want || !back.Deadline.Equal(answerAt.Add(want)) {
		t.Fatalf("after the takeback ann has %v (deadline %v), want %v", cs.Left, back.Deadline, want)
	}
}
