package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// One player's open challenges are capped, so that they cannot crowd the
// others' off the dashboard.
func TestOpenChallengesCapped(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	carol := s.newClient(t)
	carol.SignUp("carol")
	carol.Get("/challenges/new?game=trench")
	carol.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"bga"}, "color": {"0"}, "days": {"3"}})
	carol.wantStatus(http.StatusOK)
	a.Get("/challenges/new?game=trench")
	for i := range db.MaxOpenChallenges {
		a.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"bga"}, "color": {"0"}, "days": {"3"}})
		if a.Status != http.StatusOK {
			t.Fatalf("challenge %d: status %d", i+1, a.Status)
		}
	}
	a.Get("/challenges/new?game=trench")
	a.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"bga"}, "color": {"0"}, "days": {"3"}})
	a.wantStatus(http.StatusTooManyRequests)
	if msg := a.text(".flash"); !strings.Contains(msg, "as soon as one is accepted") || a.Header.Get("Retry-After") != "3600" {
		t.Fatalf("429 says %q, Retry-After %q (want 3600)", msg, a.Header.Get("Retry-After"))
	}
	b.Get("/")
	if n := b.Last.Find("#open-challenges tr[data-challenge]").Length(); n != db.MaxOpenChallenges+1 {
		t.Fatalf("bob sees %d open challenges, want %d", n, db.MaxOpenChallenges+1)
	}
	// Once one is cancelled, another may be made.
	a.Get("/")
	a.Submit(a.Last.Find(`#my-challenges form[action$="/cancel"]`).First(), nil)
	a.Get("/challenges/new?game=trench")
	a.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"bga"}, "color": {"0"}, "days": {"3"}})
	a.wantStatus(http.StatusOK)
}

// Messages per player and game are capped per hour; the refusal says when
// the next one may go.
func TestMessagesCappedPerHour(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "bga", "0")
	page := fmt.Sprintf("/games/%d", id)
	a.Get(page)
	for i := range db.MaxMessagesPerHour {
		a.Post(page+"/messages", url.Values{"message": {fmt.Sprintf("hello %d", i)}})
		a.wantStatus(http.StatusOK)
		s.Clock.Advance(time.Minute)
	}
	a.Post(page+"/messages", url.Values{"message": {"one too many"}})
	a.wantStatus(http.StatusTooManyRequests)
	// The first went at 12:00, so the next may go once it is an hour old.
	if msg := a.text(".flash"); !strings.Contains(msg, "You can write again at 13:00 UTC") {
		t.Fatalf("429 says %q", msg)
	}
	if a.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	// bob is not affected.
	b.Get(page)
	b.Post(page+"/messages", url.Values{"message": {"hi"}})
	b.wantStatus(http.StatusOK)
	s.Clock.Advance(31 * time.Minute) // 13:01
	a.Get(page)
	a.Post(page+"/messages", url.Values{"message": {"back again"}})
	a.wantStatus(http.StatusOK)
}

// Rematch offers of one match are capped per player and day.
func TestRematchOffersCapped(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "bga", "0")
	resign(t, a, id)
	page := fmt.Sprintf("/games/%d", id)
	b.Get(page)
	for range db.MaxRematchOffers {
		submitForm(t, b, "/rematch/offer")
		b.wantStatus(http.StatusOK)
		submitForm(t, b, "/rematch/withdraw")
		b.wantStatus(http.StatusOK)
	}
	b.Get(page)
	submitForm(t, b, "/rematch/offer")
	b.wantStatus(http.StatusTooManyRequests)
	if msg := b.text(".flash"); !strings.Contains(msg, "You can offer again on 2 March at 12:00 UTC") {
		t.Fatalf("429 says %q", msg)
	}
	s.Clock.Advance(24*time.Hour + time.Minute)
	b.Get(page)
	submitForm(t, b, "/rematch/offer")
	b.wantStatus(http.StatusOK)
}
