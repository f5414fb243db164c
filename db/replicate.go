package db

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/benbjohnson/litestream/file" // the file:// replica
	_ "github.com/benbjohnson/litestream/s3" // the s3:// replica
	"github.com/superfly/ltx"
)

// Options are the ways to open a database beyond its path.
type Options struct {
	// Replica, when not empty, is the URL Litestream streams every
	// committed transaction to, within about a second of its commit:
	// file:///path/to/dir, or s3://bucket/path (credentials from
	// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; ?endpoint=URL for an
	// S3-compatible server, ?region=R; AWS_CA_BUNDLE, a PEM file, for a
	// server whose certificate a private CA signed).
	Replica string
	// RestoreIfMissing restores the database from Replica first when its
	// file does not exist (a replica with nothing in it starts a new
	// database).
	RestoreIfMissing bool
	// ReplicaOverwrite starts replicating even when the database is
	// behind a non-empty replica (without it OpenWith refuses with a
	// *BehindReplicaError): the replica then starts anew from this
	// database, and its older transactions go in time.
	ReplicaOverwrite bool
	// Logger receives Litestream's messages; nil means slog.Default.
	Logger *slog.Logger
	// NoUpgrade refuses a database whose schema is older than this
	// binary's (ErrOlderSchema) instead of upgrading it, and leaves the
	// file as it is: for commands that may run beside a server of the
	// older release.
	NoUpgrade bool

	// migrations, when not nil, replaces the embedded migrations, and
	// now, when not nil, replaces time.Now (tests).
	migrations fs.FS
	now        func() time.Time
}

// replication is the Litestream side of an open database: one replica,
// closed after the database's own connections. A loop (watch) keeps its
// status from Litestream's positions in memory, so that reading it never
// waits on the replica.
type replication struct {
	url   string // redacted, for display
	store *litestream.Store
	ldb   *litestream.DB
	stop  chan struct{} // closed by close: watch ends
	done  chan struct{}

	mu       sync.Mutex
	local    ltx.TXID    // the database's last transaction Litestream has seen
	remote   ltx.TXID    // the last transaction the replica is known to hold
	seen     []firstSeen // transactions not yet on the replica, oldest first
	lastSync time.Time   // when the replica last caught up
}

// firstSeen is when the transactions up to txid were first seen.
type firstSeen struct {
	txid ltx.TXID
	at   time.Time
}

// ReplicationStatus is what the server knows of its replica.
type ReplicationStatus struct {
	On       bool
	URL      string    // without credentials
	LastSync time.Time // when the replica was last seen caught up (zero: not yet)
	// Behind is how many transactions the replica lacks (0: in sync).
	Behind uint64
	// Lag is the age of the oldest transaction the replica lacks, from
	// when replication saw it (within a quarter second of its commit);
	// 0 when in sync.
	Lag time.Duration
}

// BehindReplicaError is returned by OpenWith when the database holds fewer
// transactions than its replica (a new or older database beside a replica
// of another): replicating it would replace the replica's copy.
type BehindReplicaError struct {
	DB      string // the database's path
	Replica string // the replica's URL, without credentials
	// Local and Remote are the last transaction numbers of the database
	// (0: never replicated) and of the replica.
	Local, Remote uint64
}

func (e *BehindReplicaError) Error() string {
	return fmt.Sprintf("db: %s is behind its replica %s (transaction %d here, %d in the replica): replicating it would replace the replica's copy with this database",
		e.DB, e.Replica, e.Local, e.Remote)
}

// replicaClient returns the Litestream client of rawURL. Errors: a URL
// that is not file:// or s3://, or that Litestream cannot read.
func replicaClient(rawURL string) (litestream.ReplicaClient, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "file" && u.Scheme != "s3") {
		return nil, fmt.Errorf("db: replica %q: want file:///path or s3://bucket/path", Redact(rawURL))
	}
	c, err := litestream.NewReplicaClientFromURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("db: replica %s: %w", Redact(rawURL), err)
	}
	if bundle := os.Getenv(caBundleEnv); u.Scheme == "s3" && bundle != "" {
		err = initS3WithCABundle(context.Background(), c, bundle)
	} else {
		err = c.Init(context.Background())
	}
	if err != nil {
		return nil, fmt.Errorf("db: replica %s: %w", Redact(rawURL), err)
	}
	return c, nil
}

// Redact returns a replica URL without its password, for logs and pages.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unreadable URL)"
	}
	return u.Redacted()
}

// startReplication starts streaming the database at path to rawURL. Call
// it after the database exists (migrated); close it after the database's
// own connections. Unless overwrite, it refuses a database behind a
// non-empty replica (*BehindReplicaError).
func startReplication(ctx context.Context, path, rawURL string, overwrite bool, logger *slog.Logger) (*replication, error) {
	client, err := replicaClient(rawURL)
	if err != nil {
		return nil, err
	}
	local, remote, err := positions(ctx, path, client)
	if err != nil {
		return nil, fmt.Errorf("db: replica %s: %w", Redact(rawURL), err)
	}
	if local < remote && !overwrite {
		return nil, &BehindReplicaError{DB: path, Replica: Redact(rawURL), Local: uint64(local), Remote: uint64(remote)}
	}
	logger = logger.With("component", "replication")
	if local < remote {
		logger.Warn("starting the replica anew from this database", "db", path, "replica", Redact(rawURL),
			"db_txid", uint64(local), "replica_txid", uint64(remote))
	}
	ldb := litestream.NewDB(path)
	ldb.MonitorInterval = 250 * time.Millisecond
	r := litestream.NewReplicaWithClient(ldb, client)
	r.SyncInterval = time.Second
	if fc, ok := client.(*file.ReplicaClient); ok {
		fc.Replica = r // keeps the database's file modes on the replica's files
	}
	ldb.Replica = r
	levels := litestream.CompactionLevels{
		{Level: 0},
		{Level: 1, Interval: 30 * time.Second},
		{Level: 2, Interval: 5 * time.Minute},
		{Level: 3, Interval: time.Hour},
	}
	store := litestream.NewStore([]*litestream.DB{ldb}, levels)
	store.Logger = logger
	ldb.SetLogger(logger)
	store.SnapshotInterval = 24 * time.Hour
	store.SnapshotRetention = 7 * 24 * time.Hour
	// At a clean stop Litestream retries sending the rest this long.
	store.SetShutdownSyncTimeout(5 * time.Second)
	if err := store.Open(ctx); err != nil {
		return nil, fmt.Errorf("db: start replication to %s: %w", Redact(rawURL), err)
	}
	// Litestream's own state beside the database now holds the position a
	// restore left in its marker.
	if err := os.Remove(litestream.TXIDPath(path)); err != nil && !errors.Is(err, os.ErrNotExist) {
		logger.Warn("remove the restore's marker", "err", err)
	}
	rep := &replication{url: Redact(rawURL), store: store, ldb: ldb, remote: remote,
		stop: make(chan struct{}), done: make(chan struct{})}
	rep.refresh(time.Now())
	go rep.watch()
	return rep, nil
}

// positions returns the last transaction of the database at path, as
// Litestream's state beside it (or a restore's marker) records it, and the
// last one the replica holds, at any level (0 for an empty replica). It
// only reads, and a server may be replicating the database meanwhile.
func positions(ctx context.Context, path string, client litestream.ReplicaClient) (local, remote ltx.TXID, err error) {
	// The replica first: a running server writes a transaction here before
	// it sends it, so read in this order local is never behind by a race.
	for level := 0; level <= litestream.SnapshotLevel; level++ {
		itr, err := client.LTXFiles(ctx, level, 0, false)
		if err != nil {
			return 0, 0, err
		}
		for itr.Next() {
			remote = max(remote, itr.Item().MaxTXID)
		}
		if err := itr.Close(); err != nil {
			return 0, 0, err
		}
	}
	ents, err := os.ReadDir(filepath.Join(litestreamMetaPath(path), "ltx", "0"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, 0, err
	}
	for _, ent := range ents {
		if _, max, err := ltx.ParseFilename(ent.Name()); err == nil && max > local {
			local = max
		}
	}
	if marked, err := litestream.ReadTXIDFile(path); err == nil && marked > local {
		local = marked
	}
	return local, remote, nil
}

// ReplicaPosition reads, changing nothing, the last transaction of the
// database at path that Litestream recorded beside it (0: never
// replicated) and the last one the replica at rawURL holds (0: empty).
// When local < remote, serve --replicate refuses to start. Errors: the
// replica cannot be read.
func ReplicaPosition(ctx context.Context, path, rawURL string) (local, remote uint64, err error) {
	client, err := replicaClient(rawURL)
	if err != nil {
		return 0, 0, err
	}
	l, r, err := positions(ctx, path, client)
	if err != nil {
		return 0, 0, fmt.Errorf("db: replica %s: %w", Redact(rawURL), err)
	}
	return uint64(l), uint64(r), nil
}

// watchInterval is how often watch reads Litestream's positions.
const watchInterval = 250 * time.Millisecond

// watch refreshes the status until close.
func (r *replication) watch() {
	defer close(r.done)
	t := time.NewTicker(watchInterval)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case now := <-t.C:
			r.refresh(now)
		}
	}
}

// refresh reads the local position (Litestream's cached state, no I/O on
// the replica) and the replica's as Litestream last sent to it.
func (r *replication) refresh(now time.Time) {
	local, err := r.ldb.Pos()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil && local.TXID > r.local {
		r.local = local.TXID
		r.seen = append(r.seen, firstSeen{txid: local.TXID, at: now})
	}
	// Litestream forgets the replica's position after a failed send (zero)
	// until it reads it again: the last one known still holds.
	if p := r.ldb.Replica.Pos(); p.TXID > r.remote {
		r.remote = p.TXID
	}
	for len(r.seen) > 0 && r.seen[0].txid <= r.remote {
		r.seen = r.seen[1:]
	}
	if r.remote >= r.local {
		r.lastSync = now
	}
}

// close sends what is left and stops replication (Litestream retries the
// send for a few seconds). Errors: the replica lacks transactions (how
// many is in the message), or Litestream could not stop cleanly.
func (r *replication) close() error {
	close(r.stop)
	<-r.done
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	syncErr := r.ldb.SyncAndWait(ctx)
	closeErr := r.store.Close(ctx)
	if syncErr == nil && closeErr == nil {
		return nil
	}
	r.refresh(time.Now())
	if st := r.snapshot(time.Now()); st.Behind > 0 {
		return fmt.Errorf("db: %s not sent to the replica %s at the stop: %w",
			plural(st.Behind, "transaction"), r.url, errors.Join(syncErr, closeErr))
	}
	if closeErr != nil {
		return fmt.Errorf("db: stop replication to %s: %w", r.url, closeErr)
	}
	return nil
}

// plural writes n things: "1 transaction", "3 transactions".
func plural(n uint64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// snapshot is the status as last refreshed, the lag measured at now.
func (r *replication) snapshot(now time.Time) ReplicationStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := ReplicationStatus{On: true, URL: r.url, LastSync: r.lastSync}
	if r.local > r.remote {
		st.Behind = uint64(r.local - r.remote)
		if len(r.seen) > 0 {
			st.Lag = max(now.Sub(r.seen[0].at), 0)
		}
	}
	return st
}

// Replication reports the replica's state as last seen (at most a quarter
// second old; it never waits on the replica): On is false when the
// database was opened without one. The error is always nil; it is kept
// for callers that check it.
func (db *DB) Replication(ctx context.Context) (ReplicationStatus, error) {
	if db.repl == nil {
		return ReplicationStatus{}, nil
	}
	return db.repl.snapshot(time.Now()), nil
}

// SyncReplica sends every committed transaction to the replica now and
// waits until it has them (a no-op without a replica).
func (db *DB) SyncReplica(ctx context.Context) error {
	if db.repl == nil {
		return nil
	}
	if err := db.repl.ldb.SyncAndWait(ctx); err != nil {
		return fmt.Errorf("db: sync replica: %w", err)
	}
	db.repl.refresh(time.Now())
	return nil
}

// ErrNoReplica is returned by Restore when the replica holds no copy.
var ErrNoReplica = errors.New("the replica holds no copy of a database")

// BeforeReplicaError is returned by Restore when the time asked for is
// before the replica's earliest state.
type BeforeReplicaError struct {
	At       time.Time // the time asked for
	Earliest time.Time // the replica's earliest state
}

func (e *BeforeReplicaError) Error() string {
	return fmt.Sprintf("db: restore: the replica holds nothing as early as %s: its earliest state is from %s; ask for that time or a later one",
		e.At.UTC().Format(time.RFC3339), e.Earliest.UTC().Format(time.RFC3339))
}

// Restored is what Restore wrote: the checks passed and the moment of
// the state restored.
type Restored struct {
	Checked
	// At is when the last transaction restored reached the replica: the
	// moment the copy is the state of (at or before the time asked for).
	At time.Time
	// TXID is the last transaction restored.
	TXID uint64
}

// Restore writes the replica's copy of the database at rawURL to dest, a
// file that must not exist: the latest state, or the last state at or
// before the given time when at is not zero. The copy is checked by
// SQLite's quick check (see QuickCheckFile); with verifyGames, by the full
// integrity check and every game replayed, as VerifyFile does. It returns
// what it replayed (nothing without verifyGames) and which moment it
// restored. Errors: dest exists,
// ErrNoReplica, *BeforeReplicaError, the replica cannot be read, the copy
// fails verification (it is then left in place for inspection).
func Restore(ctx context.Context, rawURL, dest string, at time.Time, verifyGames bool) (Restored, error) {
	if _, err := os.Stat(dest); err == nil {
		return Restored{}, fmt.Errorf("db: restore: %s already exists; restore to a new file", dest)
	} else if !errors.Is(err, os.ErrNotExist) {
		return Restored{}, fmt.Errorf("db: restore: %w", err)
	}
	client, err := replicaClient(rawURL)
	if err != nil {
		return Restored{}, err
	}
	logger := slog.New(slog.DiscardHandler)
	plan, err := litestream.CalcRestorePlan(ctx, client, 0, at, logger)
	if errors.Is(err, litestream.ErrTxNotAvailable) || errors.Is(err, litestream.ErrNoSnapshots) || err == nil && len(plan) == 0 {
		if !at.IsZero() {
			earliest, _, berr := litestream.NewReplicaWithClient(nil, client).TimeBounds(ctx)
			if berr == nil && !earliest.IsZero() && at.Before(earliest) {
				return Restored{}, &BeforeReplicaError{At: at, Earliest: earliest}
			}
		}
		return Restored{}, fmt.Errorf("db: restore from %s: %w", Redact(rawURL), ErrNoReplica)
	} else if err != nil {
		return Restored{}, fmt.Errorf("db: restore from %s: %w", Redact(rawURL), err)
	}
	last := plan[len(plan)-1]
	for _, f := range plan {
		if f.CreatedAt.After(last.CreatedAt) {
			last = f
		}
	}
	if dir := filepath.Dir(dest); dir != "." {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return Restored{}, fmt.Errorf("db: restore: %w", err)
		}
	}
	// Litestream's state of a database that was at dest before would only
	// confuse a replication started from the copy.
	if err := os.RemoveAll(litestreamMetaPath(dest)); err != nil {
		return Restored{}, fmt.Errorf("db: restore: %w", err)
	}
	opt := litestream.NewRestoreOptions()
	opt.OutputPath = dest
	opt.TXID = plan[len(plan)-1].MaxTXID
	opt.IntegrityCheck = litestream.IntegrityCheckQuick
	if verifyGames {
		opt.IntegrityCheck = litestream.IntegrityCheckFull
	}
	if err := litestream.NewReplicaWithClient(nil, client).Restore(ctx, opt); err != nil {
		return Restored{}, fmt.Errorf("db: restore from %s: %w", Redact(rawURL), err)
	}
	if err := os.Chmod(dest, 0o600); err != nil {
		return Restored{}, fmt.Errorf("db: restore: %w", err)
	}
	// The marker says which transaction of the replica the copy is, so
	// that replicating it to the same replica is no overwrite.
	if err := litestream.WriteTXIDFile(dest, opt.TXID); err != nil {
		return Restored{}, fmt.Errorf("db: restore: %w", err)
	}
	var checked Checked
	if verifyGames {
		checked, err = VerifyFile(ctx, dest)
	}
	return Restored{Checked: checked, At: last.CreatedAt, TXID: uint64(opt.TXID)}, err
}

// restoreIfMissing restores path from rawURL when path does not exist; it
// reports whether it did (false, nil when the replica is empty too).
func restoreIfMissing(ctx context.Context, path, rawURL string) (bool, error) {
	if _, err := os.Stat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("db: %w", err)
	}
	_, err := Restore(ctx, rawURL, path, time.Time{}, false)
	if errors.Is(err, ErrNoReplica) {
		return false, nil
	}
	return err == nil, err
}

// litestreamMetaPath is where Litestream keeps its state for path.
func litestreamMetaPath(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+litestream.MetaDirSuffix)
}

// ReplicaUpdatedAt returns when the replica at rawURL last received a
// change (zero for an empty replica), reading the replica only: a running
// server may be replicating to it. Errors: the replica cannot be read.
func ReplicaUpdatedAt(ctx context.Context, rawURL string) (time.Time, error) {
	client, err := replicaClient(rawURL)
	if err != nil {
		return time.Time{}, err
	}
	_, updated, err := litestream.NewReplicaWithClient(nil, client).TimeBounds(ctx)
	if err != nil {
		return time.Time{}, fmt.Errorf("db: replica %s: %w", Redact(rawURL), err)
	}
	return updated, nil
}
