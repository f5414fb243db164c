package handlers

import (
	"context"
	"fmt"
	"sort"
	"strconv"
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

// variantTitle returns the display name of variant key of eng ("decider"
// and other internal variants fall back to the key).
func variantTitle(eng rules.Engine, key string) string {
	for _, v := range eng.Variants() {
		if v.Key == key {
			return v.Title
		}
	}
	if key == "decider" {
		return "Decider (first to 40)"
	}
	return key
}

// gameLabel names game number of a match: "Game 1", "Game 2", "Decider".
func gameLabel(g db.Game) string {
	if g.Variant == "decider" {
		return "Decider"
	}
	return "Game " + strconv.Itoa(g.Number)
}

// gameTitle is a game's name in lists and headings: the game, the rules
// the match was made with, and, in a match of several games, which game
// of the match it is.
func gameTitle(eng rules.Engine, g db.Game) string {
	t := eng.Title() + " · " + variantTitle(eng, g.MatchVariant)
	if g.Number > 1 || variantIsMatch(eng, g.MatchVariant) {
		t += " · " + gameLabel(g)
	}
	return t
}

// clockText says how long the side to move has left, in words: "2 days
// 3 hours left", "time is up".
func clockText(left time.Duration) string {
	if left <= 0 {
		return "time is up"
	}
	return clockSpan(left) + " left"
}

// clockSpan writes a positive time on a clock: "2 days 3 hours", "5 hours
// 10 minutes", "1 minute".
func clockSpan(d time.Duration) string {
	days := int(d / (24 * time.Hour))
	hours := int((d % (24 * time.Hour)) / time.Hour)
	mins := int((d % time.Hour) / time.Minute)
	switch {
	case days > 0:
		return plural(days, "day") + " " + plural(hours, "hour")
	case hours > 0:
		return plural(hours, "hour") + " " + plural(mins, "minute")
	}
	return plural(max(mins, 1), "minute")
}

// dateTime is how pages write a moment: "21 March 2026 13:00 UTC".
func dateTime(t time.Time) string { return t.UTC().Format("2 January 2006 15:04 UTC") }

// vacationClock says that who, to move, is on vacation v, until when, and
// what is on their stopped clock: "alice is on vacation until 21 March
// 2026 13:00 UTC; 2 days 23 hours on the clock" ("You are …" when you).
func vacationClock(who string, you bool, v db.VacationStatus, left time.Duration) string {
	subject := who + " is"
	if you {
		subject = "You are"
	}
	return fmt.Sprintf("%s on vacation until %s; %s on the clock", subject, dateTime(v.EndsBy), clockSpan(max(left, time.Minute)))
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// endings says how a game ended when its score is not shown.
var endings = map[rules.Reason]string{rules.ReasonResigned: "by resignation", rules.ReasonTimeout: "on time"}

// resultText describes a finished game's result to a reader. With viewer
// a side of the game it speaks of that side: as "You" when who is "",
// else by the name who (a profile); the score is then that side's first
// ("You won 62–54", "bob lost 54–62"). For anyone else it names the
// winner, whose score comes first ("bob (White) won 62–54"). A game whose
// ending has no score (rules.Scored) says how it ended instead ("won by
// resignation"); an aborted game says so.
func resultText(eng rules.Engine, g db.Game, viewer rules.Side, who string) string {
	if g.Aborted() {
		return "Aborted (" + string(g.Reason) + " before both sides had moved)"
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
		score += " (" + string(g.Reason) + ")"
	}
	if !rules.Scored(eng, g.Reason) {
		score = endings[g.Reason]
	}
	subject := who
	if who == "" {
		subject = "You"
	}
	switch {
	case g.Winner == rules.NoSide:
		return "Drawn " + score
	case viewer.Valid() && g.Winner == viewer:
		return subject + " won " + score
	case viewer.Valid():
		return subject + " lost " + score
	}
	return fmt.Sprintf("%s (%s) won %s", g.Side[g.Winner].Name, eng.SideNames()[g.Winner], score)
}

// gameRow is a game in the dashboard's lists, seen by userID (the lists'
// owner) and shown to viewerID, with its clock cs (db.Clocks).
func gameRow(g db.Game, userID, viewerID int64, cs db.ClockState) (views.GameRow, error) {
	return gameRowAs(g, userID, viewerID, "", cs)
}

// gameRowAs is gameRow in a list of userID's games; who names userID in
// the text ("" for "you": the reader is userID).
func gameRowAs(g db.Game, userID, viewerID int64, who string, cs db.ClockState) (views.GameRow, error) {
	eng, err := g.Engine()
	if err != nil {
		return views.GameRow{}, err
	}
	side := g.SideOf(userID)
	r := views.GameRow{ID: g.ID, Href: fmt.Sprintf("/games/%d", g.ID), Title: gameTitle(eng, g)}
	if side.Valid() {
		r.Opponent = g.Side[side.Other()].Name
		r.YourSide = eng.SideNames()[side]
	}
	switch {
	case g.Finished():
		r.Status = resultText(eng, g, side, who)
		return r, nil
	case g.ToMove == side && who == "":
		r.YourTurn, r.Status = true, "Your move"
	case g.ToMove == side:
		r.Status = who + " to move"
	default:
		r.Status = "Waiting for " + g.Side[g.ToMove].Name
	}
	r.Clock = clockText(cs.Left)
	if cs.Stopped {
		mover := g.Side[g.ToMove]
		r.Clock = vacationClock(mover.Name, mover.ID == viewerID, cs.Vacation[g.ToMove], cs.Left)
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
	for i, g := range games {
		r, err := gameRowAs(g, userID, viewerID, who, clocks[i])
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// challengeRow is a challenge in a list, seen by userID.
func challengeRow(c db.Challenge, userID int64) views.ChallengeRow {
	r := views.ChallengeRow{ID: c.ID, From: c.Creator.Name, To: c.Opponent.Name, Game: c.Game, Variant: c.Variant,
		Color: "random", Time: c.Clock.String(), Takebacks: c.Takebacks}
	if eng, ok := rules.Lookup(c.Game); ok {
		r.Game, r.Variant = eng.Title(), variantTitle(eng, c.Variant)
		switch c.Color {
		case "0":
			r.Color = eng.SideNames()[0]
		case "1":
			r.Color = eng.SideNames()[1]
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
// or which game is being played.
func matchRows(list []db.MatchGames) ([]views.MatchRow, error) {
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
		panel := matchPanel(eng, mg.Match, mg.Games, 0)
		if panel == nil {
			continue
		}
		r := views.MatchRow{
			Href:    fmt.Sprintf("/games/%d", last.ID),
			Title:   eng.Title() + " · " + variantTitle(eng, mg.Variant),
			Players: panel.Players,
			Totals:  panel.Totals,
			Status:  panel.Result,
		}
		if r.Status == "" {
			r.Status = gameLabel(last) + " in progress"
		}
		out = append(out, r)
	}
	return out, nil
}
