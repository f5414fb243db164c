package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/views"
)

// tournamentHandler serves the tournaments: the list, the organiser's
// form, a tournament's page and its actions (join, leave or withdraw,
// start, cancel, add or remove a computer player).
type tournamentHandler struct {
	db   *db.DB
	now  func() time.Time
	seed func() int64
	// adminsOnly: only administrators create tournaments.
	adminsOnly bool
	// rateBots: games against the computer are rated (in a rated
	// tournament).
	rateBots bool
	// wake tells the computer's worker it may have a move to make.
	wake func()
	live *liveHub // for the page's event stream
}

// mayCreate refuses a viewer who may not create a tournament on this
// server. Errors: KindForbidden when only administrators may and the
// viewer is not one.
func (h *tournamentHandler) mayCreate(c echo.Context) error {
	if h.adminsOnly && !currentViewer(c).Admin {
		return db.Errorf(db.KindForbidden, "On this server only the administrators create tournaments.")
	}
	return nil
}

// computerLevels are the computer players' levels, weakest first.
var computerLevels = []string{"easy", "medium", "hard"}

var formatTitles = map[string]string{
	db.FormatRoundRobin: "Round robin",
	db.FormatSwiss:      "Swiss",
	db.FormatKnockout:   "Knockout",
}

// tournamentGame is "TRENCH · Official match (2 games)", or the game's
// title alone when it has one set of rules.
func tournamentGame(game, variant string) string {
	eng, ok := rules.Lookup(game)
	if !ok {
		return game
	}
	if len(eng.Variants()) == 1 {
		return eng.Title()
	}
	return eng.Title() + " · " + variantTitle(context.TODO(), eng, variant)
}

func formatText(t db.Tournament) string {
	s := formatTitles[t.Format]
	if t.Format == db.FormatSwiss {
		s += ", " + plural(t.Rounds, "round")
	}
	return s
}

func (h *tournamentHandler) list(c echo.Context) error {
	ts, err := h.db.Tournaments(c.Request().Context())
	if err != nil {
		return err
	}
	v := currentViewer(c)
	p := views.TournamentsPage{Page: pageOf(c, "Tournaments"), CanCreate: v.ID != 0 && (!h.adminsOnly || v.Admin),
		WhoCreates: "Any signed-in player may organise a tournament."}
	if h.adminsOnly {
		p.WhoCreates = "On this server only the administrators organise tournaments."
	}
	for _, t := range ts {
		line := views.TournamentLine{Href: fmt.Sprintf("/tournaments/%d", t.ID), Name: t.Name, Game: tournamentGame(t.Game, t.Variant),
			Format: formatText(t), Players: fmt.Sprintf("%d of %d players", t.Entrants, t.MaxPlayers)}
		switch t.Status {
		case "signup":
			line.When = "starts when full"
			if !t.StartsAt.IsZero() {
				line.When = "sign-up ends " + t.StartsAt.Format("2006-01-02 15:04 MST")
			}
			p.Upcoming = append(p.Upcoming, line)
		case "running":
			line.When = fmt.Sprintf("round %d", t.Round)
			p.Running = append(p.Running, line)
		default:
			line.When = t.Status
			p.Finished = append(p.Finished, line)
		}
	}
	return render(c, http.StatusOK, views.TournamentsView(p), nil)
}

// tournamentForm fills the organiser's form from what was submitted.
func tournamentForm(c echo.Context, name, game, format, rounds, min, max, days, starts string, rated bool, msg string) views.TournamentForm {
	f := views.TournamentForm{Page: pageOf(c, "Organise a tournament"), Error: msg, Name: name, Rounds: rounds, Min: min, Max: max, Rated: rated}
	for _, e := range engines() {
		for _, v := range e.Variants() {
			val := e.Key() + ":" + v.Key
			f.Games = append(f.Games, views.Option{Value: val, Label: tournamentGame(e.Key(), v.Key), Selected: val == game})
		}
	}
	for _, k := range []string{db.FormatRoundRobin, db.FormatSwiss, db.FormatKnockout} {
		f.Formats = append(f.Formats, views.Option{Value: k, Label: formatTitles[k], Selected: k == format})
	}
	for _, d := range db.DaysPerMove {
		v := strconv.Itoa(d)
		f.Days = append(f.Days, views.Option{Value: v, Label: plural(d, "day"), Selected: v == days})
	}
	f.Starts = []views.Option{{Value: "", Label: "when full", Selected: starts == ""}}
	for _, d := range []int{1, 2, 3, 7, 14} {
		v := strconv.Itoa(d)
		f.Starts = append(f.Starts, views.Option{Value: v, Label: "after a sign-up of " + plural(d, "day"), Selected: v == starts})
	}
	return f
}

func (h *tournamentHandler) form(c echo.Context) error {
	if err := h.mayCreate(c); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.TournamentFormView(tournamentForm(c, "", "trench:match", db.FormatRoundRobin, "3", "4", "8", "3", "", true, "")), nil)
}

// create stores a new tournament and sends the organiser to its page.
// Errors: the form again with a 400 for bad settings; 403 when only
// administrators create tournaments and the viewer is not one.
func (h *tournamentHandler) create(c echo.Context) error {
	if err := h.mayCreate(c); err != nil {
		return err
	}
	name, game, format := c.FormValue("name"), c.FormValue("game"), c.FormValue("format")
	rounds, min, max, days, starts := c.FormValue("rounds"), c.FormValue("min"), c.FormValue("max"), c.FormValue("days"), c.FormValue("starts")
	rated := c.FormValue("rated") != ""
	again := func(err error) error {
		status, msg := statusOf(c, err)
		return render(c, status, views.TournamentFormView(tournamentForm(c, name, game, format, rounds, min, max, days, starts, rated, msg)), nil)
	}
	num := func(s string) int {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return -1
		}
		return n
	}
	key, variant, _ := strings.Cut(game, ":")
	nt := db.NewTournament{OrganiserID: currentViewer(c).ID, Name: name, Game: key, Variant: variant, Format: format,
		Rounds: num(rounds), MinPlayers: num(min), MaxPlayers: num(max),
		Clock: db.TimeControl{Kind: "move", DaysPerMove: num(days)}, Rated: rated, Seed: h.seed()}
	if starts != "" {
		d := num(starts)
		if d < 1 || d > 14 {
			return again(db.Errorf(db.KindInvalid, "The sign-up lasts 1 to 14 days."))
		}
		nt.StartsAt = h.now().Add(time.Duration(d) * 24 * time.Hour)
	}
	t, err := h.db.CreateTournament(c.Request().Context(), nt, h.now())
	if db.KindOf(err) == db.KindInvalid {
		return again(err)
	} else if err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/tournaments/%d", t.ID))
}

// pointsText writes points with a half: "2½", "½", "0".
func pointsText(p float64) string {
	whole := int(p)
	s := strconv.Itoa(whole)
	if p-float64(whole) >= 0.5 {
		if whole == 0 {
			return "½"
		}
		s += "½"
	}
	return s
}

func (h *tournamentHandler) show(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	p, err := h.page(c, id)
	if err != nil {
		return err
	}
	p.LiveURL = fmt.Sprintf("/tournaments/%d/events?g=%d", id, h.live.gen(liveTopic{liveTournament, id}))
	return render(c, http.StatusOK, views.TournamentView(p), nil)
}

// page is tournament id's page for the request's viewer. Errors:
// KindNotFound.
func (h *tournamentHandler) page(c echo.Context, id int64) (views.TournamentPage, error) {
	d, err := h.db.Tournament(c.Request().Context(), id)
	if err != nil {
		return views.TournamentPage{}, err
	}
	me := currentViewer(c).ID
	p := views.TournamentPage{Page: pageOf(c, d.Name), ID: d.ID, Name: d.Name, Game: tournamentGame(d.Game, d.Variant),
		Format: formatText(d.Tournament), Clock: d.Clock.String(), Rated: d.Rated, Organiser: d.Organiser.Name,
		Bracket: d.Format == db.FormatKnockout}
	switch d.Format {
	case db.FormatRoundRobin:
		p.Rule = "Every player meets every other once (with each colour, unless each pairing is already a two-game match). All games start together. Ties in the standings are broken by Buchholz (the points of the opponents met), then Sonneborn–Berger."
	case db.FormatSwiss:
		p.Rule = "Each round pairs players with the same score where it can, never the same two twice while that can be avoided, and keeps colours balanced. With an odd number of players the lowest-ranked player who has not had a bye gets one, worth a win. A round starts as soon as the last game of the one before ends. Ties are broken by Buchholz, then Sonneborn–Berger."
	case db.FormatKnockout:
		p.Rule = "Players are seeded by rating; the top seeds get the byes of the first round. The winner of each pairing goes on; a drawn pairing is played again with the colours reversed until it has a winner. A round starts as soon as the last game of the one before ends."
	}
	entered, withdrawn := false, false
	inside := map[string]bool{}
	// Games against the computer are rated as the server rated them when
	// each computer player was entered; before that, as it rates them now.
	botsRated := h.rateBots
	for _, e := range d.Entrants {
		name := e.Name
		if e.Withdrawn {
			name += " (withdrawn)"
		}
		p.Entrants = append(p.Entrants, name)
		if e.ID == me {
			entered, withdrawn = true, e.Withdrawn
		}
		if e.Computer != "" {
			inside[e.Computer] = true
			botsRated = e.Rated
		}
	}
	if _, ok := bot.Lookup(d.Game); ok {
		p.ComputerRule = "The organiser may add computer players before the start; they play their games like anyone else. Games against the computer are not rated."
		if botsRated && d.Rated {
			p.ComputerRule = "The organiser may add computer players before the start; they play their games like anyone else, and this server rates games against the computer."
		}
		if d.Status == "signup" && me == d.Organiser.ID {
			for _, l := range computerLevels {
				if inside[l] {
					p.ComputersIn = append(p.ComputersIn, views.Option{Value: l, Label: "Computer · " + l})
				} else if d.Tournament.Entrants < d.MaxPlayers {
					p.ComputersOut = append(p.ComputersOut, views.Option{Value: l, Label: "Computer · " + l})
				}
			}
		}
	}
	switch d.Status {
	case "signup":
		p.Status = fmt.Sprintf("Signing up: %d of %d players (at least %d).", d.Tournament.Entrants, d.MaxPlayers, d.MinPlayers)
		if d.StartsAt.IsZero() {
			p.Status += " It starts when full."
		} else {
			p.Status += " It starts on " + d.StartsAt.Format("2006-01-02 15:04 MST") + "."
		}
		p.CanJoin = me != 0 && !entered && d.Tournament.Entrants < d.MaxPlayers
		p.CanLeave = entered
		p.CanStart = me == d.Organiser.ID && d.Tournament.Entrants >= d.MinPlayers
		p.CanCancel = me == d.Organiser.ID
	case "running":
		p.Status = fmt.Sprintf("Round %d of %d is being played.", d.Round, d.Rounds)
		if d.Format == db.FormatRoundRobin {
			p.Status = "Running: every game has started."
		}
		p.CanWithdraw = entered && !withdrawn
	case "finished":
		p.Status = "Finished."
	case "cancelled":
		p.Status = "Cancelled before it started."
	}
	if d.Status == "running" || d.Status == "finished" {
		st, err := d.Standings()
		if err != nil {
			return views.TournamentPage{}, err
		}
		names := map[int64]db.Entrant{}
		for _, e := range d.Entrants {
			names[e.ID] = e
		}
		for _, s := range st {
			e := names[s.ID]
			p.Standings = append(p.Standings, views.StandingLine{Rank: s.Rank, Name: e.Name, Points: pointsText(s.Points), Games: s.Games,
				Buchholz: pointsText(s.Buchholz), SonnebornBerger: strconv.FormatFloat(s.SonnebornBerger, 'f', -1, 64), Withdrawn: e.Withdrawn})
		}
		if d.Format == db.FormatRoundRobin {
			crosstable(&p, d)
		} else {
			rounds(&p, d)
		}
	}
	return p, nil
}

func gameHref(p db.TournamentPairing) string {
	if p.GameID == 0 {
		return ""
	}
	return fmt.Sprintf("/games/%d", p.GameID)
}

// crosstable fills a round robin's table: each player's results against
// each other, both legs where there are two.
func crosstable(p *views.TournamentPage, d db.TournamentDetail) {
	idx := map[int64]int{}
	for i, e := range d.Entrants {
		idx[e.ID] = i
		p.CrossHead = append(p.CrossHead, e.Name)
	}
	p.Cross = make([][]views.CrossCell, len(d.Entrants))
	for i := range p.Cross {
		p.Cross[i] = make([]views.CrossCell, len(d.Entrants))
	}
	add := func(cell *views.CrossCell, text, href string) {
		if cell.Text != "" {
			cell.Text += " "
		}
		cell.Text += text
		if cell.Href == "" {
			cell.Href = href
		}
	}
	for _, x := range d.Pairings {
		if x.Side[1].ID == 0 {
			continue
		}
		a, b := idx[x.Side[0].ID], idx[x.Side[1].ID]
		ta, tb := "…", "…"
		if x.Decided {
			ta, tb = pointsText(x.Points0), pointsText(1-x.Points0)
		}
		add(&p.Cross[a][b], ta, gameHref(x))
		add(&p.Cross[b][a], tb, gameHref(x))
	}
	for i := range p.Cross {
		p.Cross[i][i] = views.CrossCell{Text: "×"}
	}
}

// rounds fills the Swiss rounds or the knockout bracket.
func rounds(p *views.TournamentPage, d db.TournamentDetail) {
	byRound := map[int][]views.PairingLine{}
	last := 0
	for _, x := range d.Pairings {
		line := views.PairingLine{Side0: x.Side[0].Name, Side1: x.Side[1].Name, Href: gameHref(x), Leg: x.Leg}
		switch {
		case x.Side[1].ID == 0:
			line.Side1, line.Result = "bye", "1"
		case !x.Decided:
			line.Result = "playing"
		default:
			line.Result = pointsText(x.Points0) + " – " + pointsText(1-x.Points0)
		}
		byRound[x.Round] = append(byRound[x.Round], line)
		last = max(last, x.Round)
	}
	for r := 1; r <= last; r++ {
		title := "Round " + strconv.Itoa(r)
		if d.Format == db.FormatKnockout {
			switch d.Rounds - r {
			case 0:
				title = "Final"
			case 1:
				title = "Semi-finals"
			case 2:
				title = "Quarter-finals"
			}
		}
		p.Rounds = append(p.Rounds, views.RoundView{Number: r, Title: title, Pairings: byRound[r]})
	}
}

// act runs one of a tournament's actions for the signed-in player and
// shows the tournament again.
func (h *tournamentHandler) act(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	ctx, me, now := c.Request().Context(), currentViewer(c).ID, h.now()
	switch c.Param("action") {
	case "join":
		err = h.db.JoinTournament(ctx, id, me, now)
	case "leave":
		err = h.db.LeaveTournament(ctx, id, me, now)
	case "start":
		err = h.db.StartTournament(ctx, id, me, now)
	case "cancel":
		err = h.db.CancelTournament(ctx, id, me, now)
	case "computer":
		err = h.addComputer(c, id)
	case "remove-computer":
		err = h.db.RemoveComputerEntrant(ctx, id, me, c.FormValue("level"))
	default:
		return db.Errorf(db.KindNotFound, "There is no such action.")
	}
	if err != nil {
		return err
	}
	h.wake() // a tournament that started may have games for the computer
	return redirect(c, fmt.Sprintf("/tournaments/%d", id))
}

// addComputer enters the computer player of the submitted level in
// tournament id for its organiser. Errors: KindNotFound; KindInvalid when
// the computer does not play the tournament's game or the level is
// unknown; as db.AddComputerEntrant.
func (h *tournamentHandler) addComputer(c echo.Context, id int64) error {
	ctx := c.Request().Context()
	t, err := h.db.Tournament(ctx, id)
	if err != nil {
		return err
	}
	if _, ok := bot.Lookup(t.Game); !ok {
		return db.Errorf(db.KindInvalid, "The computer does not play %s.", tournamentGame(t.Game, t.Variant))
	}
	return h.db.AddComputerEntrant(ctx, id, currentViewer(c).ID, c.FormValue("level"), h.rateBots, h.now())
}
