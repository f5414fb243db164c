package db_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// TestAdminLog: admin actions from the page and the command line are kept
// with who, what, on whom, when and from where, read newest first, and a
// backup holds them.
func TestAdminLog(t *testing.T) {
	ctx := context.Background()
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	web := db.AdminAction{At: t0, AdminID: u[0].ID, AdminName: "ann", Via: db.ViaWeb, Address: "203.0.113.7",
		Action: db.ActionSuspend, TargetKind: db.TargetUser, TargetID: u[1].ID, TargetName: "bob"}
	cli := db.AdminAction{At: t0.Add(time.Minute), AdminName: "root", Via: db.ViaCLI,
		Action: db.ActionAnnounce, TargetKind: db.TargetAnnouncement, TargetName: strings.Repeat("long text ", 30)}
	for _, a := range []db.AdminAction{web, cli} {
		if err := store.RecordAdminAction(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range []db.AdminAction{{AdminName: "x", Via: "mail", Action: "suspend"}, {AdminName: "", Via: db.ViaCLI, Action: "grant"},
		{AdminName: "x", Via: db.ViaCLI, Action: "grant", TargetKind: "game"}} {
		if err := store.RecordAdminAction(ctx, bad); err == nil {
			t.Errorf("RecordAdminAction(%+v) accepted", bad)
		}
	}
	check := func(s *db.DB) {
		t.Helper()
		log, err := s.AdminLog(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != 2 {
			t.Fatalf("%d entries, want 2", len(log))
		}
		got := log[1]
		got.ID = 0
		if got != web {
			t.Errorf("the web action reads back as %+v, want %+v", got, web)
		}
		c := log[0]
		if c.AdminID != 0 || c.AdminName != "root" || c.Via != db.ViaCLI || c.Address != "" || !c.At.Equal(cli.At) {
			t.Errorf("the command's action reads back as %+v", c)
		}
		if n := len([]rune(c.TargetName)); n != 120 || !strings.HasSuffix(c.TargetName, "…") {
			t.Errorf("a long announcement kept as %d characters: %q", n, c.TargetName)
		}
	}
	check(store)
	if log, _ := store.AdminLog(ctx, 1); len(log) != 1 || log[0].Action != db.ActionAnnounce {
		t.Errorf("the latest entry: %+v", log)
	}
	dest := filepath.Join(t.TempDir(), "backup.db")
	if err := store.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	restored, err := db.Open(ctx, dest)
	if err != nil {
		t.Fatal(err)
	}
	defer restored.Close()
	check(restored)
}
