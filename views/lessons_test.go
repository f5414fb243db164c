package views

import (
	"testing"

	"github.com/trench-games/trench/rules/lessons"
)

// TestLessonTextsInEveryCatalogue: every text of every lesson step (and
// each course's title and introduction) is a message of all five
// catalogues.
func TestLessonTextsInEveryCatalogue(t *testing.T) {
	if err := CatalogueError(); err != nil {
		t.Fatal(err)
	}
	texts := lessons.Texts()
	if len(texts) < 40 {
		t.Fatalf("only %d lesson texts", len(texts))
	}
	for _, l := range Languages {
		c := catalogues[l.Code]
		for _, id := range texts {
			if _, ok := c.seen[id]; !ok {
				t.Errorf("%s: %q is not in locales/%s.toml", l.Code, id, l.Code)
			}
		}
	}
}
