package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestDaysPerMoveChoices: the challenge form offers 1, 2, 3, 5, 7, 10 and
// 14 days per move; another number is refused in plain words, and an
// unknown kind of clock is refused rather than read as days per move.
func TestDaysPerMoveChoices(t *testing.T) {
	s := startServer(t, "", nil)
	a, _ := signedUpPair(t, s)
	a.Get("/challenges/new?game=trench")
	a.wantStatus(http.StatusOK)
	var offered []string
	a.Last.Find(`select[name="days"] option`).Each(func(_ int, o *goquery.Selection) {
		v, _ := o.Attr("value")
		offered = append(offered, v)
	})
	if got := strings.Join(offered, ","); got != "1,2,3,5,7,10,14" {
		t.Fatalf("the form offers %s days per move, want 1,2,3,5,7,10,14", got)
	}
	challenges := func() int {
		list, err := s.DB.ChallengesBy(context.Background(), mustUser(t, s, "alice"))
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	post := func(clock, days string) {
		a.Get("/challenges/new?game=trench")
		a.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "opponent": {"bob"},
			"clock": {clock}, "days": {days}, "bank_initial": {"10"}, "bank_add": {"36"}, "bank_max": {"20"}})
	}
	post("move", "4")
	a.wantStatus(http.StatusBadRequest)
	if msg := a.text(".flash"); msg != "Time per move must be 1, 2, 3, 5, 7, 10 or 14 days." {
		t.Fatalf("for 4 days the form says %q", msg)
	}
	post("weird", "3")
	a.wantStatus(http.StatusBadRequest)
	if msg := a.text(".flash"); msg != "Choose days per move or a time bank." {
		t.Fatalf("for clock=weird the form says %q", msg)
	}
	if n := challenges(); n != 0 {
		t.Fatalf("%d challenges made by refused forms", n)
	}
	post("move", "10")
	a.wantStatus(http.StatusOK)
	if got := a.text("#my-challenges tbody tr"); !strings.Contains(got, "10 days per move") {
		t.Fatalf("the new challenge reads %q, want 10 days per move", got)
	}
}
