package trenches

import (
	"errors"
	"slices"
	"testing"

	"github.com/trench-games/trench/rules"
)

// FuzzParsePosition checks that ParsePosition never panics, that every
// error wraps ErrNotation, and that every accepted text is canonical and
// gives a position whose moves agree with the naive generator.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		StartFEN,
		"3xt1t3/3s2s3/10/ts6st/T9/10/xS6ST/10/3S2S3/3T2T3 l",
		"10/10/10/10/10/10/10/10/10/10 d",
		"xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx l",
		"TTTTSSSStt/ttssss4/10/10/10/10/10/10/10/10 d",
		"9T/8S1/7t2/6s3/5x4/4x5/3x6/2x7/1x8/x9 l",
		"3t2t3/3s2s3/55/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l",
		"3t2t3/3s2s3/010/ts6st/10/10/TS6ST/10/3S2S3/3T2T3 l",
		"3t2t3/3s2s3/10/ts6st/10/10/TS6ST/10/3S2S3 l",
		"TTTTT5/10/10/10/10/10/10/10/10/10 l",
		"10/10/10/10/10/10/10/10/10/10 l ",
		"", " ", "/", "l", "10 l", "///////// l",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			if !errors.Is(err, rules.ErrNotation) {
				t.Fatalf("ParsePosition(%q): %v does not wrap ErrNotation", s, err)
			}
			return
		}
		if p.String() != s {
			t.Fatalf("ParsePosition(%q).String() = %q", s, p.String())
		}
		q, err := ParsePosition(p.String())
		if err != nil || q != p {
			t.Fatalf("second round trip of %q: %v", s, err)
		}
		got, want := moveStrings(p.LegalMoves()), naiveParse(s).moves()
		if !slices.Equal(got, want) {
			t.Fatalf("%q: LegalMoves %v, naive %v", s, got, want)
		}
	})
}

// FuzzParseMove checks that move parsing never panics, wraps the right
// errors and prints accepted moves back unchanged.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"a4-a6", "b4-b6/d8", "a10-j1", "j10-a10/a1", "a4-", "a4-a6/", "k1-a1", "a0-a1", "a4-a6/d8/e9", "b4-b5/b4", ""} {
		f.Add(s)
	}
	start := Start()
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			if !errors.Is(err, rules.ErrNotation) {
				t.Fatalf("ParseMove(%q): %v", s, err)
			}
			return
		}
		if m.String() != s {
			t.Fatalf("ParseMove(%q).String() = %q", s, m.String())
		}
		_, err = start.ParseMove(s)
		legal := slices.Contains(moveStrings(start.LegalMoves()), s)
		if legal != (err == nil) || (err != nil && !errors.Is(err, rules.ErrIllegal)) {
			t.Fatalf("Start().ParseMove(%q) = %v, legal %v", s, err, legal)
		}
	})
}
