package main

import (
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"

	"github.com/trench-games/trench/cmd/trench/internal/doctor"
	"github.com/trench-games/trench/handlers"
)

// checkBaseURL refuses a --base-url that links and mails cannot be built
// on: anything but an absolute http or https URL with a host (and a
// valid port), or one carrying a user, a query or a fragment. "" (none)
// is accepted.
func checkBaseURL(s string) error {
	if s == "" {
		return nil
	}
	hint := "want the server's public address, e.g. https://trench.example.org"
	u, err := url.Parse(s)
	if err != nil || strings.ContainsAny(s, " \t\r\n") {
		return fmt.Errorf("--base-url %q is not a URL: %s", s, hint)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("--base-url %q: no http:// or https:// in front: %s", s, hint)
	case u.Hostname() == "":
		return fmt.Errorf("--base-url %q names no host: %s", s, hint)
	case u.User != nil:
		return fmt.Errorf("--base-url %q holds a user name: %s", s, hint)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(s, "#"):
		return fmt.Errorf("--base-url %q has a query or a fragment: %s", s, hint)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("--base-url %q: port %s is not a port: %s", s, p, hint)
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return fmt.Errorf("--base-url %q: a colon without a port: %s", s, hint)
	}
	return nil
}

// warnExposedKeys logs a warning for each key file serve reads (the
// session cookie's keys, the certificate's key) that other users may
// read.
func warnExposedKeys(logger *slog.Logger, c serveConfig) {
	keys := c.KeyFile
	if keys == "" {
		keys = handlers.DefaultKeyFile(c.DB)
	}
	for _, w := range doctor.ExposedKeyFiles(keys, handlers.VAPIDKeyFile(keys), c.TLS.KeyFile) {
		logger.Warn(w)
	}
}
