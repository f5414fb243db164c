package handlers

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// socialHandler serves what the players of a game do besides playing it:
// messages (alone, or with a move through the move form's "message"
// field) and rematch offers. A game's messages are private to its two
// players: spectators do not see them, and anyone else asking gets 403.
type socialHandler struct {
	games *gameHandler
	db    *db.DB
	now   func() time.Time
	seed  func() int64
}

// social fills in the game page's ratings (next to each player's name),
// and the social panel: rated or not and, for a player, the rematch offer
// and the messages, which the page marks read.
func (h *gameHandler) social(c echo.Context, s gameScreen, p *views.GamePage) error {
	ctx := c.Request().Context()
	g := s.game
	panel := &views.SocialPanel{GameURL: p.URL, CSRF: p.CSRF, Rated: p.Rated}
	p.Social = panel
	v := currentViewer(c)
	if !g.SideOf(v.ID).Valid() {
		return nil
	}
	panel.Player = true
	// A move shown pending is sent with the board's form too: the one
	// message field goes with it.
	panel.WithMove = p.Play.CanMove || p.Pending != nil
	return h.socialLive(ctx, s, v.ID, p.Rated, panel)
}

// ratings puts each player's rating (or, once rated, its change) next to
// their name.
func (h *gameHandler) ratings(c echo.Context, s gameScreen, p *views.GamePage) error {
	gr, err := h.db.GameRatings(c.Request().Context(), s.game, h.now())
	if err != nil {
		return err
	}
	p.Rated = gr.Rated
	for i := range p.Players {
		if gr.Changed {
			p.Players[i].Rating = ratingChangeText(gr.Change[i])
		} else {
			p.Players[i].Rating = ratingText(gr.Current[i].Rating, gr.Current[i].RD)
			p.Players[i].RD = "± " + strconv.Itoa(int(math.Round(gr.Current[i].RD)))
		}
	}
	return nil
}

// socialLive fills in the part of the panel that refreshes by itself: the
// rematch offer (once the match is over) and the messages, marked read.
func (h *gameHandler) socialLive(ctx context.Context, s gameScreen, userID int64, rated bool, panel *views.SocialPanel) error {
	g := s.game
	msgs, err := h.db.ReadMessages(ctx, g, userID, h.now())
	if err != nil {
		return err
	}
	var last int64
	for _, m := range msgs {
		line := views.MessageLine{From: m.From.Name, Mine: m.From.ID == userID,
			New: m.Unread && m.ToID == userID, Body: m.Body, When: views.DateTime(ctx, m.CreatedAt)}
		if m.ToID == userID {
			line.ReportURL = fmt.Sprintf("/games/%d/messages/%d/report", g.ID, m.ID)
		}
		panel.Messages = append(panel.Messages, line)
		last = m.ID
	}
	r, err := h.db.Rematch(ctx, g.MatchID)
	if err != nil {
		return err
	}
	panel.Version = db.RematchVersion(last, r)
	panel.PollURL = fmt.Sprintf("/games/%d/social?v=%s", g.ID, panel.Version)
	panel.MoveMessageID = fmt.Sprintf("move-message-%d", last)
	if s.match.Status == "finished" {
		panel.Rematch, err = rematchState(ctx, s, r, userID, rated)
	}
	return err
}

// rematchState is what userID, a player of the finished match, may do
// about a rematch, in the language of ctx.
func rematchState(ctx context.Context, s gameScreen, r db.Rematch, userID int64, rated bool) (*views.RematchState, error) {
	g, m := s.game, s.match
	eng, err := g.Engine()
	if err != nil {
		return nil, err
	}
	me := 0
	if m.Player[1].ID == userID {
		me = 1
	}
	// In the rematch each player has the other colour of game 1.
	how := views.T(ctx, "casual|rematch")
	if rated {
		how = views.T(ctx, "rated|rematch")
	}
	st := &views.RematchState{URL: fmt.Sprintf("/games/%d/rematch/", g.ID),
		Settings: views.T(ctx, "%s · %s, %s, %s; you would play %s", views.T(ctx, eng.Title()), variantTitle(ctx, eng, m.Variant),
			clockWords(ctx, g.Clock), how, views.T(ctx, eng.SideNames()[1-me]))}
	switch {
	case r.ChallengeID == 0:
		st.CanOffer = true
	case r.Status == "accepted":
		st.Href = fmt.Sprintf("/matches/%d", r.NewMatchID)
	case r.Open() && r.From.ID == userID:
		st.OfferedByMe = true
	case r.Open():
		st.OfferedToMe, st.From = true, r.From.Name
	default:
		st.CanOffer = true
		switch {
		case r.Status == "declined" && r.From.ID == userID:
			st.Note = views.T(ctx, "%s declined your rematch offer.", r.To.Name)
		case r.Status == "declined":
			st.Note = views.T(ctx, "You declined %s's rematch offer.", r.From.Name)
		default:
			st.Note = views.T(ctx, "The rematch offer was withdrawn.")
		}
	}
	return st, nil
}

// ratingText writes a rating as a whole number, with "?" when it is
// provisional (deviation rd above db.ProvisionalRD).
func ratingText(r, rd float64) string {
	s := strconv.Itoa(int(math.Round(r)))
	if db.Provisional(rd) {
		s += "?"
	}
	return s
}

// ratingChangeText writes a rating after a game with the change it made:
// "1662 (+162)", "1338 (−162)".
func ratingChangeText(c db.RatingChange) string {
	after, before := int(math.Round(c.RatingAfter)), int(math.Round(c.RatingBefore))
	d := after - before
	mark := ""
	if db.Provisional(c.RDAfter) {
		mark = "?"
	}
	// Written with strconv: an archive page writes two on each of its
	// rows.
	s := strconv.Itoa(after) + mark
	switch {
	case d > 0:
		return s + " (+" + strconv.Itoa(d) + ")"
	case d < 0:
		return s + " (−" + strconv.Itoa(-d) + ")"
	}
	return s + " (±0)"
}

// live answers the refresh of an open game page's social panel: 204 while
// nothing changed since version ?v=, the fresh #social-live otherwise.
// Errors: 403 for anyone but the two players.
func (h *socialHandler) live(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	g, err := h.db.Game(ctx, id)
	if err != nil {
		return err
	}
	v := currentViewer(c)
	if !g.SideOf(v.ID).Valid() {
		return db.Errorf(db.KindForbidden, "The messages of a game are private to its two players.")
	}
	version, err := h.db.SocialVersion(ctx, g.ID, g.MatchID)
	if err != nil {
		return err
	}
	if c.QueryParam("v") == version {
		return c.NoContent(http.StatusNoContent)
	}
	s, err := h.games.load(ctx, id)
	if err != nil {
		return err
	}
	gr, err := h.db.GameRatings(ctx, g, h.now())
	if err != nil {
		return err
	}
	panel := views.SocialPanel{GameURL: fmt.Sprintf("/games/%d", id), CSRF: pageOf(c, "").CSRF, Rated: gr.Rated, Player: true}
	if err := h.games.socialLive(ctx, s, v.ID, gr.Rated, &panel); err != nil {
		return err
	}
	c.Response().Header().Set("HX-Push-Url", "false")
	return render(c, http.StatusOK, views.SocialLive(panel), nil)
}

// send stores a message to the opponent (the message form, or the move
// form's "Send it now" button) and answers like a game action.
func (h *socialHandler) send(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	_, err = h.db.SendMessage(c.Request().Context(), id, currentViewer(c).ID, c.FormValue("message"), h.now())
	return h.answer(c, id, err, fmt.Sprintf("/games/%d#messages", id))
}

// report reports message :mid of game :id to the admin (only the player
// it was sent to can) and answers with the game page and a confirmation.
func (h *socialHandler) report(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	mid, err := strconv.ParseInt(c.Param("mid"), 10, 64)
	if err != nil || mid <= 0 {
		return db.Errorf(db.KindNotFound, "There is no such message.")
	}
	err = h.db.ReportMessage(c.Request().Context(), id, mid, currentViewer(c).ID, c.FormValue("reason"), h.now())
	if err != nil {
		return h.answer(c, id, err, "")
	}
	s, err := h.games.load(c.Request().Context(), id)
	if err != nil {
		return err
	}
	c.Set("social", true)
	return h.games.respond(c, http.StatusOK, s, tr(c, "You reported the message; the server's admin will look at it."))
}

// rematch offers, accepts, declines or withdraws the rematch of game :id's
// finished match.
func (h *socialHandler) rematch(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	g, err := h.db.Game(ctx, id)
	if err != nil {
		return err
	}
	uid := currentViewer(c).ID
	switch c.Param("action") {
	case "offer":
		if _, err = h.db.OfferRematch(ctx, g.MatchID, uid, h.now()); err == nil {
			h.games.wake() // the offer may be to the computer
		}
	case "accept":
		var gameID int64
		if gameID, err = h.db.AcceptRematch(ctx, g.MatchID, uid, h.seed(), h.now()); err == nil {
			return redirect(c, fmt.Sprintf("/games/%d", gameID))
		}
	case "decline":
		err = h.db.DeclineRematch(ctx, g.MatchID, uid)
	case "withdraw":
		err = h.db.WithdrawRematch(ctx, g.MatchID, uid)
	default:
		return db.Errorf(db.KindNotFound, "There is no such page.")
	}
	return h.answer(c, id, err, fmt.Sprintf("/games/%d", id))
}

// answer ends a social action on game id as act ends a game action: after
// success a redirect to next (htmx: the fresh #game fragment); after a
// refused one the game page with the reason and a 4xx status.
func (h *socialHandler) answer(c echo.Context, id int64, err error, next string) error {
	ctx := c.Request().Context()
	c.Set("badge", true)
	c.Set("social", true) // an htmx answer brings the social panel along
	if err != nil {
		status, msg := statusOf(c, err)
		if status >= 500 || status == http.StatusNotFound {
			return err
		}
		setRetryAfter(c, err)
		s, lerr := h.games.load(ctx, id)
		if lerr != nil {
			return lerr
		}
		return h.games.respond(c, status, s, msg)
	}
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, next)
	}
	s, err := h.games.load(ctx, id)
	if err != nil {
		return err
	}
	c.Response().Header().Set("HX-Push-Url", fmt.Sprintf("/games/%d", id))
	return h.games.respond(c, http.StatusOK, s, "")
}

// unreadRows lists userID's games with unread messages for the dashboard.
func unreadRows(ctx context.Context, store *db.DB, userID int64) ([]views.UnreadRow, error) {
	threads, err := store.UnreadMessages(ctx, userID)
	if err != nil {
		return nil, err
	}
	var out []views.UnreadRow
	for _, t := range threads {
		g := t.Game
		eng, err := g.Engine()
		if err != nil {
			return nil, err
		}
		from := g.Side[0].Name
		if g.Side[0].ID == userID {
			from = g.Side[1].Name
		}
		out = append(out, views.UnreadRow{GameID: g.ID, Href: fmt.Sprintf("/games/%d#messages", g.ID), Title: gameTitle(ctx, eng, g),
			From: from, Count: t.Count})
	}
	return out, nil
}

// playerRatings lists userID's ratings for the profile.
func playerRatings(ctx context.Context, store *db.DB, userID int64, now time.Time) ([]views.RatingRow, error) {
	list, err := store.Ratings(ctx, userID, now)
	if err != nil {
		return nil, err
	}
	var out []views.RatingRow
	for _, r := range list {
		title := r.Game
		if e, ok := rules.Lookup(r.Game); ok {
			title = views.T(ctx, e.Title())
		}
		out = append(out, views.RatingRow{Key: r.Game, Game: title, Rating: int(math.Round(r.Rating)), RD: int(math.Round(r.RD)), Games: r.Games,
			Provisional: db.Provisional(r.RD)})
	}
	return out, nil
}

// archiveRatings sets the ratings of the archive's rated games: what each
// game made of its players' ratings.
func archiveRatings(ctx context.Context, store *db.DB, games []db.ArchiveRow, rows []views.ArchiveRow) error {
	ids := make([]int64, len(games))
	for i, r := range games {
		ids[i] = r.Game.ID
	}
	changes, err := store.RatingChanges(ctx, ids)
	if err != nil {
		return err
	}
	for i, r := range games {
		if ch, ok := changes[r.Game.ID]; ok && i < len(rows) {
			rows[i].Ratings = [2]string{ratingChangeText(ch[0]), ratingChangeText(ch[1])}
		}
	}
	return nil
}
