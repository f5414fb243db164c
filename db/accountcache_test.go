package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// TestSessionAnswersFollowEveryChange: the session a request reads is
// remembered, yet a suspension, a sign-out, a setting or an announcement
// shows at once, and one made by another process (`trench admin`) within
// a second.
func TestSessionAnswersFollowEveryChange(t *testing.T) {
	ctx := context.Background()
	store, path := open(t)
	u := users(t, store, "ann", "bob")
	hash := []byte("0123456789abcdef0123456789abcdef")
	s, err := store.CreateSession(ctx, u[1].ID, hash, "test", "10.0.0.1", t0, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second answer comes from memory
		if got, gu, err := store.SessionByToken(ctx, hash, t0); err != nil || got.ID != s.ID || gu.BoardView != "diamond" {
			t.Fatalf("session %+v %+v %v", got, gu, err)
		}
	}
	if _, _, err := store.SessionByToken(ctx, hash, t0.Add(2*time.Hour)); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("an expired session was served: %v", err)
	}
	if err := store.SetBoardView(ctx, u[1].ID, "square"); err != nil {
		t.Fatal(err)
	}
	if _, gu, err := store.SessionByToken(ctx, hash, t0); err != nil || gu.BoardView != "square" {
		t.Fatalf("after a setting: %+v %v", gu, err)
	}
	if _, err := store.Announcement(ctx); err != nil {
		t.Fatal(err)
	}
	if err := store.SetAnnouncement(ctx, "Maintenance at noon"); err != nil {
		t.Fatal(err)
	}
	if a, err := store.Announcement(ctx); err != nil || a != "Maintenance at noon" {
		t.Fatalf("announcement %q %v", a, err)
	}
	if err := store.SuspendUser(ctx, u[1].ID, t0); err != nil {
		t.Fatal(err)
	}
	if _, gu, err := store.SessionByToken(ctx, hash, t0); err == nil && gu.Active() {
		t.Fatal("a suspended player's session was served from memory")
	}

	// Another process ends a session: seen within a second.
	hash2 := []byte("fedcba9876543210fedcba9876543210")
	s2, err := store.CreateSession(ctx, u[0].ID, hash2, "test", "10.0.0.2", t0, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.SessionByToken(ctx, hash2, t0); err != nil {
		t.Fatal(err)
	}
	other, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	err = other.EndSession(ctx, u[0].ID, s2.ID)
	other.Close()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Second)
	for {
		_, _, err := store.SessionByToken(ctx, hash2, t0)
		if db.KindOf(err) == db.KindNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a session ended by another process is still served after a second: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
