package db_test

import (
	"context"
	"testing"

	"github.com/trench-games/trench/db"
)

// TestLessonProgress: a step done is kept per player and game, recording
// it twice keeps one, a step out of range is refused, and deleting the
// account drops the progress.
func TestLessonProgress(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob")
	for _, s := range []int{1, 2, 2} {
		if err := store.MarkLessonDone(ctx, us[0].ID, "trench", s, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.MarkLessonDone(ctx, us[0].ID, "cards", 4, t0); err != nil {
		t.Fatal(err)
	}
	wantKind(t, store.MarkLessonDone(ctx, us[0].ID, "trench", 0, t0), db.KindInvalid)
	done, err := store.LessonsDone(ctx, us[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(done["trench"]) != 2 || !done["trench"][1] || !done["trench"][2] || !done["cards"][4] || len(done) != 2 {
		t.Fatalf("ann's lessons: %v", done)
	}
	if other, err := store.LessonsDone(ctx, us[1].ID); err != nil || len(other) != 0 {
		t.Fatalf("bob's lessons: %v %v", other, err)
	}
	if err := store.DeleteAccount(ctx, us[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	if done, err := store.LessonsDone(ctx, us[0].ID); err != nil || len(done) != 0 {
		t.Fatalf("after the account was deleted: %v %v", done, err)
	}
}
