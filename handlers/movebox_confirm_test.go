package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// TestMoveBoxWithConfirmMoves: for a player who confirms moves, a move
// typed in the move box is shown pending like a click, stored only by
// "Send move"; a move that is not legal is refused with nothing stored.
func TestMoveBoxWithConfirmMoves(t *testing.T) {
	s := startServer(t, "", nil)
	signedUpPair(t, s)
	alice, bob := s.newClient(t), s.newClient(t)
	alice.Name, bob.Name = "alice", "bob"
	alice.SignIn("alice", "correct horse")
	bob.SignIn("bob", "correct horse")
	id := startRated(t, s, "alice", "bob", "trench", "single")
	mover, g := whoMoves(t, s, id, alice, bob)
	setConfirmMoves(t, mover, true)
	mover.Get(fmt.Sprintf("/games/%d", id))
	box := mover.Last.Find("#move-box")
	if box.Length() != 1 {
		t.Fatal("no move box for the player to move")
	}
	legal := mover.Last.Find("#move-list option").First().AttrOr("value", "")
	if legal == "" {
		t.Fatal("the move box lists no legal move")
	}

	// The box is a GET form naming the move "pending", as a browser sends it.
	if box.AttrOr("method", "") != "get" || box.Find("#move-input").AttrOr("name", "") != "pending" {
		t.Fatal("with Confirm moves on, the move box still sends the move")
	}
	typed := func(move string) {
		mover.Get(box.AttrOr("action", "") + "?" + url.Values{"pending": {move}}.Encode())
		mover.wantStatus(http.StatusOK)
	}
	typed("a1-a9")
	if got := gamePly(t, s, id).Ply; got != g.Ply {
		t.Fatalf("a move typed that is not legal changed the game to ply %d", got)
	}
	if mover.Last.Find("#pending-move").Length() != 0 {
		t.Fatal("a move that is not legal is shown pending")
	}

	typed(legal)
	if mover.Last.Find("#pending-move").Length() != 1 {
		t.Fatalf("the typed move %s is not shown pending", legal)
	}
	if got := gamePly(t, s, id).Ply; got != g.Ply {
		t.Fatalf("a typed move was stored before Send move (ply %d)", got)
	}
	sendPending(t, mover)
	wantStored(t, s, id, g.Ply+1, legal)
}
