package db_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

// startGame has creator challenge opponent to a single TRENCH game (the
// creator plays side 0, who moves first) and returns it.
func startGame(t *testing.T, store *db.DB, creator, opponent db.User) db.Game {
	t.Helper()
	ctx := context.Background()
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: creator.ID, Opponent: opponent.Name,
		Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, t0)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptChallenge(ctx, c.ID, opponent.ID, 7, t0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Side[rules.Side0].ID != creator.ID || g.ToMove != rules.Side0 {
		t.Fatalf("game %d: side 0 is %d and side %d moves, want %d to move", g.ID, g.Side[0].ID, g.ToMove, creator.ID)
	}
	return g
}

func TestNotifySettingsStored(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	u := users(t, store, "ann")[0]
	s, err := store.NotifySettings(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.Email != "" || s.Mode != db.NotifyNone {
		t.Fatalf("new settings %+v, want no address and mode none", s)
	}
	if err := store.SetNotify(ctx, u.ID, "ann@example.org", db.NotifyDaily); err != nil {
		t.Fatal(err)
	}
	wantKind(t, store.SetNotify(ctx, u.ID, "ann@example.org", "hourly"), db.KindInvalid)
	wantKind(t, store.SetNotify(ctx, u.ID, "", db.NotifyMove), db.KindInvalid)
	wantKind(t, store.SetNotify(ctx, u.ID, strings.Repeat("a", 250)+"@x.org", db.NotifyMove), db.KindInvalid)
	wantKind(t, store.SetNotify(ctx, u.ID+100, "x@example.org", db.NotifyMove), db.KindNotFound)

	store.Close()
	store, err = db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	got, err := store.NotifySettings(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Email != "ann@example.org" || got.Mode != db.NotifyDaily {
		t.Fatalf("after reopening: %+v, want ann@example.org, daily", got)
	}
}

func TestFeedToken(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob")
	if _, err := store.NotifySettings(ctx, us[0].ID); err != nil {
		t.Fatal(err)
	}
	tok, err := store.RegenerateFeedToken(ctx, us[0].ID)
	if err != nil || len(tok) < 22 {
		t.Fatalf("token %q, %v; want a 128-bit token", tok, err)
	}
	if u, err := store.UserByFeedToken(ctx, tok); err != nil || u.ID != us[0].ID {
		t.Fatalf("token owner %v, %v; want ann", u.Name, err)
	}
	other, err := store.RegenerateFeedToken(ctx, us[1].ID)
	if err != nil || other == tok {
		t.Fatalf("bob's token %q, %v: two players share a feed token", other, err)
	}
	nu, err := store.RegenerateFeedToken(ctx, us[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if nu == tok {
		t.Fatal("regenerating kept the token")
	}
	_, err = store.UserByFeedToken(ctx, tok)
	wantKind(t, err, db.KindNotFound)
	if u, err := store.UserByFeedToken(ctx, nu); err != nil || u.ID != us[0].ID {
		t.Fatalf("new token owner %v, %v; want ann", u.Name, err)
	}
	for _, bad := range []string{"", "x", "not a token at all!!!", strings.Repeat("A", 22)} {
		_, err = store.UserByFeedToken(ctx, bad)
		wantKind(t, err, db.KindNotFound)
	}
	// The file holds neither token: only their hashes.
	store.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if w, err := os.ReadFile(path + "-wal"); err == nil {
		raw = append(raw, w...)
	}
	for _, tk := range []string{nu, other} {
		if bytes.Contains(raw, []byte(tk)) {
			t.Errorf("the database file holds the feed token %q in clear", tk)
		}
	}
}

func TestMoveNoticesDueOnceAcrossRestarts(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob", "cat")
	ann, bob, cat := us[0], us[1], us[2]
	g := startGame(t, store, ann, bob)
	startGame(t, store, cat, bob) // cat to move; cat wants no mail
	for _, u := range []db.User{ann, bob} {
		setVerifiedNotify(t, store, u, u.Name+"@example.org", db.NotifyMove)
	}
	due, err := store.DueMoveNotices(ctx, db.ChannelMail)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 1 || due[0].To.UserID != ann.ID || due[0].To.Email != "ann@example.org" || due[0].Game.ID != g.ID || due[0].Game.Ply != 0 {
		t.Fatalf("due %+v, want ann's game %d at ply 0", due, g.ID)
	}
	ok, err := store.ClaimMoveNotice(ctx, db.ChannelMail, ann.ID, g.ID, 0, t0)
	if err != nil || !ok {
		t.Fatalf("first claim: %v, %v", ok, err)
	}
	if ok, err := store.ClaimMoveNotice(ctx, db.ChannelMail, ann.ID, g.ID, 0, t0); err != nil || ok {
		t.Fatalf("second claim of the same notice: %v, %v; want false", ok, err)
	}
	if due, _ := store.DueMoveNotices(ctx, db.ChannelMail); len(due) != 0 {
		t.Fatalf("due after recording: %+v", due)
	}
	// A claim for a ply the game is not at (or for the player not to move)
	// records nothing.
	if ok, _ := store.ClaimMoveNotice(ctx, db.ChannelMail, bob.ID, g.ID, 0, t0); ok {
		t.Fatal("claimed a notice for the player not to move")
	}
	if ok, _ := store.ClaimMoveNotice(ctx, db.ChannelMail, ann.ID, g.ID, 5, t0); ok {
		t.Fatal("claimed a notice for a ply the game is not at")
	}

	// A move makes it bob's turn at ply 1: due for bob, not for ann.
	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	due, _ = store.DueMoveNotices(ctx, db.ChannelMail)
	if len(due) != 1 || due[0].To.UserID != bob.ID || due[0].Game.Ply != 1 {
		t.Fatalf("due after ann's move %+v, want bob at ply 1", due)
	}
	if ok, err := store.ClaimMoveNotice(ctx, db.ChannelMail, bob.ID, g.ID, 1, t0.Add(time.Hour)); err != nil || !ok {
		t.Fatalf("claim bob: %v, %v", ok, err)
	}

	// A restart does not make anything due again.
	store.Close()
	store, err = db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if due, err := store.DueMoveNotices(ctx, db.ChannelMail); err != nil || len(due) != 0 {
		t.Fatalf("due after reopening: %+v, %v", due, err)
	}
	if ok, _ := store.ClaimMoveNotice(ctx, db.ChannelMail, bob.ID, g.ID, 1, t0.Add(2*time.Hour)); ok {
		t.Fatal("claimed a notice again after reopening")
	}
	// Mode none: nothing is due even with a game waiting.
	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: bob.ID, Ply: 1, Move: "e5-e4"}, t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := store.SetNotify(ctx, ann.ID, "ann@example.org", db.NotifyNone); err != nil {
		t.Fatal(err)
	}
	if due, _ := store.DueMoveNotices(ctx, db.ChannelMail); len(due) != 0 {
		t.Fatalf("due with mode none: %+v", due)
	}
}

func TestConcurrentClaimsSendOnce(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob")
	g := startGame(t, store, us[0], us[1])
	wins := make(chan bool, 20)
	for range 20 {
		go func() {
			ok, err := store.ClaimMoveNotice(ctx, db.ChannelMail, us[0].ID, g.ID, 0, t0)
			if err != nil {
				t.Error(err)
			}
			wins <- ok
		}()
	}
	n := 0
	for range 20 {
		if <-wins {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d claims won, want exactly 1", n)
	}
}

func TestDigestOncePerDay(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob", "cat")
	ann := us[0]
	g1 := startGame(t, store, ann, us[1])
	g2 := startGame(t, store, ann, us[2])
	startGame(t, store, us[1], us[2]) // not ann's
	setVerifiedNotify(t, store, ann, "ann@example.org", db.NotifyDaily)
	// Every-move notices are not due for a daily player.
	if due, _ := store.DueMoveNotices(ctx, db.ChannelMail); len(due) != 0 {
		t.Fatalf("move notices due for a daily player: %+v", due)
	}
	now := time.Date(2026, 3, 2, 0, 10, 0, 0, time.UTC)
	due, err := store.DueDigests(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 1 || due[0].To.UserID != ann.ID || len(due[0].Games) != 2 ||
		due[0].Games[0].ID != g1.ID || due[0].Games[1].ID != g2.ID {
		t.Fatalf("due digests %+v, want ann's with games %d and %d", due, g1.ID, g2.ID)
	}
	if ok, err := store.ClaimDigest(ctx, ann.ID, 2, now); err != nil || !ok {
		t.Fatalf("claim digest: %v, %v", ok, err)
	}
	if ok, _ := store.ClaimDigest(ctx, ann.ID, 2, now.Add(12*time.Hour)); ok {
		t.Fatal("a second digest claimed the same day")
	}
	if due, _ := store.DueDigests(ctx, now.Add(23*time.Hour+40*time.Minute)); len(due) != 0 {
		t.Fatalf("digests due later the same day: %+v", due)
	}
	store.Close()
	store, err = db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if due, _ := store.DueDigests(ctx, now.Add(23*time.Hour+45*time.Minute)); len(due) != 0 {
		t.Fatalf("digests due the same day after reopening: %+v", due)
	}
	// Past midnight UTC it is a new day.
	next := now.Add(23*time.Hour + 51*time.Minute)
	due, _ = store.DueDigests(ctx, next)
	if len(due) != 1 || len(due[0].Games) != 2 {
		t.Fatalf("digests due the next day: %+v, want ann's with 2 games", due)
	}
	// No game waiting: no digest due.
	for _, g := range []db.Game{g1, g2} {
		if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, next); err != nil {
			t.Fatal(err)
		}
	}
	if due, _ := store.DueDigests(ctx, next); len(due) != 0 {
		t.Fatalf("digest due with no game waiting: %+v", due)
	}
}

// setVerifiedNotify saves u's address and mode and verifies the address,
// as its owner does through the mailed link (mail goes only to a verified
// address).
func setVerifiedNotify(t *testing.T, store *db.DB, u db.User, email string, mode db.NotifyMode) {
	t.Helper()
	ctx := context.Background()
	if err := store.SetNotify(ctx, u.ID, email, mode); err != nil {
		t.Fatal(err)
	}
	v, err := store.StartEmailVerification(ctx, u.ID, t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.VerifyEmail(ctx, v.Token, t0); err != nil {
		t.Fatal(err)
	}
}
