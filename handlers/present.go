package handlers

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// gameOrder is the order in which pages list the games: TRENCH first.
var gameOrder = map[string]int{"trench": 0, "trenches": 1, "cards": 2}

// engines returns the registered games in gameOrder (others after them,
// by key).
func engines() []rules.Engine {
	es := rules.Engines()
	rank := func(e rules.Engine) int {
		if r, ok := gameOrder[e.Key()]; ok {
			return r
		}
		return len(gameOrder)
	}
	sort.SliceStable(es, func(i, j int) bool { return rank(es[i]) < rank(es[j]) })
	return es
}

// gameName is the name of eng's game in the language of ctx ("TRENCH",
// "Trenches", "Trench, the card game").
func gameName(ctx context.Context, eng rules.Engine) string {
	return views.T(ctx, eng.Title())
}

// variantTitle returns the display name of variant key of eng in the
// language of ctx ("decider" and other internal variants: the decider's
// name, else the key).
func variantTitle(ctx context.Context, eng rules.Engine, key string) string {
	if v, ok := rules.VariantOf(eng, key); ok {
		return views.T(ctx, v.Title)
	}
	if key == "decider" {
		return views.T(ctx, "Decider (first to 40)")
	}
	return key
}

// gameLabel names game number of a match: "Game 1", "Game 2", "Decider".
func gameLabel(ctx context.Context, g db.Game) string {
	if g.Variant == "decider" {
		return views.T(ctx, "Decider")
	}
	return views.T(ctx, "Game %d", g.Number)
}

// gameTitle is a game's name in lists and headings: the game, the rules
// the match was made with, and, in a match of several games, which game
// of the match it is.
func gameTitle(ctx context.Context, eng rules.Engine, g db.Game) string {
	k := titleKey{eng.Key(), g.MatchVariant, g.Number, g.Variant == "decider"}
	return keptTitles.Text(ctx, k, func() string {
		t := gameName(ctx, eng) + " · " + variantTitle(ctx, eng, g.MatchVariant)
		if g.Number > 1 || variantIsMatch(eng, g.MatchVariant) {
			t += " · " + gameLabel(ctx, g)
		}
		return t
	})
}

// keptTitles, keptClocks and keptVacations keep the texts of gameTitle,
// clockText and vacationClock.
var (
	keptTitles    views.Kept[titleKey]
	keptClocks    views.Kept[views.Span]
	keptVacations views.Kept[vacationKey]
)

// titleKey is what gameTitle's text depends on besides the language: the
// game, the rules of the match, the game's number in it, and whether it
// is the decider.
type titleKey struct {
	game, matchVariant string
	number             int
	decider            bool
}

// clockText says how long the side to move has left, in words, in the
// language of ctx: "2 days 3 hours left", "time is up".
func clockText(ctx context.Context, left time.Duration) string {
	if left <= 0 {
		return views.T(ctx, "time is up")
	}
	write := func() string {
		return views.TN(ctx, "%s left", views.LeadingCount(left), views.Duration(ctx, left))
	}
	shown := views.SpanOf(left)
	if !shown.Kept() {
		return write()
	}
	return keptClocks.Text(ctx, shown, write)
}

// dayTime writes a moment as "21 March 13:00" (no year) in the language of
// ctx, in the time zone t carries.
func dayTime(ctx context.Context, t time.Time) string {
	return views.T(ctx, "%[1]d %[2]s %[3]s", t.Day(), views.T(ctx, t.Month().String()), t.Format("15:04"))
}

// dateTimeLocal writes a moment as "21 March 2026 13:00" in the language
// of ctx, in the time zone t carries.
func dateTimeLocal(ctx context.Context, t time.Time) string {
	return views.T(ctx, "%[1]s %[2]s %[3]d %[4]s", views.DayOfMonth(ctx, t.Day()), views.T(ctx, t.Month().String()), t.Year(), t.Format("15:04"))
}

// vacationClock says that who, to move, is on vacation v, until when, and
// what is on their stopped clock: "alice is on vacation until 21 March
// 2026 13:00 UTC; 2 days 23 hours on the clock" ("You are …" when you).
func vacationClock(ctx context.Context, who string, you bool, v db.VacationStatus, left time.Duration) string {
	write := func() string {
		until, clock := views.DateTime(ctx, v.EndsBy), views.Duration(ctx, max(left, time.Minute))
		if you {
			return views.T(ctx, "You are on vacation until %s; %s on the clock", until, clock)
		}
		return views.T(ctx, "%s is on vacation until %s; %s on the clock", who, until, clock)
	}
	shown := views.SpanOf(left)
	if !shown.Kept() {
		return write()
	}
	if you {
		who = ""
	}
	return keptVacations.Text(ctx, vacationKey{who, v.EndsBy.Truncate(time.Minute).Unix(), shown}, write)
}

// vacationKey is what vacationClock's text depends on besides the
// language: who ("" for you), the minute the vacation ends by (DateTime
// writes it to the minute, in UTC), and the span shown.
type vacationKey struct {
	who   string
	until int64
	shown views.Span
}

// span writes a duration in days and hours ("7 days 12 hours", "1 day",
// "5 hours") in the language of ctx.
func span(ctx context.Context, d time.Duration) string {
	days := int(d / (24 * time.Hour))
	hours := int((d % (24 * time.Hour)) / time.Hour)
	switch {
	case days > 0 && hours > 0:
		return views.T(ctx, "%[1]s %[2]s", views.TN(ctx, "%d days", days, days), views.TN(ctx, "%d hours", hours, hours))
	case days > 0:
		return views.TN(ctx, "%d days", days, days)
	}
	return views.TN(ctx, "%d hours", hours, hours)
}

// battleRE reads a card game's battle as its log writes it: "7S × QH, QH
// wins", "7S × 7H, tie".
var battleRE = regexp.MustCompile(`^(\S+) × (\S+), (?:(\S+) wins|tie)$`)

// eventRE reads a step that follows a card game's move in its log: "Red
// draws a card", "Black draws 7S", "Black refill F2 B2 (forced)".
var eventRE = regexp.MustCompile(`^(\S+) (?:(draws a card)|draws (\S+)|(.+) \(forced\))$`)

// logText is text, a move as the rules describe it (State.Describe), in
// the language of ctx. The notation stays as it is; the words the card
// game's log puts around it are translated: "attack F1: 7S × 2H, 7S wins;
// Red draws a card" (a text the patterns do not know is left alone).
func logText(ctx context.Context, text string) string {
	if views.Lang(ctx) == "en" {
		return text
	}
	// not shown: the rules' text, compared (the translation is below)
	if text == "(unreadable move)" {
		return views.T(ctx, "(unreadable move)")
	}
	parts := strings.Split(text, "; ")
	if head, detail, ok := strings.Cut(parts[0], ": "); ok {
		if m := battleRE.FindStringSubmatch(detail); m != nil {
			if m[3] == "" {
				detail = views.T(ctx, "%s × %s, tie", m[1], m[2])
			} else {
				detail = views.T(ctx, "%s × %s, %s wins", m[1], m[2], m[3])
			}
			parts[0] = head + ": " + detail
		}
	}
	for i, p := range parts[1:] {
		m := eventRE.FindStringSubmatch(p)
		if m == nil {
			continue
		}
		side := views.T(ctx, m[1])
		switch {
		case m[2] != "":
			parts[i+1] = views.T(ctx, "%s draws a card", side)
		case m[3] != "":
			parts[i+1] = views.T(ctx, "%s draws %s", side, m[3])
		default:
			parts[i+1] = views.T(ctx, "%s %s (forced)", side, m[4])
		}
	}
	return strings.Join(parts, "; ")
}

// scoreText writes score n of a game of eng in the language of ctx: "12
// pts", "9 cards", "3 mobile" (rules.FormatScore's forms, translated).
func scoreText(ctx context.Context, eng rules.Engine, n int) string {
	s := rules.FormatScore(eng, n)
	num, unit, _ := strings.Cut(s, " ")
	if num != strconv.Itoa(n) {
		return s
	}
	switch unit {
	case "pts", "pt":
		return views.TN(ctx, "%d pts", n, n)
	case "cards":
		return views.TN(ctx, "%d cards", n, n)
	case "card":
		if n == 1 {
			return views.TN(ctx, "%d cards", n, n)
		}
	case "mobile":
		return views.TN(ctx, "%d mobile", n, n)
	}
	return s
}

// sideName is the name of side of a game of eng in the language of ctx.
func sideName(ctx context.Context, eng rules.Engine, side rules.Side) string {
	return views.T(ctx, eng.SideNames()[side])
}

// endingText says how a game ended for reason r when its score is not
// shown, in the language of ctx: "by resignation", "on time" ("" for other
// reasons).
func endingText(ctx context.Context, r rules.Reason) string {
	switch r {
	case rules.ReasonResigned:
		return views.T(ctx, "by resignation")
	case rules.ReasonTimeout:
		return views.T(ctx, "on time")
	}
	return ""
}

// reasonText is why a game ended, in the language of ctx ("resignation").
func reasonText(ctx context.Context, r rules.Reason) string {
	return views.T(ctx, string(r))
}

// resultText describes a finished game's result to a reader, in the
// language of ctx. With viewer a side of the game it speaks of that side:
// as "You" when who is "", else by the name who (a profile); the score is
// then that side's first ("You won 62–54", "bob lost 54–62"). For anyone
// else it names the winner, whose score comes first ("bob (White) won
// 62–54"). A game whose ending has no score (rules.Scored) says how it
// ended instead ("won by resignation"); an aborted game says so.
func resultText(ctx context.Context, eng rules.Engine, g db.Game, viewer rules.Side, who string) string {
	if g.Aborted() {
		return views.T(ctx, "Aborted (%s before both sides had moved)", reasonText(ctx, g.Reason))
	}
	first := viewer
	if !first.Valid() {
		first = g.Winner
	}
	if !first.Valid() {
		first = rules.Side0
	}
	score := fmt.Sprintf("%d–%d", g.Score[first], g.Score[first.Other()])
	if g.Reason != "" {
		score += " (" + reasonText(ctx, g.Reason) + ")"
	}
	if !rules.Scored(eng, g.Reason) {
		score = endingText(ctx, g.Reason)
	}
	switch {
	case g.Winner == rules.NoSide:
		return views.T(ctx, "Drawn %s", score)
	case viewer.Valid() && g.Winner == viewer && who == "":
		return views.T(ctx, "You won %s", score)
	case viewer.Valid() && g.Winner == viewer:
		return views.T(ctx, "%s won %s", who, score)
	case viewer.Valid() && who == "":
		return views.T(ctx, "You lost %s", score)
	case viewer.Valid():
		return views.T(ctx, "%s lost %s", who, score)
	}
	return views.T(ctx, "%s (%s) won %s", g.Side[g.Winner].Name, sideName(ctx, eng, g.Winner), score)
}

// gameRow is a game in the dashboard's lists, seen by userID (the lists'
// owner) and shown to viewerID, with its clock cs (db.Clocks), in the
// language of ctx.
func gameRow(ctx context.Context, g db.Game, userID, viewerID int64, cs db.ClockState) (views.GameRow, error) {
	return gameRowAs(ctx, new(listWords), &g, userID, viewerID, "", cs)
}

// listWords holds what every row of one list of games in one language
// repeats: each game's engine and side names, and "Your move", looked up
// once for the list instead of once a row.
type listWords struct {
	yourMove string
	games    []gameWords
}

// gameWords is a game's engine and the names of its sides.
type gameWords struct {
	key   string
	eng   rules.Engine
	sides [2]string
}

// game returns the engine of g's game and the names of its sides in the
// language of ctx, looked up at the first row of that game. Errors: a
// game no engine plays.
func (w *listWords) game(ctx context.Context, g *db.Game) (*gameWords, error) {
	for i := range w.games {
		if w.games[i].key == g.Game {
			return &w.games[i], nil
		}
	}
	eng, err := g.Engine()
	if err != nil {
		return nil, err
	}
	w.games = append(w.games, gameWords{key: g.Game, eng: eng, sides: [2]string{sideName(ctx, eng, 0), sideName(ctx, eng, 1)}})
	return &w.games[len(w.games)-1], nil
}

// gameRowAs is gameRow in a list of userID's games; who names userID in
// the text ("" for "you": the reader is userID). w is the list's words,
// filled as the rows need them.
func gameRowAs(ctx context.Context, w *listWords, g *db.Game, userID, viewerID int64, who string, cs db.ClockState) (views.GameRow, error) {
	gw, err := w.game(ctx, g)
	if err != nil {
		return views.GameRow{}, err
	}
	eng := gw.eng
	side := g.SideOf(userID)
	r := views.GameRow{ID: g.ID, Href: "/games/" + strconv.FormatInt(g.ID, 10), Title: gameTitle(ctx, eng, *g)}
	if side.Valid() {
		r.Opponent = g.Side[side.Other()].Name
		r.YourSide = gw.sides[side]
	}
	switch {
	case g.Finished():
		r.Status = resultText(ctx, eng, *g, side, who)
		return r, nil
	case g.ToMove == side && who == "":
		if w.yourMove == "" {
			w.yourMove = views.T(ctx, "Your move")
		}
		r.YourTurn, r.Status = true, w.yourMove
	case g.ToMove == side:
		r.Status = views.T(ctx, "%s to move", who)
	default:
		r.Status = views.T(ctx, "Waiting for %s", g.Side[g.ToMove].Name)
	}
	if cs.Stopped {
		mover := g.Side[g.ToMove]
		r.Clock = vacationClock(ctx, mover.Name, mover.ID == viewerID, cs.Vacation[g.ToMove], cs.Left)
	} else {
		r.Clock = clockText(ctx, cs.Left)
	}
	return r, nil
}

// gameRows returns the rows of games (gameRow), their clocks at now read
// in one query.
func gameRows(ctx context.Context, store *db.DB, games []db.Game, userID, viewerID int64, now time.Time) ([]views.GameRow, error) {
	return gameRowsAs(ctx, store, games, userID, viewerID, "", now)
}

// gameRowsAs is gameRows naming userID who in the texts ("" for "you").
func gameRowsAs(ctx context.Context, store *db.DB, games []db.Game, userID, viewerID int64, who string, now time.Time) ([]views.GameRow, error) {
	clocks, err := store.Clocks(ctx, games, now)
	if err != nil {
		return nil, err
	}
	rows := make([]views.GameRow, 0, len(games))
	var w listWords
	for i := range games {
		g := &games[i]
		r, err := gameRowAs(ctx, &w, g, userID, viewerID, who, clocks[i])
		if err != nil {
			return nil, err
		}
		if cs := clocks[i]; !g.Finished() && !cs.Stopped && cs.Left <= 0 {
			// Between the deadline and the background job: what happens next.
			mover := g.Side[g.ToMove]
			if r.Clock, err = timeUp(ctx, store, mover, mover.ID == viewerID, cs.Left, now); err != nil {
				return nil, err
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// challengeRow is a challenge in a list, seen by userID, in the language
// of ctx.
func challengeRow(ctx context.Context, c db.Challenge, userID int64) views.ChallengeRow {
	r := views.ChallengeRow{ID: c.ID, From: c.Creator.Name, To: c.Opponent.Name, Game: c.Game, Variant: c.Variant,
		Color: views.T(ctx, "random"), Time: clockWords(ctx, c.Clock), Takebacks: c.Takebacks}
	if eng, ok := rules.Lookup(c.Game); ok {
		r.Game, r.Variant = gameName(ctx, eng), variantTitle(ctx, eng, c.Variant)
		switch c.Color {
		case "0":
			r.Color = sideName(ctx, eng, 0)
		case "1":
			r.Color = sideName(ctx, eng, 1)
		}
	}
	r.CanCancel = c.Creator.ID == userID
	r.Rated = c.Rated
	r.CanAccept = userID != 0 && c.Creator.ID != userID && (c.Opponent.ID == 0 || c.Opponent.ID == userID)
	r.CanDecline = userID != 0 && c.Opponent.ID == userID
	return r
}

// multiGameVariants lists every {game, variant} made as a match of
// several games.
func multiGameVariants() [][2]string {
	var out [][2]string
	for _, e := range engines() {
		for _, v := range e.Variants() {
			if v.Match {
				out = append(out, [2]string{e.Key(), v.Key})
			}
		}
	}
	return out
}

// matchRows are matches in a list: the players, the totals of the games
// that count for them (game 1 + game 2: see matchPanel) and the result,
// or which game is being played, in the language of ctx.
func matchRows(ctx context.Context, list []db.MatchGames) ([]views.MatchRow, error) {
	out := make([]views.MatchRow, 0, len(list))
	for _, mg := range list {
		if len(mg.Games) == 0 {
			continue
		}
		eng, err := mg.Games[0].Engine()
		if err != nil {
			return nil, err
		}
		last := mg.Games[len(mg.Games)-1]
		panel := matchPanel(ctx, eng, mg.Match, mg.Games, 0)
		if panel == nil {
			continue
		}
		r := views.MatchRow{
			Href:    fmt.Sprintf("/games/%d", last.ID),
			Title:   gameName(ctx, eng) + " · " + variantTitle(ctx, eng, mg.Variant),
			Players: panel.Players,
			Totals:  panel.Totals,
			Status:  panel.Result,
		}
		if r.Status == "" {
			r.Status = views.T(ctx, "%s in progress", gameLabel(ctx, last))
		}
		out = append(out, r)
	}
	return out, nil
}
