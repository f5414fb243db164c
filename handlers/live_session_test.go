package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// drain reads the events of st until it ends or wait passes, and
// returns what the events said and whether the stream ended.
func (s *stream) drain(wait time.Duration) (seen string, ended bool) {
	deadline := time.After(wait)
	for {
		select {
		case ev := <-s.events:
			seen += ev.data + "\n"
		case <-s.ended:
			for {
				select {
				case ev := <-s.events:
					seen += ev.data + "\n"
				default:
					return seen, true
				}
			}
		case <-deadline:
			return seen, false
		}
	}
}

// adminActs has an admin take action (suspend, reset…) on bob's account
// from the admin page.
func adminActs(t *testing.T, s *server, action string) {
	t.Helper()
	admin := s.newClient(t)
	admin.SignUp("carol")
	if _, err := s.DB.SetAdmin(context.Background(), "carol", true); err != nil {
		t.Fatal(err)
	}
	admin.Get("/admin")
	admin.Post(fmt.Sprintf("/admin/users/%d/%s", mustUser(t, s, "bob"), action), nil)
	admin.wantStatus(http.StatusOK)
}

// TestLiveStreamEndsWithItsSession: the open event stream of a page
// belongs to a session; when the session ends (signed out, signed out
// everywhere, the password changed, the account deleted or suspended,
// or ended where this server does not see it, as `trench admin` does)
// the stream closes and the opponent's next message never reaches it. A
// stream of a session that goes on (the one that changed the password)
// stays open and gets the message.
func TestLiveStreamEndsWithItsSession(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, s *server, bob, phone *client)
		// elsewhere: the server is not told; the stream closes at the
		// next change it would have been sent.
		elsewhere bool
		keepsBob  bool // bob's own session goes on
	}{
		{name: "sign out", keepsBob: true, end: func(t *testing.T, s *server, bob, phone *client) {
			phone.Get("/")
			phone.Post("/signout", nil)
			phone.wantStatus(http.StatusOK)
		}},
		{name: "sign out everywhere", end: func(t *testing.T, s *server, bob, phone *client) {
			bob.Get("/settings")
			bob.Submit(bob.Last.Find(`form[action="/settings/signout-everywhere"]`), nil)
			bob.wantStatus(http.StatusOK)
		}},
		{name: "password change", keepsBob: true, end: func(t *testing.T, s *server, bob, phone *client) {
			bob.Get("/settings")
			bob.Post("/settings/password", url.Values{"current": {"correct horse"}, "password": {"new password 1"}})
			bob.wantStatus(http.StatusOK)
		}},
		{name: "account deletion", end: func(t *testing.T, s *server, bob, phone *client) {
			bob.Get("/settings")
			bob.Post("/settings/delete", url.Values{"password": {"correct horse"}})
			bob.wantStatus(http.StatusOK)
		}},
		{name: "suspension", end: func(t *testing.T, s *server, bob, phone *client) {
			adminActs(t, s, "suspend")
		}},
		{name: "password reset by the admin", end: func(t *testing.T, s *server, bob, phone *client) {
			adminActs(t, s, "reset")
		}},
		{name: "ended elsewhere", elsewhere: true, end: func(t *testing.T, s *server, bob, phone *client) {
			if _, err := s.DB.EndSessions(context.Background(), mustUser(t, s, "bob"), 0); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, "", nil)
			alice, bob := signedUpPair(t, s)
			id := challenge(t, alice, bob, "trench", "single", "0")
			page := fmt.Sprintf("/games/%d", id)
			phone := s.newClient(t)
			if st := phone.SignIn("bob", "correct horse"); st != http.StatusOK {
				t.Fatalf("sign in: %d", st)
			}
			phone.Get(page)
			ended := openStream(t, phone, liveURL(t, phone.Last), "")
			bob.Get(page)
			kept := openStream(t, bob, liveURL(t, bob.Last), "")
			say := func(msg string) {
				t.Helper()
				alice.Get(page)
				alice.Post(page+"/messages", url.Values{"message": {msg}})
				alice.wantStatus(http.StatusOK)
			}
			// While the session is open, the messages arrive.
			say("First message")
			if ev := ended.next("update", 5*time.Second); !strings.Contains(ev.data, "First message") {
				t.Fatalf("before the session ended its stream got: %.300s", ev.data)
			}
			kept.next("update", 5*time.Second)

			tc.end(t, s, bob, phone)
			if !tc.elsewhere {
				if _, done := ended.drain(2 * time.Second); !done {
					t.Fatalf("after %s the session's stream is still open", tc.name)
				}
			}
			if tc.name == "account deletion" {
				return // the game is over: no message to send
			}
			say("Second message")
			seen, done := ended.drain(3 * time.Second)
			if strings.Contains(seen, "Second message") {
				t.Fatalf("after %s the session's stream got the next message", tc.name)
			}
			if !done {
				t.Fatalf("after %s and a change the session's stream is still open", tc.name)
			}
			if tc.keepsBob {
				if ev := kept.next("update", 5*time.Second); !strings.Contains(ev.data, "Second message") {
					t.Fatalf("the stream of the session that goes on got: %.300s", ev.data)
				}
			}
		})
	}
}
