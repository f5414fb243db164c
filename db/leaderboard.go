package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The leaderboard's rules: a player is listed in a game when their
// rating there is established (RD at most ProvisionalRD) and they have
// finished a rated game of it in the last LeaderboardDays days.
const (
	// ProvisionalRD is the largest rating deviation of an established
	// rating; above it a rating is provisional (shown with "?").
	ProvisionalRD = 110.0
	// LeaderboardDays is how recent a player's last rated game must be.
	LeaderboardDays = 90
)

// Provisional says whether a rating with deviation rd is provisional.
func Provisional(rd float64) bool { return rd > ProvisionalRD }

// LeaderRow is one line of a leaderboard: Rank from 1 (players level on
// rating share a rank), the player, their rating, deviation, rated games
// and the end of their last rated game.
type LeaderRow struct {
	Rank     int
	UserID   int64
	Name     string
	Rating   float64
	RD       float64
	Games    int
	LastGame time.Time
}

// leaderWhere selects the listed ratings of a game (arguments: game, the
// oldest last game allowed in unix seconds, ProvisionalRD).
const leaderWhere = `r.game = ? AND r.updated_at >= ? AND r.rd <= ?`

// Leaderboard returns the listed players of game (engine key) at now,
// best first, limit rows from offset, and how many are listed in all.
// Errors: the database cannot be read.
func (db *DB) Leaderboard(ctx context.Context, game string, now time.Time, offset, limit int) ([]LeaderRow, int, error) {
	since := unix(now.AddDate(0, 0, -LeaderboardDays))
	var total int
	if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM ratings r WHERE `+leaderWhere,
		game, since, ProvisionalRD).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("db: leaderboard: %w", err)
	}
	rows, err := db.read.QueryContext(ctx, `SELECT
			1 + (SELECT COUNT(*) FROM ratings o WHERE o.game = r.game AND o.updated_at >= ? AND o.rd <= ? AND o.rating > r.rating),
			u.id, u.name, r.rating, r.rd, r.games, r.updated_at
		FROM ratings r JOIN users u ON u.id = r.user_id
		WHERE `+leaderWhere+`
		ORDER BY r.rating DESC, u.name COLLATE NOCASE, u.id
		LIMIT ? OFFSET ?`, since, ProvisionalRD, game, since, ProvisionalRD, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("db: leaderboard: %w", err)
	}
	defer rows.Close()
	var out []LeaderRow
	for rows.Next() {
		var r LeaderRow
		var last int64
		if err := rows.Scan(&r.Rank, &r.UserID, &r.Name, &r.Rating, &r.RD, &r.Games, &last); err != nil {
			return nil, 0, fmt.Errorf("db: leaderboard: %w", err)
		}
		r.LastGame = fromUnix(last)
		out = append(out, r)
	}
	return out, total, rows.Err()
}

// LeaderboardRank returns userID's line of game's leaderboard at now, and
// whether they are listed at all (false: provisional, inactive or without
// a rated game of it). Errors: the database cannot be read.
func (db *DB) LeaderboardRank(ctx context.Context, game string, userID int64, now time.Time) (LeaderRow, bool, error) {
	since := unix(now.AddDate(0, 0, -LeaderboardDays))
	var r LeaderRow
	var last int64
	err := db.read.QueryRowContext(ctx, `SELECT
			1 + (SELECT COUNT(*) FROM ratings o WHERE o.game = r.game AND o.updated_at >= ? AND o.rd <= ? AND o.rating > r.rating),
			u.id, u.name, r.rating, r.rd, r.games, r.updated_at
		FROM ratings r JOIN users u ON u.id = r.user_id
		WHERE `+leaderWhere+` AND r.user_id = ?`, since, ProvisionalRD, game, since, ProvisionalRD, userID).
		Scan(&r.Rank, &r.UserID, &r.Name, &r.Rating, &r.RD, &r.Games, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return LeaderRow{}, false, nil
	}
	if err != nil {
		return LeaderRow{}, false, fmt.Errorf("db: leaderboard rank: %w", err)
	}
	r.LastGame = fromUnix(last)
	return r, true, nil
}

// DirectoryRow is one player of the players directory: their ratings (one
// per game they have played rated, by game key) and when they last played
// (the last change to one of their games; their sign-up when none).
type DirectoryRow struct {
	ID         int64
	Name       string
	Ratings    []PlayerRating
	LastActive time.Time
}

// likePrefix escapes s for a LIKE pattern matching names starting with it.
func likePrefix(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s) + "%"
}

// Players returns the players whose name starts with prefix (ignoring
// case; every player for ""), by name, limit rows from offset, and how
// many match in all. Errors: the database cannot be read.
func (db *DB) Players(ctx context.Context, prefix string, offset, limit int) ([]DirectoryRow, int, error) {
	pattern := likePrefix(prefix)
	var total int
	if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE name LIKE ? ESCAPE '\'`, pattern).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("db: players: %w", err)
	}
	rows, err := db.read.QueryContext(ctx, `SELECT u.id, u.name, MAX(u.created_at,
			COALESCE((SELECT MAX(updated_at) FROM games WHERE side0_id = u.id), 0),
			COALESCE((SELECT MAX(updated_at) FROM games WHERE side1_id = u.id), 0))
		FROM users u WHERE u.name LIKE ? ESCAPE '\'
		ORDER BY u.name COLLATE NOCASE LIMIT ? OFFSET ?`, pattern, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("db: players: %w", err)
	}
	var out []DirectoryRow
	for rows.Next() {
		var r DirectoryRow
		var last int64
		if err := rows.Scan(&r.ID, &r.Name, &last); err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("db: players: %w", err)
		}
		r.LastActive = fromUnix(last)
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("db: players: %w", err)
	}
	for i := range out {
		if out[i].Ratings, err = db.Ratings(ctx, out[i].ID); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// RatingPoint is a player's rating after one rated game: when the game
// ended, and the rating and deviation it left.
type RatingPoint struct {
	At     time.Time
	Rating float64
	RD     float64
}

// RatingHistory returns userID's ratings in game after each of their rated
// games, oldest first. Errors: the database cannot be read.
func (db *DB) RatingHistory(ctx context.Context, userID int64, game string) ([]RatingPoint, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT COALESCE(g.ended_at, g.updated_at), c.rating_after, c.rd_after
		FROM rating_changes c JOIN games g ON g.id = c.game_id
		WHERE c.user_id = ? AND g.game = ?
		ORDER BY COALESCE(g.ended_at, g.updated_at), g.id`, userID, game)
	if err != nil {
		return nil, fmt.Errorf("db: rating history: %w", err)
	}
	defer rows.Close()
	var out []RatingPoint
	for rows.Next() {
		var p RatingPoint
		var at int64
		if err := rows.Scan(&at, &p.Rating, &p.RD); err != nil {
			return nil, fmt.Errorf("db: rating history: %w", err)
		}
		p.At = fromUnix(at)
		out = append(out, p)
	}
	return out, rows.Err()
}
