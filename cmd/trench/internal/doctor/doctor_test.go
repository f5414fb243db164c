package doctor

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/trench-games/trench/cmd/trench/internal/https"
	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
)

// newDatabase makes a database as serve leaves it, in a private directory.
func newDatabase(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "trench.db")
	store, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func find(t *testing.T, rs []Result, check string) Result {
	t.Helper()
	for _, r := range rs {
		if r.Check == check {
			return r
		}
	}
	t.Fatalf("no %s check in %v", check, rs)
	return Result{}
}

func want(t *testing.T, r Result, s Status, words ...string) {
	t.Helper()
	if r.Status != s {
		t.Errorf("%s: %s %q, want %s", r.Check, r.Status, r.Message, s)
	}
	for _, w := range words {
		if !strings.Contains(r.Message, w) {
			t.Errorf("%s: %q does not say %q", r.Check, r.Message, w)
		}
	}
}

func TestAHealthyInstallation(t *testing.T) {
	path := newDatabase(t)
	rs := Run(context.Background(), Config{DB: path})
	if len(rs) != 9 || Failed(rs) {
		t.Fatalf("a new installation: %+v", rs)
	}
	for _, r := range rs {
		if r.Status != OK && r.Status != Skip {
			t.Errorf("%+v", r)
		}
	}
}

func TestFilesAndDisk(t *testing.T) {
	path := newDatabase(t)
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	want(t, checkFiles(path), Fail, "chmod 600")
	os.Chmod(path, 0o600)
	os.Chmod(filepath.Dir(path), 0o755)
	want(t, checkFiles(path), Fail, "chmod 700")
	os.Chmod(filepath.Dir(path), 0o700)
	want(t, checkFiles(path), OK)
	want(t, checkFiles(filepath.Join(filepath.Dir(path), "none.db")), Warn, "serve creates it")

	want(t, checkDisk(path), OK)
	defer func(f func(string) (uint64, error)) { diskFree = f }(diskFree)
	diskFree = func(string) (uint64, error) { return 10 << 20, nil }
	want(t, checkDisk(path), Fail, "free some space")
}

func TestIntegrityAndSchema(t *testing.T) {
	path := newDatabase(t)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(strings.Repeat("garbage!", 512)), 4096*2); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rs := Run(context.Background(), Config{DB: path})
	want(t, find(t, rs, "integrity"), Fail, "restore")
	if !Failed(rs) {
		t.Error("a damaged database passes")
	}
	v := db.SchemaVersion()
	want(t, checkSchema(&db.Inspection{SchemaVersion: v + 1}), Fail, "newer")
	want(t, checkSchema(&db.Inspection{SchemaVersion: v - 1}), OK, "back it up")
	want(t, checkSchema(&db.Inspection{SchemaVersion: v}), OK)
}

// selfSigned writes a certificate for name that expires at notAfter, and
// its key, PEM, into dir.
func selfSigned(t *testing.T, dir, name string, notAfter time.Time) (certFile, keyFile string) {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), DNSNames: []string{name}, NotBefore: notAfter.Add(-90 * 24 * time.Hour), NotAfter: notAfter}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalPKCS8PrivateKey(key)
	certFile, keyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600)
	return certFile, keyFile
}

func TestCertificate(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	c := Config{Now: func() time.Time { return now }}
	want(t, checkCertificate(c), Skip)
	c.TLS.CertFile, c.TLS.KeyFile = selfSigned(t, dir, "a.example.org", now.Add(60*24*time.Hour))
	want(t, checkCertificate(c), OK, "a.example.org", "in 59 days")
	c.TLS.CertFile, c.TLS.KeyFile = selfSigned(t, dir, "b.example.org", now.Add(5*24*time.Hour))
	want(t, checkCertificate(c), Fail, "replace it")
	c.TLS.CertFile, c.TLS.KeyFile = selfSigned(t, dir, "c.example.org", now.Add(-time.Hour))
	want(t, checkCertificate(c), Fail, "expired")

	// ACME: the cache file autocert writes (key, then chain).
	c.TLS = https.Config{Domains: []string{"d.example.org"}, CacheDir: filepath.Join(dir, "certs")}
	want(t, checkCertificate(c), Warn, "obtains it at start")
	os.Mkdir(c.TLS.CacheDir, 0o700)
	certFile, keyFile := selfSigned(t, dir, "d.example.org", now.Add(3*24*time.Hour))
	k, _ := os.ReadFile(keyFile)
	cert, _ := os.ReadFile(certFile)
	os.WriteFile(filepath.Join(c.TLS.CacheDir, "d.example.org"), append(k, cert...), 0o600)
	want(t, checkCertificate(c), Fail, "renewal over ACME is failing")
}

// session is a mail server session that takes nothing.
type session struct{}

func (session) Mail(string, *smtp.MailOptions) error { return smtp.ErrAuthRequired }
func (session) Rcpt(string, *smtp.RcptOptions) error { return smtp.ErrAuthRequired }
func (session) Data(io.Reader) error                 { return smtp.ErrAuthRequired }
func (session) Reset()                               {}
func (session) Logout() error                        { return nil }

func TestSMTP(t *testing.T) {
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return session{}, nil }))
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	c := Config{BaseURL: "https://trench.example.org", SMTP: handlers.SMTPConfig{Addr: ln.Addr().String(), From: "trench@example.org"}}
	want(t, checkSMTP(context.Background(), c), OK)
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closed.Close()
	c.SMTP.Addr = closed.Addr().String()
	want(t, checkSMTP(context.Background(), c), Fail, "--smtp-addr")
	want(t, checkSMTP(context.Background(), Config{}), Skip)
}

// metricsServer answers /metrics with the replication figures given.
func metricsServer(t *testing.T, enabled, behind, lag float64) string {
	t.Helper()
	return metricsServerWith(t, "", enabled, behind, lag)
}

// metricsServerWith is metricsServer asking for a bearer token ("" for
// none), as serve's --metrics-token does.
func metricsServerWith(t *testing.T, token string, enabled, behind, lag float64) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		fmt.Fprintf(w, "# TYPE trench_replication_enabled gauge\ntrench_replication_enabled %v\n", enabled)
		fmt.Fprintf(w, "# TYPE trench_replication_behind_transactions gauge\ntrench_replication_behind_transactions %v\n", behind)
		fmt.Fprintf(w, "# TYPE trench_replication_lag_seconds gauge\ntrench_replication_lag_seconds %v\n", lag)
	}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

func TestReplication(t *testing.T) {
	ctx := context.Background()
	path := newDatabase(t)
	replica := "file://" + filepath.Join(filepath.Dir(path), "replica")
	want(t, checkReplica(ctx, Config{DB: path}), Skip)
	want(t, checkReplica(ctx, Config{DB: path, Replica: replica}), Fail, "holds nothing")

	store, err := db.OpenWith(ctx, path, db.Options{Replica: replica})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateUser(ctx, "ann", "hash", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := store.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	// Without the server's metrics, doctor cannot tell.
	want(t, checkReplica(ctx, Config{DB: path, Replica: replica}), Warn, "--metrics-addr")
	// The running server is asked, whatever the files' times say.
	c := Config{DB: path, Replica: replica, MetricsAddr: metricsServer(t, 1, 0, 0)}
	want(t, checkReplica(ctx, c), OK, "up to date")
	c.MetricsAddr = metricsServer(t, 1, 150, 39)
	want(t, checkReplica(ctx, c), Fail, "lacks 150 transactions, the oldest for 39s")
	c.MetricsAddr = metricsServer(t, 1, 2, 0.5)
	want(t, checkReplica(ctx, c), OK, "sending 2")
	c.MetricsAddr = metricsServer(t, 0, 0, 0)
	want(t, checkReplica(ctx, c), Fail, "does not replicate")
	// A server whose metrics ask for a token is asked with it.
	c.MetricsAddr, c.MetricsToken = metricsServerWith(t, "s3cret", 1, 0, 0), "s3cret"
	want(t, checkReplica(ctx, c), OK, "up to date")
	c.MetricsToken = ""
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closed.Close()
	c.MetricsAddr = closed.Addr().String()
	want(t, checkReplica(ctx, c), Warn, "is serve running")

	// A new, empty database beside that replica.
	fresh := newDatabase(t)
	want(t, checkReplica(ctx, Config{DB: fresh, Replica: replica}), Fail, "behind its replica", "trench restore --from "+replica+" "+fresh, "--replica-overwrite")
}

func TestReplicaDisk(t *testing.T) {
	path := newDatabase(t)
	replica := "file://" + filepath.Join(filepath.Dir(path), "not", "yet", "replica")
	want(t, checkReplicaDisk(Config{DB: path}), Skip)
	want(t, checkReplicaDisk(Config{DB: path, Replica: "s3://bucket/x"}), Skip)
	want(t, checkReplicaDisk(Config{DB: path, Replica: replica}), OK, "where the replica goes")
	defer func(f func(string) (uint64, error)) { diskFree = f }(diskFree)
	var asked string
	diskFree = func(dir string) (uint64, error) { asked = dir; return 10 << 20, nil }
	want(t, checkReplicaDisk(Config{DB: path, Replica: replica}), Warn, "10.0 MB free", "replication stops")
	if asked != filepath.Dir(path) {
		t.Errorf("free space asked of %s, want the replica's nearest existing directory %s", asked, filepath.Dir(path))
	}
}

func TestClock(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	at := func(t time.Time) func() time.Time { return func() time.Time { return t } }
	want(t, checkClock(ctx, Config{Now: at(time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC))}, nil), Fail, "set it")
	want(t, checkClock(ctx, Config{Now: at(now)}, &db.Inspection{Newest: now.Add(time.Hour).Unix()}), Fail, "went back")
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	want(t, checkClock(ctx, Config{Now: at(now), TimeURL: srv.URL}, nil), OK, "within")
	want(t, checkClock(ctx, Config{Now: at(now.Add(-10 * time.Minute)), TimeURL: srv.URL}, nil), Fail, "off")
}

// TestKeyFilesPrivate: a session key file or a TLS key that other users
// may read fails the files check, naming the file and the chmod to run.
func TestKeyFilesPrivate(t *testing.T) {
	path := newDatabase(t)
	keys := handlers.DefaultKeyFile(path)
	tlsKey := filepath.Join(filepath.Dir(path), "tls.key")
	for _, p := range []string{keys, tlsKey} {
		if err := os.WriteFile(p, []byte("secret"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c := Config{DB: path, TLS: https.Config{KeyFile: tlsKey}}
	want(t, find(t, Run(context.Background(), c), "files"), OK)
	for _, p := range []string{keys, tlsKey} {
		os.Chmod(p, 0o644)
		want(t, find(t, Run(context.Background(), c), "files"), Fail, p, "chmod 600 "+p)
		os.Chmod(p, 0o600)
	}
	other := filepath.Join(filepath.Dir(path), "other.keys")
	os.WriteFile(other, []byte("secret"), 0o640)
	c.KeyFile = other
	want(t, find(t, Run(context.Background(), c), "files"), Fail, "chmod 600 "+other)
}

// TestClockAgainstTheReplica: without --domain, an s3:// replica's
// server is the clock compared with, and the result names it.
func TestClockAgainstTheReplica(t *testing.T) {
	for replica, want := range map[string]string{"": "", "file:///var/backups/trench": "", "s3://bucket/trench": "https://s3.amazonaws.com/",
		"s3://bucket/trench?endpoint=http://127.0.0.1:9000&region=us-east-1": "http://127.0.0.1:9000/",
		"s3://bucket/trench?endpoint=minio.example.org":                      "https://minio.example.org/"} {
		if got := ReplicaTimeURL(replica); got != want {
			t.Errorf("ReplicaTimeURL(%q) = %q, want %q", replica, got, want)
		}
	}
	// An S3 server answers even a request without credentials with its
	// Date: here ten minutes ahead of this machine.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Date", time.Now().Add(10*time.Minute).UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusForbidden)
	}))
	defer srv.Close()
	u := ReplicaTimeURL("s3://bucket/trench?endpoint=" + srv.URL)
	want(t, checkClock(context.Background(), Config{Now: time.Now, TimeURL: u}, nil), Fail, "off "+u)
}
