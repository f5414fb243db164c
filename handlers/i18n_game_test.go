package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// langCookie gives c the lang cookie of a visitor who chose lang in the
// language menu.
func (c *client) langCookie(lang string) {
	u, err := url.Parse(c.srv.URL)
	if err != nil {
		c.t.Fatal(err)
	}
	c.http.Jar.SetCookies(u, []*http.Cookie{{Name: "lang", Value: lang, Path: "/"}})
}

// wantGameText fails the test unless the text of sel in c's last page holds
// each of want (spaces, the no-break ones too, read as one space).
func (c *client) wantGameText(sel string, want ...string) {
	c.t.Helper()
	got := strings.Join(strings.Fields(c.Last.Find(sel).Text()), " ")
	for _, w := range want {
		if !strings.Contains(got, w) {
			c.t.Errorf("%s: %s reads %q, want %q in it", c.Name, sel, got, w)
		}
	}
}

// TestGamePageInFrenchAndGerman: a game page speaks the reader's language
// (the lang cookie, or the browser's Accept-Language): who is to move, the
// clock, the time control, the match panel and the controls (resign,
// armistice), and the answer to a move sent with JavaScript on.
func TestGamePageInFrenchAndGerman(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := s.newClient(t), s.newClient(t)
	alice.SignUp("alice")
	bob.SignUp("bob")
	id := challenge(t, alice, bob, "trench", "match", "0") // alice plays Black, who moves first
	page := fmt.Sprintf("/games/%d", id)
	s.Clock.Advance(time.Hour)

	// French, chosen in the language menu.
	alice.langCookie("fr")
	alice.Get(page)
	alice.wantStatus(http.StatusOK)
	alice.wantGameText("h1", "TRENCH · Match officiel (2 parties) · Partie 1")
	alice.wantGameText("#status", "À vous de jouer")
	alice.wantGameText("#clock", "Il vous reste 2 jours 23 heures pour jouer.")
	alice.wantGameText("#time-control", "3 jours par coup")
	alice.wantGameText("#resign", "Abandonner…")
	alice.wantGameText(".controls", "Proposer un armistice (les points sont comptés)")
	alice.wantGameText("#match", "Match", "Partie 1", "Totaux", "en cours")
	alice.wantGameText(".log h2", "Coups")
	alice.wantGameText(".player", "Noir", "Blanc", "(vous)")
	if lang, _ := alice.Last.Find("html").Attr("lang"); lang != "fr" {
		t.Errorf("the page's lang is %q, want fr", lang)
	}
	alice.Get(page + "?confirm=resign")
	alice.wantGameText("#confirm-resign", "Abandonner cette partie ? Elle compte comme perdue.", "Oui, abandonner", "Non")

	// A move sent with JavaScript on: the answer swapped in is French too.
	alice.HTMX = true
	clickMove(t, alice, id, func(int) int { return 0 })
	alice.wantStatus(http.StatusOK)
	alice.wantGameText("#status", "Au tour de bob (Blanc)")
	alice.wantGameText("#clock", "Il reste 3 jours pour jouer.")

	// German, from the browser's Accept-Language.
	bob.speaks("de-DE,de;q=0.9,en;q=0.5").Get(page)
	bob.wantStatus(http.StatusOK)
	bob.wantGameText("#status", "Du bist am Zug")
	bob.wantGameText("#clock", "Du hast noch 3 Tage für deinen Zug.")
	bob.wantGameText("#time-control", "3 Tage pro Zug")
	bob.wantGameText("#resign", "Aufgeben…")
	bob.wantGameText(".controls", "Waffenstillstand anbieten (die Punkte werden gezählt)")
	bob.wantGameText("#match", "Wettkampf", "Partie 1", "Summen", "läuft")
	bob.wantGameText(".player", "Schwarz", "Weiß", "(du)")

	// Bob offers an armistice: alice reads the offer in French, a
	// spectator in German reads whose move it is.
	bob.Submit(bob.Last.Find(`form[action$="/armistice/offer"]`), nil)
	bob.wantStatus(http.StatusOK)
	alice.HTMX = false
	alice.Get(page)
	alice.wantGameText("#armistice-offered", "Votre adversaire propose un armistice (les points sont comptés).")
	alice.wantGameText(".controls", "Accepter l'armistice", "Refuser")
	carol := s.newClient(t).speaks("de")
	carol.Get(page)
	carol.wantGameText("#status", "bob (Weiß) ist am Zug")
	carol.wantGameText("#clock", "Noch 3 Tage für den Zug.")

	// English stays as it was.
	dave := s.newClient(t)
	dave.Get(page)
	dave.wantGameText("#status", "bob (White) to move")
	dave.wantGameText("#clock", "3 days left to move.")
}

// TestGamePushSpeaksEachReadersLanguage: a move pushed to open game pages
// reaches each page in its own reader's language, a French and an English
// spectator of the same game alike.
func TestGamePushSpeaksEachReadersLanguage(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := s.newClient(t), s.newClient(t)
	alice.SignUp("alice")
	bob.SignUp("bob")
	id := challenge(t, alice, bob, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	fr, en := s.newClient(t), s.newClient(t)
	fr.langCookie("fr")
	fr.Get(page)
	frStream := openStream(t, fr, liveURL(t, fr.Last), "")
	en.Get(page)
	enStream := openStream(t, en, liveURL(t, en.Last), "")

	playFirstLegal(t, s, id)
	for _, c := range []struct {
		stream *stream
		want   string
	}{{frStream, "Au tour de bob (Blanc)"}, {enStream, "bob (White) to move"}} {
		doc := c.stream.next("update", 10*time.Second).doc(t)
		if got := strings.TrimSpace(doc.Find("#status").Text()); got != c.want {
			t.Errorf("the pushed status reads %q, want %q", got, c.want)
		}
	}
}

// TestCardLogInFrench: the card game's move list keeps its notation and
// reads its words in the reader's language: a battle's outcome, the cards
// drawn, the forced steps.
func TestCardLogInFrench(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := s.newClient(t), s.newClient(t)
	alice.SignUp("alice")
	bob.SignUp("bob")
	id := challenge(t, alice, bob, "cards", "long", "0")
	ctx := context.Background()
	// Attack whenever possible, so that battles fill the log.
	for i := 0; i < 30; i++ {
		g, err := s.DB.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Finished() {
			break
		}
		st, err := g.Decode()
		if err != nil {
			t.Fatal(err)
		}
		legal := st.Legal(g.ToMove)
		move := legal[0]
		for _, m := range legal {
			if strings.HasPrefix(m, "attack") {
				move = m
				break
			}
		}
		if _, err := s.DB.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: move}, s.Clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	page := fmt.Sprintf("/games/%d", id)
	en := strings.Join(strings.Fields(alice.Get(page).Find("#moves").Text()), " ")
	if !strings.Contains(en, "attack") || !strings.Contains(en, " × ") || !strings.Contains(en, "draws") {
		t.Fatalf("the log has no battle or draw to read: %q", en)
	}
	alice.langCookie("fr")
	fr := strings.Join(strings.Fields(alice.Get(page).Find("#moves").Text()), " ")
	for _, english := range []string{" wins", ", tie", "draws", "(forced)", "Black ", "Red "} {
		if strings.Contains(fr, english) {
			t.Errorf("the French log still reads %q: %q", english, fr)
		}
	}
	if !strings.Contains(fr, "attack") || !strings.Contains(fr, " × ") || !strings.Contains(fr, "pioche") {
		t.Errorf("the French log lost its notation or its draws: %q", fr)
	}
	if !strings.Contains(fr, " gagne") && !strings.Contains(fr, "égalité") {
		t.Errorf("the French log has no battle outcome: %q", fr)
	}
}
