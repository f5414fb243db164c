package handlers_test

import (
	"bytes"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/handlers"
)

// A copied session cookie stops working once its session signs out.
func TestSignOutEndsACopiedCookie(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	thief := a.copyCookies(t)
	if !thief.signedIn("alice") {
		t.Fatal("the copied cookie does not work even before signing out")
	}
	a.Get("/")
	a.Post("/signout", nil)
	a.wantStatus(http.StatusOK)
	if thief.signedIn("alice") {
		t.Fatal("a copy of the session cookie still works after signing out")
	}
	// Nor can it act.
	thief.Get("/challenges/new")
	if !strings.Contains(thief.URL, "/signin") {
		t.Fatalf("the copied cookie reached %s", thief.URL)
	}
}

// Changing the password ends every other session of the player and keeps
// the one that changed it.
func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	other := s.newClient(t)
	if st := other.SignIn("alice", "correct horse"); st != http.StatusOK {
		t.Fatalf("sign in: %d", st)
	}
	thief := other.copyCookies(t)
	a.Get("/settings")
	a.Post("/settings/password", url.Values{"current": {"correct horse"}, "password": {"new password 1"}})
	a.wantStatus(http.StatusOK)
	if !a.signedIn("alice") {
		t.Fatal("the browser that changed the password was signed out")
	}
	if other.signedIn("alice") || thief.signedIn("alice") {
		t.Fatal("another session still works after the password changed")
	}
}

// The settings page lists each signed-in browser; "sign out everywhere"
// ends them all.
func TestSettingsListsSessionsAndSignsOutEverywhere(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.UserAgent = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	a.SignUp("alice")
	phone := s.newClient(t)
	phone.UserAgent = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
	s.Clock.Advance(time.Hour)
	phone.SignIn("alice", "correct horse")
	a.Get("/settings")
	a.wantStatus(http.StatusOK)
	rows := a.Last.Find("#sessions tbody tr")
	if rows.Length() != 2 {
		t.Fatalf("%d sessions listed, want 2: %q", rows.Length(), a.text("#sessions"))
	}
	// The most recently seen first: the phone.
	if got := strings.TrimSpace(rows.Eq(0).Find("td").First().Text()); got != "Safari 17 on iOS" {
		t.Errorf("first row's browser %q", got)
	}
	if got := strings.TrimSpace(rows.Eq(1).Find("td").First().Text()); !strings.HasPrefix(got, "Firefox 128 on Linux") || !strings.Contains(got, "this browser") {
		t.Errorf("second row's browser %q", got)
	}
	if got := strings.TrimSpace(rows.Eq(0).Find("td").Eq(3).Text()); got != "1 March 2026 13:00 UTC" {
		t.Errorf("phone last seen %q", got)
	}
	a.Submit(a.Last.Find(`form[action="/settings/signout-everywhere"]`), nil)
	a.wantStatus(http.StatusOK)
	if a.signedIn("alice") || phone.signedIn("alice") {
		t.Fatal("a browser is still signed in after signing out everywhere")
	}
}

// A session lasts what its cookie says (60 days) after the last visit,
// and each visit moves that end on.
func TestSessionLifetimeSlides(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	// Coming back renews the session, and with it the cookie.
	s.Clock.Advance(2 * time.Hour)
	a.Get("/")
	maxAge := -1
	for _, hv := range a.Header.Values("Set-Cookie") {
		if strings.HasPrefix(hv, "trench=") {
			maxAge = (&http.Response{Header: http.Header{"Set-Cookie": {hv}}}).Cookies()[0].MaxAge
		}
	}
	if want := int(handlers.SessionLifetime.Seconds()); maxAge != want || want != 60*24*3600 {
		t.Fatalf("renewed session cookie Max-Age %d, want %d (60 days)", maxAge, want)
	}
	// Active every 50 days: still signed in after 150.
	for range 3 {
		s.Clock.Advance(50 * 24 * time.Hour)
		if !a.signedIn("alice") {
			t.Fatalf("signed out at %s although active every 50 days", s.Clock.Now())
		}
	}
	// Away for longer than the lifetime: signed out.
	s.Clock.Advance(handlers.SessionLifetime + time.Minute)
	if a.signedIn("alice") {
		t.Fatal("still signed in after 60 days away")
	}
}

// The keys that sign session cookies live in a file of their own (mode
// 0600) beside the database, not in the database or its backups.
func TestSessionKeysLiveOutsideTheDatabase(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	info, err := os.Stat(handlers.DefaultKeyFile(s.Path))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, want 0600", info.Mode().Perm())
	}
	keys, err := os.ReadFile(handlers.DefaultKeyFile(s.Path))
	if err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := s.DB.Backup(t.Context(), backup); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{s.Path, s.Path + "-wal", backup} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(b, keys[:32]) || bytes.Contains(b, keys[64:]) {
			t.Fatalf("%s holds the session keys", filepath.Base(f))
		}
	}
	// A restart on the same files keeps the session.
	s.Stop()
	s2 := startServer(t, s.Path, s.Clock)
	a.moveTo(s2)
	if !a.signedIn("alice") {
		t.Fatal("signed out by a restart")
	}
}
