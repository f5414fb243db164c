package handlers_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
)

// TestBrowserAxeCardStates runs axe-core on states of the card table that
// a plain visit does not reach: after an opening flip that tied (the
// flips listed with "then" between them), in the dark theme and the
// light, and with an action chosen (?sel=shift: the cards to choose are
// buttons and links named in words).
func TestBrowserAxeCardStates(t *testing.T) {
	needChromium(t)
	src, err := os.ReadFile("testdata/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	b.signUp("carol")
	bob := s.newClient(t)
	bob.SignUp("bob")
	ctx := context.Background()
	carol, _ := s.DB.UserByName(ctx, "carol")
	bobU, _ := s.DB.UserByName(ctx, "bob")
	var id int64
	for seed := int64(1); seed < 500 && id == 0; seed++ {
		ch, err := s.DB.CreateChallenge(ctx, db.NewChallenge{CreatorID: carol.ID, Game: "cards", Variant: "short", Color: "0", DaysPerMove: 3}, s.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		gid, err := s.DB.AcceptChallenge(ctx, ch.ID, bobU.ID, seed, s.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		g, err := s.DB.Game(ctx, gid)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := g.Decode()
		if v := st.View(rules.Side0).(cards.View); len(v.Flips) > 1 && v.ToMove == rules.Side0 {
			id = gid
		}
	}
	if id == 0 {
		t.Fatal("no deal with a tied opening flip that carol starts")
	}
	for _, theme := range []string{"dark", "light"} {
		if err := s.DB.SetTheme(ctx, carol.ID, theme); err != nil {
			t.Fatal(err)
		}
		b.colourScheme(theme)
		for _, path := range []string{fmt.Sprintf("/games/%d", id), fmt.Sprintf("/games/%d?sel=shift", id)} {
			b.open(path)
			if b.count("#cards-flips .cards-sep") == 0 {
				t.Fatalf("%s shows no tied flip", path)
			}
			b.axeCheck(fmt.Sprintf("card table (%s, %s)", path, theme), src)
		}
	}
}
