package handlers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/rules/puzzles"
	"github.com/trench-games/trench/views"
)

// The puzzles: /puzzles lets the player choose a game, /puzzles/GAME
// sends them to the puzzle nearest their puzzle rating in that game (a
// theme may be chosen), /puzzles/GAME/ID is one puzzle. Like a lesson
// step, a puzzle's address holds all it shows, so that each click is a
// plain link:
//
//	/puzzles/trench/7?line=d5-g5&sel=g5
//
// line is the solver's moves so far (the opponent's replies follow from
// the solution), sel the clicks of a move being made, try a move, and
// solution=N the solution played out to its N-th move. Such an address
// only shows: a move is sent, like a game's, by a POST to
// /puzzles/GAME/ID/move?line=… (the board's form and the move box, field
// move; "Show solution", field solution=1), which answers with the
// address's page, and that is where an attempt ends. The first solved or
// failed attempt of a signed-in player rates the player and the puzzle;
// a visitor plays unrated, the puzzles done kept in a cookie so that the
// next one is another.

// puzzleCookie keeps the ids of the last puzzles a visitor did, dot
// separated.
const puzzleCookie = "puzzles"

// maxVisitorPuzzles is how many of a visitor's last puzzles the cookie
// keeps.
const maxVisitorPuzzles = 30

// refutationNodes is the node budget of the search that finds the
// opponent's answer to a wrong move.
const refutationNodes = 4_000

// puzzleHandler serves the puzzle pages.
type puzzleHandler struct {
	db     *db.DB
	now    func() time.Time
	secure bool
}

// puzzleGame reads the :game parameter. Errors: 404 for a game without
// puzzles.
func puzzleGame(c echo.Context) (rules.Engine, error) {
	game := c.Param("game")
	eng, ok := rules.Lookup(game)
	if !ok || !puzzles.HasPuzzles(game) {
		return nil, db.Errorf(db.KindNotFound, "There is no such page.")
	}
	return eng, nil
}

// themeTitle is a theme as players read it.
func themeTitle(c echo.Context, theme string) string {
	switch theme {
	case puzzles.ThemeTrenchCapture:
		return tr(c, "Capture from the trench")
	case puzzles.ThemeDoubleCapture:
		return tr(c, "Double capture")
	case puzzles.ThemeRace:
		return tr(c, "Race to the target")
	case puzzles.ThemeBlocking:
		return tr(c, "Blocking|puzzle theme")
	case puzzles.ThemeWin:
		return tr(c, "Winning move")
	}
	return theme
}

// themeOf reads the theme query parameter. Errors: 400 for a theme the
// game does not have.
func themeOf(c echo.Context, game string) (string, error) {
	t := c.QueryParam("theme")
	if t != "" && !slices.Contains(puzzles.Themes(game), t) {
		return "", db.Errorf(db.KindInvalid, "There is no such theme.")
	}
	return t, nil
}

// themeChoices are the theme filter's options for game.
func themeChoices(c echo.Context, game, chosen string) []views.PuzzleTheme {
	out := []views.PuzzleTheme{{Key: "", Title: tr(c, "Any theme"), Chosen: chosen == ""}}
	for _, t := range puzzles.Themes(game) {
		out = append(out, views.PuzzleTheme{Key: t, Title: themeTitle(c, t), Chosen: t == chosen})
	}
	return out
}

// visitorPuzzles reads the ids of the visitor's last puzzles.
func (h *puzzleHandler) visitorPuzzles(c echo.Context) []int64 {
	ck, err := c.Cookie(cookieName(puzzleCookie, h.secure))
	if err != nil {
		return nil
	}
	var out []int64
	for _, s := range strings.Split(ck.Value, ".") {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
			out = append(out, id)
		}
	}
	return out
}

// rememberPuzzle adds id to the visitor's last puzzles.
func (h *puzzleHandler) rememberPuzzle(c echo.Context, id int64) {
	ids := h.visitorPuzzles(c)
	if slices.Contains(ids, id) {
		return
	}
	ids = append(ids, id)
	if len(ids) > maxVisitorPuzzles {
		ids = ids[len(ids)-maxVisitorPuzzles:]
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	c.SetCookie(&http.Cookie{Name: cookieName(puzzleCookie, h.secure), Value: strings.Join(parts, "."), Path: "/puzzles",
		MaxAge: 30 * 24 * 3600, HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
}

// puzzleRatingText is a rating as pages show it, e.g. "1523".
func puzzleRatingText(r float64) string { return strconv.Itoa(int(math.Round(r))) }

// index lets the player choose a game (GET /puzzles), with their puzzle
// rating in each and the daily puzzle.
func (h *puzzleHandler) index(c echo.Context) error {
	ctx := c.Request().Context()
	p := views.PuzzleIndex{Page: pageOf(c, tr(c, "Puzzles"))}
	v := currentViewer(c)
	for _, game := range puzzles.Games {
		eng, _ := rules.Lookup(game)
		g := views.PuzzleGame{Key: game, Title: tr(c, eng.Title()), Href: "/puzzles/" + game}
		n, err := h.db.CountPuzzles(ctx, game)
		if err != nil {
			return err
		}
		g.Count = tr(c, "Puzzles: %d", n)
		if v.ID != 0 {
			r, tries, err := h.db.PuzzleRating(ctx, v.ID, game)
			if err != nil {
				return err
			}
			g.Rating = tr(c, "Your puzzle rating: %s (puzzles tried: %d)", puzzleRatingText(r.Rating), tries)
		}
		p.Games = append(p.Games, g)
	}
	daily, ok, err := h.db.DailyPuzzle(ctx, h.now())
	if err != nil {
		return err
	}
	if ok {
		p.DailyHref = puzzleURL(daily.Game, daily.ID)
	}
	return render(c, http.StatusOK, views.PuzzleIndexView(p), nil)
}

// puzzleURL is the address of puzzle id of game.
func puzzleURL(game string, id int64) string { return fmt.Sprintf("/puzzles/%s/%d", game, id) }

// next sends the player to the puzzle of the game nearest their puzzle
// rating that they have not done, with the theme asked (GET
// /puzzles/:game?theme=T); with none left it says so. Errors: 404 for a
// game without puzzles, 400 for an unknown theme.
func (h *puzzleHandler) next(c echo.Context) error {
	eng, err := puzzleGame(c)
	if err != nil {
		return err
	}
	game := eng.Key()
	theme, err := themeOf(c, game)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	q := db.PuzzleQuery{Game: game, Theme: theme, Rating: 1500}
	if v := currentViewer(c); v.ID != 0 {
		r, _, err := h.db.PuzzleRating(ctx, v.ID, game)
		if err != nil {
			return err
		}
		q.UserID, q.Rating = v.ID, r.Rating
	} else {
		q.Skip = h.visitorPuzzles(c)
	}
	pz, ok, err := h.db.NextPuzzle(ctx, q)
	if err != nil {
		return err
	}
	if ok {
		to := puzzleURL(game, pz.ID)
		if theme != "" {
			to += "?theme=" + url.QueryEscape(theme)
		}
		return c.Redirect(http.StatusSeeOther, to)
	}
	p := views.PuzzleNone{Page: pageOf(c, tr(c, "%s puzzles", tr(c, eng.Title()))), Game: game,
		Themes: themeChoices(c, game, theme), Message: tr(c, "No puzzle left here: choose another theme, or come back later.")}
	return render(c, http.StatusOK, views.PuzzleNoneView(p), nil)
}

// show is one puzzle (GET /puzzles/:game/:id; see the address above) as
// its address says: a right move answered by the opponent's reply, a
// wrong one by the opponent's best answer, a move the rules refuse with
// why. It rates nothing. Errors: 404 for no such puzzle, 400 for a line
// too long.
func (h *puzzleHandler) show(c echo.Context) error { return h.puzzle(c, false) }

// move is a move made on a puzzle (POST /puzzles/:game/:id/move?line=…,
// form field move, or solution=1 to show the solution): the page of the
// line with the move, as show draws it, and an attempt that ends with
// the move (solved, or failed by a wrong move or the solution shown) is
// recorded. Without htmx the answer is a redirect (303) to that page's
// address; with it the fragment, the address pushed. A move the rules
// refuse answers 422 and changes nothing. Errors: those of show, and 400
// for no move.
func (h *puzzleHandler) move(c echo.Context) error { return h.puzzle(c, true) }

// puzzle draws a puzzle for show (post false) and move (post true).
func (h *puzzleHandler) puzzle(c echo.Context, post bool) error {
	eng, err := puzzleGame(c)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return db.Errorf(db.KindNotFound, "There is no such puzzle.")
	}
	ctx := c.Request().Context()
	pz, err := h.db.Puzzle(ctx, id)
	if err != nil {
		return err
	}
	if pz.Game != eng.Key() {
		return db.Errorf(db.KindNotFound, "There is no such puzzle.")
	}
	theme, err := themeOf(c, pz.Game)
	if err != nil {
		return err
	}
	start, err := pz.Start()
	if err != nil {
		return err
	}
	move, rawSolution := c.QueryParam("try"), c.QueryParam("solution")
	if post {
		move, rawSolution = c.Request().PostFormValue("move"), c.Request().PostFormValue("solution")
		if strings.TrimSpace(move) == "" && rawSolution != "1" {
			return db.Errorf(db.KindInvalid, "There is no move to play.")
		}
	}
	if rawSolution != "" {
		move = "" // the solution shown: no move of the player's
	}
	line, err := lineAndMove(c, move)
	if err != nil {
		return err
	}
	solver := start.ToMove()
	self := puzzleURL(pz.Game, pz.ID)
	withTheme := func(q url.Values) string {
		if theme != "" {
			q.Set("theme", theme)
		}
		if len(q) == 0 {
			return self
		}
		return self + "?" + q.Encode()
	}
	sides := eng.SideNames()
	p := views.PuzzlePage{Page: pageOf(c, tr(c, "Puzzle %d", pz.ID)), Game: pz.Game, GameTitle: tr(c, eng.Title()), ID: pz.ID,
		Task: tr(c, "%s to move: find the best move.", tr(c, sides[solver])), Self: self, Theme: theme,
		Rating: tr(c, "Puzzle rating: %s", puzzleRatingText(pz.Rating.Rating)), Retry: withTheme(url.Values{}),
		Themes: themeChoices(c, pz.Game, theme)}
	for _, t := range pz.Themes {
		p.Tags = append(p.Tags, themeTitle(c, t))
	}
	p.NextHref = "/puzzles/" + pz.Game
	if theme != "" {
		p.NextHref += "?theme=" + url.QueryEscape(theme)
	}
	if pz.SourceGameID != 0 {
		if g, err := h.db.Game(ctx, pz.SourceGameID); err == nil && g.Finished() {
			p.SourceHref = fmt.Sprintf("/games/%d", g.ID)
		} else if err != nil && db.KindOf(err) != db.KindNotFound {
			return err
		}
	}
	p.Play = views.Play{GameURL: self, Viewer: solver, Square: currentViewer(c).BoardView == "square", CSRF: pageOf(c, "").CSRF}

	// The solution played out, to its N-th move.
	if raw := rawSolution; raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > len(pz.Solution) {
			return db.Errorf(db.KindInvalid, "There is no such move in the solution.")
		}
		if err := h.ended(c, post, &p, pz, false); err != nil {
			return err
		}
		st := start
		var said []string
		for i, m := range pz.Solution[:n] {
			said = append(said, st.Describe(m, rules.Reveal))
			if i == n-1 {
				p.Play.LastMove = st.Clicks(m)
			}
			if st, err = st.Apply(m); err != nil {
				return err
			}
		}
		p.View = st.View(solver)
		p.Outcome = "solution"
		p.Played = strings.Join(said, ", ")
		p.Message = tr(c, "The solution: %s", strings.Join(pz.Solution, ", "))
		if n < len(pz.Solution) {
			p.SolutionHref = withTheme(url.Values{"solution": {strconv.Itoa(n + 1)}})
			p.SolutionText = tr(c, "Next move of the solution")
		}
		return h.answer(c, post, http.StatusOK, p, withTheme(url.Values{"solution": {raw}}))
	}

	// The solver's moves so far, each answered by the solution's reply.
	st := start
	var said []string
	var last []string
	made := 0
	outcome := ""
	for i, m := range line {
		k := 2 * i
		if k >= len(pz.Solution) {
			break
		}
		next, err := st.Apply(m)
		if err != nil {
			if !errors.Is(err, rules.ErrIllegal) && !errors.Is(err, rules.ErrNotation) {
				return err
			}
			outcome = "refused"
			p.Message = errorText(ctx, err)
			break
		}
		said = append(said, st.Describe(m, rules.Reveal))
		last = st.Clicks(m)
		made++
		if m != pz.Solution[k] {
			// A wrong move: the opponent's best answer refutes it.
			outcome = "wrong"
			p.Message = tr(c, "That is not the best move.")
			if next.Result().Over || !next.ToMove().Valid() {
				st = next
				break
			}
			player, ok := bot.Lookup(pz.Game)
			if !ok {
				return fmt.Errorf("puzzle %d: no computer player for %q", pz.ID, pz.Game)
			}
			th, err := think(player, next, bot.Request{Level: bot.Hard, Side: next.ToMove(), Seed: pz.ID,
				Budget: bot.Budget{Nodes: refutationNodes, Stop: stopper(ctx, time.Now, bot.MoveCap(bot.Hard))}})
			if err != nil {
				if errors.Is(err, bot.ErrNoMove) {
					st = next
					break
				}
				return err
			}
			p.Refutation = next.Describe(th.Move, rules.Reveal)
			p.Message = tr(c, "That is not the best move: %s answers %s.", tr(c, sides[next.ToMove()]), p.Refutation)
			last = next.Clicks(th.Move)
			said = append(said, p.Refutation)
			if st, err = next.Apply(th.Move); err != nil {
				return err
			}
			break
		}
		st = next
		if k+1 < len(pz.Solution) {
			reply := pz.Solution[k+1]
			said = append(said, st.Describe(reply, rules.Reveal))
			last = st.Clicks(reply)
			if st, err = st.Apply(reply); err != nil {
				return err
			}
		} else {
			outcome = "solved"
		}
	}
	p.View = st.View(solver)
	p.Play.LastMove = last
	if len(said) > 0 {
		p.Played = strings.Join(said, ", ")
	}
	played := line[:made]
	if outcome == "refused" {
		p.Retry = withTheme(url.Values{"line": {strings.Join(played, ",")}})
		if len(played) == 0 {
			p.Retry = withTheme(url.Values{})
		}
	}
	p.Outcome = outcome
	switch outcome {
	case "solved":
		p.Message = tr(c, "Solved!")
		if err := h.ended(c, post, &p, pz, true); err != nil {
			return err
		}
	case "wrong":
		if err := h.ended(c, post, &p, pz, false); err != nil {
			return err
		}
	default:
		if made > 0 && outcome == "" {
			p.Outcome = "right"
			p.Message = tr(c, "Right! Keep going.")
		}
		href := func(sel []string) string {
			q := url.Values{}
			if len(played) > 0 {
				q.Set("line", strings.Join(played, ","))
			}
			if len(sel) > 0 {
				q.Set("sel", strings.Join(sel, ","))
			}
			return withTheme(q)
		}
		legal := st.Legal(solver)
		p.Play.CanMove = len(legal) > 0
		p.Play.Next, p.Play.Selected = nextSteps(st, legal, selection(c), href)
		if len(p.Play.Selected) > 0 {
			p.Play.BackHref = href(p.Play.Selected[:len(p.Play.Selected)-1])
		}
		q := url.Values{}
		if len(played) > 0 {
			q.Set("line", strings.Join(played, ","))
		}
		if theme != "" {
			q.Set("theme", theme)
		}
		p.Play.MoveAction = self + "/move"
		if len(q) > 0 {
			p.Play.MoveAction += "?" + q.Encode()
		}
		p.CanTry = true
	}
	if outcome == "refused" {
		status := http.StatusOK
		if post {
			status = http.StatusUnprocessableEntity
		}
		return h.answer(c, post, status, p, p.Retry)
	}
	at := withTheme(url.Values{})
	if len(line) > 0 {
		at = withTheme(url.Values{"line": {strings.Join(line, ",")}})
	}
	return h.answer(c, post, http.StatusOK, p, at)
}

// answer sends the puzzle page p whose address is at: for a move
// without htmx, a redirect (303) to at when the move was made (status
// 200), else the page; with htmx the fragment, at pushed as the address.
func (h *puzzleHandler) answer(c echo.Context, post bool, status int, p views.PuzzlePage, at string) error {
	if post && !isHTMX(c) && status == http.StatusOK {
		return c.Redirect(http.StatusSeeOther, at)
	}
	if post {
		c.Response().Header().Set("HX-Push-Url", at)
	}
	return render(c, status, views.PuzzleView(p), views.PuzzleFragment(p))
}

// ended is the end of an attempt at pz (solved, or failed: a wrong move
// or the solution shown): recorded when the move was sent (post), only
// told on a page that shows it: a visitor is asked to sign in, a player
// reads what their first attempt changed when it ended so (the page a
// sent move leads to without htmx), else their puzzle rating.
func (h *puzzleHandler) ended(c echo.Context, post bool, p *views.PuzzlePage, pz db.Puzzle, solved bool) error {
	if post {
		return h.attempt(c, p, pz, solved)
	}
	v := currentViewer(c)
	if v.ID == 0 {
		p.RatingChange = tr(c, "Sign in to have your puzzles rated.")
		return nil
	}
	ctx := c.Request().Context()
	first, attempted, err := h.db.PuzzleAttempted(ctx, v.ID, pz.ID)
	if err != nil {
		return err
	}
	if attempted && first.Solved == solved && first.After != 0 {
		// The page a sent move was redirected to: what the attempt changed.
		d := int(math.Round(first.After)) - int(math.Round(first.Before))
		p.RatingChange = tr(c, "Your puzzle rating: %s (%+d).", puzzleRatingText(first.After), d)
		return nil
	}
	r, n, err := h.db.PuzzleRating(ctx, v.ID, pz.Game)
	if err != nil {
		return err
	}
	if attempted {
		p.RatingChange = tr(c, "Your puzzle rating: %s (only the first attempt counts).", puzzleRatingText(r.Rating))
		return nil
	}
	p.RatingChange = tr(c, "Your puzzle rating: %s (puzzles tried: %d)", puzzleRatingText(r.Rating), n)
	return nil
}

// attempt records the end of an attempt at pz (solved, or failed: a
// wrong move or the solution shown): for a signed-in player the first
// attempt rates them and the puzzle, for a visitor it is remembered.
func (h *puzzleHandler) attempt(c echo.Context, p *views.PuzzlePage, pz db.Puzzle, solved bool) error {
	v := currentViewer(c)
	if v.ID == 0 {
		h.rememberPuzzle(c, pz.ID)
		p.RatingChange = tr(c, "Sign in to have your puzzles rated.")
		return nil
	}
	a, err := h.db.RecordPuzzleAttempt(c.Request().Context(), v.ID, pz.ID, solved, h.now())
	if err != nil {
		return err
	}
	if !a.Rated {
		p.RatingChange = tr(c, "Your puzzle rating: %s (only the first attempt counts).", puzzleRatingText(a.After.Rating))
		return nil
	}
	d := int(math.Round(a.After.Rating)) - int(math.Round(a.Before.Rating))
	p.RatingChange = tr(c, "Your puzzle rating: %s (%+d).", puzzleRatingText(a.After.Rating), d)
	return nil
}

// dailyPuzzle is the daily puzzle as the home page shows it; an empty
// Href when there is no puzzle.
func dailyPuzzle(c echo.Context, store *db.DB, now time.Time) (views.DailyPuzzle, error) {
	pz, ok, err := store.DailyPuzzle(c.Request().Context(), now)
	if err != nil || !ok {
		return views.DailyPuzzle{}, err
	}
	title, err := dailyTitle(c.Request().Context(), pz)
	if err != nil {
		return views.DailyPuzzle{}, err
	}
	return views.DailyPuzzle{Href: puzzleURL(pz.Game, pz.ID), Title: title}, nil
}

// dailyTitle names the daily puzzle pz, e.g. "Daily puzzle: TRENCH,
// Black to move". Errors: a stored position that does not decode.
func dailyTitle(ctx context.Context, pz db.Puzzle) (string, error) {
	eng, ok := rules.Lookup(pz.Game)
	if !ok {
		return "", fmt.Errorf("puzzle %d: no game %q", pz.ID, pz.Game)
	}
	st, err := pz.Start()
	if err != nil {
		return "", fmt.Errorf("puzzle %d: %w", pz.ID, err)
	}
	side := views.T(ctx, eng.SideNames()[max(st.ToMove(), 0)])
	return views.T(ctx, "Daily puzzle: %s, %s to move", views.T(ctx, eng.Title()), side), nil
}
