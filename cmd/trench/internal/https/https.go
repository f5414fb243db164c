// Package https serves the server over HTTPS by itself: certificates
// obtained and renewed over ACME (RFC 8555; Let's Encrypt by default) with
// golang.org/x/crypto/acme/autocert, or the admin's own certificate files,
// picked up again when they change. Beside it, plain HTTP answers the
// ACME HTTP-01 challenge and redirects everything else to HTTPS, and HSTS
// tells browsers to stay on HTTPS.
package https

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// LetsEncrypt is the default ACME directory.
const LetsEncrypt = autocert.DefaultACMEDirectory

// Config says where certificates come from. Set Domains (ACME) or
// CertFile and KeyFile (the admin's own), not both; neither means plain
// HTTP.
type Config struct {
	// Domains are the host names to obtain certificates for, e.g.
	// "trench.example.org"; only these are answered over HTTPS.
	Domains []string
	// CacheDir keeps the ACME account key and the certificates across
	// restarts; created with mode 0700. See CacheDirFor.
	CacheDir string
	// Directory is the ACME directory URL; "" means LetsEncrypt.
	Directory string
	// Email is given to the CA for expiry and account notices ("" for
	// none).
	Email string
	// DirectoryRoots, when not empty, is a PEM file of the CA
	// certificates that the ACME directory's own HTTPS is checked against
	// instead of the system's (a private CA, a test CA).
	DirectoryRoots string
	// CertFile and KeyFile are PEM files of the admin's certificate chain
	// and its private key.
	CertFile, KeyFile string
	// Logger receives certificate reloads and the failures to obtain or
	// renew a certificate; nil means slog.Default.
	Logger *slog.Logger
}

// Enabled reports whether the configuration asks for HTTPS.
func (c Config) Enabled() bool {
	return len(c.Domains) > 0 || c.CertFile != "" || c.KeyFile != ""
}

// CacheDirFor is the certificate cache beside the database file at
// dbPath: the directory "certs" in the database's directory.
func CacheDirFor(dbPath string) string {
	return filepath.Join(filepath.Dir(dbPath), "certs")
}

// ParseDomains splits a list of host names given as repeated flags or in
// one variable separated by commas or spaces, lower-cased. Errors: a name
// that is not a host name (a URL, a port, an IP address, a wildcard).
func ParseDomains(values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		for _, d := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
			d = strings.ToLower(strings.TrimSuffix(d, "."))
			if net.ParseIP(d) != nil || !validHost(d) {
				return nil, fmt.Errorf("domain %q: want a host name such as trench.example.org", d)
			}
			out = append(out, d)
		}
	}
	return out, nil
}

func validHost(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// Server is the HTTPS side of a configuration: the TLS configuration for
// the HTTPS listener and the handler for the plain-HTTP one.
type Server struct {
	tls       *tls.Config
	challenge func(fallback http.Handler) http.Handler
	logger    *slog.Logger

	// With ACME: the manager, its domains and the transport of its
	// requests; with files: the files.
	manager *autocert.Manager
	domains []string
	acme    *acmeTransport
	files   *certFiles

	mu     sync.Mutex
	expiry map[string]time.Time // by domain, as the last check found it
}

// New prepares HTTPS for cfg (no network access yet: certificates are
// obtained by Watch, or at the first handshake that needs them). Errors: both or
// neither of Domains and the files, a key without a certificate, files
// that do not load, a cache directory that cannot be made private, an
// unreadable DirectoryRoots.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	switch {
	case len(cfg.Domains) > 0 && (cfg.CertFile != "" || cfg.KeyFile != ""):
		return nil, errors.New("https: give --domain or --tls-cert and --tls-key, not both")
	case len(cfg.Domains) > 0:
		return newACME(cfg)
	case cfg.CertFile != "" && cfg.KeyFile != "":
		files, err := newCertFiles(cfg.CertFile, cfg.KeyFile, cfg.Logger)
		if err != nil {
			return nil, err
		}
		return &Server{
			tls:       &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: files.get, NextProtos: []string{"h2", "http/1.1"}},
			challenge: func(fallback http.Handler) http.Handler { return fallback },
			logger:    cfg.Logger,
			files:     files,
		}, nil
	case cfg.CertFile != "" || cfg.KeyFile != "":
		return nil, errors.New("https: --tls-cert and --tls-key go together")
	}
	return nil, errors.New("https: no --domain and no --tls-cert")
}

func newACME(cfg Config) (*Server, error) {
	if cfg.CacheDir == "" {
		return nil, errors.New("https: no certificate cache directory")
	}
	if err := os.MkdirAll(cfg.CacheDir, 0o700); err != nil {
		return nil, fmt.Errorf("https: certificate cache: %w", err)
	}
	if err := os.Chmod(cfg.CacheDir, 0o700); err != nil {
		return nil, fmt.Errorf("https: certificate cache: %w", err)
	}
	client := &acme.Client{DirectoryURL: cfg.Directory, UserAgent: "trench"}
	if client.DirectoryURL == "" {
		client.DirectoryURL = LetsEncrypt
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.DirectoryRoots != "" {
		pem, err := os.ReadFile(cfg.DirectoryRoots)
		if err != nil {
			return nil, fmt.Errorf("https: ACME directory roots: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("https: ACME directory roots: no PEM certificate in %s", cfg.DirectoryRoots)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	at := &acmeTransport{base: tr, logger: cfg.Logger}
	client.HTTPClient = &http.Client{Transport: at}
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      autocert.DirCache(cfg.CacheDir),
		HostPolicy: autocert.HostWhitelist(cfg.Domains...),
		Client:     client,
		Email:      cfg.Email,
	}
	tc := m.TLSConfig()
	tc.MinVersion = tls.VersionTLS12
	return &Server{tls: tc, challenge: m.HTTPHandler, logger: cfg.Logger, manager: m, domains: cfg.Domains, acme: at}, nil
}

// TLSConfig is the configuration of the HTTPS listener.
func (s *Server) TLSConfig() *tls.Config { return s.tls }

// HTTPHandler is the handler of the plain-HTTP listener: the ACME HTTP-01
// challenge, and for everything else a redirect to the same path over
// HTTPS on httpsPort ("443" leaves the port out): 301 for GET and HEAD,
// 308 (the method kept) otherwise.
func (s *Server) HTTPHandler(httpsPort string) http.Handler {
	return s.challenge(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if host == "" || strings.ContainsAny(host, "/\\@") {
			http.Error(w, "Use HTTPS.", http.StatusBadRequest)
			return
		}
		if httpsPort != "443" && httpsPort != "" {
			host = net.JoinHostPort(host, httpsPort)
		} else if strings.Contains(host, ":") {
			host = "[" + host + "]" // an IPv6 address
		}
		code := http.StatusPermanentRedirect
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			code = http.StatusMovedPermanently
		}
		http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), code)
	}))
}

// HSTS adds Strict-Transport-Security (one year, no subdomains) to every
// response sent over TLS.
func HSTS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil {
			w.Header().Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}
