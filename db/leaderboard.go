package db

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
)

// The leaderboard's rules: a player is listed in a game when they have
// finished a rated game of it in the last LeaderboardDays days; those
// whose rating there is established (RD at most ProvisionalRD) are
// ranked, the provisional ones are listed below them, unranked.
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
// rating share a rank; 0 for a provisional rating), the player, their
// rating, deviation, rated games and the end of their last rated game.
// Provisional says the rating is listed below the established ones.
type LeaderRow struct {
	Rank        int
	UserID      int64
	Name        string
	Rating      float64
	RD          float64
	Games       int
	LastGame    time.Time
	Provisional bool
}

// LeaderCounts is how many players a leaderboard lists: Established
// (ranked) and Provisional (below them, unranked).
type LeaderCounts struct {
	Established int
	Provisional int
}

// Lines is how many lines the leaderboard has in all.
func (c LeaderCounts) Lines() int { return c.Established + c.Provisional }

// leaderSince returns the earliest end of a last rated game that keeps a
// player on the leaderboard at now (unix seconds), as ratings.listed_until
// counts it.
func leaderSince(now time.Time) int64 { return unix(now) - LeaderboardDays*86400 }

// heldByGame keeps, per game, a value read at a moment that holds, while
// no rating changes (writeLog.ratingGen), from that moment to a later
// one: a game's counts of active and of established players (heldCount),
// the marks of its leaderboard (leaderMarksOf).
type heldByGame[T any] struct {
	mu    sync.Mutex
	games map[string]held[T]
}

// held is one game's value v, under generation gen, for the moments from
// from to until (unix seconds).
type held[T any] struct {
	gen         uint64
	from, until int64
	v           T
}

// get returns game's value when it holds under gen at at.
func (c *heldByGame[T]) get(game string, gen uint64, at int64) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.games[game]
	if !ok || h.gen != gen || at < h.from || at > h.until {
		var zero T
		return zero, false
	}
	return h.v, true
}

// put keeps v as game's value under gen from from to until.
func (c *heldByGame[T]) put(game string, gen uint64, from, until int64, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.games == nil {
		c.games = map[string]held[T]{}
	}
	c.games[game] = held[T]{gen, from, until, v}
}

// activeRatedPlayers returns how many players of game have finished a
// rated game in the last LeaderboardDays days at now: counted along
// ratings_game once, then kept from that moment until the oldest of
// those games is LeaderboardDays old, while no rating changes.
func (db *DB) activeRatedPlayers(ctx context.Context, game string, now time.Time) (int, error) {
	return db.heldCount(ctx, &db.activeRated, game, now, "updated_at", leaderSince(now), LeaderboardDays*86400)
}

// leaderCounts counts game's listed players at now: the established in
// the range of ratings_listed, the provisional as the active ones (a
// rated game in the last LeaderboardDays days) that are not.
func (db *DB) leaderCounts(ctx context.Context, game string, now time.Time) (LeaderCounts, error) {
	var c LeaderCounts
	active, err := db.activeRatedPlayers(ctx, game, now)
	if err != nil {
		return c, err
	}
	if c.Established, err = db.establishedPlayers(ctx, game, now); err != nil {
		return c, err
	}
	c.Provisional = max(0, active-c.Established)
	return c, nil
}

// establishedPlayers returns how many players of game are established at
// now (ratings.listed_until not past): counted along ratings_listed once,
// then kept from that moment until the first of their listings ends,
// while no rating changes.
func (db *DB) establishedPlayers(ctx context.Context, game string, now time.Time) (int, error) {
	return db.heldCount(ctx, &db.established, game, now, "listed_until", unix(now), 0)
}

// heldCount returns how many of game's ratings have column (a moment in
// unix seconds) at from or later, kept in h under the ratings'
// generation from now until the earliest of those moments plus lasts
// seconds: then the first of them no longer counts. Errors: the database
// cannot be read.
func (db *DB) heldCount(ctx context.Context, h *heldByGame[int], game string, now time.Time, column string, from, lasts int64) (int, error) {
	gen, at := db.log.ratingGen.Load(), unix(now)
	if n, ok := h.get(game, gen, at); ok {
		return n, nil
	}
	var n int
	var first sql.NullInt64
	if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*), MIN(`+column+`) FROM ratings WHERE game = ? AND `+column+` >= ?`,
		game, from).Scan(&n, &first); err != nil {
		return 0, fmt.Errorf("db: leaderboard: %w", err)
	}
	until := int64(1<<63 - 1) // none counted: until a rating changes
	if first.Valid {
		until = first.Int64 + lasts
	}
	h.put(game, gen, at, until, n)
	return n, nil
}

// leaderMarkFrom is the first line, within a part of a leaderboard, that
// a page reads from the marks (leaderMarks) rather than by skipping the
// lines before it: before it the skip is short. leaderMarkEvery is how
// many lines apart the marks are. (Variables for the tests.)
var leaderMarkFrom, leaderMarkEvery = 500, ArchivePageSize

// leaderKey is a line's place in a leaderboard's order: rating down, then
// user id up (ratings_rank).
type leaderKey struct {
	rating float64
	userID int64
}

// leaderMarks are where the lines of a game's leaderboard begin, every
// leaderMarkEvery lines of each part: est[i] is the established part's
// line i*leaderMarkEvery, prov[i] the provisional part's.
type leaderMarks struct {
	est, prov []leaderKey
}

// leaderMarksOf returns game's leaderMarks at now: read once along
// ratings_rank (every rating of the game, index entries only), then kept
// while they hold: until a rating changes, leaves either part or moves
// from one to the other.
//
// One request reads them at a time: the others wait for its marks rather
// than read every rating again beside it.
func (db *DB) leaderMarksOf(ctx context.Context, game string, now time.Time) (leaderMarks, error) {
	gen, at := db.log.ratingGen.Load(), unix(now)
	if m, ok := db.leaderMarks.get(game, gen, at); ok {
		return m, nil
	}
	select {
	case db.leaderMarking <- struct{}{}:
		defer func() { <-db.leaderMarking }()
	case <-ctx.Done():
		return leaderMarks{}, fmt.Errorf("db: leaderboard: %w", ctx.Err())
	}
	if m, ok := db.leaderMarks.get(game, gen, at); ok {
		return m, nil
	}
	var m leaderMarks
	until := int64(1<<63 - 1)
	since := leaderSince(now)
	rows, err := db.read.QueryContext(ctx, `SELECT r.rating, r.user_id, r.listed_until, r.updated_at FROM ratings r
		WHERE r.game = ? ORDER BY r.rating DESC, r.user_id`, game)
	if err != nil {
		return m, fmt.Errorf("db: leaderboard: %w", err)
	}
	defer rows.Close()
	var est, prov int
	for rows.Next() {
		var k leaderKey
		var listed, updated int64
		if err := rows.Scan(&k.rating, &k.userID, &listed, &updated); err != nil {
			return m, fmt.Errorf("db: leaderboard: %w", err)
		}
		switch {
		case listed >= at:
			// Established until listed_until passes.
			if est%leaderMarkEvery == 0 {
				m.est = append(m.est, k)
			}
			est++
			until = min(until, listed)
		case updated >= since:
			// Provisional until its last rated game is too old.
			if prov%leaderMarkEvery == 0 {
				m.prov = append(m.prov, k)
			}
			prov++
		}
		if updated >= since {
			until = min(until, updated+LeaderboardDays*86400)
		}
	}
	if err := rows.Err(); err != nil {
		return m, fmt.Errorf("db: leaderboard: %w", err)
	}
	db.leaderMarks.put(game, gen, at, until, m)
	return m, nil
}

// leaderRows reads limit lines of game's leaderboard at now from offset
// within its part (established or provisional, of total lines), in rating
// order along ratings_rank: from the part's lowest rating up when that end
// is nearer (fromEnd).
func (db *DB) leaderRows(ctx context.Context, game string, now time.Time, provisional bool, offset, limit, total int) ([]LeaderRow, error) {
	if offset >= total {
		return nil, nil // past the end (fromEnd)
	}
	// The unary + keeps SQLite on ratings_rank, in rating order: the
	// filters are read from its entries as it goes.
	where := `r.game = ?1 AND +r.listed_until >= ?2`
	if provisional {
		where = `r.game = ?1 AND +r.listed_until < ?2 AND +r.updated_at >= ?3`
	}
	// The lines before the page are skipped inside ratings_rank alone,
	// and the page's lines are read from it too (it holds every column a
	// line shows): the inner query reads no rating's row. The names are
	// read for the page's own lines.
	order := `r.rating DESC, r.user_id`
	// Far down a part, the page starts at the nearest mark before it
	// and skips fewer than leaderMarkEvery lines; otherwise it skips
	// from the nearer end of the part.
	from := leaderKey{rating: math.Inf(1)}
	if offset >= leaderMarkFrom {
		m, err := db.leaderMarksOf(ctx, game, now)
		if err != nil {
			return nil, err
		}
		marks := m.est
		if provisional {
			marks = m.prov
		}
		if i := offset / leaderMarkEvery; i < len(marks) {
			from, offset = marks[i], offset%leaderMarkEvery
		}
	}
	back := false
	if math.IsInf(from.rating, 1) {
		back, offset, limit = fromEnd(offset, limit, total)
	}
	if back {
		order = `r.rating, r.user_id DESC`
	}
	rows, err := db.read.QueryContext(ctx, `SELECT k.user_id, u.name, k.rating, k.rd, k.volatility, k.games, k.updated_at
		FROM (SELECT r.user_id, r.rating, r.rd, r.volatility, r.games, r.updated_at
			FROM ratings r WHERE `+where+` AND r.rating <= ?6 AND (r.rating < ?6 OR r.user_id >= ?7)
			ORDER BY `+order+` LIMIT ?4 OFFSET ?5) k
		JOIN users u ON u.id = k.user_id`, game, unix(now), leaderSince(now), limit, offset, from.rating, from.userID)
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
		r.Rating, r.RD, r.Games, r.LastGame, r.Provisional = pr.Rating, pr.RD, pr.Games, pr.LastGame, provisional
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: leaderboard: %w", err)
	}
	// The page's lines, in the order the inner query chose them (at
	// leaves a rating as stored).
	slices.SortFunc(out, func(a, b LeaderRow) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.UserID, b.UserID)
	})
	return out, nil
}

// rankAbove returns the rank of an established rating of game at now:
// one more than the established players rated higher.
func (db *DB) rankAbove(ctx context.Context, game string, rating float64, now time.Time) (int, error) {
	var n int
	if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM ratings WHERE game = ? AND rating > ? AND listed_until >= ?`,
		game, rating, unix(now)).Scan(&n); err != nil {
		return 0, fmt.Errorf("db: leaderboard rank: %w", err)
	}
	return n + 1, nil
}

// Leaderboard returns the lines of game's (engine key) leaderboard at
// now, limit lines from offset (a negative one is 0), and how many lines
// it has. The established players come first, best first and ranked
// (players level on rating share a rank); then, unranked, the players
// whose rating is provisional and who have finished a rated game in the
// last LeaderboardDays days, best first. A page reads its own lines
// along an index, whatever the number of players. Errors: the database
// cannot be read.
// What it returns is remembered until a commit changes what the settled
// reads show (remember); the calls within one second of now share the
// first one's answer.
func (db *DB) Leaderboard(ctx context.Context, game string, now time.Time, offset, limit int) ([]LeaderRow, LeaderCounts, error) {
	return remember2(ctx, db, &db.log.settledGen, fmt.Sprintf("leaderboard %q %d %d %d", game, now.Unix(), offset, limit), cloneSlice[LeaderRow], func(ctx context.Context) ([]LeaderRow, LeaderCounts, error) {
		return db.leaderboardRead(ctx, game, now, offset, limit)
	})
}

// leaderboardRead reads what Leaderboard returns.
func (db *DB) leaderboardRead(ctx context.Context, game string, now time.Time, offset, limit int) ([]LeaderRow, LeaderCounts, error) {
	counts, err := db.leaderCounts(ctx, game, now)
	if err != nil || limit <= 0 {
		return nil, counts, err
	}
	offset = max(0, offset)
	var out []LeaderRow
	if offset < counts.Established {
		if out, err = db.leaderRows(ctx, game, now, false, offset, limit, counts.Established); err != nil {
			return nil, counts, err
		}
		for i := range out {
			switch {
			case i > 0 && out[i].Rating == out[i-1].Rating:
				out[i].Rank = out[i-1].Rank
			case i > 0:
				out[i].Rank = offset + i + 1
			default:
				if out[i].Rank, err = db.rankAbove(ctx, game, out[i].Rating, now); err != nil {
					return nil, counts, err
				}
			}
		}
	}
	if rest := limit - len(out); rest > 0 && counts.Provisional > 0 {
		prov, err := db.leaderRows(ctx, game, now, true, max(0, offset-counts.Established), rest, counts.Provisional)
		if err != nil {
			return nil, counts, err
		}
		out = append(out, prov...)
	}
	return out, counts, nil
}

// LeaderboardRank returns userID's line of game's leaderboard at now, and
// whether they are listed at all (false: inactive or without a rated
// game of it); a provisional rating's line is unranked, with Provisional
// set. Errors: the database cannot be read.
// What it returns is remembered until a commit changes what the settled
// reads show (remember); the calls within one second of now share the
// first one's answer.
func (db *DB) LeaderboardRank(ctx context.Context, game string, userID int64, now time.Time) (LeaderRow, bool, error) {
	return remember2(ctx, db, &db.log.settledGen, fmt.Sprintf("rank %q %d %d", game, userID, now.Unix()), same[LeaderRow], func(ctx context.Context) (LeaderRow, bool, error) {
		return db.leaderboardRankRead(ctx, game, userID, now)
	})
}

// leaderboardRankRead reads what LeaderboardRank returns.
func (db *DB) leaderboardRankRead(ctx context.Context, game string, userID int64, now time.Time) (LeaderRow, bool, error) {
	var r LeaderRow
	var pr PlayerRating
	var last, until int64
	err := db.read.QueryRowContext(ctx, `SELECT u.id, u.name, r.rating, r.rd, r.volatility, r.games, r.updated_at, r.listed_until
		FROM ratings r JOIN users u ON u.id = r.user_id WHERE r.user_id = ? AND r.game = ?`, userID, game).
		Scan(&r.UserID, &r.Name, &pr.Rating, &pr.RD, &pr.Volatility, &pr.Games, &last, &until)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && last < leaderSince(now)) {
		return LeaderRow{}, false, nil
	}
	if err != nil {
		return LeaderRow{}, false, fmt.Errorf("db: leaderboard rank: %w", err)
	}
	pr.LastGame = fromUnix(last)
	pr = pr.at(now)
	r.Rating, r.RD, r.Games, r.LastGame = pr.Rating, pr.RD, pr.Games, pr.LastGame
	if until < unix(now) {
		r.Provisional = true
		return r, true, nil
	}
	if r.Rank, err = db.rankAbove(ctx, game, r.Rating, now); err != nil {
		return LeaderRow{}, false, err
	}
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

// fromEnd places a page of a list of total rows, the rows from offset
// (at least 0) to offset+limit, for a read that skips the rows before it
// in an index: when fewer rows follow the page than precede it, the read
// goes from the list's end (back), limit rows after skipping offset from
// there. The rows come back in the opposite order then. An offset past
// the end reads forwards, and finds no row: the callers answer it without
// a read, which would walk the whole list.
func fromEnd(offset, limit, total int) (back bool, off, lim int) {
	end := min(offset+limit, total)
	if offset >= total || total-end >= offset {
		return false, offset, limit
	}
	return true, total - end, end - offset
}

// likePrefix escapes s for a LIKE pattern matching names starting with it.
func likePrefix(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s) + "%"
}

// Players returns the players whose name starts with prefix (ignoring
// case; every player for "", the computer players included), by name, limit rows from offset, and how
// many match in all, with their ratings at now. Errors: the database
// cannot be read.
// What it returns is remembered until the next commit but the background work's (remember, playGen); the
// calls within one second of now share the first one's answer.
func (db *DB) Players(ctx context.Context, prefix string, now time.Time, offset, limit int) ([]DirectoryRow, int, error) {
	return remember2(ctx, db, &db.log.playGen, fmt.Sprintf("players %q %d %d %d", prefix, now.Unix(), offset, limit), cloneSlice[DirectoryRow], func(ctx context.Context) ([]DirectoryRow, int, error) {
		return db.playersRead(ctx, prefix, now, offset, limit)
	})
}

// playersRead reads what Players returns.
func (db *DB) playersRead(ctx context.Context, prefix string, now time.Time, offset, limit int) ([]DirectoryRow, int, error) {
	pattern := likePrefix(prefix)
	// The names from prefix up to prefix followed by the last character
	// there is: a range of the names' index (LIKE alone reads them all).
	upper := prefix + "\U0010FFFF"
	var total int
	var count *sql.Row
	if prefix == "" {
		// Every account: the counter the triggers keep.
		count = db.read.QueryRowContext(ctx, `SELECT n FROM counters WHERE name = 'users'`)
	} else {
		count = db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE name >= ? AND name < ? AND name LIKE ? ESCAPE '\'`,
			prefix, upper, pattern)
	}
	if err := count.Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("db: players: %w", err)
	}
	// The names before the page are skipped in the names' index alone,
	// from the nearer end (fromEnd); the rows are read for the page's own
	// players. Every player: the whole index, with no condition to test
	// on each name skipped.
	if offset >= total {
		return nil, total, nil // past the end (fromEnd)
	}
	back, off, lim := fromEnd(max(0, offset), limit, total)
	// Far from both ends, the page starts at the mark before it, the
	// name directoryMarkEvery names apart that begins its stretch.
	from := prefix
	if min(off, total-offset) >= directoryMarkFrom {
		marks, err := db.directoryMarks(ctx, prefix, upper, pattern)
		if err != nil {
			return nil, 0, err
		}
		if i := offset / directoryMarkEvery; i < len(marks) {
			back, off, lim, from = false, offset%directoryMarkEvery, limit, marks[i]
		}
	}
	order := "name COLLATE NOCASE"
	if back {
		order += " DESC"
	}
	inner, args := `SELECT id FROM users WHERE name >= ? ORDER BY `+order+` LIMIT ? OFFSET ?`, []any{from, lim, off}
	if prefix != "" {
		inner = `SELECT id FROM users WHERE name >= ? AND name < ? AND name LIKE ? ESCAPE '\'
			ORDER BY ` + order + ` LIMIT ? OFFSET ?`
		args = []any{from, upper, pattern, lim, off}
	}
	rows, err := db.read.QueryContext(ctx, `SELECT u.id, u.name, MAX(u.created_at, u.last_played)
		FROM (`+inner+`) k JOIN users u ON u.id = k.id`, args...)
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
	// In the order the inner query chose them: by name, ignoring case.
	slices.SortStableFunc(out, func(a, b DirectoryRow) int { return compareNoCase(a.Name, b.Name) })
	ids := make([]int64, len(out))
	for i, r := range out {
		ids[i] = r.ID
	}
	ratings, err := db.ratingsOfPlayers(ctx, ids, now)
	if err != nil {
		return nil, 0, err
	}
	for i := range out {
		out[i].Ratings = ratings[out[i].ID]
	}
	return out, total, nil
}

// directoryMarkFrom is how many names a page of the directory may skip
// from the nearer end of its list before it starts at a mark instead
// (directoryMarks), and directoryMarkEvery how many names apart the
// marks are. (Variables for the tests.)
var directoryMarkFrom, directoryMarkEvery = 500, ArchivePageSize

// directoryMarks returns every directoryMarkEvery-th name, from the first,
// of the names from prefix to upper matching pattern (every name for
// prefix ""), in the directory's order (by name, ignoring case): read
// once along the names' index, then remembered while no account is
// added, renamed or deleted (listGen). Skipping 50,000 names of the
// index to the middle of the directory of 100,000 players took 1 ms a
// page.
func (db *DB) directoryMarks(ctx context.Context, prefix, upper, pattern string) ([]string, error) {
	return remember(ctx, db, &db.log.listGen, fmt.Sprintf("directory marks %q %d", prefix, directoryMarkEvery), cloneSlice[string],
		func(ctx context.Context) ([]string, error) {
			// Each mark is found from the one before by skipping the
			// names between them in the index, within SQLite: reading
			// every name out took 0.39 s for 100,000 players.
			cond, args := "", []any{directoryMarkEvery - 1}
			if prefix != "" {
				cond = `AND name >= ?2 AND name < ?3 AND name LIKE ?4 ESCAPE '\' `
				args = append(args, prefix, upper, pattern)
			}
			rows, err := db.read.QueryContext(ctx, `WITH RECURSIVE mark(name) AS (
				SELECT (SELECT name FROM users WHERE 1 `+cond+`ORDER BY name COLLATE NOCASE LIMIT 1)
				UNION ALL
				SELECT (SELECT u.name FROM users u WHERE u.name > mark.name `+cond+`ORDER BY u.name COLLATE NOCASE LIMIT 1 OFFSET ?1)
				FROM mark WHERE mark.name IS NOT NULL)
				SELECT name FROM mark WHERE name IS NOT NULL`, args...)
			if err != nil {
				return nil, fmt.Errorf("db: players: %w", err)
			}
			defer rows.Close()
			var marks []string
			for rows.Next() {
				var name string
				if err := rows.Scan(&name); err != nil {
					return nil, fmt.Errorf("db: players: %w", err)
				}
				marks = append(marks, name)
			}
			if err := rows.Err(); err != nil {
				return nil, fmt.Errorf("db: players: %w", err)
			}
			return marks, nil
		})
}

// RatingPoint is a player's rating after one rated game: when the game
// ended, the rating before it, and the rating and deviation it left.
type RatingPoint struct {
	At     time.Time
	Before float64
	Rating float64
	RD     float64
}

// RatingHistory returns userID's ratings in game after each of their last
// limit rated games (every one for limit ≤ 0), oldest first, read from one
// index however many games they have played. Errors: the database cannot
// be read.
// What it returns is remembered until a commit changes what the settled
// reads show (remember).
func (db *DB) RatingHistory(ctx context.Context, userID int64, game string, limit int) ([]RatingPoint, error) {
	return remember(ctx, db, &db.log.settledGen, fmt.Sprintf("history %d %q %d", userID, game, limit), cloneSlice[RatingPoint], func(ctx context.Context) ([]RatingPoint, error) {
		return db.ratingHistoryRead(ctx, userID, game, limit)
	})
}

// ratingHistoryRead reads what RatingHistory returns.
func (db *DB) ratingHistoryRead(ctx context.Context, userID int64, game string, limit int) ([]RatingPoint, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := db.read.QueryContext(ctx, `SELECT at, rating_before, rating_after, rd_after FROM rating_changes
		WHERE user_id = ? AND game = ? ORDER BY at DESC, game_id DESC LIMIT ?`, userID, game, limit)
	if err != nil {
		return nil, fmt.Errorf("db: rating history: %w", err)
	}
	defer rows.Close()
	var out []RatingPoint
	for rows.Next() {
		var p RatingPoint
		var at int64
		if err := rows.Scan(&at, &p.Before, &p.Rating, &p.RD); err != nil {
			return nil, fmt.Errorf("db: rating history: %w", err)
		}
		p.At = fromUnix(at)
		out = append(out, p)
	}
	slices.Reverse(out)
	return out, rows.Err()
}

// compareNoCase orders a and b as SQLite's NOCASE collation does: ASCII
// letters folded to lower case, every other byte as it is.
func compareNoCase(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return cmp.Compare(x, y)
		}
	}
	return cmp.Compare(len(a), len(b))
}
