package https

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// deadDirectory is the URL of an ACME directory on a port where nothing
// listens: the CA is down.
func deadDirectory(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/dir"
}

// cacheCertificate writes into autocert's cache at dir a certificate for
// domain valid from notBefore to notAfter, as autocert stores one it
// obtained.
func cacheCertificate(t *testing.T, dir, domain string, notBefore, notAfter time.Time) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), DNSNames: []string{domain}, NotBefore: notBefore, NotAfter: notAfter,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	pem.Encode(&b, &pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
	pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, domain), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// waitForLog waits up to 10 s until the log holds every one of want.
func waitForLog(t *testing.T, logs *lockedBuffer, want ...string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		missing := ""
		for _, w := range want {
			if !strings.Contains(logs.String(), w) {
				missing = w
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("the log lacks %q:\n%s", missing, logs.String())
		}
	}
}

// TestRenewalFailureIsLogged: with the ACME CA down, a certificate due
// for renewal (two days left of ninety) is still served, each failed
// renewal is logged with its reason, and its expiry is on /metrics.
func TestRenewalFailureIsLogged(t *testing.T) {
	const domain = "trench.example.org"
	cache := filepath.Join(t.TempDir(), "certs")
	notAfter := time.Now().Add(48 * time.Hour).Truncate(time.Second)
	cacheCertificate(t, cache, domain, notAfter.Add(-90*24*time.Hour), notAfter)
	var logs lockedBuffer
	s, err := New(Config{Domains: []string{domain}, CacheDir: cache, Directory: deadDirectory(t),
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx, time.Hour)

	// autocert renews at once (the certificate is in its last third) and
	// fails: the log says so and why.
	waitForLog(t, &logs, "a request to the ACME CA failed", "connection refused",
		"certificate due for renewal and not renewed yet", "domain="+domain)
	cert, err := s.TLSConfig().GetCertificate(ecdsaHello(domain))
	if err != nil || !cert.Leaf.NotAfter.Equal(notAfter) {
		t.Fatalf("the cached certificate is not served: %v", err)
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(s.Collector())
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if len(mfs) != 1 || mfs[0].GetName() != "trench_certificate_expiry_timestamp_seconds" || len(mfs[0].GetMetric()) != 1 {
		t.Fatalf("metrics: %v", mfs)
	}
	m := mfs[0].GetMetric()[0]
	if m.GetLabel()[0].GetValue() != domain || m.GetGauge().GetValue() != float64(notAfter.Unix()) {
		t.Errorf("expiry metric %v, want %s at %d", m, domain, notAfter.Unix())
	}
}

// TestObtainFailureIsLogged: with no certificate yet and the ACME CA
// down, the watch at start logs that none could be obtained, and why.
func TestObtainFailureIsLogged(t *testing.T) {
	var logs lockedBuffer
	s, err := New(Config{Domains: []string{"trench.example.org"}, CacheDir: filepath.Join(t.TempDir(), "certs"),
		Directory: deadDirectory(t), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx, time.Hour)
	waitForLog(t, &logs, "certificate: none could be obtained over ACME", "connection refused", "domain=trench.example.org")
}
