package db

import (
	"context"
	"slices"
	"sync"

	"github.com/trench-games/trench/rules"
)

// maxCachedGames bounds the games remembered at once; past it the cache
// starts again empty.
const maxCachedGames = 20_000

// gameCache remembers what Game, Moves and Match read, so that the pages
// of the games being played (a move's answer, the opponent's live update,
// a click selecting a unit) cost no query. It is kept right in one place:
// after every committed transaction, the games whose rows it changed are
// forgotten, or replaced by what the transaction itself read of them last
// (writeLog.gamesChanged, the same point that feeds OnGameCommit; a
// move's transaction leaves its game and moves remembered, so its answer
// and the opponent's update read nothing); a change of a match's row
// forgets the match and its games; and a wide change (a player's name, a
// tournament, another process's commit) moves writeLog.gameGen on, which
// empties it. A value read from SQLite is kept only if nothing it was read
// under changed meanwhile; the ply-guarded write transaction never reads
// from it.
type gameCache struct {
	mu      sync.Mutex
	gen     uint64
	games   map[int64]*cachedGame
	matches map[int64]Match
	// matchVer moves on each time a match is forgotten: a match read
	// before is not kept.
	matchVer uint64
	// users holds what a player's navigation reads of their games (those
	// waiting for their move: how many, the next one): updated when a
	// game of theirs commits with its fresh row, else forgotten, and all
	// of it when a game whose players are not known changes (a new game).
	users map[int64]*cachedUser
	// players are the two players of each game read (they never change).
	players map[int64][2]int64
}

// cachedUser is one player's games as the navigation sees them: those
// waiting for their move (has: known), by id, with their deadline (unix
// seconds); ver moves on at each change.
type cachedUser struct {
	ver     uint64
	waiting map[int64]int64
	has     bool
}

// cachedGame is one game: ver moves on each time the game is forgotten.
type cachedGame struct {
	ver      uint64
	game     Game
	hasGame  bool
	moves    []Move
	hasMoves bool
}

// at empties the cache when gen is newer than its generation and reports
// whether the cache is at gen (the caller holds mu).
func (c *gameCache) at(gen uint64) bool {
	if c.gen < gen || c.games == nil {
		c.gen, c.games, c.matches, c.users = gen, map[int64]*cachedGame{}, map[int64]Match{}, map[int64]*cachedUser{}
	}
	return c.gen == gen
}

// committed keeps the cache right after a commit that changed games ids
// and matches matchIDs: each match is forgotten with its games; each game
// is forgotten, then, when fresh holds what the transaction knew of
// it as committed, remembered again: the row read last in the
// transaction, and the moves remembered before with the ones the
// transaction appended when they continue them. Only at the generation
// the transaction committed under (gen, before its commit): a wide change
// since empties the cache at its next read anyway. Commits are announced
// in their order (Tx.commit), so a fresh value never replaces a newer one.
func (c *gameCache) committed(ch changes, fresh map[int64]*freshGame, gen uint64) {
	ids, matchIDs := ch.games, ch.matches
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, p := range ch.players {
		c.rememberPlayers(id, p)
	}
	if len(matchIDs) > 0 {
		c.matchVer++
	}
	for _, mid := range matchIDs {
		delete(c.matches, mid)
		for _, e := range c.games {
			if e.hasGame && e.game.MatchID == mid {
				e.ver++
				e.game, e.hasGame, e.moves, e.hasMoves = Game{}, false, nil, false
			}
		}
	}
	keep := len(fresh) > 0 && c.gen == gen && c.games != nil
	for _, id := range ids {
		var before []Move
		var hadMoves bool
		if e := c.games[id]; e != nil {
			before, hadMoves = e.moves, e.hasMoves
			e.ver++
			e.game, e.hasGame, e.moves, e.hasMoves = Game{}, false, nil, false
		}
		f := fresh[id]
		if keep && f != nil && f.hasGame {
			c.waitingMoved(f.game)
		} else {
			c.forgetPlayers(id)
		}
		if !keep || f == nil {
			continue
		}
		e, _ := c.entry(id, gen)
		if f.hasGame {
			e.game, e.hasGame = f.game, true
			c.rememberPlayers(id, f.game.players())
		}
		if len(f.moves) > 0 && hadMoves && len(before) == f.from &&
			(f.from == 0 || before[len(before)-1].Ply == f.from) {
			// Past the end of before: what readers were given is
			// untouched.
			e.moves, e.hasMoves = append(before, f.moves...), true
		}
	}
}

// forgetPlayers drops what the navigation remembers of game id's players
// (all of it when they are not known: a new game) (the caller holds mu).
func (c *gameCache) forgetPlayers(id int64) {
	p, ok := c.players[id]
	if !ok {
		clear(c.users)
		return
	}
	for _, uid := range p {
		if u := c.users[uid]; u != nil {
			u.ver++
			u.waiting, u.has = nil, false
		}
	}
}

// waitingMoved updates the players' remembered games waiting for their
// move with game g as committed (the caller holds mu).
func (c *gameCache) waitingMoved(g Game) {
	for side, p := range g.Side {
		u := c.users[p.ID]
		if u == nil {
			continue
		}
		u.ver++
		if !u.has {
			continue
		}
		if g.Status == "active" && g.ToMove == rules.Side(side) {
			u.waiting[g.ID] = unix(g.Deadline)
		} else {
			delete(u.waiting, g.ID)
		}
	}
}

// rememberPlayers notes game id's two players (the caller holds mu).
func (c *gameCache) rememberPlayers(id int64, p [2]int64) {
	if _, ok := c.players[id]; ok {
		return
	}
	if c.players == nil || len(c.players) >= 4*maxCachedGames {
		c.players = map[int64][2]int64{}
	}
	c.players[id] = p
}

// user returns userID's entry and its version under gen, creating it; nil
// when the cache is at another generation (the caller holds mu).
func (c *gameCache) user(userID int64, gen uint64) (*cachedUser, uint64) {
	if !c.at(gen) {
		return nil, 0
	}
	u := c.users[userID]
	if u == nil {
		if len(c.users) >= maxCachedGames {
			clear(c.users)
		}
		u = &cachedUser{}
		c.users[userID] = u
	}
	return u, u.ver
}

// userKept reports whether u, read at version ver under gen, is still
// userID's current entry (the caller holds mu).
func (c *gameCache) userKept(userID int64, u *cachedUser, ver, gen uint64) bool {
	return c.gen == gen && c.users[userID] == u && u.ver == ver
}

// readThrough is the one way a value passes through the cache. Under mu,
// lookup returns the value remembered (ok), or else a keep function for
// the value about to be read (nil when the cache is at another
// generation); read then fetches it from SQLite without the lock, and keep
// stores it under mu, only if nothing it was read under changed meanwhile
// (keep checks the entry's version itself).
func readThrough[T any](mu *sync.Mutex, lookup func() (v T, ok bool, keep func(T)), read func() (T, error)) (T, error) {
	mu.Lock()
	v, ok, keep := lookup()
	mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := read()
	if err != nil || keep == nil {
		return v, err
	}
	mu.Lock()
	keep(v)
	mu.Unlock()
	return v, nil
}

// userWaiting returns what of computes from userID's active games
// waiting for their move (game id → deadline, unix seconds; of must not
// keep the map), remembered: the values pass through the cache as in
// readThrough.
func userWaiting[T any](ctx context.Context, db *DB, userID int64, of func(waiting map[int64]int64) T) (T, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	c.mu.Lock()
	u, ver := c.user(userID, gen)
	if u != nil && u.has {
		v := of(u.waiting)
		c.mu.Unlock()
		return v, nil
	}
	c.mu.Unlock()
	w, err := db.readWaiting(ctx, userID)
	if err != nil {
		var zero T
		return zero, err
	}
	v := of(w)
	if u != nil {
		c.mu.Lock()
		if c.userKept(userID, u, ver, gen) {
			u.waiting, u.has = w, true
		}
		c.mu.Unlock()
	}
	return v, nil
}

// cachedTurnCount is TurnCount through the cache.
func (db *DB) cachedTurnCount(ctx context.Context, userID int64) (int, error) {
	return userWaiting(ctx, db, userID, func(w map[int64]int64) int { return len(w) })
}

// cachedNextWaiting is NextWaiting through the cache: the earliest
// deadline, then the lowest id.
func (db *DB) cachedNextWaiting(ctx context.Context, userID, exceptID int64) (int64, error) {
	return userWaiting(ctx, db, userID, func(w map[int64]int64) int64 {
		var next, at int64
		for id, dl := range w {
			if id != exceptID && (next == 0 || dl < at || dl == at && id < next) {
				next, at = id, dl
			}
		}
		return next
	})
}

// entry returns game id's entry and its version under gen, creating it;
// nil when the cache is at another generation.
func (c *gameCache) entry(id int64, gen uint64) (*cachedGame, uint64) {
	if !c.at(gen) {
		return nil, 0
	}
	e := c.games[id]
	if e == nil {
		if len(c.games) >= maxCachedGames {
			clear(c.games)
		}
		e = &cachedGame{}
		c.games[id] = e
	}
	return e, e.ver
}

// kept reports whether e, read at version ver under gen, is still the
// current entry (the caller holds mu).
func (c *gameCache) kept(id int64, e *cachedGame, ver, gen uint64) bool {
	return c.gen == gen && c.games[id] == e && e.ver == ver
}

// cachedGameByID is gameByID on the read pool through the cache.
func (db *DB) cachedGameByID(ctx context.Context, id int64) (Game, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	return readThrough(&c.mu, func() (Game, bool, func(Game)) {
		e, ver := c.entry(id, gen)
		switch {
		case e == nil:
			return Game{}, false, nil
		case e.hasGame:
			return e.game, true, nil
		}
		return Game{}, false, func(g Game) {
			if c.kept(id, e, ver, gen) {
				e.game, e.hasGame = g, true
			}
			c.rememberPlayers(id, g.players())
		}
	}, func() (Game, error) { return gameByID(ctx, db.read, id) })
}

// cachedMoves is the moves of game id through the cache, shared with the
// cache and other readers: the caller must not change its elements
// (appending is safe: the slice has no room past its end). The cache
// never writes into a slice it gave out: it appends past the end of its
// own, or replaces it.
func (db *DB) cachedMoves(ctx context.Context, id int64) ([]Move, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	return readThrough(&c.mu, func() ([]Move, bool, func([]Move)) {
		e, ver := c.entry(id, gen)
		switch {
		case e == nil:
			return nil, false, nil
		case e.hasMoves:
			return slices.Clip(e.moves), true, nil
		}
		return nil, false, func(ms []Move) {
			if c.kept(id, e, ver, gen) {
				e.moves, e.hasMoves = slices.Clip(ms), true
			}
		}
	}, func() ([]Move, error) { return db.readMoves(ctx, id) })
}

// cachedMatch is readMatch through the cache: a match changes with its
// row (committed forgets it) and with a wide change (its tournament, its
// players' names).
func (db *DB) cachedMatch(ctx context.Context, id int64) (Match, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	return readThrough(&c.mu, func() (Match, bool, func(Match)) {
		if !c.at(gen) {
			return Match{}, false, nil
		}
		if m, ok := c.matches[id]; ok {
			return m, true, nil
		}
		ver := c.matchVer
		return Match{}, false, func(m Match) {
			if c.gen != gen || c.matchVer != ver {
				return
			}
			if len(c.matches) >= maxCachedGames {
				clear(c.matches)
			}
			c.matches[id] = m
		}
	}, func() (Match, error) { return db.readMatch(ctx, id) })
}
