package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// chooseLanguage stores lang as c's language through the footer's menu.
func chooseLanguage(t *testing.T, c *client, lang string) {
	t.Helper()
	c.Get("/settings")
	c.Submit(c.Last.Find("form#language-form"), url.Values{"lang": {lang}})
	c.wantStatus(http.StatusOK)
	if got, _ := c.Last.Find("html").Attr("lang"); got != lang {
		t.Fatalf("%s chose %s and gets pages in %q", c.Name, lang, got)
	}
}

// TestMailsInTheRecipientsLanguage: a player who chose French gets their
// "your move" mail, their admin-forced reset mail and their feed in
// French, whatever the language of the admin who acts; a player who chose
// nothing keeps getting English.
func TestMailsInTheRecipientsLanguage(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	a, b := signedUpPair(t, s) // alice, the first account, is the admin
	setNotify(t, b, "bob@example.org", "move")
	id := challenge(t, a, b, "trench", "single", "0")
	chooseLanguage(t, b, "fr")
	clickMove(t, a, id, func(int) int { return 0 })
	a.wantStatus(http.StatusOK)
	if n := runMailJob(t, s); n != 1 {
		t.Fatalf("the job sent %d mails, want 1", n)
	}
	m := waitMails(t, sink, 1)[0]
	link := fmt.Sprintf("%s/games/%d\n", s.URL, id)
	if !strings.HasPrefix(m.Subject, "À vous de jouer contre alice\u00a0: ") ||
		!strings.HasPrefix(m.Body, "Bonjour bob,\n\nC'est à vous de jouer dans ") || !strings.Contains(m.Body, " contre alice (") ||
		!strings.Contains(m.Body, link) || !strings.Contains(m.Body, "Pour le modifier ou l'arrêter\u00a0: "+s.URL+"/settings\n") ||
		strings.Contains(m.Body, "your move") {
		t.Fatalf("bob, who reads French, got:\nSubject: %s\n%s", m.Subject, m.Body)
	}

	// Bob's feed speaks French too, whoever reads it.
	_, f := getFeed(t, feedURL(t, b))
	if len(f.Entries) != 1 || !strings.HasPrefix(f.Entries[0].Title, "À vous de jouer\u00a0: ") ||
		!strings.HasPrefix(f.Entries[0].Summary, "C'est à vous de jouer contre alice. Votre temps expire le ") {
		t.Fatalf("bob's feed: %+v", f.Entries)
	}

	// Alice chose no language: her mail is in English.
	setNotify(t, a, "alice@example.org", "move")
	clickMove(t, b, id, func(int) int { return 0 })
	if n := runMailJob(t, s); n != 1 {
		t.Fatalf("the job sent %d mails, want 1", n)
	}
	if m := waitMails(t, sink, 2)[1]; !strings.HasPrefix(m.Subject, "Your move against bob: ") ||
		!strings.HasPrefix(m.Body, "Hello alice,\n\nit is your move in ") {
		t.Fatalf("alice, who chose no language, got:\nSubject: %s\n%s", m.Subject, m.Body)
	}

	// Bob switches to the daily digest; the next time the game waits for
	// him, the digest is French as well.
	saveNotify(t, b, "bob@example.org", "daily")
	clickMove(t, a, id, func(int) int { return 0 })
	if n := runMailJob(t, s); n != 1 {
		t.Fatalf("the job sent %d mails, want bob's digest", n)
	}
	if m := waitMails(t, sink, 3)[2]; m.Subject != "1 partie attend votre coup" ||
		!strings.HasPrefix(m.Body, "Bonjour bob,\n\n1 partie attend votre coup\u00a0:\n\n- ") || !strings.Contains(m.Body, " contre alice (") ||
		!strings.Contains(m.Body, "récapitulatif quotidien") {
		t.Fatalf("bob's digest:\nSubject: %s\n%s", m.Subject, m.Body)
	}

	// The admin reads German and forces a reset of bob's password: the page
	// is German, the mail to bob French.
	a.AcceptLanguage = "de"
	a.Get("/admin")
	a.wantStatus(http.StatusOK)
	if got := a.text("#users h2"); got != "Spieler" {
		t.Fatalf("the admin page in German titles the players %q", got)
	}
	a.Submit(a.Last.Find(`#users tr[data-user="bob"] form[data-action="reset"]`), nil)
	a.wantStatus(http.StatusOK)
	if got := a.text("#reset-link p"); !strings.HasPrefix(got, "Das Passwort von bob funktioniert nicht mehr") ||
		!strings.Contains(got, "Ein Link zum Wählen eines neuen Passworts wurde an die bestätigte Adresse geschickt.") {
		t.Fatalf("after the reset the admin reads %q", got)
	}
	if b := a.Last.Find("#reset-link strong"); b.Text() != "bob" {
		t.Fatalf("the name is not in bold: %q", b.Text())
	}
	m = waitMails(t, sink, 4)[3]
	if m.To[0] != "bob@example.org" || m.Subject != "Choisissez un nouveau mot de passe" ||
		!strings.HasPrefix(m.Body, "Bonjour bob,\n\nL'administrateur de "+s.URL+" a réinitialisé votre mot de passe.") {
		t.Fatalf("the reset mail to bob:\nSubject: %s\n%s", m.Subject, m.Body)
	}
	linkIn(t, s, m.Body, "/reset/")
}

// TestResetPageInTheBrowsersLanguage: a visitor whose browser asks for
// German gets the forgotten-password page, and its refusals, in German.
func TestResetPageInTheBrowsersLanguage(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	v := s.newClient(t)
	v.AcceptLanguage = "de-AT, en;q=0.3"
	v.Get("/reset")
	v.wantStatus(http.StatusOK)
	if got := v.text("main h1"); got != "Passwort vergessen?" {
		t.Fatalf("the reset page in German is titled %q", got)
	}
	if got := v.text(`form[action="/reset"] button`); got != "Schick mir einen Link" {
		t.Fatalf("the button reads %q", got)
	}
	v.Submit(v.Last.Find(`form[action="/reset"]`), url.Values{"email": {"not an address"}})
	v.wantStatus(http.StatusBadRequest)
	if got := v.text("main .flash"); got != "Das ist keine E-Mail-Adresse; schreib sie als name@example.org." {
		t.Fatalf("a bad address in German: %q", got)
	}
	if got := v.Header.Get("Content-Language"); got != "de" {
		t.Fatalf("Content-Language %q", got)
	}
}
