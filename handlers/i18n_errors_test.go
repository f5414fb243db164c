package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// acceptLanguage sends an Accept-Language header with every request, as
// a browser set to that language does.
type acceptLanguage struct {
	lang string
	next http.RoundTripper
}

func (a acceptLanguage) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Accept-Language", a.lang)
	return a.next.RoundTrip(r)
}

// speaks makes c a browser that asks for pages in lang.
func (c *client) speaks(lang string) *client {
	c.http.Transport = acceptLanguage{lang: lang, next: http.DefaultTransport}
	return c
}

// TestErrorsInTheVisitorsLanguage: a French visitor reads refusals in
// French (page title and message), with the move's notation kept; the
// same refusal reads in English for an English visitor.
func TestErrorsInTheVisitorsLanguage(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := s.newClient(t).speaks("fr-FR,fr;q=0.9,en;q=0.5"), s.newClient(t).speaks("fr")
	a.SignUp("alice")
	b.SignUp("bob")
	id := challenge(t, a, b, "trench", "single", "0") // alice (Black) moves first
	game, move := fmt.Sprintf("/games/%d", id), fmt.Sprintf("/games/%d/move", id)

	// squash collapses the layout's white space (not the no-break spaces
	// of French typography).
	squash := func(s string) string {
		return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\r\n", r) }), " ")
	}
	flash := func(c *client) string { return squash(c.Last.Find(".flash").Text()) }
	title := func(c *client) string { return strings.TrimSpace(c.Last.Find("title").Text()) }

	t.Run("no such page", func(t *testing.T) {
		a.Get("/no/such/page")
		a.wantStatus(http.StatusNotFound)
		if got := title(a); !strings.HasPrefix(got, "Introuvable") {
			t.Errorf("title %q, want it to begin with Introuvable", got)
		}
		if got := flash(a); got != "Cette page n'existe pas." {
			t.Errorf("message %q", got)
		}
		a.Get("/games/999")
		a.wantStatus(http.StatusNotFound)
		if got := flash(a); got != "Cette partie n'existe pas." {
			t.Errorf("message for a missing game %q", got)
		}
	})

	t.Run("illegal move", func(t *testing.T) {
		a.Get(game)
		a.Post(move, url.Values{"ply": {"0"}, "move": {"d4-d7"}})
		a.wantStatus(http.StatusUnprocessableEntity)
		got := flash(a)
		if !strings.HasPrefix(got, "Ce coup n'est pas permis dans cette position\u00a0: ") || !strings.Contains(got, "d7") {
			t.Errorf("message %q, want a French sentence naming d7", got)
		}
		if strings.Contains(got, "illegal move") {
			t.Errorf("message %q keeps the English words of the rules' error", got)
		}
		t.Logf("illegal move: %s", got)
	})

	t.Run("malformed move", func(t *testing.T) {
		a.Get(game)
		a.Post(move, url.Values{"ply": {"0"}, "move": {"d4-zz"}})
		a.wantStatus(http.StatusBadRequest)
		if got := flash(a); !strings.HasPrefix(got, "Cette notation est illisible\u00a0: ") || !strings.Contains(got, "zz") {
			t.Errorf("message %q, want a French sentence naming zz", got)
		} else {
			t.Logf("malformed move: %s", got)
		}
	})

	t.Run("not your turn", func(t *testing.T) {
		b.Get(game)
		b.Post(move, url.Values{"ply": {"0"}, "move": {"e5-e4"}})
		b.wantStatus(http.StatusForbidden)
		if got := flash(b); got != "Ce n'est pas à vous de jouer." {
			t.Errorf("message %q", got)
		}
	})

	t.Run("stale move", func(t *testing.T) {
		a.Get(game)
		a.Post(move, url.Values{"ply": {"3"}, "move": {"d4-d5"}})
		a.wantStatus(http.StatusConflict)
		want := "La partie a avancé depuis la page sur laquelle vous avez agi (demi-coup 3, maintenant 0). Rien n'a été modifié\u00a0; voici la position actuelle."
		if got := squash(a.Last.Find("#game-message").Text()); got != want {
			t.Errorf("message %q, want %q", got, want)
		}
	})

	t.Run("signed out", func(t *testing.T) {
		v := s.newClient(t).speaks("fr")
		v.Get(game)
		v.Post(move, url.Values{"ply": {"0"}, "move": {"d4-d5"}})
		v.wantStatus(http.StatusUnauthorized)
		if got := flash(v); got != "Veuillez d'abord vous connecter." {
			t.Errorf("message %q", got)
		}
		if got := title(v); !strings.HasPrefix(got, "Non autorisé") {
			t.Errorf("title %q", got)
		}
	})

	t.Run("form without its token", func(t *testing.T) {
		a.PostRaw(move, url.Values{"ply": {"0"}, "move": {"d4-d5"}})
		a.wantStatus(http.StatusForbidden)
		if got := flash(a); got != "Ce formulaire a expiré ou ne provient pas de ce site. Rechargez la page et réessayez." {
			t.Errorf("message %q", got)
		}
	})

	t.Run("English visitor", func(t *testing.T) {
		e := s.newClient(t).speaks("en")
		e.Get("/no/such/page")
		if got := flash(e); got != "There is no such page." {
			t.Errorf("message %q", got)
		}
		if got := title(e); !strings.HasPrefix(got, "Not Found") {
			t.Errorf("title %q", got)
		}
	})

	if g, err := s.DB.Game(context.Background(), id); err != nil || g.Ply != 0 {
		t.Fatalf("a refused action changed the game: ply %d, %v", g.Ply, err)
	}
}

// TestErrorTitlesInEveryLanguage: the title of a missing page is in the
// visitor's language.
func TestErrorTitlesInEveryLanguage(t *testing.T) {
	s := startServer(t, "", nil)
	for lang, want := range map[string][2]string{
		"en": {"Not Found", "There is no such page."},
		"fr": {"Introuvable", "Cette page n'existe pas."},
		"pt": {"Não encontrado", "Esta página não existe."},
		"es": {"No encontrado", "Esa página no existe."},
		"de": {"Nicht gefunden", "Diese Seite gibt es nicht."},
	} {
		c := s.newClient(t).speaks(lang)
		c.Get("/nowhere")
		c.wantStatus(http.StatusNotFound)
		if got := strings.TrimSpace(c.Last.Find("h1").Text()); got != want[0] {
			t.Errorf("%s: heading %q, want %q", lang, got, want[0])
		}
		if got := strings.TrimSpace(c.Last.Find(".flash").Text()); got != want[1] {
			t.Errorf("%s: message %q, want %q", lang, got, want[1])
		}
	}
}
