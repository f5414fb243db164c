package handlers_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// rawFeed fetches a feed as a feed reader does (no Accept-Language) and
// returns its text.
func rawFeed(t *testing.T, u string) string {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("feed: status %d", res.StatusCode)
	}
	return string(b)
}

// TestBackgroundLanguageFollowsTheBrowser: a player who never chose a
// language gets the "your move" mail and the feed in the language their
// browser asked for at sign-up, every part of them (title, game names,
// "against", the feed's own title, its xml:lang, the mail's
// Content-Language); a later sign-in from a browser in another language
// moves them to that one.
func TestBackgroundLanguageFollowsTheBrowser(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	fra := s.newClient(t).speaks("fr-FR,fr;q=0.9,en;q=0.5")
	fra.SignUp("fra")
	ann := s.newClient(t)
	ann.SignUp("ann")
	setNotify(t, fra, "fra@example.org", "move")
	feed := feedURL(t, fra)
	challenge(t, fra, ann, "trench", "single", "0") // fra (Black) moves first

	english := []string{"Your move", "against", "Official", "single game", "It is your move", "Your time runs out"}
	if n := runMailJob(t, s); n != 1 {
		t.Fatalf("%d mails sent, want fra's notice", n)
	}
	m := sink.Mails()[0]
	if m.ContentLanguage != "fr" {
		t.Errorf("the mail's Content-Language is %q, want fr", m.ContentLanguage)
	}
	if !strings.HasPrefix(m.Subject, "À vous de jouer contre ann") || !strings.Contains(m.Subject, "Partie officielle") {
		t.Errorf("subject %q, want it in French with the game's French name", m.Subject)
	}
	for _, w := range english {
		if strings.Contains(m.Subject+m.Body, w) {
			t.Errorf("the mail holds the English %q:\n%s\n%s", w, m.Subject, m.Body)
		}
	}

	text := rawFeed(t, feed)
	if !regexp.MustCompile(`<feed [^>]*xml:lang="fr"`).MatchString(text) {
		t.Errorf("the feed has no xml:lang=\"fr\":\n%s", text)
	}
	for _, want := range []string{"<title>Trench\u00a0: les parties de fra</title>", "À vous de jouer\u00a0: TRENCH · Partie officielle unique (jusqu&#39;à 50) contre ann"} {
		if !strings.Contains(text, want) {
			t.Errorf("the feed lacks %q:\n%s", want, text)
		}
	}
	for _, w := range english {
		if strings.Contains(text, w) {
			t.Errorf("the feed holds the English %q:\n%s", w, text)
		}
	}

	// Signed in again from a German browser: the feed follows.
	deu := s.newClient(t).speaks("de-DE,de;q=0.9")
	if status := deu.SignIn("fra", "correct horse"); status != http.StatusOK {
		t.Fatalf("sign-in: %d", status)
	}
	text = rawFeed(t, feed)
	if !regexp.MustCompile(`<feed [^>]*xml:lang="de"`).MatchString(text) || !strings.Contains(text, "gegen ann") {
		t.Errorf("after a sign-in from a German browser the feed is not in German:\n%s", text)
	}
}
