package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestSettingsThemeAndLanguage: the settings page's two small forms (no
// JavaScript needed) change the colour theme every page is drawn in and
// the language of the pages; a theme that does not exist is refused and
// changes nothing, and a visitor cannot set one.
func TestSettingsThemeAndLanguage(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("alice")
	a.Get("/settings")
	a.wantStatus(http.StatusOK)
	if th, ok := a.Last.Find("html").Attr("data-theme"); !ok || th != "" {
		t.Fatalf("a new account's pages have data-theme %q, want none chosen (the system's)", th)
	}
	if v, _ := a.Last.Find(`#theme-form input[name="theme"]:checked`).Attr("value"); v != "system" {
		t.Fatalf("the theme chosen for a new account is %q, want system", v)
	}

	a.Submit(a.Last.Find("#theme-form"), url.Values{"theme": {"dark"}})
	a.wantStatus(http.StatusOK)
	if th, _ := a.Last.Find("html").Attr("data-theme"); th != "dark" {
		t.Fatalf("after choosing the dark theme the page has data-theme %q", th)
	}
	if got := a.text("#appearance .flash.ok"); got != "Your choice was saved." {
		t.Errorf("after saving the theme the page says %q", got)
	}
	if v, _ := a.Last.Find(`#theme-form input[name="theme"]:checked`).Attr("value"); v != "dark" {
		t.Errorf("the theme form shows %q chosen, want dark", v)
	}
	a.Get("/rules")
	if th, _ := a.Last.Find("html").Attr("data-theme"); th != "dark" {
		t.Errorf("another page has data-theme %q, want dark", th)
	}

	a.Get("/settings")
	a.Submit(a.Last.Find("#theme-form"), url.Values{"theme": {"purple"}})
	a.wantStatus(http.StatusBadRequest)
	u, err := s.DB.UserByName(context.Background(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if u.Theme != "dark" {
		t.Errorf("a refused theme left %q stored, want dark", u.Theme)
	}

	a.Get("/settings")
	a.Submit(a.Last.Find("#settings-language-form"), url.Values{"lang": {"de"}})
	a.wantStatus(http.StatusOK)
	if !strings.HasSuffix(strings.SplitN(a.URL, "#", 2)[0], "/settings?language=1") {
		t.Errorf("after choosing a language the browser is at %s, want back on the settings page", a.URL)
	}
	if l, _ := a.Last.Find("html").Attr("lang"); l != "de" {
		t.Fatalf("after choosing Deutsch the page has lang %q", l)
	}
	if got := a.text("#appearance h2"); got != "Sprache und Farben" {
		t.Errorf("the settings page in German has the heading %q", got)
	}
	if got := a.text("#appearance .flash.ok"); got != "Deine Auswahl wurde gespeichert." {
		t.Errorf("after saving the language the page says %q", got)
	}
	if got := a.text(`#settings-language option[selected]`); got != "Deutsch" {
		t.Errorf("the language menu shows %q chosen, want Deutsch", got)
	}
	if got := a.text(`label:has(input[value="dark"])`); got != "Dunkel" {
		t.Errorf("the dark theme is called %q in German", got)
	}
	a.Submit(a.Last.Find("#settings-language-form"), url.Values{"lang": {""}})
	if l, _ := a.Last.Find("html").Attr("lang"); l != "en" {
		t.Errorf("back to the browser's language (none asked) the page has lang %q, want en", l)
	}

	v := s.newClient(t)
	v.Get("/")
	v.Post("/settings/theme", url.Values{"theme": {"dark"}})
	v.wantStatus(http.StatusUnauthorized)
}
