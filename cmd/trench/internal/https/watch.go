package https

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// renewGrace is how long after autocert started renewing a certificate
// (see renewBefore) the watcher takes it for not renewed: autocert
// retries every 30 to 60 minutes until it succeeds.
const renewGrace = 2 * time.Hour

// renewBefore is how long before its expiry autocert starts renewing
// leaf: a third of its lifetime, at most 30 days.
func renewBefore(leaf *x509.Certificate) time.Duration {
	return min(leaf.NotAfter.Sub(leaf.NotBefore)/3, 30*24*time.Hour)
}

// Watch checks the certificates at once and then every interval until ctx
// is done: with ACME it obtains a missing certificate (retrying after a
// minute, then twice as long each time, up to interval) and logs, with
// the CA's last answer, a certificate that is due for renewal and was not
// renewed; with files it reads their expiry. Each check updates the
// expiry that Collector reports. ACME requests that fail are logged as
// they happen (see acmeTransport), so that each failed renewal says why.
func (s *Server) Watch(ctx context.Context, interval time.Duration) {
	retry := time.Minute
	for {
		next := interval
		if s.check(ctx) {
			retry = time.Minute
		} else {
			next = min(retry, interval)
			retry *= 2
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(next):
		}
	}
}

// ecdsaHello asks autocert for the ECDSA certificate that browsers get.
func ecdsaHello(domain string) *tls.ClientHelloInfo {
	return &tls.ClientHelloInfo{ServerName: domain,
		SignatureSchemes: []tls.SignatureScheme{tls.ECDSAWithP256AndSHA256},
		SupportedCurves:  []tls.CurveID{tls.CurveP256},
		CipherSuites:     []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}}
}

// check looks at every certificate once; false when one could not be had.
func (s *Server) check(ctx context.Context) bool {
	if s.files != nil {
		s.files.mu.Lock()
		leaf := s.files.cert.Leaf
		s.files.mu.Unlock()
		if leaf != nil {
			s.setExpiry(certName(leaf), leaf.NotAfter)
		}
		return true
	}
	ok := true
	for _, d := range s.domains {
		if ctx.Err() != nil {
			return ok
		}
		cert, err := s.manager.GetCertificate(ecdsaHello(d))
		if err != nil {
			ok = false
			s.logger.Error("certificate: none could be obtained over ACME; trying again later", "domain", d, "err", err)
			continue
		}
		leaf := cert.Leaf
		if leaf == nil {
			if leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
				s.logger.Error("certificate: unreadable", "domain", d, "err", err)
				ok = false
				continue
			}
		}
		s.setExpiry(d, leaf.NotAfter)
		now := time.Now()
		if due := leaf.NotAfter.Add(-renewBefore(leaf)).Add(renewGrace); now.After(due) {
			attrs := []any{"domain", d, "expires", leaf.NotAfter.UTC().Format(time.RFC3339),
				"left", leaf.NotAfter.Sub(now).Round(time.Minute).String()}
			if last := s.acme.last(); last != "" {
				attrs = append(attrs, "last_error", last)
			}
			if now.After(leaf.NotAfter) {
				s.logger.Error("certificate expired and not renewed: browsers refuse it; renewal over ACME keeps failing", attrs...)
			} else {
				s.logger.Error("certificate due for renewal and not renewed yet; renewal over ACME keeps failing and is retried every 30 to 60 minutes", attrs...)
			}
		}
	}
	return ok
}

// certName is the name a certificate is reported under: its first DNS
// name, or its subject's common name.
func certName(leaf *x509.Certificate) string {
	if len(leaf.DNSNames) > 0 {
		return leaf.DNSNames[0]
	}
	return leaf.Subject.CommonName
}

func (s *Server) setExpiry(domain string, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.expiry == nil {
		s.expiry = map[string]time.Time{}
	}
	s.expiry[domain] = t
}

// Expiries returns the expiry of each certificate by domain: with ACME
// as the last check found it, with files the one served now.
func (s *Server) Expiries() map[string]time.Time {
	if s.files != nil {
		s.check(context.Background())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]time.Time, len(s.expiry))
	for d, t := range s.expiry {
		out[d] = t
	}
	return out
}

var descExpiry = prometheus.NewDesc("trench_certificate_expiry_timestamp_seconds",
	"When the HTTPS certificate served for a domain expires, in seconds since 1970 (as its last check found it).",
	[]string{"domain"}, nil)

// Collector reports trench_certificate_expiry_timestamp_seconds{domain}
// for each certificate, for the server's /metrics.
func (s *Server) Collector() prometheus.Collector { return expiryCollector{s} }

type expiryCollector struct{ s *Server }

func (c expiryCollector) Describe(ch chan<- *prometheus.Desc) { ch <- descExpiry }

func (c expiryCollector) Collect(ch chan<- prometheus.Metric) {
	exp := c.s.Expiries()
	names := make([]string, 0, len(exp))
	for d := range exp {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		ch <- prometheus.MustNewConstMetric(descExpiry, prometheus.GaugeValue, float64(exp[d].Unix()), d)
	}
}

// acmeTransport carries the ACME client's requests and logs each one that
// fails (no answer, or an error answer other than a stale nonce, which
// the client retries by itself), remembering the last failure.
type acmeTransport struct {
	base   http.RoundTripper
	logger *slog.Logger

	mu      sync.Mutex
	lastErr string
}

func (t *acmeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := t.base.RoundTrip(r)
	if err != nil {
		t.fail(r, err.Error())
		return nil, err
	}
	if res.StatusCode < 400 {
		return res, nil
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(body))
	var problem struct{ Type, Detail string }
	json.Unmarshal(body, &problem)
	if strings.HasSuffix(problem.Type, ":badNonce") {
		return res, nil
	}
	msg := res.Status
	if problem.Type != "" || problem.Detail != "" {
		msg = fmt.Sprintf("%s: %s %s", res.Status, problem.Type, problem.Detail)
	}
	t.fail(r, msg)
	return res, nil
}

func (t *acmeTransport) fail(r *http.Request, msg string) {
	t.mu.Lock()
	t.lastErr = msg
	t.mu.Unlock()
	t.logger.Error("certificate: a request to the ACME CA failed; the certificate is not obtained or renewed this time",
		"url", r.URL.Redacted(), "err", msg)
}

// last is the last failure, "" for none.
func (t *acmeTransport) last() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastErr
}
