package handlers_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestNotesPrivate: a player's notes are saved with the plain form and
// with htmx, come back on their own game page, and appear in no response
// the opponent, a spectator or a visitor can request, during the game and
// after it; neither does a move the player has pending (Confirm moves).
func TestNotesPrivate(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := signedUpPair(t, s)
	carol := s.newClient(t)
	carol.SignUp("carol")
	visitor := s.newClient(t)
	id := challenge(t, alice, bob, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	playRandom(t, s, id, 3)

	const secret = "ALICE-PLAN-k7q <b>push the left flank</b>"
	alice.Get(page)
	alice.wantStatus(http.StatusOK)
	alice.Submit(alice.Last.Find("#notes-form"), url.Values{"notes": {secret}})
	alice.wantStatus(http.StatusOK)
	if got := alice.text("#notes-text"); got != secret {
		t.Fatalf("after saving without JavaScript alice's notes read %q", got)
	}
	if !strings.HasPrefix(alice.text("#notes-saved"), "Saved") {
		t.Errorf("the notes do not say they were saved: %q", alice.text("#notes-saved"))
	}
	// htmx autosave: the answer is the saved line alone.
	alice.HTMX = true
	alice.Submit(alice.Last.Find("#notes-form"), url.Values{"notes": {secret + "\nsecond line"}})
	alice.wantStatus(http.StatusOK)
	if alice.Last.Find("#notes-saved").Length() != 1 || alice.Last.Find("#game").Length() != 0 {
		t.Fatalf("the htmx answer is not the saved line")
	}
	alice.HTMX = false
	alice.Get(page)
	if got := alice.Last.Find("#notes-text").Text(); got != secret+"\nsecond line" {
		t.Fatalf("alice's notes read %q after the autosave", got)
	}
	// Bob's own notes are his, empty, and a spectator has none to save.
	bob.Get(page)
	if bob.Last.Find("#notes-text").Length() != 1 || bob.text("#notes-text") != "" {
		t.Fatalf("bob does not get his own empty notes")
	}
	carol.Get(page)
	if carol.Last.Find("#notes").Length() != 0 {
		t.Fatalf("a spectator is offered notes")
	}
	carol.Post(page+"/notes", url.Values{"notes": {"mine"}})
	carol.wantStatus(http.StatusForbidden)
	alice.Get(page)
	alice.Post(page+"/notes", url.Values{"notes": {strings.Repeat("x", 5001)}})
	alice.wantStatus(http.StatusBadRequest)
	alice.Get(page)
	if got := alice.Last.Find("#notes-text").Text(); got != secret+"\nsecond line" {
		t.Fatalf("refused notes changed them: %q", got)
	}

	// Alice also has a move pending (Confirm moves): it is hers alone too.
	setConfirmMoves(t, alice, true)
	if mover, _ := whoMoves(t, s, id, alice, bob); mover != alice {
		playRandom(t, s, id, 1)
	}
	clickToPending(t, alice, id)

	walk := func(stage string) {
		t.Helper()
		leak := func(who *client, what, body string) {
			t.Helper()
			if strings.Contains(body, "pending-move") || strings.Contains(body, "pending=") {
				t.Errorf("%s: %s sees alice's pending move in %s", stage, who.Name, what)
			}
			if strings.Contains(body, "ALICE-PLAN") || strings.Contains(body, "left flank") {
				t.Errorf("%s: %q (empty: a visitor) can read alice's notes in %s", stage, who.Name, what)
			}
		}
		raw := func(who *client, path string, htmx bool) {
			t.Helper()
			who.HTMX = htmx
			who.get(path, htmx)
			who.HTMX = false
			html, _ := who.Last.Html()
			leak(who, fmt.Sprintf("%s (htmx %v, status %d)", path, htmx, who.Status), html)
		}
		for _, who := range []*client{bob, carol, visitor} {
			for _, htmx := range []bool{false, true} {
				for _, p := range []string{page, page + "?ply=0", page + "?ply=1", page + "/live?v=stale", page + "/social",
					page + "/record", page + "/position.svg?ply=2", "/archive", "/players/alice", "/players/bob", "/",
					"/settings", "/settings/export", "/leaderboard/trench", "/players",
					page + "/analysis", page + "/analysis?ply=1", page + "/analysis/panel"} {
					raw(who, p, htmx)
				}
			}
		}
		for _, who := range []*client{alice, bob} {
			u := feedURL(t, who)
			res, err := http.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			leak(visitor, who.Name+"'s feed", string(body))
		}
		// The notes are still there for alice.
		alice.Get(page)
		if !strings.Contains(alice.Last.Find("#notes-text").Text(), "ALICE-PLAN") {
			t.Errorf("%s: alice's notes are gone", stage)
		}
	}
	walk("during the game")
	bob.Get(page + "?confirm=resign")
	bob.Submit(bob.Last.Find("#confirm-resign"), url.Values{"confirm": {"yes"}})
	bob.wantStatus(http.StatusOK)
	walk("after the game")
}

// TestExportNotes: the data export carries the player's own notes beside
// each game, and never the opponent's.
func TestExportNotes(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := signedUpPair(t, s)
	id := challenge(t, alice, bob, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	const mine, theirs = "ALICE-EXPORT-NOTE watch g5", "BOB-EXPORT-NOTE trade the general"
	for who, body := range map[*client]string{alice: mine, bob: theirs} {
		who.Get(page)
		who.Submit(who.Last.Find("#notes-form"), url.Values{"notes": {body}})
		who.wantStatus(http.StatusOK)
	}
	type exported struct {
		Games []struct {
			ID         int64
			Notes      string
			NotesSaved string `json:"notes_saved"`
		}
	}
	export := func(who *client) (exported, string) {
		t.Helper()
		res, err := who.http.Get(s.URL + "/settings/export")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("export: status %d, %v", res.StatusCode, err)
		}
		var e exported
		if err := json.Unmarshal(body, &e); err != nil {
			t.Fatal(err)
		}
		return e, string(body)
	}
	for _, tc := range []struct {
		who          *client
		want, absent string
	}{{alice, mine, "BOB-EXPORT"}, {bob, theirs, "ALICE-EXPORT"}} {
		e, raw := export(tc.who)
		if len(e.Games) != 1 || e.Games[0].ID != id || e.Games[0].Notes != tc.want || e.Games[0].NotesSaved == "" {
			t.Errorf("%s's export: %+v", tc.who.Name, e.Games)
		}
		if strings.Contains(raw, tc.absent) {
			t.Errorf("%s's export holds the opponent's notes", tc.who.Name)
		}
	}
	// Notes cleared: none in the export.
	alice.Get(page)
	alice.Submit(alice.Last.Find("#notes-form"), url.Values{"notes": {""}})
	if e, _ := export(alice); len(e.Games) != 1 || e.Games[0].Notes != "" {
		t.Errorf("cleared notes are still exported: %+v", e.Games)
	}
}
