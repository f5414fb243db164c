// Package doctor checks an installation for what self-hosters most often
// get wrong: the database's files and their permissions, free disk, the
// database's integrity and schema, the certificate, the mail server, the
// replica and the clock. Every check gives one Result saying what to do.
package doctor

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/trench-games/trench/cmd/trench/internal/https"
	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
)

// Status is a check's verdict.
type Status string

// The verdicts: only Fail makes the installation unhealthy.
const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "FAIL"
	Skip Status = "skip"
)

// Result is one check: its name, verdict and a message that says what
// was found and, when something is wrong, what to do.
type Result struct {
	Check   string
	Status  Status
	Message string
}

// Config is the installation to check: the flags of serve.
type Config struct {
	DB      string
	BaseURL string
	TLS     https.Config
	SMTP    handlers.SMTPConfig
	Replica string
	// KeyFile is the session cookie's key file; "" for the default beside
	// the database.
	KeyFile string
	// MetricsAddr is serve's --metrics-addr: the running server is asked
	// there how far its replica is ("" when it serves none).
	MetricsAddr string
	// MetricsToken is serve's --metrics-token, sent as the bearer token
	// of that request ("" for none).
	MetricsToken string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// TimeURL, when not empty, is an HTTPS URL whose Date header the clock
	// is compared with (serve's ACME directory when there is one).
	TimeURL string
	// FullCheck runs SQLite's full integrity check (every index matched
	// against its table) instead of its quick check.
	FullCheck bool
}

// Thresholds of the checks.
const (
	// minFree is the free disk wanted beyond twice the database (an
	// upgrade writes a backup copy beside it).
	minFree = 100 << 20
	// certFail and certWarn: a certificate expiring sooner fails or warns
	// (autocert renews 30 days ahead, so 14 days left means renewals fail).
	certFail = 14 * 24 * time.Hour
	certWarn = 30 * 24 * time.Hour
	// replicaLag is how old the oldest transaction the replica lacks may
	// be (Litestream sends every second).
	replicaLag = 15 * time.Second
	// clockSkew is the largest difference with a reference clock accepted.
	clockSkew = 2 * time.Minute
)

// Run runs every check, in order: files, disk, integrity, schema,
// certificate, smtp, replication, replica-disk, clock.
func Run(ctx context.Context, c Config) []Result {
	if c.Now == nil {
		c.Now = time.Now
	}
	var in *db.Inspection
	if _, err := os.Stat(c.DB); err == nil {
		i, err := db.Inspect(ctx, c.DB, c.FullCheck)
		if err == nil {
			in = &i
		} else {
			in = &db.Inspection{Integrity: err}
		}
	}
	return []Result{
		checkFiles(c.DB, c.keyFiles()...),
		checkDisk(c.DB),
		checkIntegrity(c.DB, in),
		checkSchema(in),
		checkCertificate(c),
		checkSMTP(ctx, c),
		checkReplica(ctx, c),
		checkReplicaDisk(c),
		checkClock(ctx, c, in),
	}
}

// Failed reports whether any result is a Fail.
func Failed(rs []Result) bool {
	for _, r := range rs {
		if r.Status == Fail {
			return true
		}
	}
	return false
}

// keyFiles are the private keys serve reads: the session cookie's keys,
// the VAPID key beside them and the certificate's key of --tls-key.
func (c Config) keyFiles() []string {
	keys := []string{c.KeyFile, "", c.TLS.KeyFile}
	if c.KeyFile == "" {
		keys[0] = handlers.DefaultKeyFile(c.DB)
	}
	keys[1] = handlers.VAPIDKeyFile(keys[0])
	return keys
}

// ExposedKeyFiles returns, for each of paths that exists and that users
// other than its owner may read or change, a sentence saying so and what
// to do (chmod 600). Paths "" and missing files are skipped (serve
// creates the session's key file private).
func ExposedKeyFiles(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				out = append(out, fmt.Sprintf("key file %s: %v", p, err))
			}
			continue
		}
		if m := info.Mode().Perm(); m&0o077 != 0 {
			out = append(out, fmt.Sprintf("key file %s has mode %04o: other users may read the key (and forge sessions or impersonate the server); chmod 600 %s", p, m, p))
		}
	}
	return out
}

// checkFiles checks the database's directory and files at path and that
// the key files keys are private.
func checkFiles(path string, keys ...string) Result {
	r := Result{Check: "files"}
	if exposed := ExposedKeyFiles(keys...); len(exposed) > 0 {
		return Result{"files", Fail, strings.Join(exposed, "; ")}
	}
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	if err != nil {
		return Result{"files", Fail, fmt.Sprintf("directory %s: %v; create it (mkdir -m 700 %s) owned by the user that runs trench", dir, err, dir)}
	}
	if info.Mode().Perm()&0o006 != 0 {
		return Result{"files", Fail, fmt.Sprintf("directory %s has mode %04o: others may list or change it; chmod 700 %s", dir, info.Mode().Perm(), dir)}
	}
	probe, err := os.CreateTemp(dir, ".trench-doctor-*")
	if err != nil {
		return Result{"files", Fail, fmt.Sprintf("directory %s is not writable (%v); SQLite writes its journal there: chown it to the user that runs trench", dir, err)}
	}
	probe.Close()
	os.Remove(probe.Name())
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		r.Status, r.Message = Warn, fmt.Sprintf("no database at %s yet: serve creates it (check --db if one exists elsewhere)", path)
		return r
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) && p != path {
			continue
		}
		if err != nil {
			return Result{"files", Fail, err.Error()}
		}
		if info.Mode().Perm()&0o077 != 0 {
			return Result{"files", Fail, fmt.Sprintf("%s has mode %04o: others may read the accounts; chmod 600 %s*", p, info.Mode().Perm(), path)}
		}
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return Result{"files", Fail, fmt.Sprintf("%s is not writable (%v): chown it to the user that runs trench", p, err)}
		}
		f.Close()
	}
	return Result{"files", OK, fmt.Sprintf("%s and its directory are writable and private", path)}
}

func checkDisk(path string) Result {
	dir := filepath.Dir(path)
	free, err := diskFree(dir)
	if err != nil {
		return Result{"disk", Fail, fmt.Sprintf("free space on %s: %v", dir, err)}
	}
	var size uint64
	if info, err := os.Stat(path); err == nil {
		size = uint64(info.Size())
	}
	need := 2*size + minFree
	if free < need {
		return Result{"disk", Fail, fmt.Sprintf("%s free on %s, want at least %s (an upgrade keeps a backup copy of the database): free some space",
			mb(free), dir, mb(need))}
	}
	return Result{"disk", OK, fmt.Sprintf("%s free on %s, the database takes %s", mb(free), dir, mb(size))}
}

// diskFree is freeBytes, replaceable in tests.
var diskFree = freeBytes

func mb(n uint64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

func checkIntegrity(path string, in *db.Inspection) Result {
	switch {
	case in == nil:
		return Result{"integrity", Skip, "no database yet"}
	case in.Integrity != nil:
		return Result{"integrity", Fail, fmt.Sprintf("%s: %v; stop the server and restore the last good backup (trench restore, or a copy from trench backup)", path, in.Integrity)}
	}
	return Result{"integrity", OK, "SQLite's " + map[bool]string{false: "quick", true: "integrity"}[in.Full] + " check: ok"}
}

func checkSchema(in *db.Inspection) Result {
	want := db.SchemaVersion()
	switch {
	case in == nil || in.Integrity != nil:
		return Result{"schema", Skip, "no readable database"}
	case in.SchemaVersion > want:
		return Result{"schema", Fail, fmt.Sprintf("schema version %d, newer than this trench (%d): run the release that wrote it, or a newer one", in.SchemaVersion, want)}
	case in.SchemaVersion < want:
		return Result{"schema", OK, fmt.Sprintf("schema version %d: serve will back it up and upgrade it to %d", in.SchemaVersion, want)}
	}
	return Result{"schema", OK, fmt.Sprintf("schema version %d, as this trench writes", want)}
}

func checkCertificate(c Config) Result {
	now := c.Now()
	var leaf *x509.Certificate
	var what string
	switch {
	case c.TLS.CertFile != "" || c.TLS.KeyFile != "":
		if _, err := https.New(https.Config{CertFile: c.TLS.CertFile, KeyFile: c.TLS.KeyFile}); err != nil {
			return Result{"certificate", Fail, fmt.Sprintf("%v: give a PEM certificate chain and its key", err)}
		}
		b, _ := os.ReadFile(c.TLS.CertFile)
		leaf = firstCert(b)
		what = c.TLS.CertFile + ": replace it with a renewed certificate (serve picks it up without a restart)"
	case len(c.TLS.Domains) > 0:
		d := c.TLS.Domains[0]
		b, err := os.ReadFile(filepath.Join(c.TLS.CacheDir, d))
		if errors.Is(err, fs.ErrNotExist) {
			return Result{"certificate", Warn, fmt.Sprintf("no certificate for %s in %s yet: serve obtains it at start (and logs why when it cannot); the DNS of %s must point here and ports 80 and 443 be open", d, c.TLS.CacheDir, d)}
		}
		if err != nil {
			return Result{"certificate", Fail, fmt.Sprintf("certificate cache: %v: it must be readable by the user that runs trench", err)}
		}
		leaf = firstCert(b)
		what = fmt.Sprintf("renewal over ACME is failing: check that the DNS of %s points here, ports 80 and 443 are open, and the log of serve (its \"certificate\" lines give the CA's answer)", d)
	default:
		return Result{"certificate", Skip, "no --domain and no --tls-cert: plain HTTP (behind a reverse proxy that does HTTPS?)"}
	}
	if leaf == nil {
		return Result{"certificate", Fail, "no certificate in the file: " + what}
	}
	left := leaf.NotAfter.Sub(now)
	msg := fmt.Sprintf("certificate for %s expires %s (in %d days)", strings.Join(leaf.DNSNames, ", "), leaf.NotAfter.UTC().Format("2006-01-02"), int(left.Hours()/24))
	switch {
	case left <= 0:
		return Result{"certificate", Fail, fmt.Sprintf("certificate for %s expired %s: %s", strings.Join(leaf.DNSNames, ", "), leaf.NotAfter.UTC().Format("2006-01-02"), what)}
	case left < certFail:
		return Result{"certificate", Fail, msg + ": " + what}
	case left < certWarn && c.TLS.CertFile != "":
		return Result{"certificate", Warn, msg + ": renew it soon"}
	}
	return Result{"certificate", OK, msg}
}

// firstCert is the first certificate of a PEM file (autocert's cache
// files hold the key first, then the chain).
func firstCert(b []byte) *x509.Certificate {
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return nil
		}
		if blk.Type == "CERTIFICATE" {
			c, err := x509.ParseCertificate(blk.Bytes)
			if err != nil {
				return nil
			}
			return c
		}
	}
}

func checkSMTP(ctx context.Context, c Config) Result {
	if c.SMTP.Addr == "" {
		return Result{"smtp", Skip, "no --smtp-addr: no e-mail notifications"}
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := c.SMTP.Check(ctx, c.BaseURL); err != nil {
		return Result{"smtp", Fail, fmt.Sprintf("mail server %s: %v; check --smtp-addr, --smtp-user, --smtp-password, --smtp-from and --base-url", c.SMTP.Addr, err)}
	}
	return Result{"smtp", OK, fmt.Sprintf("mail server %s accepts the connection and the credentials", c.SMTP.Addr)}
}

// checkReplica reads the replica (is it there, is the database behind
// it?), then asks the running server how far the replica trails.
func checkReplica(ctx context.Context, c Config) Result {
	if c.Replica == "" {
		return Result{"replication", Skip, "no --replicate: no continuous copy of the database elsewhere"}
	}
	replica := db.Redact(c.Replica)
	local, remote, err := db.ReplicaPosition(ctx, c.DB, c.Replica)
	if err != nil {
		msg := fmt.Sprintf("%v: check --replicate and the credentials", err)
		if c.MetricsAddr != "" {
			if st, serr := askServer(ctx, c.MetricsAddr, c.MetricsToken); serr == nil && st.on {
				msg += fmt.Sprintf("; the running server says the replica lacks %.0f transactions, the oldest for %s", st.behind, st.lag.Round(time.Second))
			}
		}
		return Result{"replication", Fail, msg}
	}
	if remote == 0 {
		return Result{"replication", Fail, fmt.Sprintf("the replica %s holds nothing: is serve running with --replicate?", replica)}
	}
	if local < remote {
		if _, err := os.Stat(c.DB); err != nil {
			return Result{"replication", OK, fmt.Sprintf("no database at %s: serve --replicate restores it from the replica %s (transaction %d)", c.DB, replica, remote)}
		}
		return Result{"replication", Fail, fmt.Sprintf("%s is behind its replica %s (transaction %d here, %d in the replica): serve --replicate refuses to start; %s",
			c.DB, replica, local, remote, ReplicaChoice(c.DB, replica))}
	}
	if c.MetricsAddr == "" {
		return Result{"replication", Warn, fmt.Sprintf("the replica %s holds transaction %d; to know whether it keeps up, give serve and doctor --metrics-addr (doctor asks the running server there)", replica, remote)}
	}
	st, err := askServer(ctx, c.MetricsAddr, c.MetricsToken)
	if err != nil {
		return Result{"replication", Warn, fmt.Sprintf("could not ask the running server (%v): is serve running with --metrics-addr %s?", err, c.MetricsAddr)}
	}
	switch {
	case !st.on:
		return Result{"replication", Fail, fmt.Sprintf("the server answering on %s does not replicate: start it with --replicate %s", c.MetricsAddr, replica)}
	case st.behind > 0 && st.lag > replicaLag:
		return Result{"replication", Fail, fmt.Sprintf("the running server says the replica %s lacks %.0f transactions, the oldest for %s: see serve's log (full disk, permissions, credentials, the replica's server)",
			replica, st.behind, st.lag.Round(time.Second))}
	case st.behind > 0:
		return Result{"replication", OK, fmt.Sprintf("the running server is sending %.0f transactions to the replica %s (the oldest %s ago)", st.behind, replica, st.lag.Round(time.Second))}
	}
	return Result{"replication", OK, fmt.Sprintf("the running server says the replica %s is up to date", replica)}
}

// ReplicaChoice says how to go on with a database behind its replica:
// restore the replica's copy in its place, or start the replica anew.
func ReplicaChoice(path, replica string) string {
	return fmt.Sprintf(`choose one:
  keep the replica's copy:       mv %[1]s %[1]s.behind && trench restore --from %[2]s %[1]s
                                 then start serve again as before
  replace it with this database: trench serve --replicate %[2]s --replica-overwrite (and your other flags)`, path, replica)
}

// serverReplication is what the running server's metrics say of its
// replica.
type serverReplication struct {
	on     bool
	behind float64
	lag    time.Duration
}

// askServer reads the replication figures from the metrics serve
// exposes at addr (an address without a host means this machine).
func askServer(ctx context.Context, addr, token string) (serverReplication, error) {
	var st serverReplication
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return st, err
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+"/metrics", nil)
	if err != nil {
		return st, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := metricsClient.Do(req)
	if err != nil {
		return st, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return st, fmt.Errorf("GET /metrics: %s", res.Status)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		return st, fmt.Errorf("GET /metrics: %w", err)
	}
	gauge := func(name string) (float64, bool) {
		f, ok := fams[name]
		if !ok || len(f.GetMetric()) == 0 {
			return 0, false
		}
		return f.GetMetric()[0].GetGauge().GetValue(), true
	}
	on, ok := gauge("trench_replication_enabled")
	if !ok {
		return st, fmt.Errorf("no trench_replication_enabled in /metrics: is it trench's?")
	}
	st.on = on == 1
	st.behind, _ = gauge("trench_replication_behind_transactions")
	lag, _ := gauge("trench_replication_lag_seconds")
	st.lag = time.Duration(lag * float64(time.Second))
	return st, nil
}

// metricsClient asks the running server (on this machine, no proxy).
var metricsClient = &http.Client{Transport: &http.Transport{Proxy: nil}}

// checkReplicaDisk warns when the file system a file:// replica goes to
// has little space left: a full one stops replication.
func checkReplicaDisk(c Config) Result {
	u, err := url.Parse(c.Replica)
	if c.Replica == "" || err != nil || u.Scheme != "file" {
		return Result{"replica-disk", Skip, "no file:// replica"}
	}
	dir := u.Path
	for {
		if _, err := os.Stat(dir); err == nil || dir == filepath.Dir(dir) {
			break
		}
		dir = filepath.Dir(dir)
	}
	free, err := diskFree(dir)
	if err != nil {
		return Result{"replica-disk", Warn, fmt.Sprintf("free space on %s: %v", dir, err)}
	}
	var size uint64
	if info, err := os.Stat(c.DB); err == nil {
		size = uint64(info.Size())
	}
	need := 2*size + minFree
	if free < need {
		return Result{"replica-disk", Warn, fmt.Sprintf("%s free on %s, where the replica goes; want at least %s (a snapshot is a copy of the database): when it fills, replication stops",
			mb(free), dir, mb(need))}
	}
	return Result{"replica-disk", OK, fmt.Sprintf("%s free on %s, where the replica goes", mb(free), dir)}
}

func checkClock(ctx context.Context, c Config, in *db.Inspection) Result {
	now := c.Now()
	if now.Year() < 2025 {
		return Result{"clock", Fail, fmt.Sprintf("the clock says %s: set it (timedatectl set-ntp true)", now.UTC().Format(time.RFC3339))}
	}
	if in != nil && in.Newest > 0 {
		if newest := time.Unix(in.Newest, 0); newest.Sub(now) > clockSkew {
			return Result{"clock", Fail, fmt.Sprintf("the database holds a time %s after now (%s): the clock went back; set it (timedatectl set-ntp true)",
				newest.Sub(now).Round(time.Second), now.UTC().Format(time.RFC3339))}
		}
	}
	if c.TimeURL == "" {
		return Result{"clock", OK, fmt.Sprintf("%s, not behind the database (no time server to compare with)", now.UTC().Format(time.RFC3339))}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, c.TimeURL, nil)
	if err != nil {
		return Result{"clock", Warn, err.Error()}
	}
	res, err := clockClient.Do(req)
	if err != nil {
		return Result{"clock", Warn, fmt.Sprintf("could not ask %s for the time: %v", c.TimeURL, err)}
	}
	res.Body.Close()
	ref, err := http.ParseTime(res.Header.Get("Date"))
	if err != nil {
		return Result{"clock", Warn, fmt.Sprintf("%s sends no Date", c.TimeURL)}
	}
	if d := now.Sub(ref).Abs(); d > clockSkew {
		return Result{"clock", Fail, fmt.Sprintf("the clock is %s off %s's: set it (timedatectl set-ntp true); certificates and game clocks depend on it", d.Round(time.Second), c.TimeURL)}
	}
	return Result{"clock", OK, fmt.Sprintf("%s, within %s of %s", now.UTC().Format(time.RFC3339), clockSkew, c.TimeURL)}
}

// clockClient asks the reference clock; its TLS is not checked, since a
// wrong clock is what makes certificates look invalid.
var clockClient = &http.Client{Transport: insecureTransport()}
