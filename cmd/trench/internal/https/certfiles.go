package https

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"
)

// certFiles is a certificate loaded from a certificate and a key file,
// loaded again at the first handshake after either file changed (its
// modification time or size), so that a renewed certificate is served
// without a restart.
type certFiles struct {
	certPath, keyPath string
	logger            *slog.Logger

	mu     sync.Mutex
	cert   *tls.Certificate
	stamp  [2]fileStamp // of the files cert came from
	failed [2]fileStamp // of files that did not load
}

type fileStamp struct {
	mod  time.Time
	size int64
}

func newCertFiles(certPath, keyPath string, logger *slog.Logger) (*certFiles, error) {
	f := &certFiles{certPath: certPath, keyPath: keyPath, logger: logger}
	stamp, err := f.stamps()
	if err != nil {
		return nil, err
	}
	if err := f.load(stamp); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *certFiles) stamps() ([2]fileStamp, error) {
	var s [2]fileStamp
	for i, p := range []string{f.certPath, f.keyPath} {
		info, err := os.Stat(p)
		if err != nil {
			return s, fmt.Errorf("https: %w", err)
		}
		s[i] = fileStamp{info.ModTime(), info.Size()}
	}
	return s, nil
}

func (f *certFiles) load(stamp [2]fileStamp) error {
	c, err := tls.LoadX509KeyPair(f.certPath, f.keyPath)
	if err != nil {
		return fmt.Errorf("https: certificate %s and key %s: %w", f.certPath, f.keyPath, err)
	}
	f.cert, f.stamp = &c, stamp
	return nil
}

// get is tls.Config.GetCertificate. A pair that does not load (a renewal
// half written) keeps the previous certificate in service and is tried
// again at a later handshake.
func (f *certFiles) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	stamp, err := f.stamps() // two stats a handshake: cheap next to the handshake
	if err != nil {
		f.logger.Error("certificate files", "err", err)
	} else if stamp != f.stamp && stamp != f.failed {
		if err := f.load(stamp); err != nil {
			f.failed = stamp
			f.logger.Error("certificate files changed but do not load; still serving the previous certificate", "err", err)
		} else {
			f.logger.Info("certificate reloaded", "cert", f.certPath, "expires", f.cert.Leaf.NotAfter)
		}
	}
	return f.cert, nil
}

// hosts returns the DNS names of the certificate in service, lower case,
// wildcards left out.
func (f *certFiles) hosts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	if f.cert == nil || f.cert.Leaf == nil {
		return nil
	}
	for _, n := range f.cert.Leaf.DNSNames {
		if n = strings.ToLower(strings.TrimSuffix(n, ".")); n != "" && !strings.Contains(n, "*") {
			out = append(out, n)
		}
	}
	return out
}
