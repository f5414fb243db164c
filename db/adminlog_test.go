package db_test

import (
	"context"
	"database/sql"
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

// TestAdminActionAndItsEntryAreOne: an admin action carried by
// WithAudit is recorded by its own transaction: both are kept, or, when
// the entry cannot be written, neither. An action that writes nothing
// is recorded apart, once.
func TestAdminActionAndItsEntryAreOne(t *testing.T) {
	ctx := context.Background()
	store, path := open(t)
	u := users(t, store, "ann", "bob")
	entry := func(action string) db.AdminAction {
		return db.AdminAction{At: t0, AdminID: u[0].ID, AdminName: "ann", Via: db.ViaWeb, Address: "203.0.113.7",
			Action: action, TargetKind: db.TargetUser, TargetID: u[1].ID, TargetName: "bob"}
	}
	entries := func() int {
		t.Helper()
		log, err := store.AdminLog(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(log)
	}
	actx, err := db.WithAudit(ctx, entry(db.ActionSuspend))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.SuspendUser(actx, u[1].ID, t0); err != nil {
		t.Fatal(err)
	}
	if !db.Audited(actx) || entries() != 1 {
		t.Fatalf("after the suspension: recorded %v, %d entries, want it recorded once", db.Audited(actx), entries())
	}
	if _, err := db.WithAudit(ctx, db.AdminAction{AdminName: "ann", Via: "mail", Action: "x"}); err == nil {
		t.Error("WithAudit accepted an entry RecordAdminAction refuses")
	}

	// An entry that cannot be written: the action is not done either.
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.ExecContext(ctx, `CREATE TRIGGER no_log BEFORE INSERT ON admin_log BEGIN SELECT RAISE(ABORT, 'the log is full'); END`); err != nil {
		t.Fatal(err)
	}
	actx, _ = db.WithAudit(ctx, entry(db.ActionUnsuspend))
	if err := store.UnsuspendUser(actx, u[1].ID); err == nil || !strings.Contains(err.Error(), "the log is full") {
		t.Fatalf("unsuspend without its entry: %v, want the entry's error", err)
	}
	if bob, err := store.UserByID(ctx, u[1].ID); err != nil || bob.SuspendedAt.IsZero() || db.Audited(actx) {
		t.Errorf("bob after an unsuspension whose entry failed: suspended at %v (%v), recorded %v; want still suspended, nothing recorded",
			bob.SuspendedAt, err, db.Audited(actx))
	}
	if _, err := raw.ExecContext(ctx, `DROP TRIGGER no_log`); err != nil {
		t.Fatal(err)
	}

	// An action that writes nothing: recorded apart, once, even with
	// the context that carries it.
	actx, _ = db.WithAudit(ctx, entry(db.ActionReset))
	if _, err := store.UserByID(actx, u[1].ID); err != nil {
		t.Fatal(err)
	}
	if db.Audited(actx) {
		t.Fatal("a read recorded the action")
	}
	if err := store.RecordAdminAction(actx, entry(db.ActionReset)); err != nil {
		t.Fatal(err)
	}
	if n := entries(); n != 2 {
		t.Errorf("%d entries after an action recorded apart, want 2", n)
	}
}
