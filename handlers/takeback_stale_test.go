package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// TestPageFromBeforeATakebackCannotMove: a takeback brings the game back
// to a ply it had before, so a page drawn before it carries the same ply
// as the game after the mover plays again. Its move is refused (409, the
// current position shown), nothing stored; the page drawn now moves.
func TestPageFromBeforeATakebackCannotMove(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := signedUpPair(t, s)
	id := challenge(t, alice, bob, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	ply := func() int {
		t.Helper()
		g, err := s.DB.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return g.Ply
	}

	clickMove(t, alice, id, func(int) int { return 0 })
	bob.Get(page)
	stale := bob.Last.Find("#move-box").Clone()
	staleMove := bob.Last.Find("#move-list option").First().AttrOr("value", "")
	if stale.Length() != 1 || staleMove == "" {
		t.Fatal("bob's page has no move box to keep")
	}

	alice.Get(page)
	alice.Submit(alice.Last.Find("#takeback-ask-form"), nil)
	bob.Get(page)
	bob.Submit(bob.Last.Find("#takeback-accept-form"), nil)
	bob.wantStatus(http.StatusOK)
	clickMove(t, alice, id, func(n int) int { return n - 1 })
	if got := ply(); got != 1 {
		t.Fatalf("after the takeback and alice's new move the game is at ply %d, want 1", got)
	}

	// Bob sends the move box of the page he drew before the takeback.
	bob.Submit(stale, url.Values{"move": {staleMove}})
	bob.wantStatus(http.StatusConflict)
	if got := ply(); got != 1 {
		t.Fatalf("a page from before the takeback moved: ply %d", got)
	}
	if bob.Last.Find("#board").Length() != 1 {
		t.Fatal("the refusal does not show the current position")
	}

	// The page drawn now moves.
	bob.Get(page)
	fresh := bob.Last.Find("#move-list option").First().AttrOr("value", "")
	bob.Submit(bob.Last.Find("#move-box"), url.Values{"move": {fresh}})
	bob.wantStatus(http.StatusOK)
	wantStored(t, s, id, 2, fresh)
}
