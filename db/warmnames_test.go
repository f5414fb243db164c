package db_test

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/trench-games/trench/db"
)

// TestWarmNamesReadsEveryNameOnce: once the names are read ahead, an
// archive page names its players without reading an account; after an
// account is deleted (its name replaced), the names are read again and
// its games show the new name.
func TestWarmNamesReadsEveryNameOnce(t *testing.T) {
	ctx := context.Background()
	store, _, res := filledStore(t, 600)
	if err := store.WarmNames(ctx); err != nil {
		t.Fatal(err)
	}
	var nameReads atomic.Int64
	stop := db.TraceReads(store, func(q string, _ []any) {
		if strings.Contains(q, "SELECT id, name FROM users WHERE id IN") {
			nameReads.Add(1)
		}
	})
	defer stop()
	page, err := store.Archive(ctx, db.ArchiveFilter{Page: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Rows) == 0 {
		t.Fatal("no games on the archive's second page")
	}
	for _, r := range page.Rows {
		for _, p := range r.Game.Side {
			if p.Name == "" {
				t.Fatalf("game %d: a player without a name", r.Game.ID)
			}
		}
	}
	if n := nameReads.Load(); n != 0 {
		t.Errorf("the archive read the accounts %d times for its players' names, want none once they were read ahead", n)
	}
	// A deletion moves the names on: the next page reads its players'
	// names again, the deleted account's new one among them.
	u, err := store.UserByName(ctx, res.Heaviest)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.DeleteAccount(ctx, u.ID, t0); err != nil {
		t.Fatal(err)
	}
	gone := db.TombstonePrefix + strconv.FormatInt(u.ID, 10)
	page, err = store.Archive(ctx, db.ArchiveFilter{Player: gone})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Rows) == 0 || nameReads.Load() == 0 {
		t.Fatalf("%d games of the deleted account, %d reads of names", len(page.Rows), nameReads.Load())
	}
	for _, r := range page.Rows {
		if r.Game.Side[0].Name != gone && r.Game.Side[1].Name != gone {
			t.Errorf("game %d names %s and %s, not %s", r.Game.ID, r.Game.Side[0].Name, r.Game.Side[1].Name, gone)
		}
	}
}
