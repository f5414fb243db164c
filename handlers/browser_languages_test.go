package handlers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserLanguages: with JavaScript off, a visitor and a player each
// choose each language of the site in the footer's menu; the start page,
// the rules and (for the player) the settings page then say so in their
// lang attribute (for screen readers and spelling) and in the words of
// the navigation bar, the footer and the page; and every other kind of
// page (the challenge form, each game mid-game and finished, the review,
// archive, profile, rules, leaderboard, players, tournaments) is in the
// chosen language, with no English word left.
func TestBrowserLanguages(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	visitor := newTabWithin(t, s, false, 4*time.Minute)
	player := newTabWithin(t, s, false, 6*time.Minute)
	player.signUp("alice")
	bob := s.newClient(t)
	bob.SignUp("bob")
	// Every other kind of page, read by the player in each language.
	pages := []string{"/challenges/new", "/archive", "/players/bob", "/rules/trench", "/rules/trenches",
		"/rules/cards", "/leaderboard/trench", "/players", "/tournaments"}
	pages = append(pages, gamePagesOfEveryKind(t, s)...)

	// The words a person reads in each language: the navigation bar's
	// links, the footer's label and button, and the settings page's
	// heading for this choice.
	words := []struct {
		lang, rules, signIn, settings, label, button, heading string
	}{
		{"en", "Rules", "Sign in", "Settings", "Language", "Change language", "Language and colours"},
		{"fr", "Règles", "Se connecter", "Paramètres", "Langue", "Changer de langue", "Langue et couleurs"},
		{"pt", "Regras", "Entrar", "Definições", "Idioma", "Mudar de idioma", "Idioma e cores"},
		{"es", "Reglas", "Iniciar sesión", "Ajustes", "Idioma", "Cambiar de idioma", "Idioma y colores"},
		{"de", "Regeln", "Anmelden", "Einstellungen", "Sprache", "Sprache wechseln", "Sprache und Farben"},
	}
	// Begin in another language than the first one chosen.
	for _, b := range []*tab{visitor, player} {
		b.open("/")
		b.do("choose Deutsch", chromedp.SetValue(chromedp.CSS("#language-select"), "de"))
		b.clickAndLoad(`#language-form button[type="submit"]`)
	}
	check := func(b *tab, who, path string, w struct {
		lang, rules, signIn, settings, label, button, heading string
	}) {
		t.Helper()
		if got := b.attr("html", "lang"); got != w.lang {
			t.Errorf("%s, %s in %s: html lang=%q", who, path, w.lang, got)
		}
		nav := b.text("nav.top")
		if !strings.Contains(nav, w.rules) {
			t.Errorf("%s, %s in %s: the navigation bar %q lacks %q", who, path, w.lang, nav, w.rules)
		}
		if b == visitor && !strings.Contains(nav, w.signIn) {
			t.Errorf("%s, %s in %s: the navigation bar %q lacks %q", who, path, w.lang, nav, w.signIn)
		}
		if b == player && !strings.Contains(nav, w.settings) {
			t.Errorf("%s, %s in %s: the navigation bar %q lacks %q", who, path, w.lang, nav, w.settings)
		}
		if got := b.text(`label[for="language-select"]`); got != w.label {
			t.Errorf("%s, %s in %s: the footer's menu is labelled %q, want %q", who, path, w.lang, got, w.label)
		}
		if got := b.text(`#language-form button`); got != w.button {
			t.Errorf("%s, %s in %s: the footer's button says %q, want %q", who, path, w.lang, got, w.button)
		}
		if got := b.eval(`document.querySelector("#language-select").selectedOptions[0].value === document.documentElement.lang`); !got {
			t.Errorf("%s, %s in %s: the footer's menu does not show the language of the page", who, path, w.lang)
		}
	}
	for _, w := range words {
		for _, b := range []*tab{visitor, player} {
			who := "the visitor"
			if b == player {
				who = "the player"
			}
			b.open("/")
			b.do("choose "+w.lang, chromedp.SetValue(chromedp.CSS("#language-select"), w.lang))
			b.clickAndLoad(`#language-form button[type="submit"]`)
			if loc := b.location(); loc != "/" {
				t.Errorf("%s chose %s and is at %s, want back on the start page", who, w.lang, loc)
			}
			check(b, who, "/", w)
			b.open("/rules")
			check(b, who, "/rules", w)
		}
		player.open("/settings")
		check(player, "the player", "/settings", w)
		if got := player.text("#appearance h2"); got != w.heading {
			t.Errorf("the settings page in %s has the heading %q, want %q", w.lang, got, w.heading)
		}
		if got := player.attr(`#settings-language option[selected]`, "value"); got != w.lang {
			t.Errorf("the settings page in %s shows %q as the chosen language", w.lang, got)
		}
		for _, path := range pages {
			player.open(path)
			if got := player.attr("html", "lang"); got != w.lang {
				t.Errorf("%s in %s: html lang=%q", path, w.lang, got)
			}
			if w.lang == "en" {
				continue
			}
			// What the page shows and names, without notation, code and
			// the players' names.
			text, err := chromedp.Run(player.ctx, chromedp.Evaluate[string](`(() => {
				const body = document.body.cloneNode(true);
				body.querySelectorAll("script, style, code, [lang], .notation, [hidden]").forEach(e => e.remove());
				let text = body.textContent;
				document.querySelectorAll("[aria-label], [title], [placeholder], [alt]").forEach(e => {
					for (const a of ["aria-label", "title", "placeholder", "alt"]) {
						if (e.hasAttribute(a)) text += " " + e.getAttribute(a);
					}
				});
				return text.replaceAll("alice", "").replaceAll("bob", "").split(/\s+/).join(" ");
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if loc := englishWords.FindStringIndex(text); loc != nil {
				from, to := max(loc[0]-40, 0), min(loc[1]+40, len(text))
				t.Errorf("%s in %s: English left: …%s…", path, w.lang, text[from:to])
			}
		}
	}
}
