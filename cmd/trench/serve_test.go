package main

import "testing"

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
