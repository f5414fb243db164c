package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
)

// noticesTo returns the notices in got to device, by title.
func noticesTo(got []pushed, device string) []pushed {
	var out []pushed
	for _, p := range got {
		if p.Device == device {
			out = append(out, p)
		}
	}
	return out
}

// setDeviceWants saves, on c's settings page, the kinds of notice of
// c's row-th device (from 0, the oldest first).
func setDeviceWants(t *testing.T, c *client, row int, wants ...string) {
	t.Helper()
	c.Get("/settings")
	form := c.Last.Find("#push-devices tr[data-device] form.push-wants").Eq(row)
	if form.Length() == 0 {
		t.Fatal("the settings page has no form for the device's kinds of notice")
	}
	if n := form.Find(`input[type="checkbox"][name="wants"]`).Length(); n != len(db.PushWants) {
		t.Fatalf("the device's form has %d check boxes, want %d", n, len(db.PushWants))
	}
	c.Submit(form, url.Values{"wants": wants})
	c.wantStatus(http.StatusOK)
}

// TestPushEveryKindOfNoticeToTheDevicesThatWantIt: a challenge addressed
// to bob, a message to him, the game's end (in his language; alice, who
// resigned it, is not told) and a tournament round's new game are each told once to every device
// that wants that kind, and never to bob's device that asked for "your
// move" alone on the settings page.
func TestPushEveryKindOfNoticeToTheDevicesThatWantIt(t *testing.T) {
	ps := startPushService(t)
	s := startPushServer(t, "", nil)
	a, b := signedUpPair(t, s)
	ps.learnKey(a)
	b.Get("/")
	b.Post("/language", url.Values{"lang": {"fr"}, "back": {"/"}})
	for _, sub := range []struct {
		c    *client
		name string
	}{{a, "alice"}, {b, "bob-all"}, {b, "bob-moves"}} {
		if st := ps.Device(sub.name).subscribe(t, sub.c); st != http.StatusCreated {
			t.Fatalf("subscribing %s: status %d", sub.name, st)
		}
	}
	setDeviceWants(t, b, 1, "move")
	b.Get("/settings")
	rows := b.Last.Find("#push-devices tr[data-device]")
	if on := rows.Eq(1).Find(`input[name="wants"][checked]`).Length(); on != 1 {
		t.Fatalf("after saving, bob's second device has %d kinds checked, want 1 (your move)", on)
	}
	if on := rows.Eq(0).Find(`input[name="wants"][checked]`).Length(); on != len(db.PushWants) {
		t.Fatalf("bob's first device has %d kinds checked, want all %d", on, len(db.PushWants))
	}
	// A device of someone else's cannot be changed.
	sub, err := s.DB.PushSubscriptions(context.Background(), mustUser(t, s, "bob"))
	if err != nil {
		t.Fatal(err)
	}
	a.Get("/settings")
	a.Post(fmt.Sprintf("/settings/push/%d/wants", sub[0].ID), url.Values{"wants": {"move"}})
	if a.Status != http.StatusNotFound {
		t.Errorf("alice changing bob's device: status %d, want 404", a.Status)
	}

	step := func(what string, check func(got []pushed)) {
		t.Helper()
		sendPush(t, s)
		sendPush(t, s) // a second run finds nothing new
		got := ps.Got()
		for _, p := range noticesTo(got, "bob-moves") {
			if !strings.HasPrefix(p.Payload.Title, "À vous de jouer contre") {
				t.Errorf("%s: bob's device that wants only his moves got %q", what, p.Payload.Title)
			}
		}
		check(got)
	}
	one := func(what string, got []pushed, device, title, body, href string) {
		t.Helper()
		ns := noticesTo(got, device)
		if len(ns) != 1 {
			t.Errorf("%s: %d notices to %s, want 1: %+v", what, len(ns), device, ns)
			return
		}
		p := ns[0].Payload
		if !strings.HasPrefix(p.Title, title) || !strings.Contains(p.Body, body) || p.URL != href {
			t.Errorf("%s: %s got %+v, want a title starting %q, a body holding %q, the address %s", what, device, p, title, body, href)
		}
	}

	// A challenge addressed to bob.
	a.Get("/challenges/new?game=trench")
	a.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "days": {"3"}, "opponent": {"bob"}})
	a.wantStatus(http.StatusOK)
	step("challenge", func(got []pushed) {
		one("challenge", got, "bob-all", "alice vous défie", "", "/#open-challenges")
		if n := len(got); n != 1 {
			t.Errorf("challenge: %d notices, want bob's one: %+v", n, got)
		}
	})

	b.Get("/")
	cid, _ := b.Last.Find("#open-challenges tr[data-challenge]").First().Attr("data-challenge")
	b.Post("/challenges/"+cid+"/accept", nil)
	b.wantStatus(http.StatusOK)
	id := gameIDOf(t, b.URL)
	game := fmt.Sprintf("/games/%d", id)
	step("alice's first move", func(got []pushed) {
		one("alice's turn", got, "alice", "Your move against bob", "", game)
		if len(got) == 1 && got[0].Payload.Waiting != 1 {
			t.Errorf("alice's notice counts %d games waiting for her, want 1 (the app's badge)", got[0].Payload.Waiting)
		}
	})

	// A message to bob.
	a.Get(game)
	a.Post(game+"/messages", url.Values{"message": {"Good luck, Bob"}})
	step("message", func(got []pushed) {
		one("message", got, "bob-all", "Message de alice", "Good luck, Bob", game)
		if n := len(got); n != 1 {
			t.Errorf("message: %d notices, want bob's one: %+v", n, got)
		}
	})
	// Once read, a message is not told again, nor is a message bob sent.
	b.Get(game)
	b.Post(game+"/messages", url.Values{"message": {"Thanks"}})
	step("bob's answer", func(got []pushed) {
		one("bob's answer", got, "alice", "Message from bob", "Thanks", game)
	})

	// The game's end, in each player's language.
	clickMove(t, a, id, func(int) int { return 0 })
	step("alice's move", func([]pushed) {})
	clickMove(t, b, id, func(int) int { return 0 })
	step("bob's move", func([]pushed) {})
	resign(t, a, id)
	step("end", func(got []pushed) {
		if ns := noticesTo(got, "alice"); len(ns) != 0 {
			t.Errorf("alice, who resigned, is told the game is over: %+v", ns)
		}
		one("end", got, "bob-all", "Partie terminée contre alice", "Vous avez gagné", game)
		for _, p := range got {
			if p.Payload.Waiting != 0 {
				t.Errorf("after the end %s's notice counts %d games waiting, want 0", p.Device, p.Payload.Waiting)
			}
		}
		if n := len(got); n != 1 {
			t.Errorf("end: %d notices, want one to bob's first device: %+v", n, got)
		}
		if len(got) == 1 && got[0].Payload.Image != fmt.Sprintf("/games/%d/position.png?ply=2", id) {
			t.Errorf("end: the image %q, want the final position's", got[0].Payload.Image)
		}
	})

	// A tournament round begins: each player's new game.
	ctx := context.Background()
	now := s.Clock.Now()
	tr, err := s.DB.CreateTournament(ctx, db.NewTournament{OrganiserID: mustUser(t, s, "alice"), Name: "Spring Cup", Game: "trenches",
		Variant: "standard", Format: db.FormatRoundRobin, MinPlayers: 2, MaxPlayers: 2,
		Clock: db.TimeControl{Kind: "move", DaysPerMove: 3}, Seed: 1}, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"alice", "bob"} {
		if err := s.DB.JoinTournament(ctx, tr.ID, mustUser(t, s, u), now); err != nil {
			t.Fatal(err)
		}
	}
	if d, _ := s.DB.Tournament(ctx, tr.ID); d.Status != "running" {
		if err := s.DB.StartTournament(ctx, tr.ID, mustUser(t, s, "alice"), now); err != nil {
			t.Fatal(err)
		}
	}
	step("round", func(got []pushed) {
		rounds := map[string]int{}
		for _, p := range got {
			if strings.HasPrefix(p.Payload.Title, "Spring Cup, round 1: your game against bob") ||
				strings.HasPrefix(p.Payload.Title, "Spring Cup, ronde 1 : votre partie contre alice") {
				rounds[p.Device]++
			}
		}
		if rounds["alice"] != 1 || rounds["bob-all"] != 1 || len(rounds) != 2 {
			t.Errorf("round: %v, want one notice of round 1 to alice and one to bob's first device: %+v", rounds, got)
		}
	})

	// Nothing told is told again after a restart.
	s.Stop()
	s2 := startServerWith(t, s.Path, s.Clock, func(cfg *handlers.Config, _ string) { cfg.PushAllowLoopback = true })
	sendPush(t, s2)
	if got := ps.Got(); len(got) != 0 {
		t.Errorf("after a restart: %+v, want nothing told again", got)
	}
}

// TestPushOneWriteForManyNotices: the sender records the notices due,
// hands out their deliveries and records what became of them with one
// write to the database for all of them (and one more to record the
// results when nothing else wakes it), not three small writes a notice:
// each write holds the lock that moves wait for.
func TestPushOneWriteForManyNotices(t *testing.T) {
	ps := startPushService(t)
	s := startPushServer(t, "", nil)
	a, b := signedUpPair(t, s)
	c := s.newClient(t)
	c.SignUp("carol")
	ps.learnKey(a)
	challenge(t, a, b, "trench", "single", "0") // alice moves first in both
	challenge(t, a, c, "trench", "single", "0")
	ps.Device("alice-phone").subscribe(t, a)
	ps.Device("alice-laptop").subscribe(t, a)
	// measure runs the sender once and returns how many writes it made
	// (other jobs of the server may write meanwhile: the least of two
	// rounds is taken).
	measure := func() int64 {
		before := s.DB.WriteTransactions()
		sendPush(t, s)
		return s.DB.WriteTransactions() - before
	}
	writes := measure()
	if got := countBy(ps.Got()); got["alice-phone"] != 2 || got["alice-laptop"] != 2 {
		t.Fatalf("notices %v, want two (one a game) to each of alice's devices", got)
	}
	// A second round: bob and carol, two devices each, are told of
	// alice's moves.
	ps.Device("bob-phone").subscribe(t, b)
	ps.Device("bob-laptop").subscribe(t, b)
	ps.Device("carol-phone").subscribe(t, c)
	ps.Device("carol-laptop").subscribe(t, c)
	for _, id := range gamesOf(t, s, "alice") {
		clickMove(t, a, id, func(int) int { return 0 })
	}
	writes = min(writes, measure())
	if got := countBy(ps.Got()); len(got) != 4 || got["bob-phone"] != 1 || got["carol-laptop"] != 1 {
		t.Fatalf("notices %v, want one to each of bob's and carol's devices", got)
	}
	if writes > 2 {
		t.Errorf("4 notices took %d write transactions, want at most 2 (claim, results)", writes)
	}
	before := s.DB.WriteTransactions()
	sendPush(t, s)
	if n := s.DB.WriteTransactions() - before; n != 0 {
		t.Errorf("with nothing due the sender wrote %d times, want 0", n)
	}
	// The results were recorded: the devices were last notified now.
	subs, err := s.DB.PushSubscriptions(context.Background(), mustUser(t, s, "alice"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range subs {
		if d.LastSuccess.IsZero() {
			t.Errorf("device %s: no last success recorded", d.Device)
		}
	}
}

// gamesOf returns the ids of the active games of the player named name.
func gamesOf(t *testing.T, s *server, name string) []int64 {
	t.Helper()
	gs, err := s.DB.ActiveGames(context.Background(), mustUser(t, s, name))
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	return ids
}
