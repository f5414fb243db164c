package handlers_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/static"
)

// hashedName is a static file's address under a content-hashed name.
var hashedName = regexp.MustCompile(`^/static/[a-z0-9.-]+\.[0-9a-f]{10}\.[a-z]+$`)

// TestPagesNameServedImmutableFiles walks the site's pages (signed in and
// out, the three games, an error page) and fetches every /static/ file
// a page names (scripts, style sheets, the icon, the units' sprite): each
// is served, under a content-hashed name, to be kept a year without asking
// again, gzip-encoded to a browser that accepts it, with an ETag a second
// request gets a 304 for.
func TestPagesNameServedImmutableFiles(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	var pages []string
	for _, g := range []struct{ game, variant string }{{"trench", "single"}, {"trenches", "standard"}, {"cards", "short"}} {
		id := challenge(t, a, b, g.game, g.variant, "0")
		pages = append(pages, fmt.Sprintf("/games/%d", id), fmt.Sprintf("/games/%d/analysis", id), "/rules/"+g.game)
	}
	pages = append(pages, "/", "/rules", "/archive", "/leaderboard/trench", "/players", "/players/alice",
		"/tournaments", "/tournaments/new", "/challenges/new", "/settings", "/vacation", "/no-such-page")
	named := map[string]string{} // address → the page naming it
	collect := func(c *client, page string) {
		doc := c.Get(page)
		if c.Status != http.StatusOK && c.Status != http.StatusNotFound {
			t.Fatalf("%s: status %d", page, c.Status)
		}
		doc.Find("[src], [href]").Each(func(_ int, el *goquery.Selection) {
			for _, attr := range []string{"src", "href"} {
				if v, ok := el.Attr(attr); ok && strings.HasPrefix(v, "/static/") {
					v, _, _ = strings.Cut(v, "#")
					named[v] = page
				}
			}
		})
	}
	for _, p := range pages {
		collect(a, p)
	}
	out := s.newClient(t)
	for _, p := range []string{"/", "/signin", "/signup", "/reset", "/rules/trench", pages[0]} {
		collect(out, p)
	}
	for _, want := range []string{"htmx.min.js", "htmx-ext-sse.min.js", "live.js", "review.js", "style.css", "dark.css", "icon.svg", "units.svg"} {
		if named[static.URL(want)] == "" {
			t.Errorf("no page names %s (%s)", want, static.URL(want))
		}
	}
	for u, page := range named {
		if !hashedName.MatchString(u) {
			t.Errorf("%s names %s, not a content-hashed name", page, u)
			continue
		}
		req, _ := http.NewRequest(http.MethodGet, s.URL+u, nil)
		ans := out.raw(req, map[string]string{"Accept-Encoding": "gzip, deflate, br, zstd"})
		if ans.Status != http.StatusOK {
			t.Errorf("%s names %s, which answers %d", page, u, ans.Status)
			continue
		}
		if cc := ans.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s is sent with Cache-Control %q, want a year, immutable", u, cc)
		}
		etag := ans.Header.Get("ETag")
		if etag == "" {
			t.Errorf("%s has no ETag", u)
			continue
		}
		if len(ans.decoded(t)) > 2048 && ans.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s (%d bytes) is not gzip-encoded for a browser accepting gzip", u, len(ans.decoded(t)))
		}
		req, _ = http.NewRequest(http.MethodGet, s.URL+u, nil)
		if again := out.raw(req, map[string]string{"Accept-Encoding": "gzip, deflate, br, zstd", "If-None-Match": etag}); again.Status != http.StatusNotModified || len(again.Body) != 0 {
			t.Errorf("%s asked again with its ETag: %d and %d bytes, want 304 and none", u, again.Status, len(again.Body))
		}
	}
}

// TestStaticFileUnhashedName: a static file asked for by its own name
// still comes, with an hour's cache and an ETag, gzip-encoded only for a
// browser that accepts it; an unknown file is a 404.
func TestStaticFileUnhashedName(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	want, err := static.FS.ReadFile("htmx.min.js")
	if err != nil {
		t.Fatal(err)
	}
	get := func(header map[string]string) rawAnswer {
		req, _ := http.NewRequest(http.MethodGet, s.URL+"/static/htmx.min.js", nil)
		return c.raw(req, header)
	}
	plain := get(map[string]string{"Accept-Encoding": "identity"})
	if plain.Status != http.StatusOK || string(plain.Body) != string(want) || plain.Header.Get("Content-Encoding") != "" {
		t.Fatalf("plain: status %d, %d bytes, Content-Encoding %q", plain.Status, len(plain.Body), plain.Header.Get("Content-Encoding"))
	}
	if cc := plain.Header.Get("Cache-Control"); cc != "public, max-age=3600" {
		t.Fatalf("Cache-Control %q, want an hour", cc)
	}
	gz := get(map[string]string{"Accept-Encoding": "gzip"})
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.decoded(t) != string(want) || len(gz.Body) > len(want)/2 {
		t.Fatalf("gzip: Content-Encoding %q, %d bytes for %d", gz.Header.Get("Content-Encoding"), len(gz.Body), len(want))
	}
	if gz.Header.Get("ETag") == "" || gz.Header.Get("ETag") == plain.Header.Get("ETag") {
		t.Fatalf("ETags %q (gzip) and %q (plain): want two, one per encoding", gz.Header.Get("ETag"), plain.Header.Get("ETag"))
	}
	if again := get(map[string]string{"Accept-Encoding": "gzip", "If-None-Match": gz.Header.Get("ETag")}); again.Status != http.StatusNotModified {
		t.Fatalf("asked again with its ETag: %d, want 304", again.Status)
	}
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/static/none.3f9a1c07d2.js", nil)
	if ans := c.raw(req, nil); ans.Status != http.StatusNotFound {
		t.Fatalf("an unknown static file: %d, want 404", ans.Status)
	}
}

// TestRecordImageFeedRevalidate: a game's record, its position image and
// a player's feed carry an ETag; asked again with it they answer 304 with
// no body while nothing changed, and the new content once a move is made.
func TestRecordImageFeedRevalidate(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	feed := feedURL(t, b)
	addresses := []string{fmt.Sprintf("%s/games/%d/record", s.URL, id), fmt.Sprintf("%s/games/%d/position.svg", s.URL, id), feed}
	get := func(u, etag string) rawAnswer {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		h := map[string]string{"Accept-Encoding": "gzip"}
		if etag != "" {
			h["If-None-Match"] = etag
		}
		return b.raw(req, h)
	}
	tags := map[string]string{}
	for _, u := range addresses {
		first := get(u, "")
		etag := first.Header.Get("ETag")
		if first.Status != http.StatusOK || etag == "" {
			t.Fatalf("%s: status %d, ETag %q", u, first.Status, etag)
		}
		if cc := first.Header.Get("Cache-Control"); !strings.Contains(cc, "no-cache") {
			t.Fatalf("%s: Cache-Control %q: a browser may not keep it to ask again", u, cc)
		}
		if again := get(u, etag); again.Status != http.StatusNotModified || len(again.Body) != 0 {
			t.Fatalf("%s asked again with its ETag: %d and %d bytes, want 304 and none", u, again.Status, len(again.Body))
		}
		tags[u] = etag
	}
	clickMove(t, a, id, func(int) int { return 0 })
	for _, u := range addresses {
		ans := get(u, tags[u])
		if ans.Status != http.StatusOK || ans.Header.Get("ETag") == tags[u] || len(ans.decoded(t)) == 0 {
			t.Errorf("%s after a move, asked with the old ETag: %d, ETag %q (was %q)", u, ans.Status, ans.Header.Get("ETag"), tags[u])
		}
	}
}
