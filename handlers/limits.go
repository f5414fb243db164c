package handlers

import (
	"context"
	"math"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// limits holds the abuse limits kept in memory: sign-in attempts per
// client and per (client, account) pair, failed password changes and
// account deletions per account, sign-ups and reset requests per client,
// reset requests per e-mail address. A client is an IPv4 address or an
// IPv6 /64 (see clientKeys), and an IPv6 client's /48 is capped too,
// more loosely. None of the limits is per account alone, so nobody can
// lock the owner of an account out: the right password from the owner's
// own address works while others guess. Counts kept in the database
// (open challenges, messages, rematch offers, open tournaments) are in
// package db.
type limits struct {
	now         func() time.Time
	signInIP    *clientRate    // every sign-in attempt, per client
	signInPair  *clientBackoff // failed sign-ins, per (client, account)
	passwordFor *backoff       // failed password checks (change, deletion), per account
	signUpIP    *clientRate    // new accounts, per client
	resetIP     *clientRate    // reset-link requests, per client
	resetAddr   *keyedRate     // reset-link requests, per e-mail address
	maxKeys     int            // entries kept per limit before stale ones are dropped
	idle        time.Duration  // an entry unused this long is dropped
}

// The limits' settings.
const (
	signInPerMinute = 10 // sign-in attempts a minute from one address…
	signInBurst     = 20 // …after a burst of this many
	freeFailures    = 5  // failed passwords before the back-off starts
	maxBackoff      = 15 * time.Minute
	signUpsPerHour  = 10 // new accounts an hour from one address…
	signUpBurst     = 5  // …after a burst of this many
	resetsPerHour   = 60 // reset-link requests an hour from one address…
	resetBurst      = 10 // …after a burst of this many
	resetsPerEmail  = 3  // reset-link requests an hour for one e-mail address (the burst too)
	// siteFactor is how many clients' worth an IPv6 site (a /48, which
	// holds 65,536 /64s) may spend of each per-client limit.
	siteFactor = 4
)

func newLimits(now func() time.Time) *limits {
	l := &limits{now: now, maxKeys: 100_000, idle: time.Hour}
	l.signInIP = newClientRate(l, rate.Limit(signInPerMinute/60.0), signInBurst)
	l.signInPair = &clientBackoff{own: newBackoff(l, freeFailures), site: newBackoff(l, siteFactor*freeFailures)}
	l.passwordFor = newBackoff(l, freeFailures)
	l.signUpIP = newClientRate(l, rate.Limit(signUpsPerHour/3600.0), signUpBurst)
	l.resetIP = newClientRate(l, rate.Limit(resetsPerHour/3600.0), resetBurst)
	l.resetAddr = newKeyedRate(l, rate.Limit(resetsPerEmail/3600.0), resetsPerEmail)
	return l
}

// clientKeys returns the keys a client's address ip is counted under:
// own, the client itself, and site, the wider network it belongs to ("" for
// none). An IPv4 address is its own client, without a site. An IPv6
// client is its /64, as one machine or home gets a whole /64 and picks
// any address inside it at will; its site is the /48, a site's usual
// allocation. An IPv4-mapped IPv6 address is IPv4; a string that is not
// an address (none reaches here from a real connection) is its own key.
func clientKeys(ip string) (own, site string) {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip, ""
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String(), ""
	}
	p64, _ := a.Prefix(64)
	p48, _ := a.Prefix(48)
	return p64.String(), p48.String()
}

// clientRate is a token bucket per client and a bucket siteFactor times
// as large (and as fast) per IPv6 site; an action takes a token from
// both or from neither.
type clientRate struct{ own, site *keyedRate }

func newClientRate(l *limits, limit rate.Limit, burst int) *clientRate {
	return &clientRate{own: newKeyedRate(l, limit, burst), site: newKeyedRate(l, limit*siteFactor, burst*siteFactor)}
}

// allow takes a token for the client at address ip; when its bucket or
// its site's is empty it returns false and how long until both have one.
func (r *clientRate) allow(ip string) (bool, time.Duration) {
	own, site := clientKeys(ip)
	if site == "" {
		return r.own.allow(own)
	}
	now := r.own.l.now()
	a, waitOwn := r.own.reserve(own, now)
	b, waitSite := r.site.reserve(site, now)
	if d := max(waitOwn, waitSite); d > 0 {
		a.CancelAt(now)
		b.CancelAt(now)
		return false, d
	}
	return true, 0
}

// clientBackoff is a backoff per (client, account) and a looser one per
// (IPv6 site, account): a site's clients together fail siteFactor times
// as often before backing off.
type clientBackoff struct{ own, site *backoff }

// wait returns how long the client at address ip must still wait before
// its next attempt on the account name.
func (b *clientBackoff) wait(ip, name string) time.Duration {
	own, site := clientKeys(ip)
	d := b.own.wait(pairKey(own, name))
	if site != "" {
		d = max(d, b.site.wait(pairKey(site, name)))
	}
	return d
}

// fail records a failed attempt on the account name from address ip.
func (b *clientBackoff) fail(ip, name string) {
	own, site := clientKeys(ip)
	b.own.fail(pairKey(own, name))
	if site != "" {
		b.site.fail(pairKey(site, name))
	}
}

// succeed forgets the failures on the account name from ip's client and
// site.
func (b *clientBackoff) succeed(ip, name string) {
	own, site := clientKeys(ip)
	b.own.succeed(pairKey(own, name))
	if site != "" {
		b.site.succeed(pairKey(site, name))
	}
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
	r, d := k.reserve(key, now)
	if d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// reserve takes a token from key's bucket at now and returns the
// reservation and how long it has to wait for the token (0: at once).
func (k *keyedRate) reserve(key string, now time.Time) (*rate.Reservation, time.Duration) {
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
	return r, r.DelayFrom(now)
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

// backoff counts failures per key: after free of them each further
// failure makes the key wait twice as long as the last (1 s, 2 s, 4 s, …,
// at most maxBackoff). A success forgets the key.
type backoff struct {
	l     *limits
	free  int
	mu    sync.Mutex
	m     map[string]*backoffEntry
	swept time.Time
}

type backoffEntry struct {
	fails int
	until time.Time // no attempt before this
	seen  time.Time
}

func newBackoff(l *limits, free int) *backoff {
	return &backoff{l: l, free: free, m: map[string]*backoffEntry{}}
}

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
	if n := e.fails - b.free; n >= 0 {
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
