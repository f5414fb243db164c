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

func TestMessages(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob", "eve")
	ctx := context.Background()
	g := startMatch(t, store, u[0], u[1], "trench", "single", false)

	m, err := store.SendMessage(ctx, g.ID, u[0].ID, "  good luck!\n ", t0)
	if err != nil {
		t.Fatal(err)
	}
	if m.Body != "good luck!" || m.ToID != u[1].ID {
		t.Fatalf("stored %+v, want the trimmed text to bob", m)
	}
	_, err = store.SendMessage(ctx, g.ID, u[0].ID, " \n\t ", t0)
	wantKind(t, err, db.KindInvalid)
	_, err = store.SendMessage(ctx, g.ID, u[0].ID, strings.Repeat("x", db.MaxMessage+1), t0)
	wantKind(t, err, db.KindInvalid)
	// The limit counts characters, not bytes.
	if _, err := store.SendMessage(ctx, g.ID, u[1].ID, strings.Repeat("é", db.MaxMessage), t0); err != nil {
		t.Fatalf("a message of %d two-byte characters was refused: %v", db.MaxMessage, err)
	}
	_, err = store.SendMessage(ctx, g.ID, u[2].ID, "hello", t0)
	wantKind(t, err, db.KindForbidden)
	_, err = store.SendMessage(ctx, 9999, u[0].ID, "hello", t0)
	wantKind(t, err, db.KindNotFound)
	_, err = store.ReadMessages(ctx, g, u[2].ID, t0)
	wantKind(t, err, db.KindForbidden)

	// bob has one unread message, ann one.
	for i, want := range []int{1, 1} {
		n, err := store.UnreadCount(ctx, g.ID, u[i].ID)
		if err != nil || n != want {
			t.Fatalf("%s has %d unread (%v), want %d", u[i].Name, n, err, want)
		}
	}
	threads, err := store.UnreadMessages(ctx, u[1].ID)
	if err != nil || len(threads) != 1 || threads[0].Game.ID != g.ID || threads[0].Count != 1 || threads[0].Game.Side[0].Name != "ann" {
		t.Fatalf("bob's unread threads %+v, %v", threads, err)
	}
	list, err := store.ReadMessages(ctx, g, u[1].ID, t0)
	if err != nil || len(list) != 2 || list[0].Body != "good luck!" || !list[0].Unread || list[0].From.Name != "ann" {
		t.Fatalf("bob reads %+v, %v", list, err)
	}
	if n, _ := store.UnreadCount(ctx, g.ID, u[1].ID); n != 0 {
		t.Fatalf("bob still has %d unread after reading", n)
	}
	if n, _ := store.UnreadCount(ctx, g.ID, u[0].ID); n != 1 {
		t.Fatalf("bob's reading marked ann's message read: %d unread", n)
	}
	if threads, _ := store.UnreadMessages(ctx, u[1].ID); len(threads) != 0 {
		t.Fatalf("bob's unread threads after reading: %+v", threads)
	}
}

func TestMessageWithMove(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	ctx := context.Background()
	g := startMatch(t, store, u[0], u[1], "trench", "single", false)
	st, _ := g.Decode()
	move := st.Legal(g.ToMove)[0]
	mover := g.Side[g.ToMove]
	// A bad message refuses the move with it: nothing changes.
	_, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: mover.ID, Ply: 0, Move: move, Message: strings.Repeat("x", 501)}, t0)
	wantKind(t, err, db.KindInvalid)
	if after, _ := store.Game(ctx, g.ID); after.Ply != 0 {
		t.Fatalf("the move was played with a refused message (ply %d)", after.Ply)
	}
	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: mover.ID, Ply: 0, Move: move, Message: " your move "}, t0); err != nil {
		t.Fatal(err)
	}
	list, err := store.ReadMessages(ctx, g, mover.ID, t0)
	if err != nil || len(list) != 1 || list[0].Body != "your move" || list[0].Ply != 1 {
		t.Fatalf("messages after the move: %+v, %v", list, err)
	}
	// A blank message with a move is no message.
	g, _ = store.Game(ctx, g.ID)
	st, _ = g.Decode()
	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: g.Side[g.ToMove].ID, Ply: 1, Move: st.Legal(g.ToMove)[0], Message: "  "}, t0); err != nil {
		t.Fatal(err)
	}
	if list, _ := store.ReadMessages(ctx, g, mover.ID, t0); len(list) != 1 {
		t.Fatalf("%d messages, want 1", len(list))
	}
}

func TestRematchAccept(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob", "eve")
	ctx := context.Background()
	clock := db.TimeControl{Kind: "bank", BankInitial: 10 * 24 * time.Hour, BankAdd: 36 * time.Hour, BankMax: 20 * 24 * time.Hour}
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: u[0].ID, Opponent: "bob", Game: "trench", Variant: "bga", Color: "0", Clock: clock, Rated: true}, t0)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptChallenge(ctx, c.ID, u[1].ID, 3, t0)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := store.Game(ctx, id)
	// Not before the match is over.
	_, err = store.OfferRematch(ctx, g.MatchID, u[0].ID, t0)
	wantKind(t, err, db.KindConflict)
	g = resignAs(t, store, playOpening(t, store, g), u[0])

	_, err = store.OfferRematch(ctx, g.MatchID, u[2].ID, t0)
	wantKind(t, err, db.KindForbidden)
	r, err := store.OfferRematch(ctx, g.MatchID, u[0].ID, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Open() || r.From.ID != u[0].ID || r.To.ID != u[1].ID {
		t.Fatalf("offer %+v", r)
	}
	_, err = store.OfferRematch(ctx, g.MatchID, u[0].ID, t0)
	wantKind(t, err, db.KindConflict)
	_, err = store.OfferRematch(ctx, g.MatchID, u[1].ID, t0)
	wantKind(t, err, db.KindConflict)
	_, err = store.AcceptRematch(ctx, g.MatchID, u[0].ID, 5, t0)
	wantKind(t, err, db.KindForbidden)
	_, err = store.AcceptRematch(ctx, g.MatchID, u[2].ID, 5, t0)
	wantKind(t, err, db.KindForbidden)

	newID, err := store.AcceptRematch(ctx, g.MatchID, u[1].ID, 5, t0)
	if err != nil {
		t.Fatal(err)
	}
	ng, err := store.Game(ctx, newID)
	if err != nil {
		t.Fatal(err)
	}
	// Colours swapped: ann played side 0 (Black), now bob does.
	if ng.Side[0].ID != u[1].ID || ng.Side[1].ID != u[0].ID {
		t.Fatalf("rematch sides %v / %v, want bob then ann", ng.Side[0].Name, ng.Side[1].Name)
	}
	if ng.Game != g.Game || ng.MatchVariant != g.MatchVariant || ng.Clock != g.Clock || ng.MatchID == g.MatchID {
		t.Fatalf("rematch %s/%s clock %+v (match %d), want %s/%s clock %+v in a new match", ng.Game, ng.MatchVariant, ng.Clock, ng.MatchID, g.Game, g.MatchVariant, g.Clock)
	}
	rc, err := store.Challenge(ctx, r.ChallengeID)
	if err != nil || !rc.Rated || rc.Clock != c.Clock || rc.Status != "accepted" || rc.MatchID != ng.MatchID {
		t.Fatalf("the rematch challenge is %+v (%v); the original %+v", rc, err, c)
	}
	r, _ = store.Rematch(ctx, g.MatchID)
	if r.Status != "accepted" || r.NewMatchID != ng.MatchID {
		t.Fatalf("offer after acceptance %+v", r)
	}
	_, err = store.OfferRematch(ctx, g.MatchID, u[1].ID, t0)
	wantKind(t, err, db.KindConflict)
	// The rematch is rated like the match it repeats.
	resignAs(t, store, playOpening(t, store, ng), u[0])
	if r := rating(t, store, u[1], "trench"); r.Games != 2 {
		t.Fatalf("bob's rating after the rated rematch: %+v", r)
	}
}

func TestRematchDeclineAndWithdraw(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	ctx := context.Background()
	g := resignAs(t, store, startMatch(t, store, u[0], u[1], "trench", "single", false), u[1])
	if _, err := store.OfferRematch(ctx, g.MatchID, u[1].ID, t0); err != nil {
		t.Fatal(err)
	}
	wantKind(t, store.DeclineRematch(ctx, g.MatchID, u[1].ID), db.KindForbidden) // one's own offer
	if err := store.DeclineRematch(ctx, g.MatchID, u[0].ID); err != nil {
		t.Fatal(err)
	}
	r, _ := store.Rematch(ctx, g.MatchID)
	if r.Status != "declined" || r.Open() {
		t.Fatalf("after declining: %+v", r)
	}
	wantKind(t, store.DeclineRematch(ctx, g.MatchID, u[0].ID), db.KindConflict)
	_, err := store.AcceptRematch(ctx, g.MatchID, u[0].ID, 1, t0)
	wantKind(t, err, db.KindConflict)
	// A new offer replaces the declined one; its maker may withdraw it.
	if _, err := store.OfferRematch(ctx, g.MatchID, u[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	wantKind(t, store.WithdrawRematch(ctx, g.MatchID, u[1].ID), db.KindForbidden)
	if err := store.WithdrawRematch(ctx, g.MatchID, u[0].ID); err != nil {
		t.Fatal(err)
	}
	if r, _ := store.Rematch(ctx, g.MatchID); r.Status != "cancelled" {
		t.Fatalf("after withdrawing: %+v", r)
	}
	// No unrated game became rated on the way.
	if r := rating(t, store, u[0], "trench"); r.Games != 0 {
		t.Fatalf("ann's rating %+v", r)
	}
}

// TestRematchOfCardGameSwapsSides: in the card game the challenger plays
// ♠ (side 0); in the rematch the other player does, whoever offers it.
func TestRematchOfCardGameSwapsSides(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	ctx := context.Background()
	eng, _ := rules.Lookup("cards")
	g := startMatch(t, store, u[0], u[1], "cards", eng.Variants()[0].Key, true)
	if g.Side[0].ID != u[0].ID {
		t.Fatalf("ann made the challenge but plays side %v", g.SideOf(u[0].ID))
	}
	g = resignAs(t, store, g, u[1])
	if _, err := store.OfferRematch(ctx, g.MatchID, u[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	id, err := store.AcceptRematch(ctx, g.MatchID, u[1].ID, 11, t0)
	if err != nil {
		t.Fatal(err)
	}
	ng, _ := store.Game(ctx, id)
	if ng.Side[0].ID != u[1].ID || ng.Variant != g.Variant {
		t.Fatalf("card rematch: side 0 is %s, variant %s; want bob and %s", ng.Side[0].Name, ng.Variant, g.Variant)
	}
}

// TestSocialVersionFollowsChanges: the remembered social version of a
// game moves on with every message, rematch offer, answer to it and
// withdrawal, and equals what a fresh reader of the file reads; a change
// of the game alone leaves it as it was.
func TestSocialVersionFollowsChanges(t *testing.T) {
	store, path := open(t)
	u := users(t, store, "ann", "bob")
	ctx := context.Background()
	g := startMatch(t, store, u[0], u[1], "trench", "single", false)
	seen := map[string]string{}
	step := func(what string, changed bool) {
		t.Helper()
		before := seen["last"]
		v, err := store.SocialVersion(ctx, g.ID, g.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := db.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.SocialVersion(ctx, g.ID, g.MatchID)
		fresh.Close()
		if err != nil {
			t.Fatal(err)
		}
		if v != want {
			t.Fatalf("%s: the version is %q, a fresh reader reads %q", what, v, want)
		}
		if before != "" && (v != before) != changed {
			t.Fatalf("%s: the version went from %q to %q", what, before, v)
		}
		if prev, ok := seen[v]; ok && changed {
			t.Fatalf("%s: the version %q is the one after %s", what, v, prev)
		}
		seen[v], seen["last"] = what, v
	}
	step("the start", false)
	step("reading again", false)
	if _, err := store.SendMessage(ctx, g.ID, u[0].ID, "good luck", t0); err != nil {
		t.Fatal(err)
	}
	step("a message", true)
	g = playOpening(t, store, g)
	step("moves", false)
	g = resignAs(t, store, g, u[1])
	step("the end of the match", false)
	if _, err := store.OfferRematch(ctx, g.MatchID, u[1].ID, t0); err != nil {
		t.Fatal(err)
	}
	step("a rematch offer", true)
	if err := store.DeclineRematch(ctx, g.MatchID, u[0].ID); err != nil {
		t.Fatal(err)
	}
	step("the offer declined", true)
	if _, err := store.OfferRematch(ctx, g.MatchID, u[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	step("a new offer", true)
	if err := store.WithdrawRematch(ctx, g.MatchID, u[0].ID); err != nil {
		t.Fatal(err)
	}
	step("the offer withdrawn", true)
}
