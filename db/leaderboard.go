package db

import (
	"context"
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

// leaders returns the listed players of game at now, best first, ranked:
// ratings of a rated game in the last LeaderboardDays days whose
// deviation, widened for the time since (see PlayerRating), is at most
// ProvisionalRD.
func (db *DB) leaders(ctx context.Context, game string, now time.Time) ([]LeaderRow, error) {
	since := unix(now.AddDate(0, 0, -LeaderboardDays))
	rows, err := db.read.QueryContext(ctx, `SELECT u.id, u.name, r.rating, r.rd, r.volatility, r.games, r.updated_at
		FROM ratings r JOIN users u ON u.id = r.user_id
		WHERE r.game = ? AND r.updated_at >= ? AND r.rd <= ?
		ORDER BY r.rating DESC, u.name COLLATE NOCASE, u.id`, game, since, ProvisionalRD)
	if err != nil {
		return nil, fmt.Errorf("db: leaderboard: %w", err)
	}
	defer rows.Close()
	var out []LeaderRow
	for rows.Next() {
		var r LeaderRow
		var pr PlayerRating
		var last int64
		if err := rows.Scan(&r.UserID, &r.Name, &pr.Rating, &pr.RD, &pr.Volatility, &pr.Games, &last); err != nil {
			return nil, fmt.Errorf("db: leaderboard: %w", err)
		}
		pr.LastGame = fromUnix(last)
		pr = pr.at(now)
		if Provisional(pr.RD) {
			continue
		}
		r.Rating, r.RD, r.Games, r.LastGame = pr.Rating, pr.RD, pr.Games, pr.LastGame
		if n := len(out); n > 0 && out[n-1].Rating == r.Rating {
			r.Rank = out[n-1].Rank
		} else {
			r.Rank = n + 1
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Leaderboard returns the listed players of game (engine key) at now,
// best first, limit rows from offset, and how many are listed in all.
// Players level on rating share a rank. Errors: the database cannot be
// read.
func (db *DB) Leaderboard(ctx context.Context, game string, now time.Time, offset, limit int) ([]LeaderRow, int, error) {
	all, err := db.leaders(ctx, game, now)
	if err != nil {
		return nil, 0, err
	}
	if offset >= len(all) {
		return nil, len(all), nil
	}
	return all[offset:min(len(all), offset+limit)], len(all), nil
}

// LeaderboardRank returns userID's line of game's leaderboard at now, and
// whether they are listed at all (false: provisional, inactive or without
// a rated game of it). Errors: the database cannot be read.
func (db *DB) LeaderboardRank(ctx context.Context, game string, userID int64, now time.Time) (LeaderRow, bool, error) {
	all, err := db.leaders(ctx, game, now)
	if err != nil {
		return LeaderRow{}, false, err
	}
	for _, r := range all {
		if r.UserID == userID {
			return r, true, nil
		}
	}
	return LeaderRow{}, false, nil
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
// many match in all, with their ratings at now. Errors: the database
// cannot be read.
func (db *DB) Players(ctx context.Context, prefix string, now time.Time, offset, limit int) ([]DirectoryRow, int, error) {
	pattern := likePrefix(prefix)
	// The names from prefix up to prefix followed by the last character
	// there is: a range of the names' index (LIKE alone reads them all).
	upper := prefix + "\U0010FFFF"
	var total int
	if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE name >= ? AND name < ? AND name LIKE ? ESCAPE '\' AND computer_level IS NULL`,
		prefix, upper, pattern).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("db: players: %w", err)
	}
	rows, err := db.read.QueryContext(ctx, `SELECT u.id, u.name, MAX(u.created_at,
			COALESCE((SELECT MAX(updated_at) FROM games WHERE side0_id = u.id), 0),
			COALESCE((SELECT MAX(updated_at) FROM games WHERE side1_id = u.id), 0))
		FROM users u WHERE u.name >= ? AND u.name < ? AND u.name LIKE ? ESCAPE '\' AND u.computer_level IS NULL
		ORDER BY u.name COLLATE NOCASE LIMIT ? OFFSET ?`, prefix, upper, pattern, limit, offset)
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
		if out[i].Ratings, err = db.Ratings(ctx, out[i].ID, now); err != nil {
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
