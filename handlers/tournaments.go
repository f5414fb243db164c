package handlers

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

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

// formatTitle names a tournament format (db.FormatRoundRobin, …) in the
// language of ctx: "Round robin", "Swiss", "Knockout"; an unknown format
// is returned as it is.
func formatTitle(ctx context.Context, format string) string {
	switch format {
	case db.FormatRoundRobin:
		return views.T(ctx, "Round robin")
	case db.FormatSwiss:
		return views.T(ctx, "Swiss")
	case db.FormatKnockout:
		return views.T(ctx, "Knockout")
	}
	return format
}

// tournamentGame is "TRENCH · Official match (2 games)", or the game's
// title alone when it has one set of rules, in the language of ctx.
func tournamentGame(ctx context.Context, game, variant string) string {
	eng, ok := rules.Lookup(game)
	if !ok {
		return game
	}
	if len(eng.Variants()) == 1 {
		return views.T(ctx, eng.Title())
	}
	return views.T(ctx, eng.Title()) + " · " + variantTitle(ctx, eng, variant)
}

// formatText is a tournament's format as a list shows it: "Swiss, 5
// rounds", "Round robin".
func formatText(ctx context.Context, t db.Tournament) string {
	s := formatTitle(ctx, t.Format)
	if t.Format == db.FormatSwiss {
		s = views.TN(ctx, "%s, %d rounds", t.Rounds, s, t.Rounds)
	}
	return s
}

// clockWords writes a time control in the language of ctx, as
// db.TimeControl.String does in English: "3 days per move", "time bank:
// 10 days, +36 hours a move, up to 20 days".
func clockWords(ctx context.Context, tc db.TimeControl) string {
	if tc.Kind == "bank" {
		return views.T(ctx, "time bank: %s, +%s a move, up to %s", spanWords(ctx, tc.BankInitial), spanWords(ctx, tc.BankAdd), spanWords(ctx, tc.BankMax))
	}
	return views.TN(ctx, "%d days per move", tc.DaysPerMove, tc.DaysPerMove)
}

// spanWords writes a span of whole days or hours in the language of ctx
// ("10 days", "36 hours").
func spanWords(ctx context.Context, d time.Duration) string {
	if h := int(d / time.Hour); h%24 != 0 {
		return views.TN(ctx, "%d hours", h, h)
	}
	days := int(d / (24 * time.Hour))
	return views.TN(ctx, "%d days", days, days)
}

func (h *tournamentHandler) list(c echo.Context) error {
	n, err := pageParam(c)
	if err != nil {
		return err
	}
	ts, more, err := h.db.Tournaments(c.Request().Context(), n)
	if err != nil {
		return err
	}
	v := currentViewer(c)
	ctx := c.Request().Context()
	p := views.TournamentsPage{Page: pageOf(c, tr(c, "Tournaments")), CanCreate: v.ID != 0 && (!h.adminsOnly || v.Admin),
		WhoCreates: tr(c, "Any signed-in player may organise a tournament.")}
	if h.adminsOnly {
		p.WhoCreates = tr(c, "On this server only the administrators organise tournaments.")
	}
	for _, t := range ts {
		line := views.TournamentLine{Href: fmt.Sprintf("/tournaments/%d", t.ID), Name: t.Name, Game: tournamentGame(ctx, t.Game, t.Variant),
			Format: formatText(ctx, t), Players: trn(c, "%d of %d players", t.MaxPlayers, t.Entrants, t.MaxPlayers)}
		switch t.Status {
		case "signup":
			line.When = tr(c, "starts when full")
			if !t.StartsAt.IsZero() {
				line.When = tr(c, "sign-up ends %s", views.DateTime(ctx, t.StartsAt))
			}
			p.Upcoming = append(p.Upcoming, line)
		case "running":
			line.When = tr(c, "round %d", t.Round)
			p.Running = append(p.Running, line)
		case "finished":
			line.When = tr(c, "finished|tournament")
			p.Finished = append(p.Finished, line)
		case "cancelled":
			line.When = tr(c, "cancelled|tournament")
			p.Finished = append(p.Finished, line)
		default:
			line.When = t.Status
			p.Finished = append(p.Finished, line)
		}
	}
	if n > 1 {
		p.PrevHref = "/tournaments?page=" + strconv.Itoa(n-1)
	}
	if more {
		p.NextHref = "/tournaments?page=" + strconv.Itoa(n+1)
	}
	return render(c, http.StatusOK, views.TournamentsView(p), nil)
}

// tournamentForm fills the organiser's form from what was submitted.
func tournamentForm(c echo.Context, name, game, format, rounds, min, max, days, starts string, rated bool, msg string) views.TournamentForm {
	ctx := c.Request().Context()
	f := views.TournamentForm{Page: pageOf(c, tr(c, "Organise a tournament")), Error: msg, Name: name, Rounds: rounds, Min: min, Max: max, Rated: rated}
	for _, e := range engines() {
		for _, v := range e.Variants() {
			val := e.Key() + ":" + v.Key
			f.Games = append(f.Games, views.Option{Value: val, Label: tournamentGame(ctx, e.Key(), v.Key), Selected: val == game})
		}
	}
	for _, k := range []string{db.FormatRoundRobin, db.FormatSwiss, db.FormatKnockout} {
		f.Formats = append(f.Formats, views.Option{Value: k, Label: formatTitle(ctx, k), Selected: k == format})
	}
	for _, d := range db.DaysPerMove {
		v := strconv.Itoa(d)
		f.Days = append(f.Days, views.Option{Value: v, Label: trn(c, "%d days", d, d), Selected: v == days})
	}
	f.Starts = []views.Option{{Value: "", Label: tr(c, "when full"), Selected: starts == ""}}
	for _, d := range []int{1, 2, 3, 7, 14} {
		v := strconv.Itoa(d)
		f.Starts = append(f.Starts, views.Option{Value: v, Label: trn(c, "after a sign-up of %d days", d, d), Selected: v == starts})
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
// Errors: the form again with a 400 for bad settings, with a 429 when a
// player (not an administrator) has db.MaxOpenTournaments in sign-up or
// running already; 403 when only administrators create tournaments and
// the viewer is not one.
func (h *tournamentHandler) create(c echo.Context) error {
	if err := h.mayCreate(c); err != nil {
		return err
	}
	name, game, format := c.FormValue("name"), c.FormValue("game"), c.FormValue("format")
	rounds, min, max, days, starts := c.FormValue("rounds"), c.FormValue("min"), c.FormValue("max"), c.FormValue("days"), c.FormValue("starts")
	rated := c.FormValue("rated") != ""
	again := func(err error) error {
		setRetryAfter(c, err)
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
	if !currentViewer(c).Admin {
		nt.MaxOpen = db.MaxOpenTournaments
	}
	if starts != "" {
		d := num(starts)
		if d < 1 || d > 14 {
			return again(db.Errorf(db.KindInvalid, "The sign-up lasts 1 to 14 days."))
		}
		nt.StartsAt = h.now().Add(time.Duration(d) * 24 * time.Hour)
	}
	t, err := h.db.CreateTournament(c.Request().Context(), nt, h.now())
	if k := db.KindOf(err); k == db.KindInvalid || k == db.KindTooMany {
		return again(err)
	} else if err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/tournaments/%d", t.ID))
}

// computerLabel names the computer player of level ("easy", …) in the
// language of ctx: "Computer · easy".
func computerLabel(ctx context.Context, level string) string {
	return views.T(ctx, "Computer · %s", views.T(ctx, level))
}

// pointsText writes points with their fraction of quarters, as every
// column of the standings does: "2½", "½", "0", "4¾" (Sonneborn–Berger
// counts half a drawn opponent's points).
func pointsText(p float64) string {
	quarters := int(math.Round(p * 4))
	whole, frac := quarters/4, [4]string{"", "¼", "½", "¾"}[quarters%4]
	if whole == 0 && frac != "" {
		return frac
	}
	return strconv.Itoa(whole) + frac
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
	if r := c.QueryParam("round"); r != "" {
		// Its updates keep the round the page shows (page has checked it).
		p.LiveURL += "&round=" + url.QueryEscape(r)
	}
	return render(c, http.StatusOK, views.TournamentView(p), nil)
}

// page is tournament id's page for the request's viewer. Errors:
// KindNotFound.
func (h *tournamentHandler) page(c echo.Context, id int64) (views.TournamentPage, error) {
	d, err := h.db.Tournament(c.Request().Context(), id)
	if err != nil {
		return views.TournamentPage{}, err
	}
	round, err := roundParam(c)
	if err != nil {
		return views.TournamentPage{}, err
	}
	me := currentViewer(c).ID
	ctx := c.Request().Context()
	p := views.TournamentPage{Page: pageOf(c, d.Name), ID: d.ID, Name: d.Name, Game: tournamentGame(ctx, d.Game, d.Variant),
		Format: formatText(ctx, d.Tournament), Clock: clockWords(ctx, d.Clock), Rated: d.Rated, Organiser: d.Organiser.Name}
	switch d.Format {
	case db.FormatRoundRobin:
		p.Rule = tr(c, "Every player meets every other once (with each colour, unless each pairing is already a two-game match). All games start together. Ties in the standings are broken by Buchholz (the points of the opponents met), then Sonneborn–Berger.")
	case db.FormatSwiss:
		p.Rule = tr(c, "Each round pairs players with the same score where it can, never the same two twice while that can be avoided, and keeps colours balanced. With an odd number of players the lowest-ranked player who has not had a bye gets one, worth a win. A round starts as soon as the last game of the one before ends. Ties are broken by Buchholz, then Sonneborn–Berger.")
	case db.FormatKnockout:
		p.Rule = tr(c, "Players are seeded by rating; the top seeds get the byes of the first round. The winner of each pairing goes on; a drawn pairing is played again with the colours reversed until it has a winner. A round starts as soon as the last game of the one before ends.")
	}
	entered, withdrawn := false, false
	inside := map[string]bool{}
	// Games against the computer are rated as the server rated them when
	// each computer player was entered; before that, as it rates them now.
	botsRated := h.rateBots
	for _, e := range d.Entrants {
		name := e.Name
		if e.Withdrawn {
			name = tr(c, "%s (withdrawn)", name)
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
	_, computerPlays := bot.Lookup(d.Game)
	switch {
	case computerPlays && d.Status != "signup" && len(inside) > 0:
		// After the start only what holds for the games being played.
		p.ComputerRule = tr(c, "Games against the computer are not rated.")
		if botsRated && d.Rated {
			p.ComputerRule = tr(c, "Games against the computer are rated on this server.")
		}
	case computerPlays && d.Status == "signup":
		p.ComputerRule = tr(c, "The organiser may add computer players before the start; they play their games like anyone else. Games against the computer are not rated.")
		if botsRated && d.Rated {
			p.ComputerRule = tr(c, "The organiser may add computer players before the start; they play their games like anyone else, and this server rates games against the computer.")
		}
		if me == d.Organiser.ID {
			for _, l := range computerLevels {
				if inside[l] {
					p.ComputersIn = append(p.ComputersIn, views.Option{Value: l, Label: computerLabel(ctx, l)})
				} else if d.Tournament.Entrants < d.MaxPlayers {
					p.ComputersOut = append(p.ComputersOut, views.Option{Value: l, Label: computerLabel(ctx, l)})
				}
			}
		}
	}
	switch d.Status {
	case "signup":
		p.Status = trn(c, "Signing up: %d of %d players (at least %d).", d.MaxPlayers, d.Tournament.Entrants, d.MaxPlayers, d.MinPlayers)
		if d.StartsAt.IsZero() {
			p.Status += " " + tr(c, "It starts when full.")
		} else {
			p.Status += " " + tr(c, "It starts on %s.", views.DateTime(ctx, d.StartsAt))
		}
		p.CanJoin = me != 0 && !entered && d.Tournament.Entrants < d.MaxPlayers
		p.CanLeave = entered
		p.CanStart = me == d.Organiser.ID && d.Tournament.Entrants >= d.MinPlayers
		p.CanCancel = me == d.Organiser.ID
	case "running":
		p.Status = tr(c, "Round %d of %d is being played.", d.Round, d.Rounds)
		if d.Format == db.FormatRoundRobin {
			p.Status = tr(c, "Running: every game has started.")
		}
		p.CanWithdraw = entered && !withdrawn
		p.ConfirmWithdraw = p.CanWithdraw && c.QueryParam("confirm") == "withdraw"
	case "finished":
		p.Status = tr(c, "Finished.|tournament")
	case "cancelled":
		p.Status = tr(c, "Cancelled before it started.")
	}
	if d.Status == "running" || d.Status == "finished" {
		res, err := results.get(ctx, d, round)
		if err != nil {
			return views.TournamentPage{}, err
		}
		p.Results = templ.Raw(res.html)
		if d.Status == "finished" {
			switch len(res.first) {
			case 0:
			case 1:
				p.Status = tr(c, "Finished: %s won the tournament.", res.first[0])
			default:
				p.Status = tr(c, "Finished: %s share first place.", strings.Join(res.first, ", "))
			}
		}
	}
	return p, nil
}

// resultsMemo remembers tournaments' results as rendered
// (views.TournamentResultsView), by language and by a checksum of what
// they show: every viewer of a tournament of 256 players sees the same
// thousand lines, drawn once.
type resultsMemo struct {
	memo[resultsKey, renderedResults]
}

// resultsKey is what a tournament's rendered results depend on: round
// is the one round shown (0: every round).
type resultsKey struct {
	lang  string
	id    int64
	sum   uint64
	round int
}

// pairingsAtOnce is the most pairings a Swiss tournament's page lists at
// once: past it (a Swiss of 256 players has 1,024 over eight rounds), the
// page lists one round, the latest unless ?round= names another, with a
// link to each.
var pairingsAtOnce = 100

// roundParam reads ?round=, the round of a Swiss tournament to show (0
// when not given). Errors: KindInvalid when it is not a round number.
func roundParam(c echo.Context) (int, error) {
	v := c.QueryParam("round")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, db.Errorf(db.KindInvalid, "%q is not a round.", v)
	}
	return n, nil
}

// shownRound is the one round of d's results its page lists when asked
// for round (0: the latest), or 0 when it lists every round: a round
// robin has none, a knockout shows its whole bracket, and a Swiss lists
// every round while its pairings number at most pairingsAtOnce. A round
// past the latest is the latest.
func shownRound(d db.TournamentDetail, round int) int {
	if d.Format != db.FormatSwiss || len(d.Pairings) <= pairingsAtOnce {
		return 0
	}
	last := 0
	for _, x := range d.Pairings {
		last = max(last, x.Round)
	}
	if round == 0 || round > last {
		return last
	}
	return round
}

// renderedResults is a tournament's results as HTML, and the names ranked
// first.
type renderedResults struct {
	html  string
	first []string
}

// results is the server's resultsMemo, of at most 64 tournaments' results.
var results = resultsMemo{memo[resultsKey, renderedResults]{size: 64}}

// get returns d's results in the language of ctx, rendered once, with
// the rounds its page lists when asked for round (shownRound).
func (m *resultsMemo) get(ctx context.Context, d db.TournamentDetail, round int) (renderedResults, error) {
	shown := shownRound(d, round)
	k := resultsKey{lang: views.Lang(ctx), id: d.ID, sum: tournamentSum(d), round: shown}
	return m.memo.get(k, func() (renderedResults, error) {
		res, first, err := tournamentResults(ctx, d, shown)
		if err != nil {
			return renderedResults{}, err
		}
		var b strings.Builder
		if err := views.TournamentResultsView(res).Render(ctx, &b); err != nil {
			return renderedResults{}, err
		}
		return renderedResults{html: b.String(), first: first}, nil
	})
}

// tournamentSum is a checksum of what d's results show: its format,
// round and status, its entrants and its pairings.
func tournamentSum(d db.TournamentDetail) uint64 {
	h := fnv.New64a()
	var b [8]byte
	num := func(v int64) {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	text := func(s string) {
		num(int64(len(s)))
		h.Write([]byte(s))
	}
	flag := func(b bool) {
		if b {
			num(1)
		} else {
			num(0)
		}
	}
	text(d.Format)
	text(d.Status)
	num(int64(d.Rounds))
	num(int64(d.Round))
	for _, e := range d.Entrants {
		num(e.ID)
		text(e.Name)
		flag(e.Withdrawn)
	}
	for _, x := range d.Pairings {
		num(int64(x.Round))
		num(int64(x.Board))
		num(int64(x.Leg))
		for _, s := range x.Side {
			num(s.ID)
			text(s.Name)
		}
		num(x.MatchID)
		num(x.GameID)
		flag(x.Decided)
		num(int64(math.Float64bits(x.Points0)))
	}
	return h.Sum64()
}

// tournamentResults is what d has played, in the language of ctx (of
// its rounds, round alone when not 0), and the names ranked first.
func tournamentResults(ctx context.Context, d db.TournamentDetail, round int) (views.TournamentResults, []string, error) {
	var r views.TournamentResults
	r.Bracket = d.Format == db.FormatKnockout
	st, err := d.Standings()
	if err != nil {
		return r, nil, err
	}
	names := map[int64]db.Entrant{}
	var first []string
	for _, e := range d.Entrants {
		names[e.ID] = e
	}
	for _, s := range st {
		e := names[s.ID]
		r.Standings = append(r.Standings, views.StandingLine{Rank: s.Rank, Name: e.Name, Points: pointsText(s.Points), Games: s.Games,
			Buchholz: pointsText(s.Buchholz), SonnebornBerger: pointsText(s.SonnebornBerger), Withdrawn: e.Withdrawn})
		if s.Rank == 1 {
			first = append(first, e.Name)
		}
	}
	if d.Format == db.FormatRoundRobin {
		crosstable(ctx, &r, d)
	} else {
		rounds(ctx, &r, d, round)
	}
	return r, first, nil
}

func gameHref(p db.TournamentPairing) string {
	if p.GameID == 0 {
		return ""
	}
	return fmt.Sprintf("/games/%d", p.GameID)
}

// crosstable fills a round robin's table: each player's results against
// each other, both legs where there are two.
func crosstable(ctx context.Context, p *views.TournamentResults, d db.TournamentDetail) {
	idx := map[int64]int{}
	for i, e := range d.Entrants {
		idx[e.ID] = i
		p.CrossHead = append(p.CrossHead, e.Name)
	}
	p.Cross = make([][]views.CrossCell, len(d.Entrants))
	for i := range p.Cross {
		p.Cross[i] = make([]views.CrossCell, len(d.Entrants))
	}
	// Each link says in words whom its game is between and how it stands.
	playing := views.T(ctx, "being played")
	add := func(i, j int, text, href string) {
		label := views.T(ctx, "%[1]s against %[2]s: %[3]s", p.CrossHead[i], p.CrossHead[j], strings.ReplaceAll(text, "…", playing))
		p.Cross[i][j].Results = append(p.Cross[i][j].Results, views.CrossResult{Text: text, Href: href, Label: label})
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
		add(a, b, ta, gameHref(x))
		add(b, a, tb, gameHref(x))
	}
	for i := range p.Cross {
		p.Cross[i][i] = views.CrossCell{Text: "×"}
	}
}

// rounds fills the Swiss rounds or the knockout bracket, in the language
// of ctx: every round, or when round is not 0 that round alone and a
// link to each.
func rounds(ctx context.Context, p *views.TournamentResults, d db.TournamentDetail, round int) {
	byRound := map[int][]views.PairingLine{}
	last := 0
	for _, x := range d.Pairings {
		line := views.PairingLine{Side0: x.Side[0].Name, Side1: x.Side[1].Name, Href: gameHref(x), Leg: x.Leg}
		switch {
		case x.Side[1].ID == 0:
			line.Side1, line.Result = views.T(ctx, "bye"), "1"
		case !x.Decided:
			line.Result = views.T(ctx, "playing|pairing")
		default:
			line.Result = pointsText(x.Points0) + " – " + pointsText(1-x.Points0)
		}
		byRound[x.Round] = append(byRound[x.Round], line)
		last = max(last, x.Round)
	}
	for r := 1; r <= last; r++ {
		title := views.T(ctx, "Round %d", r)
		if d.Format == db.FormatKnockout {
			switch d.Rounds - r {
			case 0:
				title = views.T(ctx, "Final")
			case 1:
				title = views.T(ctx, "Semi-finals")
			case 2:
				title = views.T(ctx, "Quarter-finals")
			}
		}
		if round != 0 {
			p.RoundLinks = append(p.RoundLinks, views.RoundLink{Title: title,
				Href: fmt.Sprintf("/tournaments/%d?round=%d#rounds", d.ID, r), Current: r == round})
			if r != round {
				continue
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
		// Leaving a running tournament forfeits every remaining game: it
		// is done only once confirmed, as resigning a game is.
		if c.FormValue("confirm") != "yes" {
			d, err := h.db.Tournament(ctx, id)
			if err != nil {
				return err
			}
			if d.Status == "running" {
				return redirect(c, fmt.Sprintf("/tournaments/%d?confirm=withdraw#tournament-actions", id))
			}
		}
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
		return db.Errorf(db.KindInvalid, "The computer does not play %s.", tournamentGame(ctx, t.Game, t.Variant))
	}
	return h.db.AddComputerEntrant(ctx, id, currentViewer(c).ID, c.FormValue("level"), h.rateBots, h.now())
}
