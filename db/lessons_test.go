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

// TestLessonsDoneCarriedTogether: the steps of a visitor's cookie join
// the account's in one go, those already there kept once; one step out of
// range refuses the whole and records nothing.
func TestLessonsDoneCarriedTogether(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "ann")
	if err := store.MarkLessonDone(ctx, us[0].ID, "trench", 2, t0); err != nil {
		t.Fatal(err)
	}
	wantKind(t, store.MarkLessonsDone(ctx, us[0].ID, map[string][]int{"trench": {3}, "cards": {101}}, t0), db.KindInvalid)
	if err := store.MarkLessonsDone(ctx, us[0].ID, map[string][]int{"trench": {1, 2}, "trenches": {4}}, t0); err != nil {
		t.Fatal(err)
	}
	done, err := store.LessonsDone(ctx, us[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 2 || len(done["trench"]) != 2 || !done["trench"][1] || !done["trench"][2] || !done["trenches"][4] {
		t.Fatalf("ann's lessons: %v", done)
	}
}
