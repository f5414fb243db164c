package handlers_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestBrowserCrosstableAndMoveMarksHaveNames: a screen reader names each
// link of a tournament's crosstable by its players and its state ("alice
// against bob: being played"), not "…", and each mark of the move list by
// the mover's side, not "black circle".
func TestBrowserCrosstableAndMoveMarksHaveNames(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	bob, id := browserGame(t, s, b)
	carol := s.newClient(t)
	carol.SignIn("carol", "correct horse")
	clickMove(t, carol, id, func(int) int { return 0 })
	clickMove(t, bob, id, func(int) int { return 0 })
	b.open(fmt.Sprintf("/games/%d", id))
	marks := b.axNames("image")
	if !slices.Contains(marks, "White") || !slices.Contains(marks, "Black") {
		t.Errorf("the move list's marks are named %q, want the sides", marks)
	}

	page := organise(t, bob, url.Values{"name": {"Spring cup"}, "game": {"trench:single"}, "format": {"roundrobin"},
		"min": {"3"}, "max": {"4"}, "days": {"3"}, "starts": {""}})
	dan := s.newClient(t)
	dan.SignUp("dan")
	for _, c := range []*client{bob, dan, carol} {
		tournamentAct(t, c, page, "join")
	}
	tournamentAct(t, bob, page, "start")
	b.open(page)
	if n := b.count("#crosstable tbody a"); n == 0 {
		t.Fatal("the crosstable links no game")
	}
	var named int
	for _, name := range b.axNames("link") {
		if strings.Trim(name, "…½01 ") == "" {
			t.Errorf("a link is named %q", name)
		}
		if strings.Contains(name, " against ") && strings.Contains(name, "being played") {
			named++
		}
	}
	if named == 0 {
		t.Error("no crosstable link says whom its game is between")
	}
}
