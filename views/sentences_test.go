package views

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/rules/trench"
)

// TestCaptureLabelsAreWholeSentences: a square's label names the unit a
// move there captures in the grammatical case the language needs after
// "captures" (German: the accusative, with its article).
func TestCaptureLabelsAreWholeSentences(t *testing.T) {
	e5 := trench.NewSquare(4, 4).String()
	one := trenchCell{Name: e5, Target: true, Capture: true,
		Takes: []trenchTaken{{Square: e5, Unit: trench.NewUnit(trench.Soldier, trench.White)}}}
	two := trenchCell{Name: "g6", Target: true, Capture: true,
		Takes: []trenchTaken{{Square: "f5", Unit: trench.NewUnit(trench.Colonel, trench.Black)}, {Square: "g6", Unit: trench.NewUnit(trench.Soldier, trench.Black)}}}
	for _, c := range []struct {
		lang     string
		one, two string
	}{
		{"en", "e5, move here, captures White Soldier", "g6, move here, captures Black Colonel on f5, Black Soldier on g6"},
		{"de", "e5, hierhin ziehen, schlägt den weißen Soldaten", "g6, hierhin ziehen, schlägt den schwarzen Oberst auf f5, den schwarzen Soldaten auf g6"},
		{"fr", "e5, déplacer ici, prend le Soldat blanc", "g6, déplacer ici, prend le Colonel noir en f5, le Soldat noir en g6"},
	} {
		ctx := WithLang(context.Background(), c.lang)
		w := wordsOf(ctx)
		if got := one.Label(ctx, w); got != c.one {
			t.Errorf("%s: %q, want %q", c.lang, got, c.one)
		}
		if got := two.Label(ctx, w); got != c.two {
			t.Errorf("%s: %q, want %q", c.lang, got, c.two)
		}
	}
}

// TestFrenchAndSpanishWording: the first of a month is "1er" in French
// (and only there), the French rating is a "cote" and only the leaderboard
// a "classement", and the Spanish verification mail's link works "en un
// plazo de dos días".
func TestFrenchAndSpanishWording(t *testing.T) {
	first := time.Date(2026, time.December, 1, 9, 30, 0, 0, time.UTC)
	fr, de, es := WithLang(context.Background(), "fr"), WithLang(context.Background(), "de"), WithLang(context.Background(), "es")
	for _, c := range []struct{ got, want string }{
		{Date(fr, first), "1er décembre 2026"},
		{DateTime(fr, first), "1er décembre 2026 à 09:30 UTC"},
		{Date(fr, first.AddDate(0, 0, 1)), "2 décembre 2026"},
		{Date(de, first), "1. Dezember 2026"},
		{Date(context.Background(), first), "1 December 2026"},
		{Date(fr, first.Add(14*time.Hour)), "1er décembre 2026"},
		{Date(fr, first.Add(15*time.Hour)), "2 décembre 2026"},
		{Date(de, first.Add(14*time.Hour).In(time.FixedZone("UTC+12", 12*3600))), "1. Dezember 2026"},
		{T(fr, "Rating"), "Cote Elo"},
		{T(fr, "Leaderboard"), "Classement"},
		{T(fr, "unrated"), "sans cote"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	for _, id := range []string{"Rating", "Ratings", "unrated", "%s rating history: %s", "Rated: the games change both players' ratings"} {
		if s := T(fr, id); strings.Contains(strings.ToLower(s), "classement") {
			t.Errorf("fr %q reads %q: a rating is a cote, not a classement", id, s)
		}
	}
	if s := T(es, "to confirm that %s is your address on %s, open this link within two days:"); !strings.Contains(s, "en un plazo de dos días") {
		t.Errorf("es verification mail: %q", s)
	}
}

// TestPortugueseIsEuropean: the Portuguese catalogue writes European
// Portuguese: "Registar", "Guardar", "Definições", "palavra-passe",
// "está a procurar", never the Brazilian forms.
func TestPortugueseIsEuropean(t *testing.T) {
	if err := CatalogueError(); err != nil {
		t.Fatal(err)
	}
	pt := WithLang(context.Background(), "pt")
	for id, want := range map[string]string{"Sign up": "Registar-se", "Save": "Guardar", "Settings": "Definições", "Password": "Palavra-passe"} {
		if got := T(pt, id); got != want {
			t.Errorf("%q reads %q, want %q", id, got, want)
		}
	}
	brazilian := regexp.MustCompile(`\b(Salvar|salvar|senhas?|Senhas?|[Cc]adastr\w*|Configurações|configurações|[Rr]egistr\w*|usuários?|Baixar|planej\w*|(está|estão|estou|estamos) \w+(ando|endo|indo))\b`)
	for id, m := range catalogues["pt"].seen {
		for _, text := range []string{m.Other, m.One} {
			if w := brazilian.FindString(text); w != "" {
				t.Errorf("pt %q: %q is Brazilian (%q)", id, w, text)
			}
		}
	}
}
