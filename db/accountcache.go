package db

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// maxCachedSessions bounds the sessions remembered at once; past it the
// cache starts again empty.
const maxCachedSessions = 50_000

// accountCache remembers what every request reads of the accounts (a
// session and its user, the announcement) under one value of
// writeLog.accountGen: a committed change to users, sessions or settings
// moves the generation on and the cache then starts again empty. A value
// read from SQLite is kept only if the generation did not move while it
// was read, so nothing older than the last commit is ever served.
type accountCache struct {
	mu       sync.Mutex
	gen      uint64
	sessions map[string]cachedSession // by token hash
	announce string
	hasAnn   bool
}

type cachedSession struct {
	s Session
	u User
}

// at empties the cache when gen is newer than its generation (the caller
// holds mu).
func (c *accountCache) at(gen uint64) {
	if c.gen < gen || c.sessions == nil {
		c.gen, c.sessions, c.announce, c.hasAnn = gen, map[string]cachedSession{}, "", false
	}
}

func (c *accountCache) session(key string, gen uint64) (cachedSession, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return cachedSession{}, false
	}
	e, ok := c.sessions[key]
	return e, ok
}

// keepSession remembers e, read under generation gen, if the generation is
// still gen (now).
func (c *accountCache) keepSession(key string, gen uint64, e cachedSession, now uint64) {
	if gen != now {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at(gen); c.gen != gen {
		return // a newer generation is in already
	}
	if len(c.sessions) >= maxCachedSessions {
		clear(c.sessions)
	}
	c.sessions[key] = e
}

func (c *accountCache) announcement(gen uint64) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.announce, c.gen == gen && c.hasAnn
}

func (c *accountCache) keepAnnouncement(text string, gen, now uint64) {
	if gen != now {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at(gen); c.gen != gen {
		return
	}
	c.announce, c.hasAnn = text, true
}

// outsideEvery is how often the database is checked for a commit made by
// another process (`trench admin` while the server runs).
const outsideEvery = 250 * time.Millisecond

// watchOutside checks, every outsideEvery until stop is closed, SQLite's
// data_version on the write connection, which moves only when another
// connection (another process: this one writes through that connection
// alone) has committed. Then whatever is remembered of the database may
// be stale: the account cache starts again and the OnOutsideCommit
// observers are told.
func (db *DB) watchOutside(stop <-chan struct{}, done chan<- struct{}, last int64) {
	defer close(done)
	t := time.NewTicker(outsideEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var v int64
		v, err := db.dataVersion(ctx)
		cancel()
		if err != nil {
			// Closing, or busy for 5 s: try again at the next tick; a
			// change is then seen late, not lost.
			continue
		}
		if v != last {
			db.log.accountGen.Add(1)
			db.log.gameGen.Add(1)
			db.log.vacationGen.Add(1)
			db.log.ratingGen.Add(1)
			db.log.planGen.Add(1)
			db.log.socialGen.Add(1)
			db.log.commitGen.Add(1)
			db.log.playGen.Add(1)
			db.log.settledGen.Add(1)
			db.log.nameGen.Add(1)
			db.log.listGen.Add(1)
			db.outsideMu.Lock()
			obs := db.outsideObs
			db.outsideMu.Unlock()
			for _, f := range obs {
				f()
			}
		}
		last = v
	}
}

// OnOutsideCommit registers f to be called when another process (such as
// `trench admin`) has committed to the database: anything remembered of
// it may be stale. It is noticed within a quarter of a second; f runs on
// a goroutine of the DB's own, must be quick and safe for concurrent use.
func (db *DB) OnOutsideCommit(f func()) {
	db.outsideMu.Lock()
	defer db.outsideMu.Unlock()
	db.outsideObs = append(slices.Clip(db.outsideObs), f)
}

// dataVersion is SQLite's data_version on the write connection (in a
// transaction that writes nothing).
func (db *DB) dataVersion(ctx context.Context) (int64, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var v int64
	if err := tx.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("db: data version: %w", err)
	}
	return v, nil
}
