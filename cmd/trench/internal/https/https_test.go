package https

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseDomains(t *testing.T) {
	got, err := ParseDomains([]string{"Trench.Example.org, b.example.org", "c.example.org."})
	if err != nil || strings.Join(got, " ") != "trench.example.org b.example.org c.example.org" {
		t.Fatalf("ParseDomains: %v %v", got, err)
	}
	for _, bad := range []string{"https://trench.example.org", "trench.example.org:443", "192.0.2.1", "*.example.org", "-a.example.org"} {
		if _, err := ParseDomains([]string{bad}); err == nil {
			t.Errorf("%q accepted as a domain", bad)
		}
	}
}

func TestHTTPRedirectsToHTTPS(t *testing.T) {
	dir := t.TempDir()
	s, err := New(Config{Domains: []string{"trench.example.org"}, CacheDir: filepath.Join(dir, "certs")})
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(dir, "certs")); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("cache directory: %v %v, want mode 0700", info, err)
	}
	cases := []struct {
		method, target, port string
		code                 int
		location             string
	}{
		{"GET", "http://trench.example.org/games/3?x=1", "443", 301, "https://trench.example.org/games/3?x=1"},
		{"HEAD", "http://trench.example.org:80/", "8443", 301, "https://trench.example.org:8443/"},
		{"POST", "http://trench.example.org/login", "443", 308, "https://trench.example.org/login"},
		// Another name in Host goes to the configured domain, never to itself.
		{"GET", "http://evil.example.com/signin?next=/", "443", 301, "https://trench.example.org/signin?next=/"},
		{"GET", "http://192.0.2.7/", "8443", 301, "https://trench.example.org:8443/"},
		{"GET", "http://TRENCH.example.org./x", "443", 301, "https://trench.example.org/x"},
	}
	for _, c := range cases {
		rec := httptest.NewRecorder()
		s.HTTPHandler(c.port).ServeHTTP(rec, httptest.NewRequest(c.method, c.target, nil))
		if rec.Code != c.code || rec.Header().Get("Location") != c.location {
			t.Errorf("%s %s: %d to %q, want %d to %q", c.method, c.target, rec.Code, rec.Header().Get("Location"), c.code, c.location)
		}
	}
	// The ACME challenge path is autocert's, not a redirect.
	rec := httptest.NewRecorder()
	s.HTTPHandler("443").ServeHTTP(rec, httptest.NewRequest("GET", "http://trench.example.org/.well-known/acme-challenge/x", nil))
	if rec.Code == http.StatusMovedPermanently {
		t.Error("the ACME challenge path was redirected")
	}
}

func TestNewRefusesHalfAConfiguration(t *testing.T) {
	for _, c := range []Config{
		{Domains: []string{"a.example.org"}, CertFile: "c.pem", KeyFile: "k.pem", CacheDir: t.TempDir()},
		{CertFile: "c.pem"},
		{KeyFile: "k.pem"},
		{CertFile: filepath.Join(t.TempDir(), "missing.pem"), KeyFile: filepath.Join(t.TempDir(), "missing.pem")},
		{},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v): no error", c)
		}
	}
}

func TestHSTSOnlyOverTLS(t *testing.T) {
	h := HSTS(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://x.example.org/", nil))
	if rec.Header().Get("Strict-Transport-Security") != "" {
		t.Error("HSTS over plain HTTP")
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "https://x.example.org/", nil))
	if !strings.HasPrefix(rec.Header().Get("Strict-Transport-Security"), "max-age=") {
		t.Error("no HSTS over HTTPS")
	}
}

// With several domains the request's own one is kept when it is one of
// them; with the admin's certificate the names are the certificate's.
func TestHTTPRedirectsOnlyToConfiguredNames(t *testing.T) {
	acme, err := New(Config{Domains: []string{"a.example.org", "b.example.org"}, CacheDir: filepath.Join(t.TempDir(), "certs")})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	selfSigned(t, certFile, keyFile, "*.example.net", "games.example.net")
	own, err := New(Config{CertFile: certFile, KeyFile: keyFile})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s              *Server
		target, wanted string
	}{
		{acme, "http://b.example.org/x", "https://b.example.org/x"},
		{acme, "http://c.example.org/x", "https://a.example.org/x"},
		{own, "http://games.example.net/x", "https://games.example.net/x"},
		{own, "http://evil.example.com/x", "https://games.example.net/x"},
		{own, "http://other.example.net/x", "https://games.example.net/x"},
	} {
		rec := httptest.NewRecorder()
		c.s.HTTPHandler("443").ServeHTTP(rec, httptest.NewRequest("GET", c.target, nil))
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != c.wanted {
			t.Errorf("GET %s: %d to %q, want 301 to %q", c.target, rec.Code, rec.Header().Get("Location"), c.wanted)
		}
	}
}

// selfSigned writes a self-signed certificate for names and its key.
func selfSigned(t *testing.T, certFile, keyFile string, names ...string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: names[0]}, DNSNames: names,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
}
