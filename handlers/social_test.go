package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"
)

// ratedChallenge makes a rated challenge from a to b through the form's
// fields and has b accept it from the dashboard; it returns the game id.
func ratedChallenge(t *testing.T, a, b *client, game, variant, color string) int64 {
	t.Helper()
	a.Get("/challenges/new?game=" + game)
	a.wantStatus(http.StatusOK)
	if _, checked := a.Last.Find(`input[name="rated"]`).Attr("checked"); !checked {
		t.Fatal("the challenge form's Rated box is not checked by default")
	}
	a.Post("/challenges", url.Values{"game": {game}, "variant": {variant}, "color": {color}, "days": {"3"}, "opponent": {b.Name}, "rated": {"on"}})
	a.wantStatus(http.StatusOK)
	b.Get("/")
	row := b.Last.Find("#open-challenges tr[data-challenge]").First()
	if !strings.Contains(row.Text(), "rated") {
		t.Fatalf("the rated challenge is not shown as rated: %q", row.Text())
	}
	id, _ := row.Attr("data-challenge")
	b.Post("/challenges/"+id+"/accept", nil)
	b.wantStatus(http.StatusOK)
	return gameIDOf(t, b.URL)
}

// profileRating returns the rating in game on name's profile (0 when none
// is shown).
func profileRating(t *testing.T, c *client, name, game string) int {
	t.Helper()
	c.Get("/players/" + name)
	c.wantStatus(http.StatusOK)
	v, ok := c.Last.Find(`#ratings tr[data-game="` + game + `"] td.rating`).Attr("data-rating")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRatedGameChangesRatings(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := ratedChallenge(t, a, b, "trench", "single", "0")
	a.Get(fmt.Sprintf("/games/%d", id))
	if got := a.text("#rated"); got != "Rated game" {
		t.Fatalf("the game page says %q", got)
	}
	if got := a.Last.Find(".player .rating").Length(); got != 2 || a.text(".player .rating") != "1500?" {
		t.Fatalf("%d ratings next to the names, first %q; want two, 1500? (provisional)", got, a.text(".player .rating"))
	}
	if profileRating(t, a, "alice", "trench") != 0 || a.Last.Find("#no-ratings").Length() != 1 {
		t.Fatal("a new player's profile shows a rating")
	}
	resign(t, b, id) // alice wins
	winner, loser := profileRating(t, b, "alice", "trench"), profileRating(t, a, "bob", "trench")
	if winner <= 1500 || loser >= 1500 || winner <= loser {
		t.Fatalf("after alice beat bob: alice %d, bob %d", winner, loser)
	}
	if winner != 1662 || loser != 1338 {
		t.Errorf("two new players: alice %d, bob %d; want 1662 and 1338", winner, loser)
	}
	// The game page shows the change next to each name, and so does the
	// archive.
	a.Get(fmt.Sprintf("/games/%d", id))
	var texts []string
	a.Last.Find(".player .rating").Each(func(_ int, sel *goquery.Selection) { texts = append(texts, sel.Text()) })
	joined := strings.Join(texts, " | ")
	if !strings.Contains(joined, "1662? (+162)") || !strings.Contains(joined, "1338? (−162)") {
		t.Fatalf("ratings on the finished game's page: %q", joined)
	}
	a.Get("/archive")
	if got := a.Last.Find("#archive .rating").Length(); got != 2 {
		t.Fatalf("%d ratings in the archive row, want 2", got)
	}

	// An unrated game changes nothing.
	id2 := challenge(t, a, b, "trench", "single", "0")
	a.Get(fmt.Sprintf("/games/%d", id2))
	if got := a.text("#rated"); !strings.HasPrefix(got, "Casual") {
		t.Fatalf("the unrated game's page says %q", got)
	}
	resign(t, a, id2)
	if w, l := profileRating(t, a, "alice", "trench"), profileRating(t, a, "bob", "trench"); w != winner || l != loser {
		t.Fatalf("an unrated game changed the ratings: alice %d → %d, bob %d → %d", winner, w, loser, l)
	}
	// Other games keep their own ratings.
	if profileRating(t, a, "alice", "trenches") != 0 {
		t.Fatal("alice has a Trenches rating without playing it")
	}
}

// findForm returns the form of the last page whose action ends with
// suffix.
func findForm(t *testing.T, c *client, suffix string) *client {
	t.Helper()
	if c.Last.Find(`form[action$="`+suffix+`"]`).Length() == 0 {
		html, _ := c.Last.Find("#social").Html()
		t.Fatalf("%s has no %s form: %.1200s", c.Name, suffix, html)
	}
	return c
}

func submitForm(t *testing.T, c *client, suffix string) {
	t.Helper()
	findForm(t, c, suffix)
	c.Submit(c.Last.Find(`form[action$="`+suffix+`"]`).First(), nil)
}

func TestRematch(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	carol := s.newClient(t)
	carol.SignUp("carol")
	id := ratedChallenge(t, a, b, "trench", "bga", "0") // alice plays Black (side 0)
	page := fmt.Sprintf("/games/%d", id)
	a.Get(page)
	if a.Last.Find("#rematch").Length() != 0 {
		t.Fatal("a rematch is offered while the game goes on")
	}
	resign(t, a, id)

	b.Get(page)
	submitForm(t, b, "/rematch/offer")
	b.wantStatus(http.StatusOK)
	if got := b.text("#rematch-state"); !strings.HasPrefix(got, "You offered a rematch") {
		t.Fatalf("bob sees %q after offering", got)
	}
	a.Get(page)
	if got := a.text("#rematch-state"); !strings.HasPrefix(got, "bob offers a rematch") || !strings.Contains(got, "you would play White") || !strings.Contains(got, "rated") {
		t.Fatalf("alice sees %q", got)
	}
	findForm(t, a, "/rematch/decline")
	// Spectators see neither the offer nor the messages, and cannot answer.
	carol.Get(page)
	if carol.Last.Find("#rematch, #social-live, #message-form").Length() != 0 {
		t.Fatal("a spectator sees the rematch offer or the messages")
	}
	carol.Post(page+"/rematch/accept", nil)
	carol.wantStatus(http.StatusForbidden)
	// Offering twice is refused with the page and a reason.
	b.Post(page+"/rematch/offer", nil)
	b.wantStatus(http.StatusConflict)
	b.Post(page+"/rematch/accept", nil)
	b.wantStatus(http.StatusForbidden)

	submitForm(t, a, "/rematch/accept")
	a.wantStatus(http.StatusOK)
	newID := gameIDOf(t, a.URL)
	if newID == id {
		t.Fatal("accepting the rematch did not open a new game")
	}
	old, _ := s.DB.Game(context.Background(), id)
	ng, err := s.DB.Game(context.Background(), newID)
	if err != nil {
		t.Fatal(err)
	}
	if ng.Side[0].Name != "bob" || ng.Side[1].Name != "alice" {
		t.Fatalf("rematch: %s (side 0) v %s, want the colours swapped", ng.Side[0].Name, ng.Side[1].Name)
	}
	if ng.Game != old.Game || ng.MatchVariant != old.MatchVariant || ng.DaysPerMove != old.DaysPerMove || ng.Clock != old.Clock {
		t.Fatalf("rematch %s/%s %d days, want %s/%s %d days", ng.Game, ng.MatchVariant, ng.DaysPerMove, old.Game, old.MatchVariant, old.DaysPerMove)
	}
	if got := a.text("#rated"); got != "Rated game" {
		t.Fatalf("the rematch of a rated game is %q", got)
	}
	b.Get(page)
	if href, _ := b.Last.Find("#rematch-game").Attr("href"); href == "" {
		t.Fatal("the finished game does not link to its rematch")
	} else if b.Get(href); gameIDOf(t, b.URL) != newID {
		t.Fatalf("the rematch link leads to %s", b.URL)
	}

	// Decline: the rematch ends, alice offers, bob declines.
	resign(t, b, newID)
	page2 := fmt.Sprintf("/games/%d", newID)
	a.Get(page2)
	submitForm(t, a, "/rematch/offer")
	b.Get(page2)
	submitForm(t, b, "/rematch/decline")
	b.wantStatus(http.StatusOK)
	if got := b.text("#rematch-state"); got != "You declined alice's rematch offer." {
		t.Fatalf("bob sees %q after declining", got)
	}
	a.Get(page2)
	if got := a.text("#rematch-state"); got != "bob declined your rematch offer." {
		t.Fatalf("alice sees %q", got)
	}
	findForm(t, a, "/rematch/offer") // and may offer again
	b.Post(page2+"/rematch/decline", nil)
	b.wantStatus(http.StatusConflict)
	a.Post(page2+"/rematch/dance", nil)
	a.wantStatus(http.StatusNotFound)
}

func TestMessages(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	carol := s.newClient(t)
	carol.SignUp("carol")
	id := challenge(t, a, b, "trench", "single", "0") // alice (Black) moves first
	page := fmt.Sprintf("/games/%d", id)

	// bob, who waits, has the message form of his own.
	b.Get(page)
	if b.Last.Find("#no-messages").Length() != 1 {
		t.Fatal("no empty thread on bob's page")
	}
	b.Submit(b.Last.Find("#message-form"), url.Values{"message": {"  <b>good luck</b>, alice  "}})
	b.wantStatus(http.StatusOK)
	if got := b.text("#message-list .body"); got != "<b>good luck</b>, alice" {
		t.Fatalf("bob's page shows %q", got)
	}
	if b.Last.Find("#message-list .body b").Length() != 0 {
		t.Fatal("a message's markup was not escaped")
	}
	for _, bad := range []string{"", "   \n ", strings.Repeat("x", 501)} {
		b.Get(page)
		b.Submit(b.Last.Find("#message-form"), url.Values{"message": {bad}})
		b.wantStatus(http.StatusBadRequest)
		if b.Last.Find("#game-message").Length() != 1 {
			t.Fatal("a refused message gives no reason on the page")
		}
	}
	b.Get(page)
	b.Submit(b.Last.Find("#message-form"), url.Values{"message": {"second line\nthird"}})
	b.wantStatus(http.StatusOK)

	// alice's dashboard counts them; opening the game reads them.
	a.Get("/")
	if got := strings.TrimSpace(a.Last.Find(fmt.Sprintf(`#unread-messages li[data-game="%d"] .unread-count`, id)).Text()); got != "2 new messages" {
		t.Fatalf("alice's dashboard says %q", got)
	}
	a.Get(page)
	if got := a.Last.Find("#message-list li.new").Length(); got != 2 {
		t.Fatalf("%d new messages marked on alice's page, want 2", got)
	}
	if got := a.Last.Find("#message-list .body br").Length(); got != 1 {
		t.Fatalf("a two-line message has %d line breaks", got)
	}
	a.Get("/")
	if a.Last.Find("#unread-messages").Length() != 0 {
		t.Fatal("the messages are still new after alice opened the game")
	}
	b.Get("/")
	if b.Last.Find("#unread-messages").Length() != 0 {
		t.Fatal("bob's own messages count as new for him")
	}

	// Nobody else reads or writes the thread.
	carol.Get(page)
	carol.wantStatus(http.StatusOK)
	if html, _ := carol.Last.Html(); strings.Contains(html, "good luck") || carol.Last.Find("#message-form").Length() != 0 {
		t.Fatal("a spectator sees the messages or the message form")
	}
	carol.Post(page+"/messages", url.Values{"message": {"hi"}})
	carol.wantStatus(http.StatusForbidden)
	carol.Get(page + "/social")
	carol.wantStatus(http.StatusForbidden)
	b.PostRaw(page+"/messages", url.Values{"message": {"no token"}})
	b.wantStatus(http.StatusForbidden)
	visitor := s.newClient(t)
	visitor.Get(page)
	visitor.Post(page+"/messages", url.Values{"message": {"hi"}})
	visitor.wantStatus(http.StatusUnauthorized)

	// alice is to move: her message field belongs to the board's form and
	// goes with her move.
	a.Get(page)
	if a.Last.Find(`textarea[name="message"][form="board"]`).Length() != 1 {
		t.Fatal("the mover's message field is not part of the move form")
	}
	if fa, _ := a.Last.Find(`#send-message[form="board"]`).Attr("formaction"); fa != page+"/messages" {
		t.Fatalf("the send-now button posts to %q", fa)
	}
	// Send it now, without moving (the button's formaction).
	a.Submit(a.Last.Find("#board").SetAttr("action", page+"/messages"), url.Values{"message": {"thinking…"}})
	a.wantStatus(http.StatusOK)
	g, _ := s.DB.Game(context.Background(), id)
	if g.Ply != 0 {
		t.Fatalf("sending a message moved (ply %d)", g.Ply)
	}
	// With a move, through htmx.
	a.HTMX = true
	a.Get(page)
	st, _ := g.Decode()
	move := st.Legal(g.ToMove)[0]
	a.Submit(a.Last.Find("#board"), url.Values{"move": {move}, "message": {"your move, bob"}})
	a.wantStatus(http.StatusOK)
	if g, _ = s.DB.Game(context.Background(), id); g.Ply != 1 || g.LastMove != move {
		t.Fatalf("the move with a message was not played: ply %d, last %q", g.Ply, g.LastMove)
	}
	if a.Last.Find("#game").Length() != 1 || !strings.Contains(a.Last.Find("#message-list").Text(), "your move, bob") {
		t.Fatal("the htmx answer to the move does not show the message")
	}

	// bob's open page learns of the new messages by its refresh.
	b.Get(page)
	poll, _ := b.Last.Find("#social-live").Attr("hx-get")
	b.Get(poll)
	b.wantStatus(http.StatusNoContent)
	a.HTMX = false
	a.Get(page)
	a.Submit(a.Last.Find("#message-form"), url.Values{"message": {"gg soon"}})
	b.Get(poll)
	b.wantStatus(http.StatusOK)
	if !strings.Contains(b.Last.Find("#social-live").Text(), "gg soon") {
		t.Fatal("the refresh does not bring the new message")
	}
	msgs := b.Last.Find("#message-list li")
	if msgs.Length() != 5 {
		t.Fatalf("%d messages in the thread, want 5", msgs.Length())
	}
}

// threadOf returns the text of game id's thread as bob's page shows it.
func threadOf(t *testing.T, bob *client, id int64) string {
	t.Helper()
	bob.Get(fmt.Sprintf("/games/%d", id))
	bob.wantStatus(http.StatusOK)
	return bob.Last.Find("#message-list").Text()
}

// TestBrowserMessageWithMove sends messages from a real browser: typed in
// the message field, a message goes with the next move (with JavaScript
// on, what is typed survives selecting the unit); the "send it now"
// button sends it without moving. With JavaScript off the same works as
// plain form submissions.
func TestBrowserMessageWithMove(t *testing.T) {
	needChromium(t)
	for _, script := range []bool{true, false} {
		t.Run(map[bool]string{true: "htmx", false: "plain"}[script], func(t *testing.T) {
			s := startServer(t, "", nil)
			b := newTab(t, s, script)
			bob, id := browserGame(t, s, b) // carol moves first
			field := `textarea[name="message"]`
			typeIn := func(text string) {
				b.within(10*time.Second, "type a message", chromedp.SendKeys(chromedp.CSS(field), text))
			}
			unit := b.attr(`#board a[data-click]`, "data-click")
			unitSel := fmt.Sprintf(`#board a[data-click=%q]`, unit)
			if script {
				b.waitUntil(5*time.Second, "htmx loads", `typeof window.htmx === "object"`)
				typeIn("hello from carol")
				b.do("select "+unit, chromedp.Click(chromedp.CSS(unitSel)))
				b.waitUntil(10*time.Second, "destinations appear", `document.querySelector('#board button[name="move"]') !== null`)
				if !b.eval(`document.querySelector('textarea[name="message"]').value === "hello from carol"`) {
					t.Fatal("selecting a unit lost the message being typed")
				}
			} else {
				b.clickAndLoad(unitSel)
				typeIn("hello from carol")
			}
			move := b.attr(`#board button[name="move"]`, "value")
			dest := fmt.Sprintf(`#board button[name="move"][data-click=%q]`, b.attr(`#board button[name="move"]`, "data-click"))
			if script {
				b.do("move", chromedp.Click(chromedp.CSS(dest)))
				b.waitUntil(10*time.Second, "the move is shown", `document.querySelector('#game').dataset.ply === "1"`)
			} else {
				b.clickAndLoad(dest)
			}
			wantPly(t, s, id, 1, move)
			if got := threadOf(t, bob, id); !strings.Contains(got, "hello from carol") {
				t.Fatalf("bob's thread after carol's move: %q", got)
			}

			reply := clickMove(t, bob, id, func(int) int { return 0 })
			wantPly(t, s, id, 2, reply)
			if script {
				b.waitUntil(10*time.Second, "the reply is shown", `document.querySelector('#game').dataset.ply === "2"`)
			} else {
				b.open(fmt.Sprintf("/games/%d", id))
			}
			typeIn("just a word")
			if script {
				b.do("send now", chromedp.Click(chromedp.CSS("#send-message")))
				b.waitUntil(10*time.Second, "the message is shown", `(document.querySelector('#message-list') || {textContent: ""}).textContent.includes("just a word")`)
				if !b.eval(`document.querySelector('textarea[name="message"]').value === ""`) {
					t.Fatal("the message field still holds the message sent")
				}
			} else {
				b.clickAndLoad("#send-message")
				if !strings.Contains(b.text("#message-list"), "just a word") {
					t.Fatalf("after sending, the thread shows %q", b.text("#message-list"))
				}
			}
			wantPly(t, s, id, 2, reply)
			if got := threadOf(t, bob, id); !strings.Contains(got, "just a word") {
				t.Fatalf("bob's thread: %q", got)
			}
		})
	}
}

// TestRatingDeviationGrowsWhileAway: 100 days after their only rated game
// the profile and the next game's page show each player's RD widened from
// 290 to 294 (21.436 Glicko-2 rating periods without games, worked out in
// db's TestRDWidensWithoutGames).
func TestRatingDeviationGrowsWhileAway(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	resign(t, b, ratedChallenge(t, a, b, "trench", "single", "0"))
	deviation := func() string {
		a.Get("/players/bob")
		a.wantStatus(http.StatusOK)
		return strings.TrimSpace(a.Last.Find(`#ratings tr[data-game="trench"] td`).Eq(2).Text())
	}
	if got := deviation(); got != "± 290" {
		t.Fatalf("bob's deviation right after the game reads %q, want ± 290", got)
	}
	s.Clock.Advance(100 * 24 * time.Hour)
	if got := deviation(); got != "± 294" {
		t.Fatalf("bob's deviation 100 days later reads %q, want ± 294", got)
	}
	id := ratedChallenge(t, a, b, "trench", "single", "0")
	a.Get(fmt.Sprintf("/games/%d", id))
	var rds []string
	a.Last.Find(".player .rd").Each(func(_ int, sel *goquery.Selection) { rds = append(rds, sel.Text()) })
	if got := strings.Join(rds, " | "); got != "± 294 | ± 294" {
		t.Fatalf("the new game's page shows deviations %q, want ± 294 for both", got)
	}
}
