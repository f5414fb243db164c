package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// waitMails waits up to 5 s until the sink holds n mails and returns them.
func waitMails(t *testing.T, sink *mailSink, n int) []delivered {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := sink.Mails()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mails delivered, want %d", len(got), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// linkIn returns the path of the first link to path prefix (e.g.
// "/reset/") in a mail body.
func linkIn(t *testing.T, s *server, body, prefix string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(s.URL+prefix) + `[A-Za-z0-9_-]+`).FindString(body)
	if m == "" {
		t.Fatalf("no %s link in the mail:\n%s", prefix, body)
	}
	return strings.TrimPrefix(m, s.URL)
}

// signIn signs c in as name with password and reports whether it worked.
func signIn(c *client, name, password string) bool {
	c.t.Helper()
	c.Get("/signin")
	c.Post("/signin", url.Values{"name": {name}, "password": {password}})
	return strings.Contains(c.text("nav.top"), name)
}

// signedIn reports whether c's session still names it (a fresh page).
func signedIn(c *client) bool {
	c.t.Helper()
	c.Get("/rules")
	return strings.Contains(c.text("nav.top"), "Sign out")
}

// verifyAddress saves email as c's address and verifies it through the
// link mailed; mails is how many mails the sink holds before.
func verifyAddress(t *testing.T, s *server, sink *mailSink, c *client, email string, mails int) {
	t.Helper()
	setNotify(t, c, email, "none")
	if got := c.text("#email-status"); !strings.Contains(got, "not verified") {
		t.Fatalf("a new address shows %q, want it not verified", got)
	}
	c.Submit(c.Last.Find(`form[action="/settings/email/verify"]`), nil)
	c.wantStatus(http.StatusOK)
	m := waitMails(t, sink, mails+1)[mails]
	if m.To[0] != email {
		t.Fatalf("the verification went to %v", m.To)
	}
	c.Get(linkIn(t, s, m.Body, "/verify/"))
	c.wantStatus(http.StatusOK)
	c.Get("/settings")
	if got := c.text("#email-status"); !strings.Contains(got, email+" is verified") {
		t.Fatalf("after the link the settings say %q", got)
	}
}

func TestPasswordResetByMail(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a := s.newClient(t)
	a.SignUp("alice")
	phone := s.newClient(t)
	if !signIn(phone, "alice", "correct horse") {
		t.Fatal("alice cannot sign in on a second device")
	}
	verifyAddress(t, s, sink, a, "alice@example.org", 0)

	// A visitor asks, for an unknown address and for alice's: the same
	// answer, and only alice's address gets a mail.
	v := s.newClient(t)
	v.Get("/signin")
	v.Click(v.Last.Find("a#forgot"))
	v.wantStatus(http.StatusOK)
	answers := map[string]string{}
	for _, email := range []string{"nobody@example.org", "Alice@Example.org"} {
		v.Submit(v.Last.Find(`form[action="/reset"]`), url.Values{"email": {email}})
		v.wantStatus(http.StatusOK)
		answers[email] = v.text("main")
	}
	if answers["nobody@example.org"] != answers["Alice@Example.org"] || !strings.Contains(answers["nobody@example.org"], "on its way") {
		t.Fatalf("the answers differ or say nothing:\n%q\n%q", answers["nobody@example.org"], answers["Alice@Example.org"])
	}
	mails := waitMails(t, sink, 2)
	time.Sleep(100 * time.Millisecond)
	if len(sink.Mails()) != 2 || mails[1].To[0] != "alice@example.org" {
		t.Fatalf("mails: %+v", sink.Mails())
	}
	link := linkIn(t, s, mails[1].Body, "/reset/")

	// The link: a form for alice's new password.
	v.Get(link)
	v.wantStatus(http.StatusOK)
	if !strings.Contains(v.text("h1"), "alice") {
		t.Fatalf("the reset page says %q", v.text("h1"))
	}
	v.Submit(v.Last.Find("main form"), url.Values{"password": {"short"}})
	v.wantStatus(http.StatusBadRequest)
	v.Submit(v.Last.Find("main form"), url.Values{"password": {"a new password"}})
	v.wantStatus(http.StatusOK)
	if !strings.Contains(v.text("nav.top"), "alice") || v.Last.Find("#password .flash.ok").Length() != 1 {
		t.Fatalf("after the reset: nav %q", v.text("nav.top"))
	}
	// Every other session of alice has ended.
	if signedIn(a) || signedIn(phone) {
		t.Fatal("alice's other sessions survived the reset")
	}
	// The link works once.
	v.Get(link)
	v.wantStatus(http.StatusNotFound)
	if signIn(s.newClient(t), "alice", "correct horse") {
		t.Fatal("the old password still works")
	}
	if !signIn(s.newClient(t), "alice", "a new password") {
		t.Fatal("the new password does not work")
	}

	// Rate limited per address, known or not, with the same answer: 3
	// requests an hour (alice's address had one already).
	for email, allowed := range map[string]int{"nobody2@example.org": 3, "alice@example.org": 2} {
		c := s.newClient(t)
		c.Get("/reset")
		for i := range allowed + 1 {
			c.Post("/reset", url.Values{"email": {email}})
			if want := map[bool]int{true: http.StatusTooManyRequests, false: http.StatusOK}[i == allowed]; c.Status != want {
				t.Fatalf("%s, request %d: status %d, want %d", email, i+1, c.Status, want)
			}
		}
	}
}

func TestResetWithoutMailServer(t *testing.T) {
	s := startServer(t, "", nil)
	v := s.newClient(t)
	v.Get("/reset")
	v.wantStatus(http.StatusOK)
	if v.Last.Find("#reset-off").Length() != 1 || v.Last.Find(`form[action="/reset"]`).Length() != 0 {
		t.Fatal("without a mail server the reset page offers a form")
	}
	v.Get("/reset/AAAA")
	v.wantStatus(http.StatusNotFound)
}

func TestDeleteAccountAndExport(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	done := finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 6)
	running := challenge(t, a, b, "trench", "single", "0")
	a.Get(fmt.Sprintf("/games/%d", running))
	a.Post(fmt.Sprintf("/games/%d/messages", running), url.Values{"message": {"hello from alice"}})
	a.wantStatus(http.StatusOK)

	// Export: the profile and both games with their records.
	a.Get("/settings")
	href, _ := a.Last.Find("a#export").Attr("href")
	res, err := a.http.Get(s.URL + href)
	if err != nil {
		t.Fatal(err)
	}
	var export struct {
		Profile struct{ Name string }
		Games   []struct {
			ID     int64
			Record string
		}
	}
	err = json.NewDecoder(res.Body).Decode(&export)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("export: status %d, %v", res.StatusCode, err)
	}
	if export.Profile.Name != "alice" || len(export.Games) != 2 || export.Games[0].ID != done.ID ||
		!strings.Contains(export.Games[0].Record, "alice") || !strings.Contains(export.Games[0].Record, "Result") {
		t.Fatalf("export: %+v", export)
	}
	if v := s.newClient(t); true {
		v.Get("/settings/export")
		if !strings.Contains(v.URL, "/signin") {
			t.Fatal("a visitor can download an export")
		}
	}

	// A wrong password deletes nothing.
	a.Get("/settings")
	a.Submit(a.Last.Find(`form[action="/settings/delete"]`), url.Values{"password": {"wrong password"}})
	a.wantStatus(http.StatusUnauthorized)
	if !signedIn(a) {
		t.Fatal("a refused deletion signed alice out")
	}
	a.Get("/settings")
	a.Submit(a.Last.Find(`form[action="/settings/delete"]`), url.Values{"password": {"correct horse"}})
	a.wantStatus(http.StatusOK)
	if !strings.Contains(a.text("#notice"), "deleted") || signedIn(a) {
		t.Fatalf("after deleting: %q, signed in %v", a.text("#notice"), signedIn(a))
	}
	tomb := fmt.Sprintf("deleted-%d", mustUser(t, s, "bob")-1)

	// The finished game keeps its moves under the tombstone; the running
	// one was resigned; alice's message is gone.
	b.Get(fmt.Sprintf("/games/%d", done.ID))
	if side := b.text("main"); !strings.Contains(side, tomb) || strings.Contains(side, "alice") {
		t.Fatalf("the finished game names %q", side)
	}
	b.Get(fmt.Sprintf("/games/%d", running))
	if st := b.text("#status"); !strings.HasPrefix(st, "You won") {
		t.Fatalf("the running game says %q", st)
	}
	if strings.Contains(b.text("#social"), "hello from alice") {
		t.Fatal("alice's message is still shown")
	}
	b.Get("/players/alice")
	b.wantStatus(http.StatusNotFound)
	if signIn(s.newClient(t), "alice", "correct horse") {
		t.Fatal("the deleted account can sign in")
	}
	c := s.newClient(t)
	c.Get("/signup")
	c.Post("/signup", url.Values{"name": {"deleted-77"}, "password": {"correct horse"}})
	c.wantStatus(http.StatusBadRequest)
	// The name alice is free again.
	c.SignUp("alice")
	if _, err := s.DB.Verify(context.Background()); err != nil {
		t.Fatal(err)
	}
}
