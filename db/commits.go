package db

import (
	"context"
	"database/sql/driver"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Every write to the database goes through the write pool's one
// connection. That connection carries SQLite's pre-update hook, which sees
// each row inserted, updated or deleted, whichever statement did it: the
// games and tournaments touched are collected while a transaction runs and
// handed to the observers registered with OnGameCommit and
// OnTournamentCommit once, and only once, its Commit has succeeded. No
// write path can forget to announce a change, and a rolled-back
// transaction announces nothing.

// pageTables are the tables whose rows show on a game's or a tournament's
// page, and where the game's or the tournament's id is found in a row: the
// row's id (col < 0) or the value of column col.
var pageTables = map[string]struct {
	tournament bool // the id is a tournament's, not a game's
	col        int  // -1: the rowid
}{
	"games":               {false, -1},
	"messages":            {false, 1}, // game_id
	"tournaments":         {true, -1},
	"tournament_entrants": {true, 0}, // tournament_id
	"tournament_pairings": {true, 0}, // tournament_id
}

// Wide changes: a committed change to a row of these tables may show on
// any page, so what is remembered of them starts again.
const (
	// changedAccounts: the tables a signed-in request's viewer is read
	// from (the session, its user, the server's announcement); moves
	// writeLog.accountGen on.
	changedAccounts uint8 = 1 << iota
	// changedGamesWide: what a remembered game shows besides its own row
	// and its match's (the players' names, its tournament); moves
	// writeLog.gameGen on. A match's row is not a wide change: the game
	// cache forgets that match and its games (writeLog.matches).
	changedGamesWide
	// changedVacations: the players' vacations, which stop the clocks;
	// moves writeLog.vacationGen on.
	changedVacations
	// changedRatings: what a game page shows of ratings (whether its
	// match is rated, the players' ratings, the game's rating change),
	// for every game: moves writeLog.ratingGen on and what is remembered
	// of ratings starts again. Narrower changes forget less: a challenge
	// row, the ratings of its match's games (writeLog.ratingMatches); a
	// rated game's end, those of its two players' games
	// (writeLog.ratingPlayers; the ratings and rating_changes tables are
	// WITHOUT ROWID, for which the pre-update hook gives no row id: their
	// one writer, rateGame, tells the log whose they are).
	changedRatings
	// changedPlans: the conditional moves of a game (WITHOUT ROWID, for
	// which the hook gives no row id: execPlans marks its transaction); moves
	// writeLog.planGen on.
	changedPlans
	// changedSocial: what a game's SocialVersion is read from (its
	// messages, its match's rematch offer and the offer's challenge);
	// moves writeLog.socialGen on.
	changedSocial
)

var wideTables = map[string]uint8{
	"users":               changedAccounts | changedGamesWide | changedRatings,
	"sessions":            changedAccounts,
	"settings":            changedAccounts,
	"tournaments":         changedGamesWide | changedRatings,
	"tournament_entrants": changedRatings,
	"vacations":           changedVacations,
	"messages":            changedSocial,
	"rematches":           changedSocial,
	"challenges":          changedSocial,
}

// writeLog collects the ids of the games and tournaments changed by the
// write transaction in progress. The write pool has a single connection,
// held by one transaction at a time, so the log belongs to that one.
type writeLog struct {
	logger *slog.Logger

	mu          sync.Mutex
	games       map[int64]struct{}
	tournaments map[int64]struct{}
	matches     map[int64]struct{} // for the game cache only
	// players are the two players of the games whose rows the
	// transaction wrote (for the game cache), read from the rows at
	// columns gameSides of the games table (0: not known).
	players   map[int64][2]int64
	gameSides [2]int
	// ratingMatches are the matches named by the challenge rows the
	// transaction wrote (before and after), read at column challengeMatch
	// of the challenges table (0: not known, and a challenge's change is
	// a wide one); ratingPlayers are the players whose ratings it changed.
	ratingMatches  map[int64]struct{}
	ratingPlayers  map[int64]struct{}
	challengeMatch int
	wide           uint8 // changedAccounts, changedGamesWide, …
	// settled says the transaction changed what the settled reads show
	// (settledGen); gameStatus and lastPlayed are the positions of the
	// games' status and the users' last_played, which tell (0: not known,
	// and every change of those tables is a settled one).
	settled bool
	// userName is the position of the users' name (0: not known, and
	// every update of an account may rename it).
	gameStatus, lastPlayed, userName int
	// names says the transaction may have changed a player's name as it
	// is remembered by id: it renamed or deleted an account (nameGen).
	// listed says it may have changed the list of the players' names: it
	// added, renamed or deleted an account (listGen).
	names, listed bool
	// played says the transaction wrote a row outside the background
	// searches' own (background), sawBackground that it wrote one of
	// theirs: a transaction that wrote theirs alone leaves playGen where
	// it is. One the hook saw nothing of (a transaction that wrote no
	// row) moves it.
	played, sawBackground bool

	// accountGen and gameGen count the committed transactions that made
	// a wide change of their kind (and the commits of other processes):
	// what was read under one value is still true while it has not moved
	// on.
	accountGen  atomic.Uint64
	gameGen     atomic.Uint64
	vacationGen atomic.Uint64
	ratingGen   atomic.Uint64
	planGen     atomic.Uint64
	socialGen   atomic.Uint64
	// commitGen counts every committed transaction (and the commits of
	// other processes), settledGen those that changed what the settled
	// reads show (finished games, accounts, ratings…, and the
	// commits of other processes): what the read cache remembers was read
	// under one of them (readCache).
	commitGen  atomic.Uint64
	settledGen atomic.Uint64
	// nameGen counts the committed transactions that may have changed a
	// player's name (and the commits of other processes): the names
	// remembered by id (nameCache) were read under one value of it. A new
	// account does not move it: no name remembered is its.
	nameGen atomic.Uint64
	// listGen counts those that may have changed the list of names (a new
	// account too, and the commits of other processes): the directory's
	// marks were read under one value of it.
	listGen atomic.Uint64
	// playGen counts the committed transactions but those that wrote
	// only the background searches' rows (the puzzles found in finished
	// games, the analyses asked for, the planner's statistics: background),
	// and the commits of other processes.
	playGen atomic.Uint64
	// gamesChanged keeps the game cache right, called after each commit
	// that changed games or matches, before the observers: the matches
	// and their games are forgotten, the games ids forgotten or replaced
	// by what the transaction knew of them as it committed (fresh; gen is
	// gameGen before the commit).
	gamesChanged func(ch changes, fresh map[int64]*freshGame, gen uint64)
	// ratingsChanged forgets the remembered ratings of ch.ratingMatches
	// and ch.ratingPlayers, called after each commit that changed them
	// (and no wide ratings change) with ratingGen's old and new values.
	ratingsChanged func(ch changes, old, now uint64)

	obsMu   sync.RWMutex
	gameObs []func(gameIDs ...int64)
	tourObs []func(tournamentIDs ...int64)
}

func newWriteLog(logger *slog.Logger) *writeLog {
	return &writeLog{logger: logger, games: map[int64]struct{}{}, tournaments: map[int64]struct{}{}, matches: map[int64]struct{}{},
		players: map[int64][2]int64{}, ratingMatches: map[int64]struct{}{}, ratingPlayers: map[int64]struct{}{}}
}

// record is the pre-update hook: it notes the game or tournament a row
// change belongs to.
func (l *writeLog) record(d sqlite.SQLitePreUpdateData) {
	if d.DatabaseName != "main" {
		return
	}
	if background(&d) {
		// The background searches' own rows: nothing a page under
		// playGen or a wide change reads.
		l.mu.Lock()
		l.sawBackground = true
		l.mu.Unlock()
		return
	}
	// An account whose last-played time alone moves on (a trigger does
	// it at each move) shows nothing else: not a wide change, and not a
	// settled one.
	lastPlayedOnly := l.lastPlayedOnly(&d)
	settles := !lastPlayedOnly && l.settles(&d)
	var names, listed bool
	if d.TableName == "users" && !lastPlayedOnly {
		names = l.nameChanged(&d)
		listed = names || d.Op != sqlite3.SQLITE_UPDATE
	}
	l.mu.Lock()
	l.played = true
	if settles {
		l.settled = true
	}
	if names {
		l.names = true
	}
	if listed {
		l.listed = true
	}
	l.mu.Unlock()
	if w := wideTables[d.TableName]; w != 0 && !lastPlayedOnly {
		l.mu.Lock()
		l.wide |= w
		l.mu.Unlock()
	}
	if d.TableName == "challenges" {
		l.recordChallenge(d)
		return
	}
	if d.TableName == "matches" {
		l.mu.Lock()
		for _, id := range rowIDs(d) {
			l.matches[id] = struct{}{}
		}
		l.mu.Unlock()
		return
	}
	t, ok := pageTables[d.TableName]
	if !ok {
		return
	}
	var ids []int64
	if t.col < 0 {
		ids = rowIDs(d)
		if d.TableName == "games" {
			l.recordPlayers(d)
		}
	} else {
		row := make([]any, t.col+1)
		var err error
		if d.Op == sqlite3.SQLITE_DELETE {
			err = d.Old(row...)
		} else {
			err = d.New(row...)
		}
		if err != nil {
			l.logger.Error("db: reading a changed row", "table", d.TableName, "err", err)
			return
		}
		id, ok := row[t.col].(int64)
		if !ok {
			l.logger.Error("db: a changed row has no id", "table", d.TableName, "value", fmt.Sprint(row[t.col]))
			return
		}
		ids = append(ids, id)
		if d.Op == sqlite3.SQLITE_UPDATE {
			old := make([]any, t.col+1)
			if err := d.Old(old...); err == nil {
				if id, ok := old[t.col].(int64); ok {
					ids = append(ids, id)
				}
			}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	set := l.games
	if t.tournament {
		set = l.tournaments
	}
	for _, id := range ids {
		set[id] = struct{}{}
	}
}

// recordPlayers notes the two players of the games row a change writes.
func (l *writeLog) recordPlayers(d sqlite.SQLitePreUpdateData) {
	if l.gameSides[0] == 0 || l.gameSides[1] == 0 || d.Op == sqlite3.SQLITE_DELETE {
		return
	}
	row := make([]any, max(l.gameSides[0], l.gameSides[1])+1)
	if err := d.New(row...); err != nil {
		l.logger.Error("db: reading a changed row", "table", d.TableName, "err", err)
		return
	}
	p0, ok0 := row[l.gameSides[0]].(int64)
	p1, ok1 := row[l.gameSides[1]].(int64)
	if !ok0 || !ok1 {
		return
	}
	l.mu.Lock()
	l.players[d.NewRowID] = [2]int64{p0, p1}
	l.mu.Unlock()
}

// recordChallenge notes the match a changed challenge row names, before
// and after the change (a challenge not yet accepted names none); when
// the column cannot be read, the change is a wide one.
func (l *writeLog) recordChallenge(d sqlite.SQLitePreUpdateData) {
	col := l.challengeMatch
	var ids []int64
	read := func(get func(...any) error) bool {
		row := make([]any, col+1)
		if err := get(row...); err != nil {
			l.logger.Error("db: reading a changed row", "table", d.TableName, "err", err)
			return false
		}
		if id, ok := row[col].(int64); ok {
			ids = append(ids, id)
		}
		return true
	}
	ok := col > 0
	if ok && d.Op != sqlite3.SQLITE_INSERT {
		ok = read(d.Old)
	}
	if ok && d.Op != sqlite3.SQLITE_DELETE {
		ok = read(d.New)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !ok {
		l.wide |= changedRatings
		return
	}
	for _, id := range ids {
		l.ratingMatches[id] = struct{}{}
	}
}

// ratedPlayers records that the transaction changed these players'
// ratings (a rated game's end).
func (l *writeLog) ratedPlayers(ids ...int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.settled = true
	for _, id := range ids {
		l.ratingPlayers[id] = struct{}{}
	}
}

// rowIDs returns the rowids of the row a change is about (before and
// after an update).
func rowIDs(d sqlite.SQLitePreUpdateData) []int64 {
	switch d.Op {
	case sqlite3.SQLITE_INSERT:
		return []int64{d.NewRowID}
	case sqlite3.SQLITE_DELETE:
		return []int64{d.OldRowID}
	}
	return []int64{d.OldRowID, d.NewRowID}
}

// mark records a wide change the hook cannot tell apart (a WITHOUT ROWID
// table, for which it gives no row id).
func (l *writeLog) mark(w uint8) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.wide |= w
	l.played = true
	if w&^changedPlans != 0 {
		l.settled = true
	}
	if w&changedAccounts != 0 {
		l.names, l.listed = true, true
	}
}

// reset forgets what a transaction that did not commit had collected.
func (l *writeLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.games)
	clear(l.tournaments)
	clear(l.matches)
	clear(l.players)
	clear(l.ratingMatches)
	clear(l.ratingPlayers)
	l.wide = 0
	l.settled, l.names, l.listed = false, false, false
	l.played, l.sawBackground = false, false
}

// changes is what a transaction changed: the ids of the games,
// tournaments and matches whose rows it wrote, ascending, and its wide
// changes.
type changes struct {
	games, tournaments, matches  []int64
	players                      map[int64][2]int64 // of the games, when known
	ratingMatches, ratingPlayers []int64            // see writeLog
	wide                         uint8
	settled                      bool // see writeLog
	names, listed                bool // see writeLog
	backgroundOnly               bool // only the background searches' rows (see writeLog.played)
}

// take returns what was collected so far, and forgets it.
func (l *writeLog) take() changes {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch := changes{games: sortedKeys(l.games), tournaments: sortedKeys(l.tournaments), matches: sortedKeys(l.matches), wide: l.wide,
		ratingMatches: sortedKeys(l.ratingMatches), ratingPlayers: sortedKeys(l.ratingPlayers), settled: l.settled,
		names: l.names, listed: l.listed, backgroundOnly: l.sawBackground && !l.played}
	if len(l.players) > 0 {
		ch.players = maps.Clone(l.players)
		clear(l.players)
	}
	l.wide = 0
	l.settled, l.names, l.listed = false, false, false
	l.played, l.sawBackground = false, false
	return ch
}

func sortedKeys(m map[int64]struct{}) []int64 {
	if len(m) == 0 {
		return nil
	}
	out := make([]int64, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	clear(m)
	slices.Sort(out)
	return out
}

// committed calls the observers with what a committed transaction changed.
func (l *writeLog) committed(ch changes, fresh map[int64]*freshGame, gen uint64) {
	games, tournaments, wide := ch.games, ch.tournaments, ch.wide
	l.commitGen.Add(1)
	if !ch.backgroundOnly {
		l.playGen.Add(1)
	}
	if ch.settled {
		l.settledGen.Add(1)
	}
	if ch.names {
		l.nameGen.Add(1)
	}
	if ch.listed {
		l.listGen.Add(1)
	}
	if wide&changedAccounts != 0 {
		l.accountGen.Add(1)
	}
	if wide&changedGamesWide != 0 {
		l.gameGen.Add(1)
	}
	if wide&changedVacations != 0 {
		l.vacationGen.Add(1)
	}
	if wide&changedRatings != 0 {
		l.ratingGen.Add(1)
	} else if len(ch.ratingMatches) > 0 || len(ch.ratingPlayers) > 0 {
		now := l.ratingGen.Add(1)
		if l.ratingsChanged != nil {
			l.ratingsChanged(ch, now-1, now)
		}
	}
	if wide&changedPlans != 0 {
		l.planGen.Add(1)
	}
	if wide&changedSocial != 0 {
		l.socialGen.Add(1)
	}
	if (len(games) > 0 || len(ch.matches) > 0) && l.gamesChanged != nil {
		l.gamesChanged(ch, fresh, gen)
	}
	if len(games) == 0 && len(tournaments) == 0 {
		return
	}
	l.obsMu.RLock()
	gameObs, tourObs := l.gameObs, l.tourObs
	l.obsMu.RUnlock()
	if len(games) > 0 {
		for _, f := range gameObs {
			f(games...)
		}
	}
	if len(tournaments) > 0 {
		for _, f := range tourObs {
			f(tournaments...)
		}
	}
}

// OnGameCommit registers f to be called after every committed write
// transaction that inserted, updated or deleted a game's row or a message
// of the game, with the ids of those games (each once, ascending). Every
// write to a game reaches it, whichever method made it (a move, a
// resignation, an armistice, a message, a timeout, a vacation, the
// computer, a conditional reply, an administrator, a tournament, an
// account's deletion); a transaction rolled back or whose commit failed
// never does. Only writes through this DB are seen: another process
// writing the same file (`trench admin` while the server runs) is not.
//
// f runs on the committing goroutine after the commit and before the
// method that wrote returns, so a reader called after that method sees
// what f was told about; it must be quick, must not write through this DB
// from the same goroutine's transaction, and must be safe for concurrent
// use. Observers are called in the order they were registered; there is
// no unregistering.
func (db *DB) OnGameCommit(f func(gameIDs ...int64)) {
	db.log.obsMu.Lock()
	defer db.log.obsMu.Unlock()
	db.log.gameObs = append(slices.Clip(db.log.gameObs), f)
}

// OnTournamentCommit is OnGameCommit for tournaments: f receives the ids
// of the tournaments whose row, entrants or pairings a committed
// transaction changed. A game of a tournament that ends reaches
// OnGameCommit; the tournament's id reaches f only when its own rows
// change (a result recorded in its pairings, a new round).
func (db *DB) OnTournamentCommit(f func(tournamentIDs ...int64)) {
	db.log.obsMu.Lock()
	defer db.log.obsMu.Unlock()
	db.log.tourObs = append(slices.Clip(db.log.tourObs), f)
}

// hookedConnector opens the write connection with the pre-update hook
// feeding log.
type hookedConnector struct {
	driver.Connector
	log *writeLog
}

func newHookedConnector(dsn string, log *writeLog) (driver.Connector, error) {
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return &hookedConnector{Connector: c, log: log}, nil
}

// Connect opens a connection and registers the hook on it.
func (c *hookedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	h, ok := conn.(sqlite.HookRegisterer)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("db: the SQLite driver offers no pre-update hook")
	}
	h.RegisterPreUpdateHook(c.log.record)
	return conn, nil
}
