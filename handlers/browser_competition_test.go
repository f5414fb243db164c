package handlers_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trench-games/trench/rules"
)

// Tournaments and conditional moves in a real browser, with JavaScript on
// and off. carol, in the browser, organises each tournament and plays in
// it; the other entrants answer through the harness's HTTP clients, and
// every game ends by resignation (carol never loses: the others resign).

// organiseInBrowser fills the tournament form in the browser and returns
// the new tournament's page.
func organiseInBrowser(t *testing.T, b *tab, name, game, format, rounds, min, max string) string {
	t.Helper()
	b.open("/tournaments")
	b.clickAndLoad("#new-tournament")
	b.within(10*time.Second, "fill in the tournament form",
		chromedp.SendKeys(chromedp.CSS(`#tournament-form input[name="name"]`), name),
		chromedp.SetValue(chromedp.CSS(`#tournament-form select[name="game"]`), game),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tournament-form input[name="format"][value=%q]`, format))),
		chromedp.SetValue(chromedp.CSS(`#tournament-form input[name="rounds"]`), rounds),
		chromedp.SetValue(chromedp.CSS(`#tournament-form input[name="min"]`), min),
		chromedp.SetValue(chromedp.CSS(`#tournament-form input[name="max"]`), max),
		chromedp.SetValue(chromedp.CSS(`#tournament-form select[name="starts"]`), ""),
	)
	b.clickAndLoad(`#tournament-form button[type="submit"]`)
	loc := b.location()
	if !strings.HasPrefix(loc, "/tournaments/") {
		t.Fatalf("after creating the tournament the browser is at %s: %s", loc, b.text("main"))
	}
	return loc
}

func TestBrowserTournaments(t *testing.T) {
	needChromium(t)
	for _, js := range []bool{true, false} {
		t.Run(fmt.Sprintf("js=%v", js), func(t *testing.T) {
			s := startServer(t, "", nil)
			b := newTab(t, s, js)
			b.signUp("carol")
			others := map[string]*client{}
			for i := 1; i <= 7; i++ {
				c := s.newClient(t)
				c.SignUp(fmt.Sprintf("pl%d", i))
				others[c.Name] = c
			}
			carolWins := func(a, b string) string {
				switch {
				case a == "carol":
					return b
				case b == "carol":
					return a
				case a > b:
					return a
				}
				return b
			}
			join := func(page string, names ...string) {
				for _, n := range names {
					tournamentAct(t, others[n], page, "join")
				}
			}
			finish := func(page string) {
				playTournament(t, s, others, page, carolWins)
				b.open(page)
				if st := b.text("#tournament-status"); st != "Finished: carol won the tournament." {
					t.Fatalf("%s: status %q", page, st)
				}
				if first := b.attr("#standings tbody tr", "data-player"); first != "carol" {
					t.Errorf("%s: carol won every game but the standings start with %s", page, first)
				}
			}

			// A round robin of four in TRENCH's official match.
			rr := organiseInBrowser(t, b, "Browser round robin", "trench:match", "roundrobin", "3", "4", "4")
			b.clickAndLoad(`#tournament-actions form[action$="/join"] button`)
			join(rr, "pl1", "pl2", "pl3")
			b.open(rr)
			if n := b.count("#crosstable tbody a"); n != 12 {
				t.Fatalf("the crosstable links %d games, want 12", n)
			}
			// A game of the tournament names it.
			b.clickAndLoad("#crosstable tbody tr:first-child a")
			if got := b.text("#game-tournament"); !strings.HasPrefix(got, "Browser round robin · round") {
				t.Errorf("the game's tournament line: %q", got)
			}
			finish(rr)
			if got := b.text(`#standings tr[data-player="carol"] .points`); got != "3" {
				t.Errorf("carol's points: %q", got)
			}

			// A Swiss of six over three rounds, started by the organiser.
			sw := organiseInBrowser(t, b, "Browser Swiss", "trenches:standard", "swiss", "3", "4", "8")
			b.clickAndLoad(`#tournament-actions form[action$="/join"] button`)
			join(sw, "pl1", "pl2", "pl3", "pl4", "pl5")
			b.open(sw)
			b.clickAndLoad(`#tournament-actions form[action$="/start"] button`)
			finish(sw)
			if n := b.count("#rounds section.round"); n != 3 {
				t.Errorf("%d Swiss rounds shown, want 3", n)
			}

			// A knockout of eight.
			ko := organiseInBrowser(t, b, "Browser knockout", "trench:single", "knockout", "3", "2", "8")
			b.clickAndLoad(`#tournament-actions form[action$="/join"] button`)
			join(ko, "pl1", "pl2", "pl3", "pl4", "pl5", "pl6", "pl7")
			finish(ko)
			if got := b.text(`#rounds.bracket section.round[data-round="3"] h3`); got != "Final" {
				t.Errorf("the bracket's last round is %q", got)
			}
			if got := b.text(`#rounds section.round[data-round="3"] li.pairing .result`); got != "1 – 0" && got != "0 – 1" {
				t.Errorf("the final's result: %q", got)
			}
		})
	}
}

// TestBrowserConditionalReply: carol leaves a plan on the game page; when
// bob plays the planned move, her reply is on the board at once — her open
// page updates itself with JavaScript on, shows it on reload without.
func TestBrowserConditionalReply(t *testing.T) {
	needChromium(t)
	for _, js := range []bool{true, false} {
		t.Run(fmt.Sprintf("js=%v", js), func(t *testing.T) {
			s := startServer(t, "", nil)
			b := newTab(t, s, js)
			b.signUp("carol")
			bob := s.newClient(t)
			bob.SignUp("bob")
			bob.Get("/challenges/new?game=trenches")
			bob.Post("/challenges", map[string][]string{"game": {"trenches"}, "variant": {"standard"}, "color": {"0"}, "days": {"3"}, "opponent": {"carol"}})
			id := b.acceptChallenge()
			g, err := s.DB.Game(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			st, _ := g.Decode()
			x1 := st.Legal(rules.Side0)[0]
			s1, _ := st.Apply(x1)
			y1 := s1.Legal(rules.Side1)[0]
			page := fmt.Sprintf("/games/%d", id)
			b.open(page)
			b.within(10*time.Second, "write the plan",
				chromedp.Evaluate[chromedp.Void](`document.getElementById("plan").open = true`),
				chromedp.SendKeys(chromedp.CSS("#plan-text"), x1+" "+y1),
			)
			b.clickAndLoad(`#plan-form button[type="submit"]`)
			if got := b.text("#plan-text"); got != x1+" "+y1 {
				t.Fatalf("the saved plan reads %q", got)
			}
			if js {
				b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
			}
			bob.Get(page)
			bob.Post(page+"/move", map[string][]string{"ply": {"0"}, "move": {x1}})
			bob.wantStatus(200)
			wantPly(t, s, id, 2, y1)
			if js {
				b.waitUntil(15*time.Second, "the reply reaches carol's open page", `document.querySelector('#game[data-ply="2"]') !== null`)
				if !b.eval(`window.samePage === "yes"`) {
					t.Error("the page was reloaded instead of updated in place")
				}
			} else {
				b.open(page)
				if ply := b.attr("#game", "data-ply"); ply != "2" {
					t.Fatalf("after reloading, carol's page shows ply %s, want 2", ply)
				}
			}
			if n := b.count(`#moves li[data-ply]`); n != 2 {
				t.Errorf("the move list shows %d moves, want bob's and carol's planned reply", n)
			}
		})
	}
}

// TestBrowserTournamentComputer: carol organises a round robin of two in
// the browser, joins it and adds the easy computer player with the form on
// the tournament page, which fills it and starts it; the computer then
// makes its first move where it moves first.
func TestBrowserTournamentComputer(t *testing.T) {
	needChromium(t)
	for _, js := range []bool{true, false} {
		t.Run(fmt.Sprintf("js=%v", js), func(t *testing.T) {
			s, _ := startWithComputer(t, "", nil)
			b := newTab(t, s, js)
			b.signUp("carol")
			page := organiseInBrowser(t, b, "Carol and the computer", "trenches:standard", "roundrobin", "3", "2", "2")
			b.clickAndLoad(`#tournament-actions form[action$="/join"] button`)
			if got := b.text("#tournament-computer-rule"); !strings.Contains(got, "not rated") {
				t.Errorf("the page's rule for the computer: %q", got)
			}
			b.within(10*time.Second, "choose the level",
				chromedp.SetValue(chromedp.CSS(`#add-computer select[name="level"]`), "easy"))
			b.clickAndLoad(`#add-computer button[type="submit"]`)
			if loc := b.location(); loc != page {
				t.Fatalf("after adding the computer the browser is at %s", loc)
			}
			if got := b.text("#entrants"); !strings.Contains(got, "Computer · easy") {
				t.Fatalf("entrants: %q", got)
			}
			if st := b.text("#tournament-status"); !strings.Contains(st, "Running") {
				t.Fatalf("the full tournament says %q", st)
			}
			var id int64
			fmt.Sscanf(page, "/tournaments/%d", &id)
			d, err := s.DB.Tournament(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			moved := false
			for _, p := range d.Pairings {
				if p.Side[0].Name == "Computer · easy" {
					waitFor(t, "the computer's first move", func() bool { return s.game(t, p.GameID).Ply >= 1 })
					moved = true
				}
			}
			if !moved {
				t.Fatalf("the computer moves first in none of %+v", d.Pairings)
			}
		})
	}
}
