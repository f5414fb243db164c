package handlers

import (
	"context"
	"math"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// limits holds the abuse limits kept in memory: sign-in attempts per
// client address and per (address, account) pair, failed password changes
// per account, and sign-ups per address. None of them is per account
// alone, so nobody can lock the owner of an account out: the right
// password from the owner's own address works while others guess.
// Counts kept in the database (open challenges, messages, rematch offers)
// are in package db.
type limits struct {
	now         func() time.Time
	signInIP    *keyedRate    // every sign-in attempt, per client address
	signInPair  *backoff      // failed sign-ins, per (address, account)
	passwordFor *backoff      // failed password changes, per account
	signUpIP    *keyedRate    // new accounts, per client address
	maxKeys     int           // entries kept per limit before stale ones are dropped
	idle        time.Duration // an entry unused this long is dropped
}

// The limits' settings.
const (
	signInPerMinute = 10 // sign-in attempts a minute from one address…
	signInBurst     = 20 // …after a burst of this many
	freeFailures    = 5  // failed passwords before the back-off starts
	maxBackoff      = 15 * time.Minute
	signUpsPerHour  = 10 // new accounts an hour from one address…
	signUpBurst     = 5  // …after a burst of this many
)

func newLimits(now func() time.Time) *limits {
	l := &limits{now: now, maxKeys: 100_000, idle: time.Hour}
	l.signInIP = newKeyedRate(l, rate.Limit(signInPerMinute/60.0), signInBurst)
	l.signInPair = newBackoff(l)
	l.passwordFor = newBackoff(l)
	l.signUpIP = newKeyedRate(l, rate.Limit(signUpsPerHour/3600.0), signUpBurst)
	return l
}

// tooMany is the 429 error of a refused action: what was refused (a
// sentence of the catalogues, translated for the reader) and when to try
// again.
func tooMany(what string, d time.Duration) error {
	return db.TooMany(d, "%s Please try again in %s.", db.Term(what), waitSpan(d))
}

// waitSpan is a value of an error message: how long to wait, written for
// people in whole seconds under a minute, else in whole minutes.
type waitSpan time.Duration

// String writes w in English: "1 second", "40 seconds", "3 minutes".
func (w waitSpan) String() string { return w.text(context.Background()) }

// text writes w in the language of ctx: "40 secondes".
func (w waitSpan) text(ctx context.Context) string {
	if time.Duration(w) < time.Minute {
		n := max(1, int(math.Ceil(time.Duration(w).Seconds())))
		return views.TN(ctx, "%d seconds", n, n)
	}
	n := int(math.Ceil(time.Duration(w).Minutes()))
	return views.TN(ctx, "%d minutes", n, n)
}

// keyedRate is a token bucket (golang.org/x/time/rate) per key.
type keyedRate struct {
	l     *limits
	limit rate.Limit
	burst int
	mu    sync.Mutex
	m     map[string]*rateEntry
	swept time.Time
}

type rateEntry struct {
	lim  *rate.Limiter
	seen time.Time
}

func newKeyedRate(l *limits, limit rate.Limit, burst int) *keyedRate {
	return &keyedRate{l: l, limit: limit, burst: burst, m: map[string]*rateEntry{}}
}

// allow takes a token from key's bucket; when there is none it returns
// false and how long until there is.
func (k *keyedRate) allow(key string) (bool, time.Duration) {
	now := k.l.now()
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.m[key]
	if !ok {
		k.sweep(now)
		e = &rateEntry{lim: rate.NewLimiter(k.limit, k.burst)}
		k.m[key] = e
	}
	e.seen = now
	r := e.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// sweep drops the entries unused for l.idle once the map is full (at most
// once a minute); a full bucket is what a new entry starts with anyway.
func (k *keyedRate) sweep(now time.Time) {
	if len(k.m) < k.l.maxKeys || now.Sub(k.swept) < time.Minute {
		return
	}
	k.swept = now
	for key, e := range k.m {
		if now.Sub(e.seen) > k.l.idle {
			delete(k.m, key)
		}
	}
}

// backoff counts failures per key: after freeFailures of them each further
// failure makes the key wait twice as long as the last (1 s, 2 s, 4 s, …,
// at most maxBackoff). A success forgets the key.
type backoff struct {
	l     *limits
	mu    sync.Mutex
	m     map[string]*backoffEntry
	swept time.Time
}

type backoffEntry struct {
	fails int
	until time.Time // no attempt before this
	seen  time.Time
}

func newBackoff(l *limits) *backoff { return &backoff{l: l, m: map[string]*backoffEntry{}} }

// wait returns how long key must still wait before its next attempt.
func (b *backoff) wait(key string) time.Duration {
	now := b.l.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if e, ok := b.m[key]; ok && now.Before(e.until) {
		return e.until.Sub(now)
	}
	return 0
}

// fail records a failed attempt of key.
func (b *backoff) fail(key string) {
	now := b.l.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.m[key]
	if !ok {
		b.sweep(now)
		e = &backoffEntry{}
		b.m[key] = e
	}
	e.fails++
	e.seen = now
	if n := e.fails - freeFailures; n >= 0 {
		d := maxBackoff
		if n < 20 {
			d = min(maxBackoff, time.Second<<n)
		}
		e.until = now.Add(d)
	}
}

// succeed forgets key's failures.
func (b *backoff) succeed(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, key)
}

// sweep drops the entries that have not failed for l.idle past their
// back-off once the map is full (at most once a minute).
func (b *backoff) sweep(now time.Time) {
	if len(b.m) < b.l.maxKeys || now.Sub(b.swept) < time.Minute {
		return
	}
	b.swept = now
	for key, e := range b.m {
		if now.Sub(e.seen) > b.l.idle+maxBackoff {
			delete(b.m, key)
		}
	}
}

// pairKey is the key of the pair (client address, account name).
func pairKey(ip, name string) string { return ip + "\x00" + strings.ToLower(name) }
