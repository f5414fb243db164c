package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trench-games/trench/handlers"
)

// signUpFrom signs up name from address ip (through the trusted loopback
// proxy), signs out again and returns the sign-up's status.
func signUpFrom(c *client, name, ip string) int {
	c.t.Helper()
	c.ForwardedFor = ip
	c.Get("/signup")
	c.Post("/signup", url.Values{"name": {name}, "password": {"correct horse"}})
	st := c.Status
	if st == http.StatusTooManyRequests && c.Header.Get("Retry-After") == "" {
		c.t.Fatalf("a refused sign-up from %s has no Retry-After", ip)
	}
	c.Get("/")
	if c.Last.Find(`form[action="/signout"]`).Length() > 0 {
		c.Post("/signout", nil)
	}
	return st
}

// An IPv6 client owns a whole /64: picking a new address in it for each
// sign-up does not get past the per-address limit (a burst of 5); nor
// does a new /64 of the same /48 each time get past the /48's limit (four
// clients' worth). Another network still signs up.
func TestIPv6SignUpsCountPerSlash64AndSlash48(t *testing.T) {
	s := behindProxy(t)
	c := s.newClient(t)
	accepted := 0
	for i := range 30 {
		if signUpFrom(c, fmt.Sprintf("six%d", i), fmt.Sprintf("2001:db8:1:1::%x", i+1)) == http.StatusOK {
			accepted++
		}
	}
	if accepted != 5 {
		t.Fatalf("%d of 30 sign-ups from one /64 were accepted, want 5", accepted)
	}
	accepted = 0
	for i := range 30 {
		if signUpFrom(c, fmt.Sprintf("site%d", i), fmt.Sprintf("2001:db8:2:%x::1", i+1)) == http.StatusOK {
			accepted++
		}
	}
	if accepted != 20 {
		t.Fatalf("%d of 30 sign-ups from 30 /64s of one /48 were accepted, want 20", accepted)
	}
	if st := signUpFrom(c, "elsewhere", "2001:db8:3:1::1"); st != http.StatusOK {
		t.Fatalf("a sign-up from another /48: status %d", st)
	}
	// IPv4 addresses stay clients of their own, and an IPv4-mapped IPv6
	// address is its IPv4 address.
	for i := range 5 {
		if st := signUpFrom(c, fmt.Sprintf("four%d", i), "192.0.2.7"); st != http.StatusOK {
			t.Fatalf("sign-up %d from 192.0.2.7: status %d", i, st)
		}
	}
	if st := signUpFrom(c, "mapped", "::ffff:192.0.2.7"); st != http.StatusTooManyRequests {
		t.Fatalf("a sixth sign-up from 192.0.2.7, IPv4-mapped: status %d, want 429", st)
	}
	if st := signUpFrom(c, "neighbour", "192.0.2.8"); st != http.StatusOK {
		t.Fatalf("a sign-up from the next IPv4 address: status %d", st)
	}
}

// 100 password guesses, the address changed every 5 tries: inside one
// /64 the guesser backs off after 5, across the /64s of one /48 after
// 20. The owner, elsewhere, signs in all along.
func TestIPv6GuessesRotatingAddressesBackOff(t *testing.T) {
	for _, tc := range []struct {
		name  string
		addr  func(i int) string
		first int // the first guess answered 429
	}{
		{"one /64", func(i int) string { return fmt.Sprintf("2001:db8:5:5::%x", i/5+1) }, 5},
		{"one /48", func(i int) string { return fmt.Sprintf("2001:db8:6:%x::1", i/5+1) }, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := behindProxy(t)
			a := s.newClient(t)
			a.ForwardedFor = "2001:db8:aaaa:1::10"
			a.SignUp("alice")
			a.Get("/")
			a.Post("/signout", nil)

			g := s.newClient(t)
			g.Get("/signin")
			first := -1
			for i := range 100 {
				g.ForwardedFor = tc.addr(i)
				g.Post("/signin", url.Values{"name": {"alice"}, "password": {fmt.Sprintf("guess %d!!", i)}})
				if g.Status == http.StatusTooManyRequests {
					if first < 0 {
						first = i
					}
					if g.Header.Get("Retry-After") == "" || !strings.Contains(g.text(".flash"), "try again in") {
						t.Fatalf("guess %d: 429 says %q, Retry-After %q", i, g.text(".flash"), g.Header.Get("Retry-After"))
					}
				} else if g.Status != http.StatusUnauthorized {
					t.Fatalf("guess %d: status %d", i, g.Status)
				}
			}
			if first != tc.first {
				t.Fatalf("the first guess refused was number %d, want %d", first, tc.first)
			}
			if st := a.SignIn("alice", "correct horse"); st != http.StatusOK || !a.signedIn("alice") {
				t.Fatalf("the owner is locked out: status %d", st)
			}
		})
	}
}

// Visitors' live streams count per /64, and a /48 holds four clients'
// worth.
func TestIPv6LiveStreamsCountPerSlash64(t *testing.T) {
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.LivePerUser = 2 })
	a, b := signedUpPair(t, s)
	path := fmt.Sprintf("/games/%d/events", challenge(t, a, b, "trench", "single", "0"))
	v := s.newClient(t)
	for i := range 3 {
		v.ForwardedFor = fmt.Sprintf("2001:db8:7:7::%x", i+1)
		want := map[bool]int{true: http.StatusTooManyRequests, false: http.StatusOK}[i == 2]
		if st := openStream(t, v, path, "").Status; st != want {
			t.Fatalf("stream %d from one /64: status %d, want %d", i+1, st, want)
		}
	}
	for i := range 7 {
		v.ForwardedFor = fmt.Sprintf("2001:db8:7:%x::1", i+100)
		want := map[bool]int{true: http.StatusTooManyRequests, false: http.StatusOK}[i == 6]
		if st := openStream(t, v, path, "").Status; st != want {
			t.Fatalf("stream %d more from other /64s of the /48: status %d, want %d", i+1, st, want)
		}
	}
}

// Reset-link requests count per /64 too (a burst of 10, then one a
// minute), and their 429 says when to ask again in Retry-After.
func TestResetRequestsCountPerSlash64WithRetryAfter(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	v := s.newClient(t)
	v.Get("/reset")
	for i := range 11 {
		v.ForwardedFor = fmt.Sprintf("2001:db8:9:9::%x", i+1)
		v.Post("/reset", url.Values{"email": {fmt.Sprintf("nobody%d@example.org", i)}})
		if i < 10 {
			v.wantStatus(http.StatusOK)
		}
	}
	v.wantStatus(http.StatusTooManyRequests)
	if ra := v.Header.Get("Retry-After"); ra != "60" {
		t.Fatalf("the 429 of a reset request has Retry-After %q, want 60", ra)
	}
	// Per e-mail address: 3 an hour, then the wait for the next.
	for i := range 4 {
		v.ForwardedFor = fmt.Sprintf("198.51.100.%d", i+1)
		v.Post("/reset", url.Values{"email": {"someone@example.org"}})
	}
	v.wantStatus(http.StatusTooManyRequests)
	if ra := v.Header.Get("Retry-After"); ra != "1200" {
		t.Fatalf("the 429 of a fourth request for one address has Retry-After %q, want 1200", ra)
	}
}
