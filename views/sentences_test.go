package views

import (
	"context"
	"testing"

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
