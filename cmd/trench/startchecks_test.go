package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMalformedBaseURLRefused: serve (and doctor, which reads the same
// flags) refuses at start a --base-url that links cannot be built on,
// saying what is wrong and what is wanted.
func TestMalformedBaseURLRefused(t *testing.T) {
	for _, bad := range []string{"trench.example.org", "https//trench.example.org", "https://", "ftp://trench.example.org",
		"https://trench.example.org:99999", "https://trench.example.org:", "https://user:pw@trench.example.org",
		"https://trench.example.org/?x=1", "https://trench.example.org/#top", "https://trench example.org", "http://[::1"} {
		for _, cmd := range []string{"serve", "doctor"} {
			_, err := parseServeFlags(cmd, []string{"--base-url", bad})
			if err == nil {
				t.Errorf("%s --base-url %q accepted", cmd, bad)
			} else if !strings.Contains(err.Error(), "--base-url") || !strings.Contains(err.Error(), "https://trench.example.org") {
				t.Errorf("%s --base-url %q: %q does not name the flag and an example", cmd, bad, err)
			}
		}
	}
	for _, good := range []string{"", "https://trench.example.org", "https://trench.example.org/", "http://localhost:8080",
		"http://[::1]:8080", "https://games.example.org/trench"} {
		if _, err := parseServeFlags("serve", []string{"--base-url", good}); err != nil {
			t.Errorf("--base-url %q refused: %v", good, err)
		}
	}
}

// TestServeWarnsOfReadableKeyFile: serve started with a session key file
// that other users may read says so in its log, with the chmod to run.
func TestServeWarnsOfReadableKeyFile(t *testing.T) {
	dir := t.TempDir()
	dbPath, keys := filepath.Join(dir, "trench.db"), filepath.Join(dir, "session.keys")
	addr := freeAddr(t)
	args := []string{"--db", dbPath, "--key-file", keys, "--addr", addr}
	run := func() string {
		t.Helper()
		logFile, err := os.Create(filepath.Join(dir, "stderr"))
		if err != nil {
			t.Fatal(err)
		}
		defer logFile.Close()
		stderr := os.Stderr
		os.Stderr = logFile
		defer func() { os.Stderr = stderr }()
		if err := startServe(t, addr, args...)(); err != nil {
			t.Fatalf("serve: %v", err)
		}
		b, err := os.ReadFile(logFile.Name())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if log := run(); strings.Contains(log, "WARN") {
		t.Fatalf("a new installation's start warns:\n%s", log)
	}
	if err := os.Chmod(keys, 0o644); err != nil {
		t.Fatal(err)
	}
	if log := run(); !strings.Contains(log, "level=WARN") || !strings.Contains(log, keys) || !strings.Contains(log, "chmod 600 "+keys) {
		t.Fatalf("serve does not warn of the readable key file:\n%s", log)
	}
}

// TestDoctorClockWithoutDomain: without --domain, doctor compares the
// clock with the s3:// replica's server and says so.
func TestDoctorClockWithoutDomain(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Date", time.Now().Add(10*time.Minute).UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusForbidden)
	}))
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "x")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "y")
	var out bytes.Buffer
	err := doctorCommand(context.Background(), &out, []string{"--db", filepath.Join(t.TempDir(), "trench.db"),
		"--replicate", "s3://bucket/trench?endpoint=" + srv.URL + "&region=us-east-1"})
	if err == nil {
		t.Fatalf("doctor finds nothing wrong with a clock ten minutes off:\n%s", out.String())
	}
	var clock string
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.Contains(line, "clock") {
			clock = line
		}
	}
	if !strings.HasPrefix(clock, "FAIL") || !strings.Contains(clock, "off "+srv.URL) {
		t.Errorf("doctor's clock line: %q, want a failure naming %s", clock, srv.URL)
	}
}
