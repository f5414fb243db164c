package handlers_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/crypto/bcrypt"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
)

// adminRow returns the admin page's row of player name.
func adminRow(t *testing.T, admin *client, name string) string {
	t.Helper()
	row := admin.Last.Find(fmt.Sprintf(`#users tr[data-user=%q]`, name))
	if row.Length() != 1 {
		t.Fatalf("no row for %s on the admin page", name)
	}
	return strings.TrimSpace(row.Find(".status").Text())
}

// adminAct submits the admin page's action form (data-action) in the row
// matching rowSel, and expects the confirmation.
func adminAct(t *testing.T, admin *client, rowSel, action string) {
	t.Helper()
	form := admin.Last.Find(rowSel + ` form[data-action="` + action + `"]`)
	if form.Length() != 1 {
		t.Fatalf("no %s button in %s", action, rowSel)
	}
	admin.Submit(form, nil)
	admin.wantStatus(http.StatusOK)
	if admin.Last.Find("#admin-done, #reset-link").Length() == 0 {
		t.Fatalf("no confirmation after %s: %q", action, admin.text("main"))
	}
}

func TestAdminPageIsForTheAdminOnly(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	a.Get("/")
	if a.Last.Find("nav a#nav-admin").Length() != 1 {
		t.Fatal("the first account has no admin link")
	}
	a.Get("/admin")
	a.wantStatus(http.StatusOK)
	b.Get("/")
	if b.Last.Find("nav a#nav-admin").Length() != 0 {
		t.Fatal("the second account has an admin link")
	}
	for _, c := range []*client{b, s.newClient(t)} {
		c.Get("/admin")
		c.wantStatus(http.StatusNotFound)
		c.Get("/signin") // a page with a form, for the CSRF token
		c.Post(fmt.Sprintf("/admin/users/%d/suspend", mustUser(t, s, "alice")), nil)
		c.wantStatus(http.StatusNotFound)
	}
	if u, _ := s.DB.UserByName(context.Background(), "alice"); u.Suspended() {
		t.Fatal("a non-admin suspended the admin")
	}
	// Granted by the database (as `trench admin grant` does), bob gets in.
	if _, err := s.DB.SetAdmin(context.Background(), "bob", true); err != nil {
		t.Fatal(err)
	}
	b.Get("/admin")
	b.wantStatus(http.StatusOK)
}

func TestAdminActions(t *testing.T) {
	s := startServer(t, "", nil)
	admin, bob := signedUpPair(t, s)
	carol := s.newClient(t)
	carol.SignUp("carol")
	// bob has an open challenge and a game with the admin, in which he
	// writes something rude.
	bob.Get("/challenges/new?game=trench")
	bob.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "days": {"3"}})
	bob.wantStatus(http.StatusOK)
	carol.Get("/challenges/new?game=trench")
	carol.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "days": {"3"}})
	carol.wantStatus(http.StatusOK)
	id := challenge(t, admin, bob, "trench", "single", "0")
	bob.Get(fmt.Sprintf("/games/%d", id))
	bob.Post(fmt.Sprintf("/games/%d/messages", id), url.Values{"message": {"you play like a potato"}})
	bob.wantStatus(http.StatusOK)

	admin.Get("/admin")
	admin.wantStatus(http.StatusOK)
	for label, want := range map[string]string{"Players": "3 (0 suspended)", "Games": "1 (1 in progress)", "Open challenges": "2",
		"Replication": "off: no replica is configured (see --replicate)"} {
		if got := strings.TrimSpace(admin.Last.Find("#figures dt").FilterFunction(func(_ int, dt *goquery.Selection) bool {
			return dt.Text() == label
		}).Next().Text()); got != want {
			t.Fatalf("the figure %s says %q, want %q", label, got, want)
		}
	}
	if n := admin.Last.Find(`#users tr[data-user="alice"] form`).Length(); n != 0 {
		t.Fatalf("the admin's own row has %d action buttons", n)
	}
	if n := admin.Last.Find("#challenges tr[data-challenge]").Length(); n != 2 {
		t.Fatalf("%d open challenges listed, want 2", n)
	}

	// The admin, to whom bob wrote, reports the message.
	admin.Get(fmt.Sprintf("/games/%d", id))
	report := admin.Last.Find(`#social form.report`)
	if report.Length() != 1 {
		t.Fatalf("%d report buttons on the game page, want 1 (bob's message)", report.Length())
	}
	admin.Submit(report, nil)
	admin.wantStatus(http.StatusOK)
	if !strings.Contains(admin.text("#game-message"), "reported") {
		t.Fatalf("no confirmation of the report: %q", admin.text("#game-message"))
	}
	bob.Get(fmt.Sprintf("/games/%d", id))
	if bob.Last.Find(`#social form.report`).Length() != 0 {
		t.Fatal("bob can report his own message")
	}
	admin.Get("/admin")
	if r := admin.text("#reports"); !strings.Contains(r, "you play like a potato") || !strings.Contains(r, "reported by alice") {
		t.Fatalf("the reports say %q", r)
	}
	adminAct(t, admin, "#reports tr[data-report]", "delete-message")
	if admin.Last.Find("#reports tr[data-report]").Length() != 0 {
		t.Fatal("the report is still listed")
	}
	admin.Get(fmt.Sprintf("/games/%d", id))
	if strings.Contains(admin.text("#social"), "potato") {
		t.Fatal("the deleted message is still shown")
	}

	// Suspend bob: signed out, cannot sign in, his open challenge withdrawn.
	admin.Get("/admin?q=bo")
	if n := admin.Last.Find("#users tr[data-user]").Length(); n != 1 {
		t.Fatalf("searching \"bo\" lists %d players", n)
	}
	adminAct(t, admin, `#users tr[data-user="bob"]`, "suspend")
	if st := adminRow(t, admin, "bob"); st != "suspended" {
		t.Fatalf("bob's status is %q", st)
	}
	if n := admin.Last.Find("#challenges tr[data-challenge]").Length(); n != 1 {
		t.Fatalf("%d open challenges after suspending bob, want carol's only", n)
	}
	if signedIn(bob) {
		t.Fatal("the suspended bob is still signed in")
	}
	bob.Get("/signin")
	bob.Post("/signin", url.Values{"name": {"bob"}, "password": {"correct horse"}})
	bob.wantStatus(http.StatusForbidden)
	if !strings.Contains(bob.text("main"), "suspended") {
		t.Fatalf("the sign-in refusal says %q", bob.text("main"))
	}
	adminAct(t, admin, `#users tr[data-user="bob"]`, "unsuspend")
	if !signIn(bob, "bob", "correct horse") {
		t.Fatal("bob cannot sign in once unsuspended")
	}

	// A forced password reset: bob's sessions end, his password stops
	// working, and the link shown to the admin sets a new one.
	adminAct(t, admin, `#users tr[data-user="bob"]`, "reset")
	link := admin.text("#reset-link code")
	if !strings.HasPrefix(link, s.URL+"/reset/") {
		t.Fatalf("the reset link is %q", link)
	}
	if signedIn(bob) || signIn(s.newClient(t), "bob", "correct horse") {
		t.Fatal("bob's session or old password survived the forced reset")
	}
	bob.Get(strings.TrimPrefix(link, s.URL))
	bob.Submit(bob.Last.Find("main form"), url.Values{"password": {"brand new pw"}})
	if !signedIn(bob) {
		t.Fatal("the reset link did not set bob's new password")
	}

	// Remove carol's challenge.
	admin.Get("/admin")
	adminAct(t, admin, "#challenges tr[data-challenge]", "remove")
	if n := admin.Last.Find("#challenges tr[data-challenge]").Length(); n != 0 {
		t.Fatalf("%d challenges after removing the last one", n)
	}
	carol.Get("/")
	if carol.Last.Find("#my-challenges tr[data-challenge]").Length() != 0 {
		t.Fatal("carol still sees her removed challenge")
	}

	// The announcement shows on every page, to everyone, until cleared.
	admin.Submit(admin.Last.Find(`form[action="/admin/announcement"]`), url.Values{"text": {"Maintenance on Sunday at 10:00 UTC"}})
	admin.wantStatus(http.StatusOK)
	v := s.newClient(t)
	for _, path := range []string{"/", "/archive", "/rules", "/signin"} {
		v.Get(path)
		if got := v.text("#announcement"); got != "Maintenance on Sunday at 10:00 UTC" {
			t.Fatalf("%s shows the announcement %q", path, got)
		}
	}
	admin.Get("/admin")
	admin.Submit(admin.Last.Find(`form[action="/admin/announcement"]`), url.Values{"text": {""}})
	v.Get("/")
	if v.Last.Find("#announcement").Length() != 0 {
		t.Fatal("the cleared announcement is still shown")
	}
	admin.Get("/admin")
	admin.Submit(admin.Last.Find(`form[action="/admin/announcement"]`), url.Values{"text": {strings.Repeat("x", 501)}})
	admin.wantStatus(http.StatusBadRequest)

	// Delete carol: her name becomes a tombstone.
	admin.Get("/admin")
	adminAct(t, admin, `#users tr[data-user="carol"]`, "delete")
	if st := adminRow(t, admin, fmt.Sprintf("deleted-%d", mustUser(t, s, "bob")+1)); st != "deleted" {
		t.Fatalf("carol's row says %q", st)
	}
	if signedIn(carol) {
		t.Fatal("the deleted carol is still signed in")
	}
	// The admin cannot suspend or delete themselves here.
	for _, action := range []string{"suspend", "delete"} {
		admin.Post(fmt.Sprintf("/admin/users/%d/%s", mustUser(t, s, "alice"), action), nil)
		admin.wantStatus(http.StatusBadRequest)
	}
	if !signedIn(admin) {
		t.Fatal("the admin locked themselves out")
	}
}

// TestAdminShowsReplication: with a replica, the admin page says where it
// goes and that it is in sync once it has caught up.
func TestAdminShowsReplication(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	replica := "file://" + filepath.Join(dir, "replica")
	store, err := db.OpenWith(ctx, filepath.Join(dir, "trench.db"), db.Options{Replica: replica,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	clk := &clock{now: time.Now()}
	e, _, err := handlers.New(ctx, store, handlers.Config{BcryptCost: bcrypt.MinCost, Now: clk.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(e)
	defer ts.Close()
	s := &server{t: t, URL: ts.URL, DB: store, Clock: clk}
	admin := s.newClient(t)
	admin.SignUp("alice")
	if err := store.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	admin.Get("/admin")
	admin.wantStatus(http.StatusOK)
	if got := admin.text("#replication"); !strings.HasPrefix(got, "to "+replica+": in sync") {
		t.Fatalf("the replication figure says %q", got)
	}
}

// TestAdminRefusesComputerAccounts: the admin's actions on a computer
// player's account (sent by hand: the page lists none) are refused with a
// 403 saying why, and the computer keeps playing under its name.
func TestAdminRefusesComputerAccounts(t *testing.T) {
	s := startServer(t, "", nil)
	admin := s.newClient(t)
	admin.SignUp("alice")
	hard := mustUser(t, s, "Computer · hard")
	for _, action := range []string{"reset", "suspend", "delete"} {
		admin.Get("/admin")
		admin.Post(fmt.Sprintf("/admin/users/%d/%s", hard, action), nil)
		admin.wantStatus(http.StatusForbidden)
		if got := admin.text("main"); !strings.Contains(got, "Computer · hard is a computer player") || strings.Contains(got, "/reset/") {
			t.Errorf("%s: the page says %q", action, got)
		}
	}
	u, err := s.DB.UserByID(context.Background(), hard)
	if err != nil || u.Name != "Computer · hard" || !u.Active() || u.PasswordHash != "!" {
		t.Fatalf("the computer's account after the refused actions: %+v (%v)", u, err)
	}
	admin.Get("/players/" + url.PathEscape("Computer · hard"))
	admin.wantStatus(http.StatusOK)
}
