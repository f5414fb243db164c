package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/handlers"
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
	post("", "3")
	a.wantStatus(http.StatusBadRequest)
	if msg := a.text(".flash"); msg != "Choose days per move or a time bank." {
		t.Fatalf("for an empty clock the form says %q", msg)
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

// TestTimeUpSaysWhatHappensNext: after the deadline, before the
// background job acted on it, the game page says what happens next: the
// vacation allowance is being used, or the game will be lost on time.
func TestTimeUpSaysWhatHappensNext(t *testing.T) {
	for _, tc := range []struct {
		name       string
		days       int
		alice, bob string
	}{
		{"with an allowance", 0,
			"Your time to move has run out: your vacation allowance is being used (19 days 23 hours left this year); move before it is used up or the game is lost on time.",
			"The time to move has run out: alice's vacation allowance is being used (19 days 23 hours left this year) before the game is lost on time."},
		{"without vacations", -1,
			"Your time to move has run out: the game will be lost on time.",
			"alice's time to move has run out: the game will be lost on time."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.VacationDays = tc.days })
			a, b := signedUpPair(t, s)
			id := challenge(t, a, b, "trench", "single", "0") // alice to move, 3 days
			s.Clock.Advance(72*time.Hour + 30*time.Minute)
			for _, p := range []struct {
				c    *client
				want string
			}{{a, tc.alice}, {b, tc.bob}} {
				p.c.Get(fmt.Sprintf("/games/%d", id))
				p.c.wantStatus(http.StatusOK)
				if got := p.c.text("#clock"); got != p.want {
					t.Errorf("%s reads %q, want %q", p.c.Name, got, p.want)
				}
				// The dashboard and alice's profile say the same.
				for _, page := range []string{"/", "/players/alice"} {
					p.c.Get(page)
					p.c.wantStatus(http.StatusOK)
					if got := p.c.text("table.games tbody tr td:nth-child(5)"); got != p.want {
						t.Errorf("on %s %s reads %q, want %q", page, p.c.Name, got, p.want)
					}
				}
			}
		})
	}
}
