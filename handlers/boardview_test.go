package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Following a link never changes a stored preference: the board view is
// stored by its form (POST) only.
func TestBoardViewStoredOnlyByItsForm(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "bga", "0")
	page := fmt.Sprintf("/games/%d", id)
	stored := func() string {
		u, err := s.DB.UserByName(t.Context(), "alice")
		if err != nil {
			t.Fatal(err)
		}
		return u.BoardView
	}
	a.Get(page + "?view=square")
	a.wantStatus(http.StatusOK)
	a.Get("/games/999999?view=square")
	a.wantStatus(http.StatusNotFound)
	if got := stored(); got != "diamond" {
		t.Fatalf("a GET stored the board view %q", got)
	}
	// The form stores it and shows the game with it.
	for _, htmx := range []bool{false, true} {
		a.HTMX = htmx
		a.Get(page)
		want := "square"
		if stored() == "square" {
			want = "diamond"
		}
		a.Submit(a.Last.Find("#board-toggle-form"), nil)
		a.wantStatus(http.StatusOK)
		if got := stored(); got != want {
			t.Fatalf("htmx %v: stored %q after the form, want %q", htmx, got, want)
		}
		a.HTMX = false
		a.Get(page)
		other := map[string]string{"square": "diamond", "diamond": "square"}[want]
		if v, _ := a.Last.Find(`#board-toggle-form input[name="view"]`).Attr("value"); v != other {
			t.Fatalf("after choosing %s the page offers %q", want, v)
		}
	}
	// A visitor's choice lives in their cookie.
	v := s.newClient(t)
	v.Get(page)
	v.Submit(v.Last.Find("#board-toggle-form"), nil)
	v.wantStatus(http.StatusOK)
	v.Get(page)
	if !strings.Contains(v.text("#board-toggle"), "diamond") {
		t.Fatalf("the visitor's view was not kept: %q", v.text("#board-toggle"))
	}
}
