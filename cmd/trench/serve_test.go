package main

import (
	"strings"
	"testing"
)

func TestParseProxy(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.0/8": "10.0.0.0/8", "127.0.0.1": "127.0.0.1/32", "::1": "::1/128", "fd00::/8": "fd00::/8",
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
