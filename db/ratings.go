package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/glicko2"
)

// Ratings are Glicko-2 ratings, one per player and game (engine key:
// "trench", "trenches", "cards"). Only rated games count: a match is rated
// when the challenge it came from was.
//
// Each finished rated game is one rating period for its two players, and
// for nobody else: both are rated against the other's rating before the
// game, a win scoring 1, a draw 0.5, a loss 0. A match of several games
// (TRENCH's official match: two games and perhaps a decider) is one
// result, rated once when it ends, by the match's winner, and recorded
// with its last game: its games on their own are not rated. Between rated games a player's RD grows as
// Glicko-2 does for rating periods without games (glicko2.Widen), one
// period per 1/RatingPeriodsPerDay days since their last rated game in
// that game, at most 350: the RD read at a time is the widened one, and
// the next rated game starts from it. The update is made in the
// transaction that stores the game's result (finishGame), so a result and
// its rating change are stored together or not at all.

// RatingPeriodsPerDay is how many Glicko-2 rating periods pass in a day
// without games (lichess's figure: a period of about 4.67 days).
const RatingPeriodsPerDay = 0.21436

// PlayerRating is a player's rating in one game.
type PlayerRating struct {
	UserID     int64
	Game       string
	Rating     float64
	RD         float64
	Volatility float64
	Games      int       // rated games played
	LastGame   time.Time // when the last rated game ended; zero for none
}

// at returns r as it stands at now: its RD widened for the rating periods
// since the last rated game (glicko2.Widen).
func (r PlayerRating) at(now time.Time) PlayerRating {
	if r.Games == 0 || r.LastGame.IsZero() || !now.After(r.LastGame) {
		return r
	}
	days := now.Sub(r.LastGame).Hours() / 24
	r.RD = glicko2.Widen(r.glicko(), days*RatingPeriodsPerDay).RD
	return r
}

func newRating(userID int64, game string) PlayerRating {
	r := glicko2.New()
	return PlayerRating{UserID: userID, Game: game, Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
}

func (r PlayerRating) glicko() glicko2.Rating {
	return glicko2.Rating{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
}

// RatingChange is what one rated game did to one player's rating.
type RatingChange struct {
	UserID       int64
	RatingBefore float64
	RDBefore     float64
	RatingAfter  float64
	RDAfter      float64
}

// ratingOf returns userID's rating in game at now, a new player's when
// there is none.
func ratingOf(ctx context.Context, q queryer, userID int64, game string, now time.Time) (PlayerRating, error) {
	r := PlayerRating{UserID: userID, Game: game}
	var last int64
	err := q.QueryRowContext(ctx, `SELECT rating, rd, volatility, games, updated_at FROM ratings WHERE user_id = ? AND game = ?`, userID, game).
		Scan(&r.Rating, &r.RD, &r.Volatility, &r.Games, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return newRating(userID, game), nil
	}
	if err != nil {
		return r, fmt.Errorf("db: rating: %w", err)
	}
	r.LastGame = fromUnix(last)
	return r.at(now), nil
}

// matchRatedSQL is a scalar subquery giving whether the match ?1 is rated
// (1 or 0): the challenge it came from was, or the tournament it belongs to
// is and neither player was entered unrated (a computer player).
const matchRatedSQL = `COALESCE((SELECT rated FROM (
			SELECT rated, 0 AS o, id AS k FROM challenges WHERE match_id = ?1
			UNION ALL SELECT t.rated AND NOT EXISTS (SELECT 1 FROM tournament_entrants e
					WHERE e.tournament_id = t.id AND e.user_id IN (m.player0_id, m.player1_id) AND e.rated = 0), 1, 0
				FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE m.id = ?1
		) ORDER BY o, k LIMIT 1), 0)`

// matchRated reports whether match id is rated (the challenge or the
// tournament it came from was; a tournament's match against an entrant
// entered unrated, a computer player, is not).
func matchRated(ctx context.Context, q queryer, matchID int64) (bool, error) {
	var rated bool
	if err := q.QueryRowContext(ctx, `SELECT `+matchRatedSQL, matchID).Scan(&rated); err != nil {
		return false, fmt.Errorf("db: match rated: %w", err)
	}
	return rated, nil
}

// rateGame updates both players' ratings for g, which has just ended with
// res, when its match is rated; it records the change per side. It runs in
// the transaction that stores the result.
func rateGame(ctx context.Context, tx *Tx, g Game, res rules.Result, now time.Time) error {
	rated, err := matchRated(ctx, tx, g.MatchID)
	if err != nil || !rated || g.Side[0].ID == g.Side[1].ID {
		return err
	}
	var before [2]PlayerRating
	for i := range before {
		if before[i], err = ratingOf(ctx, tx, g.Side[i].ID, g.Game, now); err != nil {
			return err
		}
	}
	score := glicko2.Draw
	switch res.Winner {
	case rules.Side0:
		score = glicko2.Win
	case rules.Side1:
		score = glicko2.Loss
	}
	a, b := glicko2.Game(before[0].glicko(), before[1].glicko(), score, glicko2.DefaultTau)
	// The pre-update hook gives no row id for these WITHOUT ROWID
	// tables: what is remembered of these two players' ratings is
	// forgotten after this commit, by their ids.
	tx.log.ratedPlayers(g.Side[0].ID, g.Side[1].ID)
	for i, after := range [2]glicko2.Rating{a, b} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (user_id, game, rating, rd, volatility, games, updated_at)
			VALUES (?, ?, ?, ?, ?, 1, ?)
			ON CONFLICT (user_id, game) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
				volatility = excluded.volatility, games = games + 1, updated_at = excluded.updated_at`,
			g.Side[i].ID, g.Game, after.Rating, after.RD, after.Volatility, unix(now)); err != nil {
			return fmt.Errorf("db: store rating: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_changes (game_id, side, user_id, rating_before, rd_before, rating_after, rd_after, game, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, g.ID, i, g.Side[i].ID, before[i].Rating, before[i].RD, after.Rating, after.RD, g.Game, unix(now)); err != nil {
			return fmt.Errorf("db: store rating change: %w", err)
		}
	}
	return nil
}

// Ratings returns userID's ratings at now (RDs widened for the time since
// each game's last rated game), one per game they have played rated games
// of, sorted by game key.
// What it returns is remembered until a commit changes what the settled
// reads show (remember); the calls within one second of now share the
// first one's answer.
func (db *DB) Ratings(ctx context.Context, userID int64, now time.Time) ([]PlayerRating, error) {
	return remember(ctx, db, &db.log.settledGen, fmt.Sprintf("ratings %d %d", userID, now.Unix()), cloneSlice[PlayerRating], func(ctx context.Context) ([]PlayerRating, error) {
		return db.ratingsRead(ctx, userID, now)
	})
}

// ratingsRead reads what Ratings returns.
func (db *DB) ratingsRead(ctx context.Context, userID int64, now time.Time) ([]PlayerRating, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT user_id, game, rating, rd, volatility, games, updated_at
		FROM ratings WHERE user_id = ? ORDER BY game`, userID)
	if err != nil {
		return nil, fmt.Errorf("db: ratings: %w", err)
	}
	byPlayer, err := ratingRows(rows, now)
	return byPlayer[userID], err
}

// ratingsOfPlayers reads the ratings of the players ids at now, as
// Ratings gives each, in one read: by player id, each player's by game.
func (db *DB) ratingsOfPlayers(ctx context.Context, ids []int64, now time.Time) (map[int64][]PlayerRating, error) {
	if len(ids) == 0 {
		return map[int64][]PlayerRating{}, nil
	}
	in, args := idList(ids, 50)
	rows, err := db.read.QueryContext(ctx, `SELECT user_id, game, rating, rd, volatility, games, updated_at
		FROM ratings WHERE user_id IN (`+in+`) ORDER BY user_id, game`, args...)
	if err != nil {
		return nil, fmt.Errorf("db: ratings: %w", err)
	}
	return ratingRows(rows, now)
}

// ratingRows reads ratings rows (user_id, game, rating, rd, volatility,
// games, updated_at) at now, by player in the rows' order, and closes them.
func ratingRows(rows *sql.Rows, now time.Time) (map[int64][]PlayerRating, error) {
	defer rows.Close()
	out := map[int64][]PlayerRating{}
	for rows.Next() {
		var r PlayerRating
		var last int64
		if err := rows.Scan(&r.UserID, &r.Game, &r.Rating, &r.RD, &r.Volatility, &r.Games, &last); err != nil {
			return nil, fmt.Errorf("db: ratings: %w", err)
		}
		r.LastGame = fromUnix(last)
		out[r.UserID] = append(out[r.UserID], r.at(now))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: ratings: %w", err)
	}
	return out, nil
}

// Rating returns userID's rating in game (engine key) at now, its RD
// widened for the time since their last rated game of it; a new player's
// (1500, RD 350, 0 games) when they have played no rated game of it.
func (db *DB) Rating(ctx context.Context, userID int64, game string, now time.Time) (PlayerRating, error) {
	return ratingOf(ctx, db.read, userID, game, now)
}

// GameRatings is what a game page shows of ratings: whether the game is
// rated, both players' current ratings in its game, and, once a rated game
// has ended, what it changed (Changed false before).
type GameRatings struct {
	Rated   bool
	Current [2]PlayerRating // by side
	Changed bool
	Change  [2]RatingChange // by side, when Changed
}

// GameRatings returns the ratings of g's players at now (RDs widened for
// the time since their last rated game), whether its match is rated and,
// once rated, the change (one query: game pages show it on every answer).
func (db *DB) GameRatings(ctx context.Context, g Game, now time.Time) (GameRatings, error) {
	gen := db.log.ratingGen.Load()
	st, ok := db.ratings.get(g.ID, gen)
	if !ok {
		var err error
		if st, err = db.readGameRatings(ctx, g); err != nil {
			return GameRatings{}, err
		}
		db.ratings.keep(g.ID, gen, st, db.log.ratingGen.Load())
	}
	out := st.GameRatings
	for i, ok := range st.stored {
		if ok {
			out.Current[i] = out.Current[i].at(now)
		}
	}
	return out, nil
}

// storedRatings is GameRatings as stored, before the RDs are widened to a
// moment; stored tells which player has a stored rating.
type storedRatings struct {
	GameRatings
	stored  [2]bool
	matchID int64 // g.MatchID, whose challenge or tournament says whether it is rated
}

// readGameRatings reads GameRatings as stored (one query).
func (db *DB) readGameRatings(ctx context.Context, g Game) (storedRatings, error) {
	st := storedRatings{matchID: g.MatchID}
	out := &st.GameRatings
	var cur [2]struct {
		rating, rd, vol sql.NullFloat64
		games, last     sql.NullInt64
	}
	var chg [2]struct {
		user                                         sql.NullInt64
		ratingBefore, rdBefore, ratingAfter, rdAfter sql.NullFloat64
	}
	err := db.read.QueryRowContext(ctx, `SELECT
		`+matchRatedSQL+`,
		r0.rating, r0.rd, r0.volatility, r0.games, r0.updated_at, r1.rating, r1.rd, r1.volatility, r1.games, r1.updated_at,
		c0.user_id, c0.rating_before, c0.rd_before, c0.rating_after, c0.rd_after,
		c1.user_id, c1.rating_before, c1.rd_before, c1.rating_after, c1.rd_after
		FROM (SELECT 1)
		LEFT JOIN ratings r0 ON r0.user_id = ?2 AND r0.game = ?4
		LEFT JOIN ratings r1 ON r1.user_id = ?3 AND r1.game = ?4
		LEFT JOIN rating_changes c0 ON c0.game_id = ?5 AND c0.side = 0
		LEFT JOIN rating_changes c1 ON c1.game_id = ?5 AND c1.side = 1`,
		g.MatchID, g.Side[0].ID, g.Side[1].ID, g.Game, g.ID).Scan(&out.Rated,
		&cur[0].rating, &cur[0].rd, &cur[0].vol, &cur[0].games, &cur[0].last, &cur[1].rating, &cur[1].rd, &cur[1].vol, &cur[1].games, &cur[1].last,
		&chg[0].user, &chg[0].ratingBefore, &chg[0].rdBefore, &chg[0].ratingAfter, &chg[0].rdAfter,
		&chg[1].user, &chg[1].ratingBefore, &chg[1].rdBefore, &chg[1].ratingAfter, &chg[1].rdAfter)
	if err != nil {
		return st, fmt.Errorf("db: game ratings: %w", err)
	}
	out.Changed = chg[0].user.Valid && chg[1].user.Valid
	for i := range out.Current {
		out.Current[i] = newRating(g.Side[i].ID, g.Game)
		if cur[i].rating.Valid {
			out.Current[i].Rating, out.Current[i].RD = cur[i].rating.Float64, cur[i].rd.Float64
			out.Current[i].Volatility, out.Current[i].Games = cur[i].vol.Float64, int(cur[i].games.Int64)
			out.Current[i].LastGame = fromUnix(cur[i].last.Int64)
			st.stored[i] = true
		}
		if out.Changed {
			out.Change[i] = RatingChange{UserID: chg[i].user.Int64, RatingBefore: chg[i].ratingBefore.Float64,
				RDBefore: chg[i].rdBefore.Float64, RatingAfter: chg[i].ratingAfter.Float64, RDAfter: chg[i].rdAfter.Float64}
		}
	}
	return st, nil
}

// RatingChanges returns the rating changes of the given games by game id
// and side; unrated (or unfinished) games are absent. What it returns is
// remembered until a commit changes what the settled reads show
// (remember).
func (db *DB) RatingChanges(ctx context.Context, gameIDs []int64) (map[int64][2]RatingChange, error) {
	return remember(ctx, db, &db.log.settledGen, fmt.Sprintf("rating changes %v", gameIDs), maps.Clone,
		func(ctx context.Context) (map[int64][2]RatingChange, error) {
			return db.ratingChangesRead(ctx, gameIDs)
		})
}

// ratingChangesRead reads what RatingChanges returns.
func (db *DB) ratingChangesRead(ctx context.Context, gameIDs []int64) (map[int64][2]RatingChange, error) {
	out := map[int64][2]RatingChange{}
	if len(gameIDs) == 0 {
		return out, nil
	}
	in, args := idList(gameIDs, 50)
	rows, err := db.read.QueryContext(ctx, `SELECT game_id, side, user_id, rating_before, rd_before, rating_after, rd_after
		FROM rating_changes WHERE game_id IN (`+in+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("db: rating changes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var side int
		var c RatingChange
		if err := rows.Scan(&id, &side, &c.UserID, &c.RatingBefore, &c.RDBefore, &c.RatingAfter, &c.RDAfter); err != nil {
			return nil, err
		}
		if side != 0 && side != 1 {
			continue
		}
		pair := out[id]
		pair[side] = c
		out[id] = pair
	}
	return out, rows.Err()
}

// ratingsChanged forgets the remembered ratings of the games of
// ch.ratingMatches and of ch.ratingPlayers' games (writeLog.ratingsChanged).
func (db *DB) ratingsChanged(ch changes, old, now uint64) {
	db.ratings.advance(old, now, func(_ int64, st storedRatings) bool {
		if _, found := slices.BinarySearch(ch.ratingMatches, st.matchID); found {
			return true
		}
		for _, r := range st.Current {
			if _, found := slices.BinarySearch(ch.ratingPlayers, r.UserID); found {
				return true
			}
		}
		return false
	})
}
