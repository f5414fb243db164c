package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/cards"
	"github.com/trench-games/trench/rules/lessons"
	"github.com/trench-games/trench/views"
)

// clickLessonMove makes move on the step page c shows by clicking the
// board's links one click after the other (st is the position shown).
func clickLessonMove(t *testing.T, c *client, course lessons.Course, n int, before []string, move string) {
	t.Helper()
	a, err := course.Play(n, before)
	if err != nil {
		t.Fatal(err)
	}
	for _, click := range a.Last().Clicks(move) {
		link := c.Last.Find(fmt.Sprintf(`#lesson a[data-click=%q]`, click)).First()
		if link.Length() == 0 {
			html, _ := c.Last.Find("#lesson").Html()
			t.Fatalf("%s %d: no link for the click %q of %q: %.1500s", course.Game, n+1, click, move, html)
		}
		c.Click(link)
		c.wantStatus(http.StatusOK)
	}
}

// TestLessonsEveryStepByClicks plays, on every step of the three courses,
// the goal's moves and a wrong move by clicking the board's links, with
// JavaScript off and on, in English and in French: the right moves say
// "Well done" and lead to the next step (the last to a game against the
// computer), a wrong move says it does not reach the goal and offers to
// try again, a typed move the engine refuses says why; the visitor's
// progress is kept in a cookie.
func TestLessonsEveryStepByClicks(t *testing.T) {
	s := startServer(t, "", nil)
	for _, lang := range []string{"en", "fr"} {
		ctx := views.WithLang(context.Background(), lang)
		for _, htmx := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/htmx=%v", lang, htmx), func(t *testing.T) {
				c := s.newClient(t)
				c.AcceptLanguage = lang
				c.Get("/learn")
				c.wantStatus(http.StatusOK)
				if got := c.Last.Find("#learn-courses > li").Length(); got != 3 {
					t.Fatalf("/learn lists %d courses, want 3", got)
				}
				c.HTMX = htmx
				for _, course := range lessons.Courses() {
					for n, step := range course.Steps {
						page := fmt.Sprintf("/learn/%s/%d", course.Game, n+1)
						sol, ok := course.Solution(n)
						if !ok {
							t.Fatalf("%s: no solution", page)
						}
						// The right moves.
						c.Get(page)
						c.wantStatus(http.StatusOK)
						if got := c.text("#lesson-task"); got != views.T(ctx, step.Task) {
							t.Fatalf("%s: task %q, want %q", page, got, views.T(ctx, step.Task))
						}
						for i, m := range sol {
							clickLessonMove(t, c, course, n, sol[:i], m)
						}
						if c.Last.Find("#lesson-right").Length() != 1 || !strings.Contains(c.text("#lesson-right"), views.T(ctx, "Well done!")) {
							html, _ := c.Last.Html()
							t.Fatalf("%s: after %q no \"Well done\": %.1500s", page, sol, html)
						}
						if htmx && c.Last.Find("html").Length() > 0 && c.Last.Find("nav.top").Length() > 0 {
							t.Fatalf("%s: htmx got a whole page", page)
						}
						next, _ := c.Last.Find("#lesson-next").Attr("href")
						want := fmt.Sprintf("/learn/%s/%d", course.Game, n+2)
						if n == len(course.Steps)-1 {
							want = "/learn/" + course.Game + "/play" // the game against the computer
						}
						if next != want {
							t.Fatalf("%s: next %q, want %q", page, next, want)
						}
						// A wrong move.
						wrong, ok := course.WrongMove(n)
						if !ok {
							t.Fatalf("%s: no wrong move", page)
						}
						c.Get(page)
						clickLessonMove(t, c, course, n, nil, wrong)
						if got := c.text("#lesson-wrong"); got != views.T(ctx, "That does not reach the goal.") {
							t.Fatalf("%s: after the wrong move %q: %q", page, wrong, got)
						}
						if retry, _ := c.Last.Find("#lesson-retry").Attr("href"); retry != page {
							t.Fatalf("%s: try again goes to %q", page, retry)
						}
					}
				}
				// A move the engine refuses, typed in the move box.
				c.Get("/learn/trench/1?try=" + url.QueryEscape("c3-c5"))
				c.wantStatus(http.StatusOK)
				// The engine's reason, whole in the player's language.
				refusal := views.T(ctx, "This move is not allowed in this position: %s", "")
				if lang == "en" {
					refusal = "illegal move"
				}
				if got := c.text("#lesson-wrong"); !strings.Contains(got, refusal) || !strings.Contains(got, "c5") {
					t.Fatalf("a refused move says %q, want %q and the reason", got, refusal)
				}
				// Progress, kept in the visitor's cookie.
				c.HTMX = false
				c.Get("/learn")
				for _, course := range lessons.Courses() {
					want := views.T(ctx, "%d of %d steps done", len(course.Steps), len(course.Steps))
					if got := c.text("#learn-" + course.Game + " .learn-progress"); got != want {
						t.Fatalf("/learn: %s progress %q, want %q", course.Game, got, want)
					}
				}
				fresh := s.newClient(t)
				fresh.Get("/learn/trench")
				if got := fresh.Last.Find("#learn-steps li.done").Length(); got != 0 {
					t.Fatalf("a new visitor has %d steps done", got)
				}
			})
		}
	}
}

// TestLessonProgressInTheAccount: a player's steps done are kept in the
// account: seen from another browser once signed in, not in the
// visitor's cookie.
func TestLessonProgressInTheAccount(t *testing.T) {
	s := startServer(t, "", nil)
	a := s.newClient(t)
	a.SignUp("ann")
	a.Get("/learn/trenches/4?line=e5-i9")
	a.wantStatus(http.StatusOK)
	if a.Last.Find("#lesson-right").Length() != 1 {
		t.Fatal("e5-i9 does not win the blocking step")
	}
	if a.Last.Find(`#learn-steps li.done[data-step="4"]`).Length() != 1 {
		t.Fatal("the step just done is not marked in the list")
	}
	other := s.newClient(t)
	other.Get("/learn/trenches")
	if other.Last.Find("#learn-steps li.done").Length() != 0 {
		t.Fatal("a visitor sees the player's progress")
	}
	if st := other.SignIn("ann", "correct horse"); st != http.StatusOK {
		t.Fatalf("sign in: %d", st)
	}
	other.Get("/learn/trenches")
	if got := other.Last.Find(`#learn-steps li.done`); got.Length() != 1 || got.AttrOr("data-step", "") != "4" {
		t.Fatalf("signed in elsewhere, steps done: %d", got.Length())
	}
	other.Get("/learn")
	if got := other.text("#learn-trenches .learn-progress"); got != "1 of 4 steps done" {
		t.Fatalf("/learn says %q", got)
	}
}

// TestLessonPagesRefuseBadAddresses: no such course or step is a 404, a
// line longer than the moves allowed is refused in words, and the home
// page and the empty dashboard link to the lessons.
func TestLessonPagesRefuseBadAddresses(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	for _, p := range []string{"/learn/chess", "/learn/trench/0", "/learn/trench/7", "/learn/cards/x"} {
		c.Get(p)
		c.wantStatus(http.StatusNotFound)
	}
	c.Get("/learn/trench/1?line=c3-c4,c4-c5")
	c.wantStatus(http.StatusOK)
	if c.Last.Find("#lesson-wrong").Length() != 1 {
		t.Fatal("a move after the step's last is not refused")
	}
	c.Get("/learn/trench/6?line=c4-d5&try=c3-c9")
	c.wantStatus(http.StatusOK)
	if retry, _ := c.Last.Find("#lesson-retry").Attr("href"); retry != "/learn/trench/6?line=c4-d5" {
		t.Fatalf("after a refused second move, try again goes to %q", retry)
	}
	c.Get("/")
	if href, _ := c.Last.Find("#newcomer-learn a").Attr("href"); href != "/learn" {
		t.Fatalf("the visitors' home page links to %q", href)
	}
	c.SignUp("bob")
	c.Get("/")
	if href, _ := c.Last.Find("a#newcomer-learn").Attr("href"); href != "/learn" {
		t.Fatalf("the empty dashboard links to %q", href)
	}
}

// TestNoEnglishLeftOnTheLessons: in French, Portuguese, Spanish and
// German, the lesson pages (the list, each course, each step before a
// move, after the right moves and after a wrong one) hold no English.
func TestNoEnglishLeftOnTheLessons(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	pages := []string{"/learn", "/learn/trench/1?try=c3-c5"}
	for _, course := range lessons.Courses() {
		pages = append(pages, "/learn/"+course.Game)
		for n := range course.Steps {
			page := fmt.Sprintf("/learn/%s/%d", course.Game, n+1)
			sol, _ := course.Solution(n)
			wrong, _ := course.WrongMove(n)
			pages = append(pages, page, page+"?hint=1", page+"?line="+url.QueryEscape(strings.Join(sol, ",")),
				page+"?line="+url.QueryEscape(wrong))
			if len(sol) > 1 {
				pages = append(pages, page+"?line="+url.QueryEscape(sol[0]))
			}
		}
	}
	for _, lang := range []string{"fr", "pt", "es", "de"} {
		c.AcceptLanguage = lang
		for _, p := range pages {
			doc := c.Get(p)
			c.wantStatus(http.StatusOK)
			text := visibleText(doc)
			var left []string
			for _, loc := range englishWords.FindAllStringIndex(text, -1) {
				from, to := max(loc[0]-40, 0), min(loc[1]+40, len(text))
				left = append(left, "…"+text[from:to]+"…")
			}
			if len(left) > 0 {
				t.Errorf("%s %s: English left:\n  %s", lang, p, strings.Join(left, "\n  "))
			}
		}
	}
}

// TestLessonHintMarksTheSquares: the hint button marks the squares (the
// card game: the slots, cards and action) the step is about, on each
// game's board; nothing is marked before it is pressed.
func TestLessonHintMarksTheSquares(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	for _, course := range lessons.Courses() {
		for n, step := range course.Steps {
			page := fmt.Sprintf("/learn/%s/%d", course.Game, n+1)
			c.Get(page)
			if got := c.Last.Find("#lesson .best").Length(); got != 0 {
				t.Fatalf("%s: %d marked before the hint", page, got)
			}
			c.Click(c.Last.Find("#lesson-hint"))
			c.wantStatus(http.StatusOK)
			for _, click := range step.Hint {
				marked := c.Last.Find(fmt.Sprintf(`#lesson .best[data-click=%q]`, click)).Length()
				if course.Game == "cards" {
					marked = c.Last.Find("#lesson .best").Length() // face-down slots carry no data-click
				}
				if marked == 0 {
					t.Fatalf("%s: the hint does not mark %s", page, click)
				}
			}
			if c.Last.Find("#lesson-hint-shown").Length() != 1 {
				t.Fatalf("%s: the hint shown is not said", page)
			}
		}
	}
}

// TestVisitorLessonProgressCarriedIntoTheAccount: the steps a visitor
// completed (kept in a cookie) are in the account they then sign up for,
// and in the one they sign in to; the account keeps them on another
// browser.
func TestVisitorLessonProgressCarriedIntoTheAccount(t *testing.T) {
	s := startServer(t, "", nil)
	done := func(c *client, game string) []string {
		t.Helper()
		c.Get("/learn/" + game)
		c.wantStatus(http.StatusOK)
		var out []string
		c.Last.Find("#learn-steps li.done").Each(func(_ int, li *goquery.Selection) {
			out = append(out, li.AttrOr("data-step", ""))
		})
		return out
	}
	// A visitor does a Trenches step, then signs up.
	v := s.newClient(t)
	v.Get("/learn/trenches/4?line=e5-i9")
	if v.Last.Find("#lesson-right").Length() != 1 {
		t.Fatal("e5-i9 does not win the blocking step")
	}
	v.SignUp("ann")
	if got := done(v, "trenches"); len(got) != 1 || got[0] != "4" {
		t.Fatalf("after signing up, the steps done are %v, want [4]", got)
	}
	elsewhere := s.newClient(t)
	if st := elsewhere.SignIn("ann", "correct horse"); st != http.StatusOK {
		t.Fatalf("sign in: %d", st)
	}
	if got := done(elsewhere, "trenches"); len(got) != 1 || got[0] != "4" {
		t.Fatalf("in the account on another browser, the steps done are %v, want [4]", got)
	}

	// Another visitor does a TRENCH step, then signs in to ann's account.
	w := s.newClient(t)
	w.Get("/learn/trench/1?line=c3-c4")
	if w.Last.Find("#lesson-right").Length() != 1 {
		t.Fatal("c3-c4 does not do the first TRENCH step")
	}
	if st := w.SignIn("ann", "correct horse"); st != http.StatusOK {
		t.Fatalf("sign in: %d", st)
	}
	if got := done(elsewhere, "trench"); len(got) != 1 || got[0] != "1" {
		t.Fatalf("after a visitor's sign-in, the account's TRENCH steps done are %v, want [1]", got)
	}
	if got := done(elsewhere, "trenches"); len(got) != 1 {
		t.Fatalf("the account's Trenches steps are now %v", got)
	}
}

// TestLessonFinalGameAgainstTheComputer: each course ends with a small
// game against the computer that a visitor plays on the lesson pages, by
// clicks (with JavaScript off and on) and by the move box: the computer
// answers every move in the same request, the page never shows a card of
// the computer's hand, and the game ends with a sentence saying who won,
// a way to play again and one to a real game against the computer.
func TestLessonFinalGameAgainstTheComputer(t *testing.T) {
	s := startServer(t, "", nil)
	for i, course := range lessons.Courses() {
		t.Run(course.Game, func(t *testing.T) {
			c := s.newClient(t)
			c.HTMX = i == 1
			page := "/learn/" + course.Game + "/play"
			c.Get("/learn/" + course.Game)
			if href, _ := c.Last.Find("#learn-final").Attr("href"); href != page {
				t.Fatalf("the course links the final game at %q, want %s", href, page)
			}
			c.Get(page)
			c.wantStatus(http.StatusOK)
			var moves []string
			for k := 0; k < 300 && c.Last.Find("#lesson-result").Length() == 0; k++ {
				f, err := course.PlayFinal(moves)
				if err != nil {
					t.Fatal(err)
				}
				legal := f.Last().Legal(f.Learner)
				if len(legal) == 0 {
					html, _ := c.Last.Find("#lesson").Html()
					t.Fatalf("no move for the learner, and no result: %.1500s", html)
				}
				move := legal[(k*7)%len(legal)]
				if k%3 == 2 {
					box := c.Last.Find("#lesson-move-box")
					q := url.Values{"try": {move}}
					if line, ok := box.Find(`input[name="line"]`).Attr("value"); ok {
						q.Set("line", line)
					}
					action, _ := box.Attr("action")
					c.Get(action + "?" + q.Encode()) // the box's form is a GET
					c.wantStatus(http.StatusOK)
				} else {
					for _, click := range f.Last().Clicks(move) {
						link := c.Last.Find(fmt.Sprintf(`#lesson a[data-click=%q]`, click)).First()
						if link.Length() == 0 {
							html, _ := c.Last.Find("#lesson").Html()
							t.Fatalf("move %d: no link for the click %q of %q: %.1500s", k+1, click, move, html)
						}
						c.Click(link)
						c.wantStatus(http.StatusOK)
					}
				}
				moves = append(moves, move)
				after, err := course.PlayFinal(moves)
				if err != nil {
					t.Fatal(err)
				}
				if c.Last.Find("#lesson-wrong").Length() != 0 {
					t.Fatalf("move %d %q refused: %s", k+1, move, c.text("#lesson-wrong"))
				}
				replies := after.Played[len(after.Played)-1][1:]
				if !after.Over() && after.Last().ToMove() != after.Learner {
					t.Fatalf("after %q the computer has not answered", move)
				}
				if len(replies) > 0 && !strings.Contains(c.text("#lesson-played"), ",") {
					t.Fatalf("after %q the page does not say the computer's answer: %q", move, c.text("#lesson-played"))
				}
				if course.Game == "cards" {
					truth := after.Last().View(rules.Reveal).(cards.View)
					html, _ := c.Last.Find("#lesson").Html()
					public := map[string]bool{}
					if b := truth.LastBattle; b != nil {
						public[b.Cards[0].String()], public[b.Cards[1].String()] = true, true
					}
					for _, f := range truth.Flips { // the flips that decided who starts are shown to both
						public[f.Cards[0].String()], public[f.Cards[1].String()] = true, true
					}
					for _, h := range truth.Sides[after.Learner.Other()].Hand {
						if !public[h.String()] && strings.Contains(html, fmt.Sprintf(`data-card="%s"`, h)) {
							t.Fatalf("after %q the page shows the computer's hand card %s", move, h)
						}
					}
				}
			}
			res := c.text("#lesson-result")
			if !strings.HasPrefix(res, "You won the game against the computer") && !strings.HasPrefix(res, "The computer won the game") &&
				!strings.HasPrefix(res, "The game against the computer is drawn") {
				html, _ := c.Last.Find("#lesson").Html()
				t.Fatalf("after %d moves no result sentence: %.2000s", len(moves), html)
			}
			if href, _ := c.Last.Find("#lesson-again").Attr("href"); href != page {
				t.Fatalf("play again goes to %q", href)
			}
			if href, _ := c.Last.Find("#lesson-next").Attr("href"); href != "/challenges/new?game="+course.Game+"#play-computer" {
				t.Fatalf("the real game is at %q", href)
			}
			if c.Last.Find("#lesson-move-box").Length() != 0 || c.Last.Find(`#lesson a[data-click]`).Length() != 0 {
				t.Fatal("the game is over and the page still offers moves")
			}
			t.Logf("%s: %d moves, %s", course.Game, len(moves), res)
		})
	}
}

// TestLessonFinalGameWonIsMarked: a visitor who wins the TRENCH course's
// final game against the computer (the learner's moves found by the
// computer's own search) sees it marked as won on the course, on the
// list of courses and beside the steps, and it is carried into the
// account they then open.
func TestLessonFinalGameWonIsMarked(t *testing.T) {
	s := startServer(t, "", nil)
	course, _ := lessons.Lookup("trench")
	player, ok := bot.Lookup(course.Game)
	if !ok {
		t.Fatal("no computer player for TRENCH")
	}
	var won []string
	for seed := int64(1); seed <= 5 && won == nil; seed++ {
		var moves []string
		f, err := course.PlayFinal(nil)
		for err == nil && !f.Over() && len(moves) < 200 {
			th, terr := player.Think(f.Last(), bot.Request{Level: bot.Hard, Side: f.Learner, Seed: seed, Budget: bot.Budget{Nodes: 20_000}})
			if terr != nil {
				t.Fatal(terr)
			}
			moves = append(moves, th.Move)
			f, err = course.PlayFinal(moves)
		}
		if err != nil {
			t.Fatal(err)
		}
		if f.Over() && f.Last().Result().Winner == f.Learner {
			won = moves
		}
	}
	if won == nil {
		t.Fatal("the computer's search found no win for the learner against easy")
	}
	c := s.newClient(t)
	c.Get("/learn/trench")
	if c.Last.Find("#learn-final-won").Length() != 0 {
		t.Fatal("the final game is marked won before it was played")
	}
	c.Get("/learn/trench/play?line=" + url.QueryEscape(strings.Join(won, ",")))
	c.wantStatus(http.StatusOK)
	if got := c.text("#lesson-result"); !strings.HasPrefix(got, "You won the game against the computer") {
		t.Fatalf("after the winning line: %q", got)
	}
	c.Get("/learn/trench")
	if c.text("#learn-final-won") != "· won" {
		t.Fatalf("the course does not mark the final game won: %q", c.text("#learn-final-won"))
	}
	c.Get("/learn")
	if got := c.text("#learn-trench .learn-progress"); !strings.Contains(got, "the final game won") {
		t.Fatalf("the list of courses says %q", got)
	}
	c.Get("/learn/trench/1")
	if c.Last.Find("#learn-final-won").Length() != 1 {
		t.Fatal("the steps' list does not mark the final game won")
	}
	c.SignUp("finalist")
	c.Get("/learn/trench")
	if c.Last.Find("#learn-final-won").Length() != 1 {
		t.Fatal("the win is not carried into the new account")
	}
}
