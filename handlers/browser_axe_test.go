package handlers_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeViolation is one rule of axe-core that a page breaks, with the
// elements that break it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// axeRun is the script that runs axe-core on the page (once injected)
// and answers its violations.
const axeRun = `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({
	id: v.id, impact: v.impact || "", help: v.help,
	nodes: v.nodes.map(n => ({target: n.target, failureSummary: n.failureSummary || ""})),
})))`

// axeCheck runs axe-core (handlers/testdata/axe.min.js, a test asset the
// server never sends) on the page the tab shows, and fails the test for
// each violation of impact "serious" or "critical", naming the page,
// the rule, the elements and how to fix it.
func (b *tab) axeCheck(page string, src []byte) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](string(src))); err != nil {
		b.t.Fatalf("%s: load axe-core: %v", page, err)
	}
	vs, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](axeRun, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: run axe-core: %v", page, err)
	}
	for _, v := range vs {
		if v.Impact != "serious" && v.Impact != "critical" {
			b.t.Logf("%s: %s (%s, not failing): %s: %d elements", page, v.ID, v.Impact, v.Help, len(v.Nodes))
			continue
		}
		var targets []string
		for i, n := range v.Nodes {
			if i == 6 {
				targets = append(targets, fmt.Sprintf("… and %d more", len(v.Nodes)-i))
				break
			}
			summary := strings.Join(strings.Fields(n.Summary), " ")
			targets = append(targets, fmt.Sprintf("%v: %s", n.Target, summary))
		}
		b.t.Errorf("%s: %s (%s): %s\n\t%s", page, v.ID, v.Impact, v.Help, strings.Join(targets, "\n\t"))
	}
}

// colourScheme makes the tab's pages see the device asking for light or
// dark pages (prefers-color-scheme), for the pages that follow it.
func (b *tab) colourScheme(scheme string) {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		b.t.Fatalf("prefer %s pages: %v", scheme, err)
	}
}

// TestBrowserAxe runs axe-core, the accessibility checker, on a page of
// each kind — for a visitor and for a player, games in progress and
// finished, the three games — in the light and the dark theme, and fails
// on every serious or critical violation (missing names, contrast too
// low, broken structure).
func TestBrowserAxe(t *testing.T) {
	needChromium(t)
	src, err := os.ReadFile("testdata/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "", nil)
	visitor := newTabWithin(t, s, true, 8*time.Minute)
	player := newTabWithin(t, s, true, 8*time.Minute)
	player.signUp("alice")
	bob := s.newClient(t)
	bob.SignUp("bob")

	trenchMid := startRated(t, s, "alice", "bob", "trench", "single")
	playRandom(t, s, trenchMid, 10) // alice's move: the board offers her units
	finished := finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 14)
	trenchesMid := startRated(t, s, "alice", "bob", "trenches", "standard")
	playRandom(t, s, trenchesMid, 6)
	cardsMid := startRated(t, s, "alice", "bob", "cards", "short")
	playRandom(t, s, cardsMid, 5)
	trenchesDone := finishByResign(t, s, "alice", "bob", "alice", "trenches", "standard", 8)
	cardsDone := finishByResign(t, s, "alice", "bob", "bob", "cards", "short", 6)
	tournament := organise(t, bob, url.Values{"name": {"Spring cup"}, "game": {"trench:match"}, "format": {"roundrobin"},
		"min": {"4"}, "max": {"4"}, "days": {"3"}, "starts": {""}})
	tournamentAct(t, bob, tournament, "join")
	// An open challenge, so that the dashboard lists one.
	bob.Get("/challenges/new?game=trench")
	bob.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "days": {"3"}})

	pages := []struct {
		name, path string
		who        *tab
	}{
		{"home (visitor)", "/", visitor},
		{"sign-up", "/signup", visitor},
		{"dashboard", "/", player},
		{"challenge form", "/challenges/new", player},
		{"TRENCH game in progress", fmt.Sprintf("/games/%d", trenchMid), player},
		{"TRENCH game finished", fmt.Sprintf("/games/%d", finished.ID), player},
		{"Trenches game in progress", fmt.Sprintf("/games/%d", trenchesMid), player},
		{"card table", fmt.Sprintf("/games/%d", cardsMid), player},
		{"Trenches game finished", fmt.Sprintf("/games/%d", trenchesDone.ID), player},
		{"card game finished", fmt.Sprintf("/games/%d", cardsDone.ID), player},
		{"archive", "/archive", player},
		{"review at an earlier ply", fmt.Sprintf("/games/%d?ply=3", finished.ID), player},
		{"profile", "/players/alice", player},
		{"settings (a choice just saved)", "/settings?theme=1&notify=1", player},
		{"rules", "/rules", player},
		{"TRENCH rules", "/rules/trench", player},
		{"leaderboard", "/leaderboard/trench", player},
		{"tournament", tournament, player},
	}
	alice, err := s.DB.UserByName(context.Background(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	// Light: the device asks for light pages and alice follows it. Dark:
	// the device asks for dark pages (the visitor's pages follow it) and
	// alice chose the dark theme.
	for _, theme := range []string{"light", "dark"} {
		chosen := map[string]string{"light": "system", "dark": "dark"}[theme]
		if err := s.DB.SetTheme(context.Background(), alice.ID, chosen); err != nil {
			t.Fatal(err)
		}
		visitor.colourScheme(theme)
		player.colourScheme(theme)
		for _, p := range pages {
			p.who.open(p.path)
			dark := p.who.eval(`getComputedStyle(document.body).backgroundColor !== "rgb(246, 241, 231)"`)
			if dark != (theme == "dark") {
				t.Fatalf("%s in the %s theme: the page's background is not the %s one", p.name, theme, theme)
			}
			p.who.shot("axe-" + theme + "-" + strings.ReplaceAll(p.name, " ", "-"))
			p.who.axeCheck(fmt.Sprintf("%s (%s, %s)", p.name, p.path, theme), src)
		}
	}
}

// TestBrowserDarkTheme: the pages are dark when the device asks for dark
// pages, unless the player chose the light theme; and dark when the
// player chose the dark theme, whatever the device asks. The text stays
// light on dark (and dark on light).
func TestBrowserDarkTheme(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, false)
	type colours struct{ Page, Text, Box string }
	look := func(path string) colours {
		t.Helper()
		b.open(path)
		c, err := chromedp.Run(b.ctx, chromedp.Evaluate[colours](`(() => ({
			Page: getComputedStyle(document.body).backgroundColor,
			Text: getComputedStyle(document.body).color,
			Box: getComputedStyle(document.querySelector(".box") || document.body).backgroundColor,
		}))()`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	light := colours{"rgb(246, 241, 231)", "rgb(31, 27, 22)", "rgb(255, 253, 248)"}
	dark := colours{"rgb(23, 20, 15)", "rgb(235, 228, 214)", "rgb(34, 29, 23)"}
	for _, c := range []struct {
		device, chosen string // "" chosen: a visitor
		want           colours
	}{
		{"light", "", light},
		{"dark", "", dark},
		{"dark", "system", dark},
		{"dark", "light", light},
		{"light", "dark", dark},
	} {
		b.colourScheme(c.device)
		path := "/signup"
		if c.chosen != "" {
			if b.count("nav.top form[action='/signout']") == 0 {
				b.signUp("alice")
			}
			alice, err := s.DB.UserByName(context.Background(), "alice")
			if err != nil {
				t.Fatal(err)
			}
			if err := s.DB.SetTheme(context.Background(), alice.ID, c.chosen); err != nil {
				t.Fatal(err)
			}
			path = "/settings"
		}
		if got := look(path); got != c.want {
			t.Errorf("device %s, theme chosen %q: page, text and box colours %v, want %v", c.device, c.chosen, got, c.want)
		}
	}
}
