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
)

// Options are the ways to open a database beyond its path.
type Options struct {
	// Replica, when not empty, is the URL Litestream streams every
	// committed transaction to, within about a second of its commit:
	// file:///path/to/dir, or s3://bucket/path (credentials from
	// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; ?endpoint=URL for an
	// S3-compatible server, ?region=R).
	Replica string
	// RestoreIfMissing restores the database from Replica first when its
	// file does not exist (a replica with nothing in it starts a new
	// database).
	RestoreIfMissing bool
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
// closed after the database's own connections.
type replication struct {
	url   string // redacted, for display
	store *litestream.Store
	ldb   *litestream.DB

	mu       sync.Mutex
	lastSync time.Time // when the replica last caught up
}

// ReplicationStatus is what the server knows of its replica.
type ReplicationStatus struct {
	On       bool
	URL      string    // without credentials
	LastSync time.Time // when the replica was last seen caught up (zero: not yet)
	// Behind is how many transactions the replica lacks (0: in sync).
	Behind uint64
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
	if err := c.Init(context.Background()); err != nil {
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
// own connections.
func startReplication(ctx context.Context, path, rawURL string, logger *slog.Logger) (*replication, error) {
	client, err := replicaClient(rawURL)
	if err != nil {
		return nil, err
	}
	logger = logger.With("component", "replication")
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
	if err := store.Open(ctx); err != nil {
		return nil, fmt.Errorf("db: start replication to %s: %w", Redact(rawURL), err)
	}
	return &replication{url: Redact(rawURL), store: store, ldb: ldb}, nil
}

// close sends what is left and stops replication.
func (r *replication) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	syncErr := r.ldb.SyncAndWait(ctx)
	return errors.Join(syncErr, r.store.Close(ctx))
}

// status compares the local position with the replica's (I/O on the
// replica).
func (r *replication) status(ctx context.Context) (ReplicationStatus, error) {
	st := ReplicationStatus{On: true, URL: r.url}
	s, err := r.ldb.SyncStatus(ctx)
	if err != nil {
		return st, fmt.Errorf("db: replication status: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.InSync || s.LocalTXID <= s.RemoteTXID {
		r.lastSync = time.Now()
	} else {
		st.Behind = uint64(s.LocalTXID - s.RemoteTXID)
	}
	if last := r.ldb.LastSuccessfulSyncAt(); last.After(r.lastSync) && st.Behind == 0 {
		r.lastSync = last
	}
	st.LastSync = r.lastSync
	return st, nil
}

// Replication reports the replica's state: On is false when the database
// was opened without one. Errors: the replica cannot be read.
func (db *DB) Replication(ctx context.Context) (ReplicationStatus, error) {
	if db.repl == nil {
		return ReplicationStatus{}, nil
	}
	return db.repl.status(ctx)
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
	return nil
}

// ErrNoReplica is returned by Restore when the replica holds no copy.
var ErrNoReplica = errors.New("the replica holds no copy of a database")

// Restore writes the replica's copy of the database at rawURL to dest, a
// file that must not exist: the latest state, or the state at the given
// time when at is not zero. It then verifies the copy as Backup does
// (integrity check, every game replayed) and returns what it checked.
// Errors: dest exists, ErrNoReplica, the replica cannot be read, the copy
// fails verification (it is then left in place for inspection).
func Restore(ctx context.Context, rawURL, dest string, at time.Time) (Checked, error) {
	if _, err := os.Stat(dest); err == nil {
		return Checked{}, fmt.Errorf("db: restore: %s already exists; restore to a new file", dest)
	} else if !errors.Is(err, os.ErrNotExist) {
		return Checked{}, fmt.Errorf("db: restore: %w", err)
	}
	client, err := replicaClient(rawURL)
	if err != nil {
		return Checked{}, err
	}
	if dir := filepath.Dir(dest); dir != "." {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return Checked{}, fmt.Errorf("db: restore: %w", err)
		}
	}
	opt := litestream.NewRestoreOptions()
	opt.OutputPath = dest
	opt.Timestamp = at
	opt.IntegrityCheck = litestream.IntegrityCheckFull
	if err := litestream.NewReplicaWithClient(nil, client).Restore(ctx, opt); err != nil {
		if errors.Is(err, litestream.ErrTxNotAvailable) || errors.Is(err, litestream.ErrNoSnapshots) {
			return Checked{}, fmt.Errorf("db: restore from %s: %w", Redact(rawURL), ErrNoReplica)
		}
		return Checked{}, fmt.Errorf("db: restore from %s: %w", Redact(rawURL), err)
	}
	if err := os.Chmod(dest, 0o600); err != nil {
		return Checked{}, fmt.Errorf("db: restore: %w", err)
	}
	return VerifyFile(ctx, dest)
}

// restoreIfMissing restores path from rawURL when path does not exist; it
// reports whether it did (false, nil when the replica is empty too).
func restoreIfMissing(ctx context.Context, path, rawURL string) (bool, error) {
	if _, err := os.Stat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("db: %w", err)
	}
	// Litestream's own state of a database that is gone would only
	// confuse a new start.
	if err := os.RemoveAll(litestreamMetaPath(path)); err != nil {
		return false, fmt.Errorf("db: %w", err)
	}
	_, err := Restore(ctx, rawURL, path, time.Time{})
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
