package views

import (
	"context"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// TestEveryRefusalIsInTheCatalogues: each refusal the games' rules give
// has its sentence in the English catalogue (and so in every one), and
// reads in another language with its values and terms in place.
func TestEveryRefusalIsInTheCatalogues(t *testing.T) {
	if err := CatalogueError(); err != nil {
		t.Fatal(err)
	}
	codes := rules.RefusalCodes()
	if len(codes) < 30 {
		t.Fatalf("only %d refusal codes", len(codes))
	}
	for _, code := range codes {
		text := rules.RefusalText(code)
		if _, ok := catalogues["en"].seen[text]; !ok {
			t.Errorf("refusal %s: %q is not in locales/en.toml", code, text)
		}
	}
	de := WithLang(context.Background(), "de")
	e := rules.Refuse(rules.ErrIllegal, "trench.not-yours", "e5", rules.Term("White"), rules.Term("Sergeant"), rules.Term("Black"))
	if got, want := Refusal(de, e), "auf e5 steht ein Feldwebel von Weiß, aber Schwarz ist am Zug"; got != want {
		t.Errorf("de: %q, want %q", got, want)
	}
	if got := Refusal(context.Background(), e); !strings.HasPrefix(e.Error(), "illegal move: "+got) {
		t.Errorf("English %q is not the error's %q", got, e.Error())
	}
}
