package db

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/trench-games/trench/rules"
)

// ArchivePageSize is how many finished games an archive page lists.
const ArchivePageSize = 50

// ArchiveCountCap is as far as the archive counts the games that match a
// filter: past it a page says "more than" and has no last page number.
const ArchiveCountCap = 10000

// ClampPage returns page (1-based) within the pages that total games fill:
// 1 for page < 1, the last page past it, so that no offset overflows.
func ClampPage(page, total int) int {
	last := max(1, (total+ArchivePageSize-1)/ArchivePageSize)
	return min(max(page, 1), last)
}

// ArchiveFilter selects finished games for the archive. Empty fields do
// not filter.
type ArchiveFilter struct {
	Game    string // engine key
	Variant string // the match's variant (ruleset)
	Player  string // a username: games this player played
	// Result is "drawn", "decisive", or — with Player — "won" or "lost".
	Result string
	// Page is the 1-based number of the page. Without a cursor the page
	// is found by counting (up to ArchiveCountCap games; further back it
	// is the last page); with one it is only the number shown.
	Page int
	// Before and After are cursors (ArchivePage.Older and Newer of the
	// page next to it): the page of the games that ended just before, or
	// just after, the game the cursor names. At most one is set.
	Before, After string
}

// ArchiveRow is one finished game in the archive, with its match: for the
// rules of a single game (rules.Variant.Match false) the game is its
// match, which then has one game, its result and its scores, in the
// order of its match players.
type ArchiveRow struct {
	// Game is the finished game as a list shows it: its players, rules,
	// result, scores, plies and times, without its position, clocks or
	// offers (archiveGameSelect).
	Game        Game
	Moves       int
	MatchGames  int // games in the match so far
	MatchStatus string
	MatchWinner int
	MatchTotals [2]int
	MatchPlayer [2]Player
}

// ArchivePage is one page of the archive.
type ArchivePage struct {
	Rows []ArchiveRow
	// Total is how many games match the filter, counted up to
	// ArchiveCountCap; Capped says there are more.
	Total  int
	Capped bool
	// Page is the page's number (0 when unknown: the last page past the
	// count's cap).
	Page int
	// Older and Newer are the cursors of the pages next to this one
	// (ArchiveFilter.Before and After), "" when there is none.
	Older, Newer string
}

// archiveMarks are how many games a filter of the archive lists, counted
// up to ArchiveCountCap + 1, and the key of the first game of each page
// among them (starts[n-1] begins page n).
type archiveMarks struct {
	total  int
	starts []archiveKey
}

// archiveKey is where a game stands in the archive's order: by end, then
// by id.
type archiveKey struct{ ended, id int64 }

func (k archiveKey) String() string { return fmt.Sprintf("%d.%d", k.ended, k.id) }

func parseArchiveKey(s string) (archiveKey, error) {
	a, b, ok := strings.Cut(s, ".")
	ended, err1 := strconv.ParseInt(a, 10, 64)
	id, err2 := strconv.ParseInt(b, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return archiveKey{}, Errorf(KindInvalid, "%q is not a place in the archive.", s)
	}
	return archiveKey{ended, id}, nil
}

// archiveBound is where a page of the archive starts or ends: the games
// whose key is op ("<", "<=" or ">") key, in the archive's order of
// (ended_at, id).
type archiveBound struct {
	op  string
	key archiveKey
}

// Archive returns one page of ArchivePageSize finished games that match
// f, the latest ended first. Every query it runs reads at most
// ArchiveCountCap + 1 index entries, however far back the page is: the
// links between pages carry cursors (keyset pagination), and only the
// count and a page number without a cursor count, up to the cap.
// Errors: KindInvalid for a result filter that needs a player without one,
// an unknown result filter or rules (f.Variant), or a malformed cursor;
// KindNotFound for an unknown player. Rules of another game than f.Game
// give an empty page.
// What it returns is remembered until a commit changes what the settled
// reads show (remember), and its rows are shared by every caller that
// asks for the page: a caller reads them and never changes them (a copy
// for each was a fifth of what a page never asked for allocated).
func (db *DB) Archive(ctx context.Context, f ArchiveFilter) (ArchivePage, error) {
	return remember(ctx, db, &db.log.settledGen, fmt.Sprintf("archive %q %q %q %q %d %q %q", f.Game, f.Variant, f.Player, f.Result, f.Page, f.Before, f.After), same[ArchivePage], func(ctx context.Context) (ArchivePage, error) {
		return db.archiveRead(ctx, f)
	})
}

// archiveRead reads what Archive returns.
func (db *DB) archiveRead(ctx context.Context, f ArchiveFilter) (ArchivePage, error) {
	var out ArchivePage
	where := []string{"g.status = 'finished'"}
	var args []any
	from := "games g"
	if f.Game != "" {
		where = append(where, "g.game = ?")
		args = append(args, f.Game)
	}
	if f.Variant != "" {
		// The match's variant, kept on the game (games_archive_rules,
		// which orders a game's games of each set of rules): a set of
		// rules chosen alone names its game too, so that the index
		// gives the order and no game row is read to test it.
		games := variantGames(f.Variant)
		switch {
		case len(games) == 0:
			return out, Errorf(KindInvalid, "Unknown rules %q.", f.Variant)
		case f.Game == "" && len(games) == 1:
			where = append(where, "g.game = ?")
			args = append(args, games[0])
		case f.Game != "" && !slices.Contains(games, f.Game):
			return out, nil // rules of another game: no game has them
		}
		where = append(where, "COALESCE(g.match_variant, g.variant) = ?")
		args = append(args, f.Variant)
	}
	var playerID int64
	if f.Player != "" {
		u, err := db.UserByName(ctx, f.Player)
		if err != nil {
			return out, err
		}
		playerID = u.ID
	}
	// A player's games are read in order from each side's index and
	// merged (parts, with their arguments): the games of either side in
	// one read would be sorted whole. Whether the player won or lost is
	// then a condition on each side's games alone.
	parts := []string{""}
	partArgs := [][]any{nil}
	if playerID != 0 {
		parts = []string{" AND g.side0_id = ?", " AND g.side1_id = ?"}
		partArgs = [][]any{{playerID}, {playerID}}
	}
	switch f.Result {
	case "":
	case "drawn":
		where = append(where, "g.winner = -1")
	case "decisive":
		if playerID == 0 {
			// Each winner's games in order along games_archive_result,
			// merged, as each side's games are for a player.
			parts = []string{" AND g.winner = 0", " AND g.winner = 1"}
			partArgs = [][]any{nil, nil}
		} else {
			where = append(where, "g.winner IN (0, 1)")
		}
	case "won", "lost":
		if playerID == 0 {
			if f.Result == "won" {
				return out, Errorf(KindInvalid, "Choose a player to filter the games they won.")
			}
			return out, Errorf(KindInvalid, "Choose a player to filter the games they lost.")
		}
		if f.Result == "won" {
			parts[0], parts[1] = parts[0]+" AND g.winner = 0", parts[1]+" AND g.winner = 1"
		} else {
			parts[0], parts[1] = parts[0]+" AND g.winner = 1", parts[1]+" AND g.winner = 0"
		}
	default:
		return out, Errorf(KindInvalid, "Unknown result filter %q.", f.Result)
	}
	cond := strings.Join(where, " AND ")
	// The count, and where each page up to the cap begins (the key of
	// its first game), are the same for every page of a filter: read
	// once, in the archive's order, and remembered apart from the pages,
	// so that a page asked for by its number alone starts at its key
	// instead of skipping the games before it.
	// ordered is the keys of the filtered games past the bound b (none
	// when nil), in order (newest first unless asc): one compound query
	// ordered as a whole, whose parts SQLite merges as each part's index
	// gives them, stopping at the LIMIT that follows it. A bound is
	// written as two parts, the games that ended in the same second as
	// its key and those before (or after) it, each a range of its index:
	// SQLite seeks a row value such as (ended_at, id) < (?, ?) by its
	// first column alone, and walked every game of that second past the
	// key (thousands when a sweep of timeouts ended them together).
	ordered := func(b *archiveBound, asc bool) (string, []any) {
		order := "DESC"
		if asc {
			order = "ASC"
		}
		var sel []string
		var qargs []any
		for i, p := range parts {
			var extras []string
			var extraArgs [][]any
			if b == nil {
				extras, extraArgs = []string{""}, [][]any{nil}
			} else {
				extras = []string{" AND g.ended_at = ? AND g.id " + b.op + " ?", " AND g.ended_at " + b.op[:1] + " ?"}
				extraArgs = [][]any{{b.key.ended, b.key.id}, {b.key.ended}}
			}
			for j, extra := range extras {
				sel = append(sel, `SELECT g.ended_at, g.id FROM `+from+` WHERE `+cond+p+extra)
				qargs = append(append(append(qargs, args...), partArgs[i]...), extraArgs[j]...)
			}
		}
		return strings.Join(sel, " UNION ALL ") + ` ORDER BY 1 ` + order + `, 2 ` + order, qargs
	}
	mq, markArgs := ordered(nil, false)
	mq += ` LIMIT ?`
	markArgs = append(markArgs, ArchiveCountCap+1)
	m, err := remember(ctx, db, &db.log.settledGen, fmt.Sprintf("archive marks %s %v", mq, markArgs), same[archiveMarks],
		func(ctx context.Context) (archiveMarks, error) {
			var m archiveMarks
			rows, err := db.read.QueryContext(ctx, mq, markArgs...)
			if err != nil {
				return m, fmt.Errorf("db: archive count: %w", err)
			}
			defer rows.Close()
			for rows.Next() {
				var k archiveKey
				if err := rows.Scan(&k.ended, &k.id); err != nil {
					return m, fmt.Errorf("db: archive count: %w", err)
				}
				if m.total%ArchivePageSize == 0 {
					m.starts = append(m.starts, k)
				}
				m.total++
			}
			if err := rows.Err(); err != nil {
				return m, fmt.Errorf("db: archive count: %w", err)
			}
			return m, nil
		})
	if err != nil {
		return out, err
	}
	out.Total = m.total
	if out.Total > ArchiveCountCap {
		out.Total, out.Capped = ArchiveCountCap, true
	}
	// keys reads the keys of up to n games from the filtered ones, in
	// order (newest first unless asc), past the bound b (none when nil).
	keys := func(b *archiveBound, asc bool, n int) ([]archiveKey, error) {
		q, qargs := ordered(b, asc)
		rows, err := db.read.QueryContext(ctx, q+` LIMIT ?`, append(qargs, n)...)
		if err != nil {
			return nil, fmt.Errorf("db: archive: %w", err)
		}
		defer rows.Close()
		var ks []archiveKey
		for rows.Next() {
			var k archiveKey
			if err := rows.Scan(&k.ended, &k.id); err != nil {
				return nil, fmt.Errorf("db: archive: %w", err)
			}
			ks = append(ks, k)
		}
		return ks, rows.Err()
	}
	// The page is read with one game more in the order it is read in:
	// that game says whether there is a page beyond it that way.
	var page []archiveKey
	var beyond, back bool // a game past the page in its order; in the other order
	read := func(b *archiveBound, asc bool) error {
		ks, err := keys(b, asc, ArchivePageSize+1)
		if err != nil {
			return err
		}
		if beyond = len(ks) > ArchivePageSize; beyond {
			ks = ks[:ArchivePageSize]
		}
		page = ks
		return nil
	}
	asc := false      // the page was read oldest first
	askBack := true   // whether there is a page the other way is still to be asked
	out.Page = f.Page // with a cursor, only the number shown (0: unknown)
	switch {
	case f.Before != "" || f.After != "":
		c := f.Before
		if c == "" {
			c = f.After
		}
		k, err := parseArchiveKey(c)
		if err != nil {
			return out, err
		}
		if f.Before != "" {
			err = read(&archiveBound{"<", k}, false)
		} else {
			asc = true
			err = read(&archiveBound{">", k}, true)
		}
		if err != nil {
			return out, err
		}
	case out.Capped && (max(out.Page, 1)-1)*ArchivePageSize >= ArchiveCountCap:
		// Past the count: the last page, its number unknown.
		asc = true
		if err := read(nil, true); err != nil {
			return out, err
		}
		out.Page = 0
	default:
		out.Page = max(out.Page, 1)
		if !out.Capped {
			out.Page = ClampPage(out.Page, out.Total)
		}
		// Every page up to the cap has its start among the marks, read
		// under the same generation; none has one when no game matches.
		// The first page has no newer one, any other has the pages
		// before it.
		if out.Page-1 < len(m.starts) {
			start := m.starts[out.Page-1]
			if err := read(&archiveBound{"<=", start}, false); err != nil {
				return out, err
			}
			back, askBack = out.Page > 1, false
		}
	}
	if asc {
		slices.Reverse(page)
	}
	if len(page) == 0 {
		return out, nil
	}
	first, last := page[0], page[len(page)-1]
	if askBack {
		// The other way: one game past the page's other end.
		b, other := archiveBound{">", first}, true
		if asc {
			b, other = archiveBound{"<", last}, false
		}
		next, err := keys(&b, other, 1)
		if err != nil {
			return out, err
		}
		back = len(next) > 0
	}
	older, newer := beyond, back
	if asc {
		older, newer = back, beyond
	}
	if older {
		out.Older = last.String()
	}
	if newer {
		out.Newer = first.String()
	}
	rows, err := db.archiveGames(ctx, page)
	if err != nil {
		return out, err
	}
	// A game of a single game's rules is its match: the match is read
	// only for the rules of several games, and its players' names come
	// from its games' rows.
	var matchIDs []int64
	var several []int // the rows of such games
	for i := range rows {
		g := &rows[i].Game
		rows[i].Moves, rows[i].MatchGames, rows[i].MatchStatus, rows[i].MatchWinner = g.Ply, 1, "finished", -1
		rows[i].MatchTotals, rows[i].MatchPlayer = g.Score, g.Side
		if g.Winner != rules.NoSide {
			rows[i].MatchWinner = int(g.Winner)
		}
		if g.Swapped {
			p, t := rows[i].MatchPlayer, rows[i].MatchTotals
			rows[i].MatchPlayer, rows[i].MatchTotals = [2]Player{p[1], p[0]}, [2]int{t[1], t[0]}
			if rows[i].MatchWinner >= 0 {
				rows[i].MatchWinner = 1 - rows[i].MatchWinner
			}
		}
		if severalGames(g.Game, g.MatchVariant) {
			matchIDs, several = append(matchIDs, g.MatchID), append(several, i)
		}
	}
	out.Rows = rows
	if len(matchIDs) == 0 {
		return out, nil
	}
	type matchRow struct {
		games, winner int
		status        string
		totals        [2]int
		players       [2]int64
	}
	in, args := idList(matchIDs, ArchivePageSize)
	matches := make(map[int64]matchRow, len(matchIDs))
	mrows, err := db.read.QueryContext(ctx, `SELECT m.id, (SELECT COUNT(*) FROM games WHERE match_id = m.id), m.status,
		COALESCE(m.winner, -1), m.total0, m.total1, m.player0_id, m.player1_id FROM matches m WHERE m.id IN (`+in+`)`, args...)
	if err != nil {
		return out, fmt.Errorf("db: archive matches: %w", err)
	}
	defer mrows.Close()
	for mrows.Next() {
		var id int64
		var m matchRow
		if err := mrows.Scan(&id, &m.games, &m.status, &m.winner, &m.totals[0], &m.totals[1], &m.players[0], &m.players[1]); err != nil {
			return out, fmt.Errorf("db: archive matches: %w", err)
		}
		matches[id] = m
	}
	if err := mrows.Err(); err != nil {
		return out, fmt.Errorf("db: archive matches: %w", err)
	}
	for _, i := range several {
		g := &rows[i].Game
		m, ok := matches[g.MatchID]
		if !ok {
			return out, fmt.Errorf("db: archive: game %d has no match %d", g.ID, g.MatchID)
		}
		r := &rows[i]
		r.MatchGames, r.MatchStatus, r.MatchWinner, r.MatchTotals = m.games, m.status, m.winner, m.totals
		for j, id := range m.players {
			// The match's players are its games' two sides.
			switch id {
			case g.Side[0].ID:
				r.MatchPlayer[j] = g.Side[0]
			case g.Side[1].ID:
				r.MatchPlayer[j] = g.Side[1]
			default:
				return out, fmt.Errorf("db: archive: game %d is not played by its match's player %d", g.ID, id)
			}
		}
	}
	return out, nil
}

// severalGames says whether variant, a set of rules of game (engine
// keys), is a match of several games (rules.Variant.Match); unknown rules
// are taken to be.
func severalGames(game, variant string) bool {
	key := game + "\x00" + variant
	if v, ok := severalGamesOf.Load(key); ok {
		return v.(bool)
	}
	several := severalGamesRead(game, variant)
	severalGamesOf.Store(key, several)
	return several
}

// severalGamesOf remembers severalGames by game and rules (a game's rules
// are fixed once its engine is registered, and few).
var severalGamesOf sync.Map

func severalGamesRead(game, variant string) bool {
	eng, ok := rules.Lookup(game)
	if !ok {
		return true
	}
	v, ok := rules.VariantOf(eng, variant)
	return !ok || v.Match
}

// archiveGameSelect reads what ArchiveRow.Game holds: a finished game
// with neither its states nor its clocks, nor its players' names
// (playerNames), in no order: sorting the rows in SQLite wrote each into
// a temporary table and read it back. The games are read by their keys
// (keys, the VALUES of their end and id) from games_archive_rows, which
// holds every column read here, in the order of the games' ends: the
// games of a page sit side by side in it, on a few of its pages, where
// their rows lay scattered over the games' table (50 rows, 50 pages).
// A finished game has no side to move (to_move is -1).
const archiveGameSelect = `SELECT g.id, g.match_id, g.number, g.game, g.variant, g.swapped,
	g.side0_id, g.side1_id, g.ply, COALESCE(g.winner, -1),
	g.score0, g.score1, g.reason, g.days_per_move, g.created_at, g.updated_at, g.ended_at, COALESCE(g.match_variant, g.variant)
	FROM (VALUES %s) k JOIN games g INDEXED BY games_archive_rows
	ON g.ended_at = k.column1 AND g.id = k.column2 AND g.status = 'finished'`

// archiveGames reads the finished games keys names, in their order, with
// their players' names, as the Game of archive rows (the rest left to
// fill).
func (db *DB) archiveGames(ctx context.Context, keys []archiveKey) ([]ArchiveRow, error) {
	// The keys, padded with (0, 0) (no game's) to a page's worth, so
	// that the query has one text (idList).
	size := max(ArchivePageSize, (len(keys)+ArchivePageSize-1)/ArchivePageSize*ArchivePageSize)
	args := make([]any, 0, 2*size)
	for i := range size {
		if i < len(keys) {
			args = append(args, keys[i].ended, keys[i].id)
		} else {
			args = append(args, int64(0), int64(0))
		}
	}
	rows, err := db.read.QueryContext(ctx, fmt.Sprintf(archiveGameSelect, "(?, ?)"+strings.Repeat(", (?, ?)", size-1)), args...)
	if err != nil {
		return nil, fmt.Errorf("db: archive games: %w", err)
	}
	defer rows.Close()
	// Each game goes to its place in the page (a Game is half a
	// kilobyte: a map of them by id doubled what a page allocated).
	at := make(map[int64]int, len(keys))
	for i, k := range keys {
		at[k.id] = i
	}
	out := make([]ArchiveRow, len(keys))
	var g Game // scanned into, then copied to its place: one Game escapes, not one a row
	for rows.Next() {
		g = Game{}
		var winner int
		var reason string
		var created, updated int64
		var ended sql.NullInt64
		if err := rows.Scan(&g.ID, &g.MatchID, &g.Number, &g.Game, &g.Variant, &g.Swapped,
			&g.Side[0].ID, &g.Side[1].ID, &g.Ply, &winner,
			&g.Score[0], &g.Score[1], &reason, &g.DaysPerMove, &created, &updated, &ended, &g.MatchVariant); err != nil {
			return nil, fmt.Errorf("db: archive games: %w", err)
		}
		g.Status, g.ToMove, g.Winner, g.Reason = "finished", rules.NoSide, rules.Side(winner), rules.Reason(reason)
		g.CreatedAt, g.UpdatedAt, g.EndedAt = fromUnix(created), fromUnix(updated), fromNullUnix(ended)
		if i, ok := at[g.ID]; ok {
			out[i].Game = g
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: archive games: %w", err)
	}
	// A game deleted since its key was read is left out (its place has
	// no id).
	out = slices.DeleteFunc(out, func(r ArchiveRow) bool { return r.Game.ID == 0 })
	ps := make([]*Player, 0, 2*len(out))
	for i := range out {
		ps = append(ps, &out[i].Game.Side[0], &out[i].Game.Side[1])
	}
	if err := db.playerNames(ctx, ps); err != nil {
		return nil, err
	}
	return out, nil
}

// Record is a player's wins, losses and draws in one game.
type Record struct {
	Game                string
	Wins, Losses, Draws int
}

// PlayerRecords returns userID's wins, losses and draws per game (engine
// key), over finished games that were not aborted, sorted by game key:
// the counts the transactions that finish games keep (player_records),
// one row a game however many games the player has played.
// What it returns is remembered until a commit changes what the settled
// reads show (remember).
func (db *DB) PlayerRecords(ctx context.Context, userID int64) ([]Record, error) {
	return remember(ctx, db, &db.log.settledGen, fmt.Sprintf("records %d", userID), cloneSlice[Record], func(ctx context.Context) ([]Record, error) {
		return db.playerRecordsRead(ctx, userID)
	})
}

// playerRecordsRead reads what PlayerRecords returns.
func (db *DB) playerRecordsRead(ctx context.Context, userID int64) ([]Record, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT game, wins, losses, draws FROM player_records
		WHERE user_id = ? AND games > 0 ORDER BY game`, userID)
	if err != nil {
		return nil, fmt.Errorf("db: player records: %w", err)
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var r Record
		if err := rows.Scan(&r.Game, &r.Wins, &r.Losses, &r.Draws); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// variantGames are the keys of the games whose rules (variants) include
// key, for a filter by rules alone.
func variantGames(key string) []string {
	var out []string
	for _, e := range rules.Engines() {
		if _, ok := rules.VariantOf(e, key); ok {
			out = append(out, e.Key())
		}
	}
	return out
}
