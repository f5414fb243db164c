package handlers_test

import (
	"strings"
	"testing"
)

func TestCardRulesPageStatesRepetition(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	doc := c.Get("/rules/cards")
	if got := doc.Find("#rule-repetition").Text(); !strings.Contains(got, "third time") || !strings.Contains(got, "draw") {
		t.Errorf("the card game's rules page says nothing of repetition: %q", got)
	}
}
