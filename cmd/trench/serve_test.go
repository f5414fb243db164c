package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestParseProxy(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1": "127.0.0.1/32", "::1": "::1/128", "192.0.2.0/24": "192.0.2.0/24", "2001:db8:1:2::/64": "2001:db8:1:2::/64",
	} {
		n, err := parseProxy(in)
		if err != nil || n.String() != want {
			t.Errorf("parseProxy(%q) = %v, %v; want %s", in, n, err, want)
		}
	}
	for _, in := range []string{"", "proxy.example", "10.0.0.0/33"} {
		if _, err := parseProxy(in); err == nil {
			t.Errorf("parseProxy(%q) accepted", in)
		}
	}
}

// A trusted proxy range wider than a /24 (IPv4) or a /64 (IPv6) lets any
// machine in it choose its client address: serve refuses it, from the
// flag or the environment, and says why.
func TestWideTrustedProxyRangesRefused(t *testing.T) {
	for _, v := range []string{"10.0.0.0/8", "192.168.0.0/16", "192.0.2.0/23", "fd00::/8", "2001:db8::/48"} {
		_, err := parseServeFlags("serve", []string{"--trusted-proxy", v})
		if err == nil || !strings.Contains(err.Error(), "too wide") || !strings.Contains(err.Error(), "proxy's own address") {
			t.Errorf("--trusted-proxy %s: %v, want it refused as too wide", v, err)
		}
	}
	t.Setenv("TRENCH_TRUSTED_PROXIES", "127.0.0.1,10.0.0.0/8")
	if _, err := parseServeFlags("serve", nil); err == nil || !strings.Contains(err.Error(), "TRENCH_TRUSTED_PROXIES") {
		t.Errorf("TRENCH_TRUSTED_PROXIES=127.0.0.1,10.0.0.0/8: %v, want an error naming the variable", err)
	}
}

// A trusted range narrower than the refused ones starts, with a warning
// in the log naming it; one address is no range and gets none.
func TestTrustedProxyRangeWarnsAtStart(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	c, err := parseServeFlags("serve", []string{"--trusted-proxy", "127.0.0.1", "--trusted-proxy", "192.0.2.0/28", "--trusted-proxy", "2001:db8:1:2::/64"})
	if err != nil {
		t.Fatal(err)
	}
	warnProxyRanges(logger, c.TrustedProxies)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "range=192.0.2.0/28") ||
		!strings.Contains(lines[0], "addresses=16") || !strings.Contains(lines[1], "range=2001:db8:1:2::/64") {
		t.Fatalf("the warnings at start:\n%s", buf.String())
	}
}

// TestTournamentsByAdminsOnlyFlag: on with the flag or
// its environment variable; a value of the variable that is no boolean is
// an error naming it.
func TestTournamentsByAdminsOnlyFlag(t *testing.T) {
	for env, want := range map[string]bool{"false": false, "true": true, "1": true} {
		t.Setenv("TRENCH_TOURNAMENTS_BY_ADMINS_ONLY", env)
		c, err := parseServeFlags("serve", nil)
		if err != nil || c.AdminTournaments != want {
			t.Errorf("TRENCH_TOURNAMENTS_BY_ADMINS_ONLY=%s: %v, %v; want %v", env, c.AdminTournaments, err, want)
		}
	}
	t.Setenv("TRENCH_TOURNAMENTS_BY_ADMINS_ONLY", "false")
	if c, err := parseServeFlags("serve", []string{"--tournaments-by-admins-only"}); err != nil || !c.AdminTournaments {
		t.Errorf("--tournaments-by-admins-only: %v, %v", c.AdminTournaments, err)
	}
	t.Setenv("TRENCH_TOURNAMENTS_BY_ADMINS_ONLY", "sometimes")
	if _, err := parseServeFlags("serve", nil); err == nil || !strings.Contains(err.Error(), "TRENCH_TOURNAMENTS_BY_ADMINS_ONLY") {
		t.Errorf("a bad value: %v, want an error naming the variable", err)
	}
}

// TestServePprofAddr: the profiler (which the bench's --cpuprofile asks a
// child server for) listens on loopback only.
func TestServePprofAddr(t *testing.T) {
	if _, err := parseServeFlags("serve", []string{"--pprof-addr", "0.0.0.0:6060"}); err == nil {
		t.Error("--pprof-addr on every interface accepted")
	}
	if c, err := parseServeFlags("serve", []string{"--pprof-addr", "127.0.0.1:6060"}); err != nil || c.PprofAddr != "127.0.0.1:6060" {
		t.Errorf("--pprof-addr 127.0.0.1:6060: %q %v", c.PprofAddr, err)
	}
}

// TestComputerGamesFlag: a player may have 10 games in progress against
// the computer unless --computer-games says otherwise (0: no limit).
func TestComputerGamesFlag(t *testing.T) {
	c, err := parseServeFlags("serve", nil)
	if err != nil || c.ComputerGames != 10 || computerGames(c.ComputerGames) != 10 {
		t.Fatalf("default: %d (%v), want 10", c.ComputerGames, err)
	}
	if c, err := parseServeFlags("serve", []string{"--computer-games", "0"}); err != nil || computerGames(c.ComputerGames) >= 0 {
		t.Fatalf("--computer-games 0: %d (%v), want no limit", computerGames(c.ComputerGames), err)
	}
	if _, err := parseServeFlags("serve", []string{"--computer-games", "-3"}); err == nil {
		t.Fatal("--computer-games -3 accepted")
	}
}

// The puzzle search is on unless --puzzle-search=false or
// TRENCH_PUZZLE_SEARCH=false; a value that is not a truth value is
// refused.
func TestPuzzleSearchFlag(t *testing.T) {
	c, err := parseServeFlags("serve", nil)
	if err != nil || c.NoPuzzleSearch {
		t.Fatalf("by default: off %v (%v), want on", c.NoPuzzleSearch, err)
	}
	if c, err = parseServeFlags("serve", []string{"--puzzle-search=false"}); err != nil || !c.NoPuzzleSearch {
		t.Errorf("--puzzle-search=false: off %v (%v)", c.NoPuzzleSearch, err)
	}
	t.Setenv("TRENCH_PUZZLE_SEARCH", "false")
	if c, err = parseServeFlags("serve", nil); err != nil || !c.NoPuzzleSearch {
		t.Errorf("TRENCH_PUZZLE_SEARCH=false: off %v (%v)", c.NoPuzzleSearch, err)
	}
	t.Setenv("TRENCH_PUZZLE_SEARCH", "sometimes")
	if _, err = parseServeFlags("serve", nil); err == nil || !strings.Contains(err.Error(), "TRENCH_PUZZLE_SEARCH") {
		t.Errorf("TRENCH_PUZZLE_SEARCH=sometimes: %v, want it refused", err)
	}
}
