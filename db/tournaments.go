package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/pairing"
)

// Tournaments are correspondence tournaments of one game: round robin
// (every entrant meets every other; all games start at once), Swiss (a set
// number of rounds paired by score) and knockout (seeded by rating; a
// drawn pairing is replayed with the colours reversed until it has a
// winner). Each pairing is an ordinary match: the same move transaction,
// clock, archive and ratings (when the tournament is rated). Pairings and
// standings come from package rules/pairing. The next round starts in the
// transaction that stores the result completing the round (finishGame),
// so a crash never leaves a round half-started.

// Tournament formats.
const (
	FormatRoundRobin = "roundrobin"
	FormatSwiss      = "swiss"
	FormatKnockout   = "knockout"
)

// Tournament limits.
const (
	MaxTournamentPlayers = 64
	MaxSwissRounds       = 12
)

// NewTournament is what an organiser fills in.
type NewTournament struct {
	OrganiserID int64
	Name        string // 3–60 characters
	Game        string // engine key
	Variant     string
	Format      string // FormatRoundRobin, FormatSwiss or FormatKnockout
	Rounds      int    // Swiss only: 1..MaxSwissRounds
	MinPlayers  int    // at least 2 (a Swiss at least 3, a knockout at least 2)
	MaxPlayers  int    // at most MaxTournamentPlayers
	Clock       TimeControl
	Rated       bool
	// StartsAt ends the sign-up (the tournament starts then if it has
	// MinPlayers, and is cancelled otherwise); zero: it starts when full.
	StartsAt time.Time
	Seed     int64 // drives the matches' random choices
	// MaxOpen is how many tournaments in sign-up or running the organiser
	// may have, the new one included (MaxOpenTournaments for a player);
	// 0 means no cap.
	MaxOpen int
}

// MaxOpenTournaments is how many tournaments in sign-up or running one
// player may have organised at once (administrators are not capped).
const MaxOpenTournaments = 3

// Tournament is a tournament's settings and state.
type Tournament struct {
	ID         int64
	Name       string
	Organiser  Player
	Game       string
	Variant    string
	Format     string
	Rounds     int // Swiss: rounds to play; otherwise the rounds known so far
	MinPlayers int
	MaxPlayers int
	Clock      TimeControl
	Rated      bool
	StartsAt   time.Time // zero: starts when full
	Status     string    // signup, running, finished, cancelled
	Round      int       // the round being played, 0 before the start
	Entrants   int       // signed up and not withdrawn before the start
	CreatedAt  time.Time
}

// Entrant is a tournament's player.
type Entrant struct {
	Player
	Rating    float64 // the rating they were seeded with
	Withdrawn bool    // withdrew after the start
	// Computer is the level ("easy", "medium", "hard") of a computer
	// player, "" for a person.
	Computer string
	// Rated: the games against this entrant may change ratings (always
	// for a person; for a computer player, as the server rated games
	// against the computer when it was entered).
	Rated bool
}

// TournamentPairing is one game of a round: Side[1].ID == 0 is a bye;
// MatchID 0 for a bye; Decided once the result is known, Points0 then
// being Side 0's points (1, 0.5, 0).
type TournamentPairing struct {
	Round, Board, Leg int
	Side              [2]Player
	MatchID           int64
	GameID            int64 // the match's latest game, 0 for a bye
	Decided           bool
	Points0           float64
}

// TournamentDetail is a tournament with its entrants and pairings.
type TournamentDetail struct {
	Tournament
	Entrants []Entrant
	Pairings []TournamentPairing // by round, board, leg
}

const tournamentSelect = `SELECT t.id, t.name, t.organiser_id, u.name, t.game, t.variant, t.format, t.rounds,
	t.min_players, t.max_players, t.days_per_move, t.clock, t.bank_initial_s, t.bank_add_s, t.bank_max_s, t.rated,
	COALESCE(t.starts_at, 0), t.status, t.round, t.created_at,
	(SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id)
	FROM tournaments t JOIN users u ON u.id = t.organiser_id `

func scanTournament(row interface{ Scan(...any) error }) (Tournament, error) {
	var t Tournament
	var bi, ba, bm, starts, created int64
	err := row.Scan(&t.ID, &t.Name, &t.Organiser.ID, &t.Organiser.Name, &t.Game, &t.Variant, &t.Format, &t.Rounds,
		&t.MinPlayers, &t.MaxPlayers, &t.Clock.DaysPerMove, &t.Clock.Kind, &bi, &ba, &bm, &t.Rated,
		&starts, &t.Status, &t.Round, &created, &t.Entrants)
	if err != nil {
		return t, err
	}
	t.Clock.BankInitial, t.Clock.BankAdd, t.Clock.BankMax = secs(bi), secs(ba), secs(bm)
	if t.Clock.Kind == "bank" {
		t.Clock.DaysPerMove = 0
	}
	if starts != 0 {
		t.StartsAt = fromUnix(starts)
	}
	t.CreatedAt = fromUnix(created)
	return t, nil
}

func tournamentByID(ctx context.Context, q queryer, id int64) (Tournament, error) {
	t, err := scanTournament(q.QueryRowContext(ctx, tournamentSelect+`WHERE t.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return t, Errorf(KindNotFound, "No such tournament.")
	}
	if err != nil {
		return t, fmt.Errorf("db: tournament: %w", err)
	}
	return t, nil
}

// CreateTournament validates nt and stores the tournament, open for
// sign-up. Errors: KindInvalid for a bad name, game, variant, format,
// size, number of rounds, time control or start; KindTooMany when the
// organiser already has nt.MaxOpen tournaments in sign-up or running.
func (db *DB) CreateTournament(ctx context.Context, nt NewTournament, now time.Time) (Tournament, error) {
	nt.Name = strings.TrimSpace(nt.Name)
	if n := len([]rune(nt.Name)); n < 3 || n > 60 {
		return Tournament{}, Errorf(KindInvalid, "A tournament's name has 3 to 60 characters.")
	}
	eng, ok := rules.Lookup(nt.Game)
	if !ok {
		return Tournament{}, Errorf(KindInvalid, "Unknown game %q.", nt.Game)
	}
	if !slices.ContainsFunc(eng.Variants(), func(v rules.Variant) bool { return v.Key == nt.Variant }) {
		return Tournament{}, Errorf(KindInvalid, "Unknown rules %q for %s.", nt.Variant, Term(eng.Title()))
	}
	switch nt.Format {
	case FormatRoundRobin, FormatKnockout:
		nt.Rounds = 0
	case FormatSwiss:
		if nt.Rounds < 1 || nt.Rounds > MaxSwissRounds {
			return Tournament{}, Errorf(KindInvalid, "A Swiss tournament plays 1 to %d rounds.", MaxSwissRounds)
		}
	default:
		return Tournament{}, Errorf(KindInvalid, "Unknown format %q.", nt.Format)
	}
	if nt.MinPlayers < 2 || nt.MaxPlayers < nt.MinPlayers || nt.MaxPlayers > MaxTournamentPlayers {
		return Tournament{}, Errorf(KindInvalid, "Between 2 and %d players, the minimum no more than the maximum.", MaxTournamentPlayers)
	}
	if nt.Format == FormatSwiss && nt.Rounds >= nt.MinPlayers {
		return Tournament{}, Errorf(KindInvalid, "A Swiss tournament of %d rounds needs a minimum of at least %d players.", nt.Rounds, nt.Rounds+1)
	}
	if nt.Clock.Kind == "" {
		nt.Clock.Kind = "move"
	}
	if err := nt.Clock.Validate(); err != nil {
		return Tournament{}, err
	}
	days := nt.Clock.DaysPerMove
	if nt.Clock.Kind == "bank" {
		days = int((nt.Clock.BankInitial + 24*time.Hour - 1) / (24 * time.Hour))
	}
	var starts sql.NullInt64
	if !nt.StartsAt.IsZero() {
		if !nt.StartsAt.After(now) {
			return Tournament{}, Errorf(KindInvalid, "The sign-up must end in the future.")
		}
		starts = sql.NullInt64{Int64: unix(nt.StartsAt), Valid: true}
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return Tournament{}, err
	}
	defer tx.Rollback()
	if nt.MaxOpen > 0 {
		var open int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tournaments WHERE organiser_id = ? AND status IN ('signup', 'running')`,
			nt.OrganiserID).Scan(&open); err != nil {
			return Tournament{}, fmt.Errorf("db: count open tournaments: %w", err)
		}
		if open >= nt.MaxOpen {
			return Tournament{}, TooMany(CapRetryAfter, "You have %d tournaments in sign-up or running, as many as one organiser may have. You can create another once one has ended or been cancelled.", open)
		}
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO tournaments (name, organiser_id, game, variant, format, rounds, min_players, max_players,
		days_per_move, clock, bank_initial_s, bank_add_s, bank_max_s, rated, starts_at, seed, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		nt.Name, nt.OrganiserID, nt.Game, nt.Variant, nt.Format, nt.Rounds, nt.MinPlayers, nt.MaxPlayers,
		days, nt.Clock.Kind, seconds(nt.Clock.BankInitial), seconds(nt.Clock.BankAdd), seconds(nt.Clock.BankMax), nt.Rated,
		starts, nt.Seed, unix(now))
	if err != nil {
		return Tournament{}, fmt.Errorf("db: create tournament: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Tournament{}, err
	}
	t, err := tournamentByID(ctx, tx, id)
	if err != nil {
		return Tournament{}, err
	}
	return t, tx.Commit()
}

// Tournament returns tournament id with its entrants and pairings.
// Errors: KindNotFound.
// What it returns is remembered until a commit changes what the settled
// reads show (remember): its pairings' results, entrants and rounds change
// only with a game's end or the tournament's own rows.
func (db *DB) Tournament(ctx context.Context, id int64) (TournamentDetail, error) {
	return remember(ctx, db, &db.log.settledGen, fmt.Sprintf("tournament %d", id), cloneTournament, func(ctx context.Context) (TournamentDetail, error) {
		return db.tournamentRead(ctx, id)
	})
}

// cloneTournament is remember's clone for a tournament's page.
func cloneTournament(d TournamentDetail) TournamentDetail {
	d.Entrants, d.Pairings = cloneSlice(d.Entrants), cloneSlice(d.Pairings)
	return d
}

// tournamentRead reads what Tournament returns.
func (db *DB) tournamentRead(ctx context.Context, id int64) (TournamentDetail, error) {
	t, err := tournamentByID(ctx, db.read, id)
	if err != nil {
		return TournamentDetail{}, err
	}
	d := TournamentDetail{Tournament: t}
	if d.Entrants, err = entrantsOf(ctx, db.read, id); err != nil {
		return d, err
	}
	d.Pairings, err = pairingsOf(ctx, db.read, id)
	return d, err
}

// TournamentsPageSize is how many finished or cancelled tournaments a
// page of the list shows.
const TournamentsPageSize = 50

// Tournaments returns page (1-based) of the tournaments: on the first,
// every one signing up and running (newest first within each), then the
// finished and cancelled ones, newest first, TournamentsPageSize a page;
// and whether a later page has more.
// What it returns is remembered until the next commit but the background work's (remember, playGen).
func (db *DB) Tournaments(ctx context.Context, page int) ([]Tournament, bool, error) {
	return remember2(ctx, db, &db.log.playGen, fmt.Sprintf("tournaments %d", page), cloneSlice[Tournament], func(ctx context.Context) ([]Tournament, bool, error) {
		return db.tournamentsRead(ctx, page)
	})
}

// tournamentsRead reads what Tournaments returns.
func (db *DB) tournamentsRead(ctx context.Context, page int) ([]Tournament, bool, error) {
	var out []Tournament
	read := func(q string, args ...any) error {
		rows, err := db.read.QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("db: tournaments: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanTournament(rows)
			if err != nil {
				return fmt.Errorf("db: tournaments: %w", err)
			}
			out = append(out, t)
		}
		return rows.Err()
	}
	page = max(page, 1)
	if page == 1 {
		if err := read(tournamentSelect + `WHERE t.status IN ('signup', 'running')
			ORDER BY CASE t.status WHEN 'signup' THEN 0 ELSE 1 END, t.id DESC`); err != nil {
			return nil, false, err
		}
	}
	current := len(out)
	if err := read(tournamentSelect+`WHERE t.status IN ('finished', 'cancelled') ORDER BY t.id DESC LIMIT ? OFFSET ?`,
		TournamentsPageSize+1, (page-1)*TournamentsPageSize); err != nil {
		return nil, false, err
	}
	more := len(out)-current > TournamentsPageSize
	if more {
		out = out[:len(out)-1]
	}
	return out, more, nil
}

func entrantsOf(ctx context.Context, q queryer, id int64) ([]Entrant, error) {
	rows, err := q.QueryContext(ctx, `SELECT e.user_id, u.name, e.rating, e.withdrawn_at IS NOT NULL, COALESCE(u.computer_level, ''), e.rated
		FROM tournament_entrants e JOIN users u ON u.id = e.user_id
		WHERE e.tournament_id = ? ORDER BY e.rating DESC, u.id`, id)
	if err != nil {
		return nil, fmt.Errorf("db: entrants: %w", err)
	}
	defer rows.Close()
	var out []Entrant
	for rows.Next() {
		var e Entrant
		if err := rows.Scan(&e.ID, &e.Name, &e.Rating, &e.Withdrawn, &e.Computer, &e.Rated); err != nil {
			return nil, fmt.Errorf("db: entrants: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func pairingsOf(ctx context.Context, q queryer, id int64) ([]TournamentPairing, error) {
	rows, err := q.QueryContext(ctx, `SELECT p.round, p.board, p.leg, p.side0_id, u0.name, COALESCE(p.side1_id, 0), COALESCE(u1.name, ''),
			COALESCE(p.match_id, 0), COALESCE((SELECT MAX(g.id) FROM games g WHERE g.match_id = p.match_id), 0),
			p.points0 IS NOT NULL, COALESCE(p.points0, 0)
		FROM tournament_pairings p JOIN users u0 ON u0.id = p.side0_id LEFT JOIN users u1 ON u1.id = p.side1_id
		WHERE p.tournament_id = ? ORDER BY p.round, p.board, p.leg`, id)
	if err != nil {
		return nil, fmt.Errorf("db: pairings: %w", err)
	}
	defer rows.Close()
	var out []TournamentPairing
	for rows.Next() {
		var p TournamentPairing
		if err := rows.Scan(&p.Round, &p.Board, &p.Leg, &p.Side[0].ID, &p.Side[0].Name, &p.Side[1].ID, &p.Side[1].Name,
			&p.MatchID, &p.GameID, &p.Decided, &p.Points0); err != nil {
			return nil, fmt.Errorf("db: pairings: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// JoinTournament signs userID up for tournament id; a tournament without
// a sign-up deadline starts as its last place is taken. Errors:
// KindNotFound, KindConflict (not signing up, full, or already entered).
func (db *DB) JoinTournament(ctx context.Context, id, userID int64, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t, err := tournamentByID(ctx, tx, id)
	if err != nil {
		return err
	}
	var computer bool
	if err := tx.QueryRowContext(ctx, `SELECT computer_level IS NOT NULL FROM users WHERE id = ?`, userID).Scan(&computer); err != nil {
		return fmt.Errorf("db: join tournament: %w", err)
	}
	if computer {
		return Errorf(KindForbidden, "A computer player is entered by the organiser.")
	}
	if err := enterTournament(ctx, tx, t, userID, true, Errorf(KindConflict, "You have already joined this tournament."), now); err != nil {
		return err
	}
	return tx.Commit()
}

// enterTournament adds userID to signing-up tournament t (rated: whether
// games against them change ratings) and starts t when that fills its
// last place and it has no sign-up deadline. Errors: KindConflict (not
// signing up, full, or already entered: then taken).
func enterTournament(ctx context.Context, tx *Tx, t Tournament, userID int64, rated bool, taken error, now time.Time) error {
	switch {
	case t.Status != "signup":
		return Errorf(KindConflict, "The sign-up of this tournament is over.")
	case t.Entrants >= t.MaxPlayers:
		return Errorf(KindConflict, "This tournament is full.")
	}
	r, err := ratingOf(ctx, tx, userID, t.Game, now)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO tournament_entrants (tournament_id, user_id, rating, joined_at, rated) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, t.ID, userID, r.Rating, unix(now), rated)
	if err != nil {
		return fmt.Errorf("db: join tournament: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return taken
	}
	if t.StartsAt.IsZero() && t.Entrants+1 == t.MaxPlayers {
		return startTournament(ctx, tx, t.ID, now)
	}
	return nil
}

// organisersTournament reads tournament id for an action of its organiser
// before the start. Errors: KindNotFound; forbidden (KindForbidden, saying
// what only the organiser can do) when userID is not the organiser;
// started (KindConflict, saying so) once the sign-up is over.
func organisersTournament(ctx context.Context, tx *Tx, id, userID int64, forbidden, started error) (Tournament, error) {
	t, err := tournamentByID(ctx, tx, id)
	switch {
	case err != nil:
		return t, err
	case t.Organiser.ID != userID:
		return t, forbidden
	case t.Status != "signup":
		return t, started
	}
	return t, nil
}

// AddComputerEntrant lets the organiser (organiserID) of tournament id
// enter the computer account of level ("easy", "medium" or "hard") before
// the start, as a player like any other: the tournament starts if that
// fills it and it has no sign-up deadline. rated says whether its games
// change ratings (in a rated tournament; the server's rule for games
// against the computer). Whether the computer plays the tournament's game
// is for the caller to check. Errors: KindNotFound, KindForbidden (not
// the organiser), KindInvalid (unknown level), KindConflict (not signing
// up, full, that level already entered, or only the MinTournamentPeople
// places kept for people left).
func (db *DB) AddComputerEntrant(ctx context.Context, id, organiserID int64, level string, rated bool, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t, err := organisersTournament(ctx, tx, id, organiserID,
		Errorf(KindForbidden, "Only the organiser can add computer players."),
		Errorf(KindConflict, "The sign-up of this tournament is over."))
	if err != nil {
		return err
	}
	comp, err := computerByLevel(ctx, tx, level)
	if err != nil {
		return err
	}
	people, err := peopleEntered(ctx, tx, id)
	if err != nil {
		return err
	}
	if computers := t.Entrants - people; computers+1 > t.MaxPlayers-MinTournamentPeople {
		return Errorf(KindConflict, "A tournament keeps %d of its places for people: no more computer players.", MinTournamentPeople)
	}
	if err := enterTournament(ctx, tx, t, comp.ID, rated, Errorf(KindConflict, "%s is already in this tournament.", comp.Name), now); err != nil {
		return err
	}
	return tx.Commit()
}

// RemoveComputerEntrant lets the organiser (organiserID) of tournament id
// take the computer account of level out before the start. Errors:
// KindNotFound, KindForbidden (not the organiser), KindInvalid (unknown
// level), KindConflict (started, or that level not entered).
func (db *DB) RemoveComputerEntrant(ctx context.Context, id, organiserID int64, level string) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := organisersTournament(ctx, tx, id, organiserID,
		Errorf(KindForbidden, "Only the organiser can remove computer players."),
		Errorf(KindConflict, "The entrants can change only before the start.")); err != nil {
		return err
	}
	comp, err := computerByLevel(ctx, tx, level)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?`, id, comp.ID)
	if err != nil {
		return fmt.Errorf("db: remove computer entrant: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Errorf(KindConflict, "%s is not in this tournament.", comp.Name)
	}
	return tx.Commit()
}

// LeaveTournament takes userID out of tournament id: before the start the
// entry is removed; once it runs, they withdraw and their remaining games
// are lost by forfeit (the games being played are resigned, and they are
// paired no more). Errors: KindNotFound, KindConflict (not entered,
// already withdrawn, or the tournament is over).
func (db *DB) LeaveTournament(ctx context.Context, id, userID int64, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t, err := tournamentByID(ctx, tx, id)
	if err != nil {
		return err
	}
	var withdrawn bool
	err = tx.QueryRowContext(ctx, `SELECT withdrawn_at IS NOT NULL FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?`, id, userID).Scan(&withdrawn)
	if errors.Is(err, sql.ErrNoRows) {
		return Errorf(KindConflict, "You are not in this tournament.")
	} else if err != nil {
		return fmt.Errorf("db: leave tournament: %w", err)
	}
	switch t.Status {
	case "signup":
		if _, err := tx.ExecContext(ctx, `DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?`, id, userID); err != nil {
			return fmt.Errorf("db: leave tournament: %w", err)
		}
		return tx.Commit()
	case "running":
		if withdrawn {
			return Errorf(KindConflict, "You have already withdrawn.")
		}
	default:
		return Errorf(KindConflict, "This tournament is over.")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tournament_entrants SET withdrawn_at = ? WHERE tournament_id = ? AND user_id = ?`, unix(now), id, userID); err != nil {
		return fmt.Errorf("db: withdraw: %w", err)
	}
	// Every game they are playing in the tournament is resigned (a match
	// goes on to its next game, which is resigned in turn).
	if err := resignGames(ctx, tx, userID, id, now); err != nil {
		return err
	}
	// The round may be complete without them now (a Swiss bye they had
	// is kept; their future pairings are never made).
	if err := advanceTournament(ctx, tx, id, now); err != nil {
		return err
	}
	return tx.Commit()
}

// StartTournament lets the organiser start tournament id before its
// sign-up ends, once it has its minimum of players, MinTournamentPeople
// of them people. Errors: KindNotFound, KindForbidden (not the organiser),
// KindConflict (not signing up, too few players or too few people).
func (db *DB) StartTournament(ctx context.Context, id, userID int64, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t, err := organisersTournament(ctx, tx, id, userID,
		Errorf(KindForbidden, "Only the organiser can start the tournament."),
		Errorf(KindConflict, "This tournament has already started or ended."))
	if err != nil {
		return err
	}
	if t.Entrants < t.MinPlayers {
		return Errorf(KindConflict, "The tournament needs at least %d players to start; it has %d.", t.MinPlayers, t.Entrants)
	}
	if err := startTournament(ctx, tx, id, now); err != nil {
		return err
	}
	return tx.Commit()
}

// CancelTournament lets the organiser cancel tournament id before its
// start. Errors: KindNotFound, KindForbidden, KindConflict (started).
func (db *DB) CancelTournament(ctx context.Context, id, userID int64, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := organisersTournament(ctx, tx, id, userID,
		Errorf(KindForbidden, "Only the organiser can cancel the tournament."),
		Errorf(KindConflict, "A tournament can be cancelled only before it starts.")); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = 'cancelled', ended_at = ? WHERE id = ?`, unix(now), id); err != nil {
		return fmt.Errorf("db: cancel tournament: %w", err)
	}
	return tx.Commit()
}

// StartDueTournaments starts every tournament whose sign-up ended before
// now with its minimum of players, MinTournamentPeople of them people,
// and cancels the others; it returns how many it started.
func (db *DB) StartDueTournaments(ctx context.Context, now time.Time) (int, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id FROM tournaments WHERE status = 'signup' AND starts_at IS NOT NULL AND starts_at <= ?`, unix(now))
	if err != nil {
		return 0, fmt.Errorf("db: due tournaments: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	started := 0
	for _, id := range ids {
		ok, err := db.startDue(ctx, id, now)
		if err != nil {
			return started, err
		}
		if ok {
			started++
		}
	}
	return started, nil
}

func (db *DB) startDue(ctx context.Context, id int64, now time.Time) (bool, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	t, err := tournamentByID(ctx, tx, id)
	if err != nil || t.Status != "signup" {
		return false, err
	}
	people, err := peopleEntered(ctx, tx, id)
	if err != nil {
		return false, err
	}
	if t.Entrants < t.MinPlayers || people < MinTournamentPeople {
		if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = 'cancelled', ended_at = ? WHERE id = ?`, unix(now), id); err != nil {
			return false, fmt.Errorf("db: cancel tournament: %w", err)
		}
		return false, tx.Commit()
	}
	if err := startTournament(ctx, tx, id, now); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// MinTournamentPeople is how many of a tournament's entrants must be
// people (not computer players) for it to start: the computer does not
// play tournaments by itself.
const MinTournamentPeople = 2

// peopleEntered is how many of tournament id's entrants are people.
func peopleEntered(ctx context.Context, q queryer, id int64) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM tournament_entrants e JOIN users u ON u.id = e.user_id
		WHERE e.tournament_id = ? AND u.computer_level IS NULL`, id).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("db: tournament entrants: %w", err)
	}
	return n, nil
}

// startTournament pairs the first round (every round of a round robin)
// and starts its matches. Errors: KindConflict when fewer than
// MinTournamentPeople of its entrants are people.
func startTournament(ctx context.Context, tx *Tx, id int64, now time.Time) error {
	t, err := tournamentByID(ctx, tx, id)
	if err != nil {
		return err
	}
	people, err := peopleEntered(ctx, tx, id)
	if err != nil {
		return err
	}
	if people < MinTournamentPeople {
		return Errorf(KindConflict, "A tournament starts only with at least %d people among its players; it has %d.", MinTournamentPeople, people)
	}
	entrants, err := entrantsOf(ctx, tx, id)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = 'running', round = 1, started_at = ? WHERE id = ? AND status = 'signup'`,
		unix(now), id); err != nil {
		return fmt.Errorf("db: start tournament: %w", err)
	}
	var rounds [][]pairing.Pairing
	switch t.Format {
	case FormatRoundRobin:
		ids := make([]int64, len(entrants))
		for i, e := range entrants {
			ids[i] = e.ID
		}
		rounds, err = pairing.RoundRobin(ids, !isMatchVariant(t))
		if err == nil {
			_, err = tx.ExecContext(ctx, `UPDATE tournaments SET rounds = ? WHERE id = ?`, len(rounds), id)
		}
	case FormatSwiss:
		var first []pairing.Pairing
		first, err = pairing.Swiss(pairingEntrants(entrants), nil)
		rounds = [][]pairing.Pairing{first}
	case FormatKnockout:
		var first []pairing.Pairing
		first, err = pairing.Knockout(pairingEntrants(entrants))
		rounds = [][]pairing.Pairing{first}
		size := 1
		for size < len(entrants) {
			size *= 2
		}
		n := 0
		for ; 1<<n < size; n++ {
		}
		if err == nil {
			_, err = tx.ExecContext(ctx, `UPDATE tournaments SET rounds = ? WHERE id = ?`, n, id)
		}
	}
	if err != nil {
		return fmt.Errorf("db: pair tournament: %w", err)
	}
	for r, round := range rounds {
		for b, p := range round {
			if err := addPairing(ctx, tx, t, r+1, b+1, 1, p, now); err != nil {
				return err
			}
		}
	}
	return advanceTournament(ctx, tx, id, now)
}

// isMatchVariant says whether t's pairings are the official two-game
// match (which already gives each player both colours).
func isMatchVariant(t Tournament) bool {
	eng, ok := rules.Lookup(t.Game)
	if !ok {
		return false
	}
	v, _ := rules.VariantOf(eng, t.Variant)
	return v.Match
}

func pairingEntrants(es []Entrant) []pairing.Entrant {
	out := make([]pairing.Entrant, len(es))
	for i, e := range es {
		out[i] = pairing.Entrant{ID: e.ID, Rating: e.Rating, Withdrawn: e.Withdrawn}
	}
	return out
}

// addPairing stores one pairing and starts its match (a bye is decided at
// once).
func addPairing(ctx context.Context, tx *Tx, t Tournament, round, board, leg int, p pairing.Pairing, now time.Time) error {
	if p.IsBye() {
		_, err := tx.ExecContext(ctx, `INSERT INTO tournament_pairings (tournament_id, round, board, leg, side0_id, points0)
			VALUES (?, ?, ?, ?, ?, 1)`, t.ID, round, board, leg, p.Side0)
		if err != nil {
			return fmt.Errorf("db: store bye: %w", err)
		}
		return nil
	}
	eng, ok := rules.Lookup(t.Game)
	if !ok {
		return Errorf(KindInvalid, "Unknown game %q.", t.Game)
	}
	var seed int64
	if err := tx.QueryRowContext(ctx, `SELECT seed FROM tournaments WHERE id = ?`, t.ID).Scan(&seed); err != nil {
		return fmt.Errorf("db: tournament seed: %w", err)
	}
	seed = gameSeed(seed, round*10_000+board*10+leg)
	days := t.Clock.DaysPerMove
	if t.Clock.Kind == "bank" {
		days = int((t.Clock.BankInitial + 24*time.Hour - 1) / (24 * time.Hour))
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO matches
		(game, variant, player0_id, player1_id, days_per_move, seed, created_at, clock, bank_initial_s, bank_add_s, bank_max_s, tournament_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.Game, t.Variant, p.Side0, p.Side1, days, seed, unix(now),
		t.Clock.Kind, seconds(t.Clock.BankInitial), seconds(t.Clock.BankAdd), seconds(t.Clock.BankMax), t.ID)
	if err != nil {
		return fmt.Errorf("db: create tournament match: %w", err)
	}
	matchID, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_pairings (tournament_id, round, board, leg, side0_id, side1_id, match_id)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, t.ID, round, board, leg, p.Side0, p.Side1, matchID); err != nil {
		return fmt.Errorf("db: store pairing: %w", err)
	}
	m := matchRow{ID: matchID, Game: t.Game, Variant: t.Variant, Player: [2]int64{p.Side0, p.Side1}, Clock: t.Clock, Seed: seed}
	_, err = startGame(ctx, tx, eng, m, 1, eng.FirstGame(t.Variant), now)
	return err
}

// tournamentMatchDone records the result of a finished tournament match
// (winner: the match player who won, -1 drawn) and moves the tournament
// on. It runs in the transaction that finished the match.
func tournamentMatchDone(ctx context.Context, tx *Tx, matchID int64, winner int, now time.Time) error {
	var tid int64
	err := tx.QueryRowContext(ctx, `SELECT tournament_id FROM tournament_pairings WHERE match_id = ?`, matchID).Scan(&tid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // not a tournament match
	} else if err != nil {
		return fmt.Errorf("db: tournament match: %w", err)
	}
	points := 0.5
	switch winner {
	case 0:
		points = 1
	case 1:
		points = 0
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tournament_pairings SET points0 = ? WHERE match_id = ?`, points, matchID); err != nil {
		return fmt.Errorf("db: tournament result: %w", err)
	}
	return advanceTournament(ctx, tx, tid, now)
}

// advanceTournament starts what follows when the current round is
// complete: a knockout replays its drawn pairings, then pairs the winners;
// a Swiss pairs its next round; the last round finishes the tournament.
func advanceTournament(ctx context.Context, tx *Tx, id int64, now time.Time) error {
	t, err := tournamentByID(ctx, tx, id)
	if err != nil || t.Status != "running" {
		return err
	}
	entrants, err := entrantsOf(ctx, tx, id)
	if err != nil {
		return err
	}
	all, err := pairingsOf(ctx, tx, id)
	if err != nil {
		return err
	}
	for _, p := range all {
		if !p.Decided && (t.Format == FormatRoundRobin || p.Round == t.Round) {
			return nil // still being played
		}
	}
	finish := func() error {
		_, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = 'finished', ended_at = ? WHERE id = ?`, unix(now), id)
		if err != nil {
			return fmt.Errorf("db: finish tournament: %w", err)
		}
		return nil
	}
	switch t.Format {
	case FormatRoundRobin:
		return finish()
	case FormatSwiss:
		if t.Round >= t.Rounds {
			return finish()
		}
		es := pairingEntrants(entrants)
		active := 0
		for _, e := range es {
			if !e.Withdrawn {
				active++
			}
		}
		if active < 2 {
			return finish()
		}
		next, err := pairing.Swiss(es, playedGames(all))
		if err != nil {
			return fmt.Errorf("db: pair round: %w", err)
		}
		return startRound(ctx, tx, t, next, now)
	case FormatKnockout:
		withdrawn := map[int64]bool{}
		for _, e := range entrants {
			withdrawn[e.ID] = e.Withdrawn
		}
		// The last leg of each board of this round decides it.
		last := map[int]TournamentPairing{}
		var boards []int
		for _, p := range all {
			if p.Round != t.Round {
				continue
			}
			if _, ok := last[p.Board]; !ok {
				boards = append(boards, p.Board)
			}
			last[p.Board] = p
		}
		slices.Sort(boards)
		var winners []int64
		replays := false
		for _, b := range boards {
			p := last[b]
			switch {
			case p.Side[1].ID == 0 || p.Points0 == 1:
				winners = append(winners, p.Side[0].ID)
			case p.Points0 == 0:
				winners = append(winners, p.Side[1].ID)
			case withdrawn[p.Side[0].ID] || withdrawn[p.Side[1].ID]:
				w := p.Side[0].ID
				if withdrawn[w] {
					w = p.Side[1].ID
				}
				winners = append(winners, w)
			default: // drawn: replayed with the colours reversed
				rp := pairing.Pairing{Side0: p.Side[1].ID, Side1: p.Side[0].ID}
				if err := addPairing(ctx, tx, t, p.Round, p.Board, p.Leg+1, rp, now); err != nil {
					return err
				}
				replays = true
			}
		}
		if replays {
			return nil
		}
		next := pairing.Next(winners)
		if next == nil {
			return finish()
		}
		return startRound(ctx, tx, t, next, now)
	}
	return nil
}

// startRound stores round t.Round+1 and starts its matches; a round made
// only of byes is complete at once.
func startRound(ctx context.Context, tx *Tx, t Tournament, next []pairing.Pairing, now time.Time) error {
	round := t.Round + 1
	if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET round = ? WHERE id = ? AND round = ?`, round, t.ID, t.Round); err != nil {
		return fmt.Errorf("db: next round: %w", err)
	}
	t.Round = round
	for b, p := range next {
		if err := addPairing(ctx, tx, t, round, b+1, 1, p, now); err != nil {
			return err
		}
	}
	return advanceTournament(ctx, tx, t.ID, now)
}

// playedGames turns decided pairings into the games package pairing
// counts: every leg is a game of its round.
func playedGames(ps []TournamentPairing) []pairing.Game {
	var out []pairing.Game
	for _, p := range ps {
		if !p.Decided {
			continue
		}
		out = append(out, pairing.Game{Round: p.Round, Pairing: pairing.Pairing{Side0: p.Side[0].ID, Side1: p.Side[1].ID}, Points0: p.Points0})
	}
	return out
}

// Standings ranks tournament d's entrants by points, Buchholz and
// Sonneborn–Berger from its decided pairings (withdrawn entrants
// included, with what they scored).
func (d TournamentDetail) Standings() ([]pairing.Standing, error) {
	es := pairingEntrants(d.Entrants)
	if len(es) < 2 {
		return nil, nil
	}
	return pairing.Standings(es, playedGames(d.Pairings))
}
