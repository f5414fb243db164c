package db_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

func TestFirstAccountIsAdmin(t *testing.T) {
	store, _ := open(t)
	u := users(t, store, "ann", "bob")
	if !u[0].Admin || u[1].Admin {
		t.Fatalf("admin flags %v %v, want only the first account", u[0].Admin, u[1].Admin)
	}
	bob, err := store.SetAdmin(context.Background(), "BOB", true)
	if err != nil || !bob.Admin {
		t.Fatalf("grant: %+v %v", bob, err)
	}
	if got, _ := store.UserByName(context.Background(), "bob"); !got.Admin {
		t.Fatal("the grant was not stored")
	}
	if _, err := store.SetAdmin(context.Background(), "nobody", true); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("grant to an unknown name: %v", err)
	}
	if _, err := store.CreateUser(context.Background(), "Deleted-3", "h", t0); db.KindOf(err) != db.KindInvalid {
		t.Fatalf("a tombstone name could be taken: %v", err)
	}
}

// verifiedAddress gives userID the address email, verified.
func verifiedAddress(t *testing.T, store *db.DB, userID int64, email string) {
	t.Helper()
	ctx := context.Background()
	if err := store.SetNotify(ctx, userID, email, db.NotifyNone); err != nil {
		t.Fatal(err)
	}
	v, err := store.StartEmailVerification(ctx, userID, t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, got, err := store.VerifyEmail(ctx, v.Token, t0); err != nil || got != email {
		t.Fatalf("verify: %q %v", got, err)
	}
}

func TestEmailVerification(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	ann := users(t, store, "ann")[0]
	if _, err := store.StartEmailVerification(ctx, ann.ID, t0); db.KindOf(err) != db.KindInvalid {
		t.Fatalf("verification without an address: %v", err)
	}
	if err := store.SetNotify(ctx, ann.ID, "ann@example.org", db.NotifyNone); err != nil {
		t.Fatal(err)
	}
	v, err := store.StartEmailVerification(ctx, ann.ID, t0)
	if err != nil || v.To.Email != "ann@example.org" || v.Token == "" {
		t.Fatalf("start: %+v %v", v, err)
	}
	// A token expires.
	if _, _, err := store.VerifyEmail(ctx, v.Token, t0.Add(db.VerifyTokenTTL+time.Second)); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("an expired token worked: %v", err)
	}
	if _, _, err := store.VerifyEmail(ctx, v.Token, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if s, _ := store.NotifySettings(ctx, ann.ID); !s.Verified {
		t.Fatal("the address is not marked verified")
	}
	// Saving the same address keeps it verified; a new one is not.
	if err := store.SetNotify(ctx, ann.ID, "ann@example.org", db.NotifyMove); err != nil {
		t.Fatal(err)
	}
	if s, _ := store.NotifySettings(ctx, ann.ID); !s.Verified {
		t.Fatal("saving the same address lost its verification")
	}
	v2, err := store.StartEmailVerification(ctx, ann.ID, t0)
	if db.KindOf(err) != db.KindInvalid {
		t.Fatalf("verifying a verified address: %+v %v", v2, err)
	}
	if err := store.SetNotify(ctx, ann.ID, "new@example.org", db.NotifyMove); err != nil {
		t.Fatal(err)
	}
	if s, _ := store.NotifySettings(ctx, ann.ID); s.Verified {
		t.Fatal("a new address counts as verified")
	}
	// A link for an old address does not verify the new one.
	v3, err := store.StartEmailVerification(ctx, ann.ID, t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.SetNotify(ctx, ann.ID, "third@example.org", db.NotifyMove); err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.VerifyEmail(ctx, v3.Token, t0); db.KindOf(err) != db.KindConflict {
		t.Fatalf("a link for an old address: %v", err)
	}
}

func TestPasswordReset(t *testing.T) {
	store, path := open(t)
	ctx := context.Background()
	u := users(t, store, "ann", "bob")
	ann := u[0]
	// Only a verified address gets a link.
	if err := store.SetNotify(ctx, u[1].ID, "bob@example.org", db.NotifyNone); err != nil {
		t.Fatal(err)
	}
	if _, err := store.RequestPasswordReset(ctx, "bob@example.org", t0); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("a reset for an unverified address: %v", err)
	}
	if _, err := store.RequestPasswordReset(ctx, "nobody@example.org", t0); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("a reset for an unknown address: %v", err)
	}
	verifiedAddress(t, store, ann.ID, "ann@example.org")
	r, err := store.RequestPasswordReset(ctx, "ANN@example.org", t0)
	if err != nil || r.To.UserID != ann.ID || r.To.Email != "ann@example.org" {
		t.Fatalf("request: %+v %v", r, err)
	}
	// Only the hash is stored.
	raw, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(r.Token)) {
		t.Fatal("the token is stored in clear")
	}
	if _, err := store.ResetPassword(ctx, r.Token, "new", t0.Add(db.ResetTokenTTL+time.Second)); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("an expired token worked: %v", err)
	}
	before, _ := store.UserByID(ctx, ann.ID)
	if got, err := store.ResetTokenUser(ctx, r.Token, t0); err != nil || got.ID != ann.ID {
		t.Fatalf("token user: %+v %v", got, err)
	}
	got, err := store.ResetPassword(ctx, r.Token, "new", t0.Add(time.Minute))
	if err != nil || got.PasswordHash != "new" {
		t.Fatalf("reset: %+v %v", got, err)
	}
	if got.SessionGen == before.SessionGen {
		t.Fatal("using the link did not end the sessions")
	}
	if _, err := store.ResetPassword(ctx, r.Token, "again", t0.Add(time.Minute)); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("a token worked twice: %v", err)
	}
	// At most 3 links an hour for one account.
	for i := range 3 {
		_, err := store.RequestPasswordReset(ctx, "ann@example.org", t0.Add(2*time.Minute))
		if i < 2 && err != nil {
			t.Fatal(err)
		}
		if i == 2 && db.KindOf(err) != db.KindTooMany {
			t.Fatalf("the 4th link in an hour: %v", err)
		}
	}
	if _, err := store.RequestPasswordReset(ctx, "ann@example.org", t0.Add(2*time.Hour)); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
	// The admin's reset: the password stops working, sessions end.
	f, err := store.ForcePasswordReset(ctx, ann.ID, t0)
	if err != nil || f.To.Email != "ann@example.org" || f.Token == "" {
		t.Fatalf("force: %+v %v", f, err)
	}
	after, _ := store.UserByID(ctx, ann.ID)
	if after.PasswordHash != "" || after.SessionGen == got.SessionGen {
		t.Fatalf("after a forced reset: %+v", after)
	}
}

func TestDeleteAccount(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g1, ann, bob := newGame(t, store, "trench", "match")
	carl := users(t, store, "carl")[0]
	// A finished single game between ann and carl, with messages.
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: ann.ID, Opponent: "carl", Game: "trench", Variant: "single", Color: "0", DaysPerMove: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	fid, err := store.AcceptChallenge(ctx, c.ID, carl.ID, 7, t0)
	if err != nil {
		t.Fatal(err)
	}
	fin, _ := store.Game(ctx, fid)
	if _, err := store.SendMessage(ctx, fid, ann.ID, "good luck", t0); err != nil {
		t.Fatal(err)
	}
	reply, err := store.SendMessage(ctx, fid, carl.ID, "you too", t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Resign(ctx, fid, carl.ID, fin.Ply, t0); err != nil {
		t.Fatal(err)
	}
	open1, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: ann.ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}

	if err := store.DeleteAccount(ctx, ann.ID, t0); err != nil {
		t.Fatal(err)
	}
	tomb := fmt.Sprintf("deleted-%d", ann.ID)
	gone, err := store.UserByID(ctx, ann.ID)
	if err != nil || gone.Name != tomb || !gone.Deleted() || gone.PasswordHash != "" {
		t.Fatalf("after deletion: %+v %v", gone, err)
	}
	if _, err := store.UserByName(ctx, "ann"); db.KindOf(err) != db.KindNotFound {
		t.Fatal("the old name still finds the account")
	}
	// The match with bob: game 1 resigned, and game 2 (started by that) too.
	games, _ := store.MatchGames(ctx, g1.MatchID)
	for _, g := range games {
		if !g.Finished() || g.Winner != g.SideOf(bob.ID) || g.Side[g.SideOf(bob.ID).Other()].Name != tomb {
			t.Fatalf("game %d after deletion: finished %v winner %d sides %+v", g.ID, g.Finished(), g.Winner, g.Side)
		}
	}
	if m, _ := store.Match(ctx, g1.MatchID); m.Status != "finished" {
		t.Fatal("the match goes on")
	}
	// The finished game stays, under the tombstone; ann's message is gone,
	// carl's stays.
	fin, _ = store.Game(ctx, fid)
	if fin.Winner != fin.SideOf(ann.ID) || fin.Side[fin.SideOf(ann.ID)].Name != tomb {
		t.Fatalf("the finished game: %+v", fin)
	}
	msgs, err := store.ReadMessages(ctx, fin, carl.ID, t0)
	if err != nil || len(msgs) != 1 || msgs[0].ID != reply.ID {
		t.Fatalf("messages after deletion: %+v %v", msgs, err)
	}
	if ch, _ := store.Challenge(ctx, open1.ID); ch.Status != "cancelled" {
		t.Fatalf("the open challenge is %s", ch.Status)
	}
	if _, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: bob.ID, Opponent: tomb, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 2}, t0); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("a deleted account can be challenged: %v", err)
	}
	if err := store.DeleteAccount(ctx, ann.ID, t0); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("deleting twice: %v", err)
	}
	if _, err := store.Verify(ctx); err != nil {
		t.Fatalf("the games no longer replay: %v", err)
	}
}

func TestExportAccount(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, ann, _ := newGame(t, store, "trench", "single")
	if _, err := store.Resign(ctx, g.ID, ann.ID, 0, t0); err != nil {
		t.Fatal(err)
	}
	d, err := store.ExportAccount(ctx, ann.ID)
	if err != nil || d.User.Name != "ann" || len(d.Games) != 1 || d.Games[0].Game.ID != g.ID {
		t.Fatalf("export: %+v %v", d, err)
	}
}

func TestSuspendAndReports(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	g, ann, bob := newGame(t, store, "trench", "single")
	ch, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: bob.ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := store.UserByID(ctx, bob.ID)
	if err := store.SuspendUser(ctx, bob.ID, t0); err != nil {
		t.Fatal(err)
	}
	after, _ := store.UserByID(ctx, bob.ID)
	if !after.Suspended() || after.Active() || after.SessionGen == before.SessionGen {
		t.Fatalf("after suspending: %+v", after)
	}
	if c, _ := store.Challenge(ctx, ch.ID); c.Status != "cancelled" {
		t.Fatalf("the suspended player's challenge is %s", c.Status)
	}
	if err := store.SuspendUser(ctx, bob.ID, t0); db.KindOf(err) != db.KindConflict {
		t.Fatalf("suspending twice: %v", err)
	}
	if err := store.UnsuspendUser(ctx, bob.ID); err != nil {
		t.Fatal(err)
	}
	if u, _ := store.UserByID(ctx, bob.ID); !u.Active() {
		t.Fatal("still suspended")
	}

	m, err := store.SendMessage(ctx, g.ID, bob.ID, "rude words", t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.ReportMessage(ctx, g.ID, m.ID, bob.ID, "", t0); db.KindOf(err) != db.KindForbidden {
		t.Fatalf("the writer reports their own message: %v", err)
	}
	if err := store.ReportMessage(ctx, g.ID+1, m.ID, ann.ID, "", t0); db.KindOf(err) != db.KindNotFound {
		t.Fatalf("a report through another game: %v", err)
	}
	if err := store.ReportMessage(ctx, g.ID, m.ID, ann.ID, "insults", t0); err != nil {
		t.Fatal(err)
	}
	if err := store.ReportMessage(ctx, g.ID, m.ID, ann.ID, "", t0); db.KindOf(err) != db.KindConflict {
		t.Fatalf("reporting twice: %v", err)
	}
	rs, err := store.Reports(ctx)
	if err != nil || len(rs) != 1 || rs[0].Body != "rude words" || rs[0].From.Name != "bob" || rs[0].Reporter.Name != "ann" || rs[0].Reason != "insults" {
		t.Fatalf("reports: %+v %v", rs, err)
	}
	if err := store.DeleteMessage(ctx, rs[0].MessageID); err != nil {
		t.Fatal(err)
	}
	if rs, _ := store.Reports(ctx); len(rs) != 0 {
		t.Fatal("the report outlives its message")
	}
	if msgs, _ := store.ReadMessages(ctx, g, ann.ID, t0); len(msgs) != 0 {
		t.Fatal("the message was not removed")
	}

	f, err := store.Figures(ctx, t0)
	if err != nil || f.Players != 2 || f.Games != 1 || f.ActiveGames != 1 || f.ActivePlayers != 2 || f.DatabaseBytes == 0 || f.DatabasePages == 0 {
		t.Fatalf("figures: %+v %v", f, err)
	}
	if err := store.SetAnnouncement(ctx, "  Down for maintenance at 10:00 UTC \n"); err != nil {
		t.Fatal(err)
	}
	if a, _ := store.Announcement(ctx); a != "Down for maintenance at 10:00 UTC" {
		t.Fatalf("announcement %q", a)
	}
	if err := store.SetAnnouncement(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if a, _ := store.Announcement(ctx); a != "" {
		t.Fatalf("announcement %q after clearing", a)
	}
	if err := store.RemoveChallenge(ctx, ch.ID); db.KindOf(err) != db.KindConflict {
		t.Fatalf("removing a closed challenge: %v", err)
	}
	us, err := store.SearchUsers(ctx, "O")
	if err != nil || len(us) != 1 || us[0].Name != "bob" {
		t.Fatalf("search: %+v %v", us, err)
	}
}

// A reset link stops working once the password is changed, or the
// address it went to is replaced; a change of the notification choice
// alone keeps it. The links sent still count towards the hourly cap.
func TestResetLinksEndAtPasswordAndAddressChange(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	ann := users(t, store, "ann")[0]
	verifiedAddress(t, store, ann.ID, "ann@example.org")
	works := func(tok string) bool {
		_, err := store.ResetTokenUser(ctx, tok, t0.Add(time.Minute))
		if err != nil && db.KindOf(err) != db.KindNotFound {
			t.Fatal(err)
		}
		return err == nil
	}
	r1, err := store.RequestPasswordReset(ctx, "ann@example.org", t0)
	if err != nil || !works(r1.Token) {
		t.Fatalf("a new link does not work: %v", err)
	}
	if err := store.SetPassword(ctx, ann.ID, "new hash", 0); err != nil {
		t.Fatal(err)
	}
	if works(r1.Token) {
		t.Error("a reset link still works after a password change")
	}
	if _, err := store.ResetPassword(ctx, r1.Token, "attacker's hash", t0.Add(time.Minute)); db.KindOf(err) != db.KindNotFound {
		t.Errorf("a reset link sets the password after a password change: %v", err)
	}

	r2, err := store.RequestPasswordReset(ctx, "ann@example.org", t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.SetNotify(ctx, ann.ID, "ann@example.org", db.NotifyMove); err != nil {
		t.Fatal(err)
	}
	if !works(r2.Token) {
		t.Error("a reset link ended when only the notification choice changed")
	}
	if err := store.SetNotify(ctx, ann.ID, "ann@elsewhere.example", db.NotifyNone); err != nil {
		t.Fatal(err)
	}
	if works(r2.Token) {
		t.Error("a reset link still works after the address changed")
	}
	if _, err := store.RequestPasswordReset(ctx, "ann@example.org", t0); db.KindOf(err) != db.KindNotFound {
		t.Errorf("a reset for the old address: %v", err)
	}
	verifiedAddress(t, store, ann.ID, "ann@example.org")
	if _, err := store.RequestPasswordReset(ctx, "ann@example.org", t0.Add(time.Minute)); err != nil {
		t.Fatalf("a third link in the hour: %v", err)
	}
	if _, err := store.RequestPasswordReset(ctx, "ann@example.org", t0.Add(2*time.Minute)); db.KindOf(err) != db.KindTooMany {
		t.Errorf("a fourth link in the hour: %v, want the hourly cap to count the ended ones", err)
	}
}

// The admin's list of accounts: the living ones by name (any case), then
// the deleted ones, at most MaxUserList.
func TestSearchUsersListsTheLivingFirstByName(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "Cy", "bea", "al", "dan")
	if err := store.DeleteAccount(ctx, us[2].ID, t0); err != nil {
		t.Fatal(err)
	}
	got, err := store.SearchUsers(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range got {
		names = append(names, u.Name)
	}
	if len(names) != 4 || names[0] != "bea" || names[1] != "Cy" || names[2] != "dan" || !got[3].Deleted() {
		t.Errorf("accounts listed: %v, want bea, Cy, dan, then the deleted one", names)
	}
	var more []string
	for i := range db.MaxUserList {
		more = append(more, fmt.Sprintf("p%03d", i))
	}
	users(t, store, more...)
	got, err = store.SearchUsers(ctx, "")
	if err != nil || len(got) != db.MaxUserList || got[0].Name != "bea" || got[db.MaxUserList-1].Name != "p096" {
		t.Errorf("%d accounts listed (%v), want the first %d living ones by name", len(got), err, db.MaxUserList)
	}
}
