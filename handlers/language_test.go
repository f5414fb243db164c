package handlers_test

import (
	"net/url"
	"testing"
)

// TestLanguageFromBrowserCookieAndAccount: a visitor's pages follow the
// browser's Accept-Language; the footer's menu overrides it (a cookie,
// without JavaScript); a player's choice is kept in the account and
// follows them to another browser; "the browser's" choice goes back to
// Accept-Language.
func TestLanguageFromBrowserCookieAndAccount(t *testing.T) {
	s := startServer(t, "", nil)
	v := s.newClient(t)
	v.AcceptLanguage = "fr-CA,fr;q=0.9,en;q=0.5"
	doc := v.Get("/")
	if lang, _ := doc.Find("html").Attr("lang"); lang != "fr" {
		t.Fatalf("a French browser gets lang=%q, want fr", lang)
	}
	if got := doc.Find("nav.top a[href='/rules']").Text(); got != "Règles" {
		t.Fatalf("the French navigation says %q, want Règles", got)
	}
	if v.Header.Get("Content-Language") != "fr" {
		t.Fatalf("Content-Language = %q, want fr", v.Header.Get("Content-Language"))
	}

	// The footer's menu: German for this visitor, whatever the browser says.
	doc = v.Submit(doc.Find("#language-form"), url.Values{"lang": {"de"}})
	if lang, _ := doc.Find("html").Attr("lang"); lang != "de" {
		t.Fatalf("after choosing Deutsch the page has lang=%q", lang)
	}
	if got := doc.Find("nav.top a[href='/rules']").Text(); got != "Regeln" {
		t.Fatalf("the German navigation says %q, want Regeln", got)
	}
	if v.URL != s.URL+"/" {
		t.Fatalf("the menu went to %s, want back to the page it was on", v.URL)
	}
	if sel := doc.Find("#language-select option[selected]").AttrOr("value", ""); sel != "de" {
		t.Fatalf("the menu shows %q chosen, want de", sel)
	}

	// A player's choice lives in the account.
	p := s.newClient(t)
	p.SignUp("amelie")
	p.AcceptLanguage = "en"
	doc = p.Get("/rules")
	doc = p.Submit(doc.Find("#language-form"), url.Values{"lang": {"pt"}})
	if got := doc.Find("nav.top a[href='/settings']").Text(); got != "Definições" {
		t.Fatalf("the Portuguese navigation says %q", got)
	}
	if p.URL != s.URL+"/rules" {
		t.Fatalf("the menu went to %s, want /rules", p.URL)
	}
	other := s.newClient(t)
	other.AcceptLanguage = "es"
	if other.SignIn("amelie", "correct horse") != 200 {
		t.Fatal("sign-in failed")
	}
	if lang, _ := other.Get("/").Find("html").Attr("lang"); lang != "pt" {
		t.Fatalf("on another browser the player's pages have lang=%q, want their choice pt", lang)
	}

	// Back to the browser's language.
	doc = other.Submit(other.Last.Find("#language-form"), url.Values{"lang": {""}})
	if lang, _ := doc.Find("html").Attr("lang"); lang != "es" {
		t.Fatalf("after choosing the browser's language the page has lang=%q, want es", lang)
	}

	// A code the site does not have changes nothing.
	v.Post("/language", url.Values{"lang": {"xx"}, "back": {"/"}})
	v.wantStatus(400)
	if lang, _ := v.Get("/").Find("html").Attr("lang"); lang != "de" {
		t.Fatalf("after a refused code the page has lang=%q, want de still", lang)
	}
}
