package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/lessons"
	"github.com/trench-games/trench/views"
)

// The lessons: /learn lists the courses, /learn/GAME a course's steps,
// /learn/GAME/N step N (from 1). A step's address holds all it shows,
// so that each click is a plain link:
//
//	/learn/trench/6?line=c4-d5,d5xf7&sel=d5&hint=1
//
// line is the learner's moves so far, in the game's notation, separated
// by commas (the opponent's replies follow from the step's data); sel the
// clicks of a move being made; hint marks the squares the step is about;
// try a move typed in the move box, played after the line.

// lessonCookie is the cookie keeping a visitor's progress: per game, the
// steps done as a hexadecimal bit mask (bit 0 = step 1), e.g.
// "trench.7_cards.1".
const lessonCookie = "lessons"

// lessonHandler shows the lessons and keeps the learner's progress: in
// the account of a signed-in player, in a cookie for a visitor.
type lessonHandler struct {
	db     *db.DB
	now    func() time.Time
	secure bool // cookies only over HTTPS
}

// lessonProgress is the steps done, by game and step (from 1).
type lessonProgress map[string]map[int]bool

// progress reads the viewer's progress: the account's, or the cookie's.
func (h *lessonHandler) progress(c echo.Context) (lessonProgress, error) {
	if v := currentViewer(c); v.ID != 0 {
		return h.db.LessonsDone(c.Request().Context(), v.ID)
	}
	return cookieProgress(c, h.secure), nil
}

// cookieProgress reads a visitor's progress from the lesson cookie; no
// cookie, or a damaged one, is nothing done.
func cookieProgress(c echo.Context, secure bool) lessonProgress {
	out := lessonProgress{}
	ck, err := c.Cookie(cookieName(lessonCookie, secure))
	if err != nil {
		return out // no cookie: nothing done yet
	}
	for _, part := range strings.Split(ck.Value, "_") {
		game, mask, ok := strings.Cut(part, ".")
		if _, known := lessons.Lookup(game); !ok || !known {
			continue
		}
		bits, err := strconv.ParseUint(mask, 16, 32)
		if err != nil {
			continue // a damaged cookie counts as nothing done
		}
		out[game] = map[int]bool{}
		for n := 1; n <= 32; n++ {
			if bits&(1<<(n-1)) != 0 {
				out[game][n] = true
			}
		}
	}
	return out
}

// carryLessonProgress moves a visitor's progress from the lesson cookie
// into the account userID has just signed up for or into: the steps (and
// the final game, if won) are recorded in the account, and the cookie is
// cleared. No cookie changes
// nothing.
func carryLessonProgress(c echo.Context, d *db.DB, secure bool, userID int64, now time.Time) error {
	done := map[string][]int{}
	for game, steps := range cookieProgress(c, secure) {
		for n, ok := range steps {
			if ok && n <= finalStep(mustCourse(game)) { // the steps, and the final game won
				done[game] = append(done[game], n)
			}
		}
	}
	if len(done) == 0 {
		return nil
	}
	if err := d.MarkLessonsDone(c.Request().Context(), userID, done, now); err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: cookieName(lessonCookie, secure), Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode})
	return nil
}

// mustCourse is the course of game, which cookieProgress has checked.
func mustCourse(game string) lessons.Course {
	course, _ := lessons.Lookup(game)
	return course
}

// markDone records step n (from 1) of game as done: in the account, or
// in the visitor's cookie; done, the progress read before, gains it.
func (h *lessonHandler) markDone(c echo.Context, done lessonProgress, game string, n int) error {
	if done[game] == nil {
		done[game] = map[int]bool{}
	}
	done[game][n] = true
	if v := currentViewer(c); v.ID != 0 {
		return h.db.MarkLessonDone(c.Request().Context(), v.ID, game, n, h.now())
	}
	var parts []string
	for _, course := range lessons.Courses() {
		var bits uint64
		for s := range done[course.Game] {
			if s >= 1 && s <= 32 {
				bits |= 1 << (s - 1)
			}
		}
		if bits != 0 {
			parts = append(parts, course.Game+"."+strconv.FormatUint(bits, 16))
		}
	}
	c.SetCookie(&http.Cookie{Name: cookieName(lessonCookie, h.secure), Value: strings.Join(parts, "_"), Path: "/",
		MaxAge: 365 * 24 * 3600, HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
	return nil
}

// courseOf finds the course named by the :game parameter. Errors:
// KindNotFound.
func courseOf(c echo.Context) (lessons.Course, error) {
	course, ok := lessons.Lookup(c.Param("game"))
	if !ok {
		return course, db.Errorf(db.KindNotFound, "There is no such page.")
	}
	return course, nil
}

// courseView is a course as the lists show it.
func courseView(ctx context.Context, course lessons.Course, done lessonProgress) views.LearnCourse {
	lc := views.LearnCourse{Game: course.Game, Title: views.T(ctx, course.Title), Intro: views.T(ctx, course.Intro),
		Href: "/learn/" + course.Game, Total: len(course.Steps), FinalHref: finalURL(course.Game),
		FinalWon: done[course.Game][finalStep(course)]}
	for i, s := range course.Steps {
		d := done[course.Game][i+1]
		if d {
			lc.Done++
		}
		lc.Steps = append(lc.Steps, views.LearnStepLink{N: i + 1, Title: views.T(ctx, s.Title), Href: stepURL(course.Game, i+1), Done: d})
	}
	return lc
}

// finalStep is the step number under which winning course's final game
// is kept in the progress: the one after its last step.
func finalStep(course lessons.Course) int { return len(course.Steps) + 1 }

// stepURL is the address of step n (from 1) of game's course.
func stepURL(game string, n int) string { return fmt.Sprintf("/learn/%s/%d", game, n) }

// index lists the three courses with the viewer's progress (GET /learn).
func (h *lessonHandler) index(c echo.Context) error {
	done, err := h.progress(c)
	if err != nil {
		return err
	}
	p := views.LearnIndex{Page: pageOf(c, tr(c, "Learn to play"))}
	for _, course := range lessons.Courses() {
		p.Courses = append(p.Courses, courseView(c.Request().Context(), course, done))
	}
	return render(c, http.StatusOK, views.LearnIndexView(p), nil)
}

// course lists a course's steps with the viewer's progress (GET
// /learn/:game). Errors: 404 for no such course.
func (h *lessonHandler) course(c echo.Context) error {
	course, err := courseOf(c)
	if err != nil {
		return err
	}
	done, err := h.progress(c)
	if err != nil {
		return err
	}
	lc := courseView(c.Request().Context(), course, done)
	return render(c, http.StatusOK, views.LearnCourseView(views.LearnCoursePage{Page: pageOf(c, lc.Title), Course: lc}), nil)
}

// step shows step :n of a course on the game's board (GET
// /learn/:game/:n; see the address above). A move that the engine
// refuses or that cannot reach the goal is answered with why, and a way
// to try again; the goal reached is recorded in the viewer's progress.
// Errors: 404 for no such step, 400 for a line too long.
func (h *lessonHandler) step(c echo.Context) error {
	course, err := courseOf(c)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 1 || n > len(course.Steps) {
		return db.Errorf(db.KindNotFound, "There is no such page.")
	}
	ctx := c.Request().Context()
	step := course.Steps[n-1]
	self := stepURL(course.Game, n)
	line, err := lineAndMove(c, c.QueryParam("try"))
	if err != nil {
		return err
	}
	if len(line) > step.Moves {
		line = line[:step.Moves+1] // the move after the last allowed is refused below
	}
	done, err := h.progress(c)
	if err != nil {
		return err
	}
	lc := courseView(ctx, course, done)
	p := views.LearnStep{Page: pageOf(c, tr(c, "%s · step %d: %s", lc.Title, n, tr(c, step.Title))), Course: lc, N: n,
		Title: tr(c, step.Title), Task: tr(c, step.Task), Self: self, Retry: self}
	a, playErr := course.Play(n-1, line)
	if playErr != nil && !errors.Is(playErr, rules.ErrIllegal) && !errors.Is(playErr, rules.ErrNotation) {
		return playErr
	}
	if len(a.States) == 0 {
		return fmt.Errorf("lessons: step %s %d does not start", course.Game, n)
	}
	made := len(a.States) - 1
	learner := lessons.Learner(a.States[0])
	st := a.Last()
	p.View = st.View(learner)
	p.Play = views.Play{GameURL: self, Viewer: learner, Square: currentViewer(c).BoardView == "square"}
	if made > 0 {
		var said []string
		prev, moves := a.States[made-1], a.Played[made-1]
		for i, m := range moves {
			said = append(said, prev.Describe(m, learner))
			if i == len(moves)-1 {
				p.Play.LastMove = prev.Clicks(m)
				break
			}
			if prev, err = prev.Apply(m); err != nil {
				return err
			}
		}
		p.Played = strings.Join(said, ", ")
	}
	href := func(line []string, sel []string, hint bool) string {
		q := url.Values{}
		if len(line) > 0 {
			q.Set("line", strings.Join(line, ","))
		}
		if len(sel) > 0 {
			q.Set("sel", strings.Join(sel, ","))
		}
		if hint {
			q.Set("hint", "1")
		}
		if len(q) == 0 {
			return self
		}
		return self + "?" + q.Encode()
	}
	played := line[:made]
	hint := c.QueryParam("hint") == "1"
	switch {
	case playErr != nil:
		// The rules' refusal, translated from its code and values.
		p.Outcome = "refused"
		p.Retry = href(played, nil, false)  // the moves made before it stay
		p.Message = errorText(ctx, playErr) // whole, in the player's language
	case a.Reached:
		p.Outcome = "right"
		p.Message = tr(c, step.Done)
		if !done[course.Game][n] {
			if err := h.markDone(c, done, course.Game, n); err != nil {
				return err
			}
			p.Course = courseView(ctx, course, done)
		}
		if n < len(course.Steps) {
			p.NextHref, p.NextText = stepURL(course.Game, n+1), tr(c, "Next step: %s", tr(c, course.Steps[n].Title))
		} else {
			p.NextHref, p.NextText = finalURL(course.Game), tr(c, "Course done: now a small game against the computer")
		}
	case a.Over:
		p.Outcome = "wrong"
		p.Message = tr(c, "That does not reach the goal.")
	default:
		legal := st.Legal(learner)
		p.Play.CanMove = len(legal) > 0
		p.Play.Next, p.Play.Selected = nextSteps(st, legal, selection(c), func(sel []string) string { return href(played, sel, hint) })
		for k, s := range p.Play.Next {
			if s.Move != "" {
				p.Play.Next[k] = views.Step{Href: href(append(append([]string{}, played...), s.Move), nil, hint)}
			}
		}
		if len(p.Play.Selected) > 0 {
			p.Play.BackHref = href(played, p.Play.Selected[:len(p.Play.Selected)-1], hint)
		}
		p.Line = strings.Join(played, ",")
		left := step.Moves - made
		p.MovesLeft = trn(c, "%d move left.", left, left)
		if hint {
			p.Play.Best = step.Hint
		} else {
			p.HintHref = href(played, p.Play.Selected, true)
		}
	}
	return render(c, http.StatusOK, views.LearnStepView(p), views.LearnStepFragment(p))
}

// finalURL is the address of the final game of game's course.
func finalURL(game string) string { return "/learn/" + game + "/play" }

// final shows the game against the computer that ends a course (GET
// /learn/:game/play), on the lesson's page: the address holds the
// learner's moves (line, sel and try as on a step); the computer's replies
// are replayed by the pure computer player at easy within this request,
// the same every time. Once the game is over the page says its result.
// Nothing is stored. Errors: 404 for no such course, 400 for a line too
// long.
func (h *lessonHandler) final(c echo.Context) error {
	course, err := courseOf(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	self := finalURL(course.Game)
	line, err := lineAndMove(c, c.QueryParam("try"))
	if err != nil {
		return err
	}
	done, err := h.progress(c)
	if err != nil {
		return err
	}
	lc := courseView(ctx, course, done)
	title := tr(c, course.Final.Title)
	p := views.LearnStep{Page: pageOf(c, tr(c, "%s · step %d: %s", lc.Title, len(course.Steps)+1, title)), Course: lc,
		N: len(course.Steps) + 1, Title: title, Task: tr(c, course.Final.Task), Self: self, Retry: self, Final: true}
	f, playErr := course.PlayFinal(line)
	if playErr != nil && !errors.Is(playErr, rules.ErrIllegal) && !errors.Is(playErr, rules.ErrNotation) {
		return playErr
	}
	if len(f.States) == 0 {
		return fmt.Errorf("lessons: the final game of %s does not start", course.Game)
	}
	made := len(f.States) - 1
	learner, st := f.Learner, f.Last()
	p.View = st.View(learner)
	p.Play = views.Play{GameURL: self, Viewer: learner, Square: currentViewer(c).BoardView == "square"}
	if made > 0 {
		var said []string
		prev := f.States[made-1]
		for i, m := range f.Played[made-1] {
			said = append(said, prev.Describe(m, learner)) // never a hidden card
			if i == len(f.Played[made-1])-1 {
				p.Play.LastMove = prev.Clicks(m)
				break
			}
			if prev, err = prev.Apply(m); err != nil {
				return err
			}
		}
		p.Played = strings.Join(said, ", ")
	}
	played := line[:made]
	href := func(line, sel []string) string {
		q := url.Values{}
		if len(line) > 0 {
			q.Set("line", strings.Join(line, ","))
		}
		if len(sel) > 0 {
			q.Set("sel", strings.Join(sel, ","))
		}
		if len(q) == 0 {
			return self
		}
		return self + "?" + q.Encode()
	}
	res := st.Result()
	switch {
	case playErr != nil:
		p.Outcome = "refused"
		p.Retry = href(played, nil)
		p.Message = errorText(ctx, playErr)
	case res.Over:
		p.Outcome = "over"
		mine, theirs := res.Score[learner], res.Score[learner.Other()]
		switch res.Winner {
		case learner:
			p.Message = tr(c, "You won the game against the computer, %[1]d to %[2]d.", mine, theirs)
			if err := h.markDone(c, done, course.Game, finalStep(course)); err != nil {
				return err
			}
			p.Course.FinalWon = true
		case learner.Other():
			p.Message = tr(c, "The computer won the game, %[2]d to %[1]d.", mine, theirs)
		default:
			p.Message = tr(c, "The game against the computer is drawn, %[1]d to %[2]d.", mine, theirs)
		}
		p.NextHref = "/challenges/new?game=" + course.Game + "#play-computer"
		p.NextText = tr(c, "Play a real game against the computer")
	default:
		legal := st.Legal(learner)
		p.Play.CanMove = len(legal) > 0
		p.Play.Next, p.Play.Selected = nextSteps(st, legal, selection(c), func(sel []string) string { return href(played, sel) })
		for k, s := range p.Play.Next {
			if s.Move != "" {
				p.Play.Next[k] = views.Step{Href: href(append(append([]string{}, played...), s.Move), nil)}
			}
		}
		if len(p.Play.Selected) > 0 {
			p.Play.BackHref = href(played, p.Play.Selected[:len(p.Play.Selected)-1])
		}
		p.Line = strings.Join(played, ",")
		p.MovesLeft = tr(c, "Your move: the computer (easy) answers at once.")
	}
	return render(c, http.StatusOK, views.LearnStepView(p), views.LearnStepFragment(p))
}
