package handlers_test

import (
	"testing"
)

// TestPushOfferOnTheDashboardOnlyWithAGameWaiting: the dashboard of a
// player with a game waiting for their move carries the offer of
// notifications, hidden (only push.js shows it, so without JavaScript
// nothing changes), with the server's key; the dashboard of a player
// whose games wait for the opponent carries none.
func TestPushOfferOnTheDashboardOnlyWithAGameWaiting(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	a.Get("/")
	if n := a.Last.Find("#push-offer").Length(); n != 0 {
		t.Fatalf("alice has no game yet and %d offers on her dashboard, want none", n)
	}
	challenge(t, a, b, "trench", "single", "0") // alice moves first
	a.Get("/")
	offer := a.Last.Find("#push-offer")
	if offer.Length() != 1 {
		t.Fatal("alice's game waits for her and her dashboard does not offer notifications")
	}
	if _, hidden := offer.Attr("hidden"); !hidden {
		t.Error("the offer is not hidden for browsers without JavaScript")
	}
	if k, _ := offer.Attr("data-vapid-key"); len(k) < 80 {
		t.Errorf("the offer's key %q", k)
	}
	if got := a.text("#push-offer-enable"); got != "Notify me on this device" {
		t.Errorf("the offer's button says %q", got)
	}
	if src, _ := offer.Find("script").Attr("src"); src == "" {
		t.Error("the offer loads no script")
	}
	b.Get("/")
	if n := b.Last.Find("#push-offer").Length(); n != 0 {
		t.Errorf("bob waits for alice and his dashboard offers notifications %d times, want none", n)
	}
}
