package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/letsencrypt/pebble/v2/ca"
	pebbledb "github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
)

// pebble is Pebble, the ACME test server, on loopback: it accepts every
// challenge without looking (PEBBLE_VA_ALWAYS_VALID) and counts the
// orders it was sent.
type pebble struct {
	Directory string // the ACME directory URL
	Roots     string // PEM file of the certificate of Pebble's own HTTPS
	Issuer    *x509.CertPool
	orders    atomic.Int32
}

func startPebble(t *testing.T) *pebble {
	t.Helper()
	t.Setenv("PEBBLE_VA_ALWAYS_VALID", "1")
	t.Setenv("PEBBLE_VA_NOSLEEP", "1")
	t.Setenv("PEBBLE_WFE_NONCEREJECT", "0")
	logger := log.New(io.Discard, "", 0)
	if testing.Verbose() {
		logger = log.New(os.Stderr, "pebble ", log.Ltime)
	}
	store := pebbledb.NewMemoryStore()
	authority := ca.New(logger, store, "", "ecdsa", 0, 1, map[string]ca.Profile{"default": {Description: "default"}})
	front := wfe.New(logger, store, va.New(logger, 80, 443, false, "", store), authority,
		[]string{"pebble.letsencrypt.org"}, false, false, 0, 0)
	p := &pebble{Issuer: x509.NewCertPool()}
	acmeHandler := front.Handler()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/order-plz" {
			p.orders.Add(1)
		}
		acmeHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.Directory = srv.URL + "/dir"
	p.Roots = filepath.Join(t.TempDir(), "pebble-https.pem")
	if err := os.WriteFile(p.Roots, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	if !p.Issuer.AppendCertsFromPEM(authority.GetRootCert(0).PEM()) {
		t.Fatal("Pebble's root certificate does not parse")
	}
	return p
}

// freeAddr returns a loopback address with a port free right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServe runs `trench serve args...` in the test until it is stopped
// (the returned function, which reports serve's error) and waits until
// addr accepts connections.
func startServe(t *testing.T, addr string, args ...string) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, args) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("serve %v ended: %v", args, err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve %v: %s does not answer", args, addr)
		}
	}
	var once atomic.Bool
	stop = func() error {
		if !once.CompareAndSwap(false, true) {
			return nil
		}
		cancel()
		return <-done
	}
	t.Cleanup(func() { stop() })
	return stop
}

// clientTo is an HTTP client that reaches every host name at addr, trusts
// roots, and does not follow redirects.
func clientTo(addr string, roots *x509.CertPool) *http.Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
		TLSClientConfig: &tls.Config{RootCAs: roots},
	}
	return &http.Client{Transport: tr, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func TestServeHTTPSWithACME(t *testing.T) {
	if testing.Short() {
		t.Skip("runs an ACME server: not with -short")
	}
	p := startPebble(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "trench.db")
	httpsAddr, httpAddr, metricsAddr := freeAddr(t), freeAddr(t), freeAddr(t)
	_, httpsPort, _ := net.SplitHostPort(httpsAddr)
	const domain = "trench.example.org"
	args := []string{"--db", dbPath, "--domain", domain, "--addr", httpsAddr, "--http-addr", httpAddr,
		"--acme-directory", p.Directory, "--acme-ca-roots", p.Roots, "--acme-email", "admin@example.org", "--metrics-addr", metricsAddr}

	stop := startServe(t, httpsAddr, args...)
	client := clientTo(httpsAddr, p.Issuer)
	base := "https://" + domain + ":" + httpsPort
	res, err := client.Get(base + "/signup")
	if err != nil {
		t.Fatalf("the sign-up page over HTTPS: %v", err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the sign-up page over HTTPS: %s", res.Status)
	}
	leaf := res.TLS.PeerCertificates[0]
	if leaf.VerifyHostname(domain) != nil || !strings.Contains(leaf.Issuer.CommonName, "Pebble") {
		t.Errorf("certificate for %v from %q", leaf.DNSNames, leaf.Issuer.CommonName)
	}
	if h := res.Header.Get("Strict-Transport-Security"); !strings.HasPrefix(h, "max-age=") {
		t.Errorf("Strict-Transport-Security %q", h)
	}
	cookies := res.Cookies()
	if len(cookies) == 0 {
		t.Error("the sign-up page set no cookie")
	}
	for _, c := range cookies {
		if !c.Secure {
			t.Errorf("cookie %s is not Secure", c.Name)
		}
	}
	if n := p.orders.Load(); n != 1 {
		t.Errorf("%d orders for one certificate", n)
	}
	// /metrics gives the certificate's expiry (once the check at start,
	// which waited for the same certificate, has seen it).
	expiry := func() float64 {
		m := scrape(t, &http.Client{Timeout: 5 * time.Second}, "http://"+metricsAddr+"/metrics")
		return sum(m, "trench_certificate_expiry_timestamp_seconds", map[string]string{"domain": domain})
	}
	got := expiry()
	for end := time.Now().Add(2 * time.Second); got == 0 && time.Now().Before(end); got = expiry() {
		time.Sleep(20 * time.Millisecond)
	}
	if got != float64(leaf.NotAfter.Unix()) {
		t.Errorf("trench_certificate_expiry_timestamp_seconds = %v, want %d", got, leaf.NotAfter.Unix())
	}

	// Plain HTTP redirects to the same place over HTTPS.
	res, err = clientTo(httpAddr, nil).Get("http://" + domain + "/archive?page=2")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != base+"/archive?page=2" {
		t.Errorf("plain HTTP: %s to %q, want a redirect to %s/archive?page=2", res.Status, res.Header.Get("Location"), base)
	}

	// The cache is private and survives a restart: no new order.
	info, err := os.Stat(filepath.Join(dir, "certs"))
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("certificate cache: %v %v, want a directory of mode 0700 beside the database", info, err)
	}
	if err := stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	startServe(t, httpsAddr, args...)
	res, err = clientTo(httpsAddr, p.Issuer).Get(base + "/signup")
	if err != nil {
		t.Fatalf("after a restart: %v", err)
	}
	res.Body.Close()
	if !res.TLS.PeerCertificates[0].Equal(leaf) {
		t.Error("after a restart: another certificate")
	}
	if n := p.orders.Load(); n != 1 {
		t.Errorf("after a restart: %d orders, want the cached certificate and no new order", n)
	}
	if _, err := clientTo(httpsAddr, p.Issuer).Get("https://other.example.org:" + httpsPort + "/"); err == nil {
		t.Error("a certificate for a domain not given")
	}
	if errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}

// writeSelfSigned writes a new self-signed certificate for name, valid
// until notAfter, to certFile and its key to keyFile, and returns it.
func writeSelfSigned(t *testing.T, certFile, keyFile, name string, notAfter time.Time) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{SerialNumber: serial, DNSNames: []string{name}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: notAfter, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	// The key first: the server must not pair the new key with the old
	// certificate for long (it keeps the old pair while they disagree).
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

func TestServeHTTPSWithOwnCertificateReloaded(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	const name = "games.example.net"
	first := writeSelfSigned(t, certFile, keyFile, name, time.Now().Add(24*time.Hour))
	addr := freeAddr(t)
	startServe(t, addr, "--db", filepath.Join(dir, "trench.db"), "--addr", addr, "--http-addr", "",
		"--tls-cert", certFile, "--tls-key", keyFile)

	served := func() *x509.Certificate {
		t.Helper()
		conn, err := tls.Dial("tcp", addr, &tls.Config{ServerName: name, InsecureSkipVerify: true})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0]
	}
	if !served().Equal(first) {
		t.Fatal("not the certificate of --tls-cert")
	}
	roots := x509.NewCertPool()
	roots.AddCert(first)
	res, err := clientTo(addr, roots).Get("https://" + name + "/signup")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Strict-Transport-Security") == "" {
		t.Errorf("over HTTPS: %s, HSTS %q", res.Status, res.Header.Get("Strict-Transport-Security"))
	}
	for _, c := range res.Cookies() {
		if !c.Secure {
			t.Errorf("cookie %s is not Secure", c.Name)
		}
	}

	// A renewed certificate is served without a restart.
	time.Sleep(10 * time.Millisecond) // a later modification time
	second := writeSelfSigned(t, certFile, keyFile, name, time.Now().Add(48*time.Hour))
	if got := served(); !got.Equal(second) {
		t.Fatalf("after the files changed: serial %v, want the new %v", got.SerialNumber, second.SerialNumber)
	}
	// A broken file keeps the last good certificate in service.
	if err := os.WriteFile(certFile, []byte("not a certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := served(); !got.Equal(second) {
		t.Fatalf("with a broken file: serial %v, want the last good %v", got.SerialNumber, second.SerialNumber)
	}
}

func TestServeFlagsWithADomain(t *testing.T) {
	t.Setenv("TRENCH_DOMAIN", "trench.example.org,www.trench.example.org")
	c, err := parseServeFlags("serve", []string{"--db", "/var/lib/trench/trench.db"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.TLS.Domains, " ") != "trench.example.org www.trench.example.org" || c.Addr != ":443" || c.HTTPAddr != ":80" ||
		!c.Secure || c.BaseURL != "https://trench.example.org" || c.TLS.CacheDir != "/var/lib/trench/certs" {
		t.Errorf("with TRENCH_DOMAIN: %+v", c)
	}
	c, err = parseServeFlags("serve", []string{"--domain", "a.example.org", "--addr", ":8443", "--base-url", "https://games.example.org"})
	if err != nil || strings.Join(c.TLS.Domains, " ") != "a.example.org" || c.BaseURL != "https://games.example.org" {
		t.Errorf("--domain beats TRENCH_DOMAIN, --base-url is kept: %+v %v", c, err)
	}
	t.Setenv("TRENCH_DOMAIN", "")
	c, err = parseServeFlags("serve", nil)
	if err != nil || c.Addr != "localhost:8080" || c.HTTPAddr != "" || c.Secure || c.BaseURL != "" {
		t.Errorf("without a domain: %+v %v", c, err)
	}
	if _, err := parseServeFlags("serve", []string{"--domain", "https://trench.example.org"}); err == nil {
		t.Error("a URL taken for a domain")
	}
}
