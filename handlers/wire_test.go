package handlers_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// countingConn counts the bytes read from a connection.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// wireClient is c's browser session (its cookies) on a transport that
// counts every byte the server sends, headers included, and leaves the
// answers encoded as they came.
type wireClient struct {
	c    *client
	http *http.Client
	read atomic.Int64
	// acceptEncoding is sent with every request, as the browser's.
	acceptEncoding string
}

func newWireClient(c *client, acceptEncoding string) *wireClient {
	w := &wireClient{c: c, acceptEncoding: acceptEncoding}
	var d net.Dialer
	w.http = &http.Client{Jar: c.http.Jar, Transport: &http.Transport{
		DisableCompression: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return countingConn{conn, &w.read}, nil
		},
	}}
	return w
}

// do sends req and returns the answer (undecoded) and the bytes it took
// on the wire.
func (w *wireClient) do(req *http.Request) (rawAnswer, int64) {
	w.c.t.Helper()
	req.Header.Set("Accept-Encoding", w.acceptEncoding)
	req.Header.Set("X-Forwarded-For", w.c.ForwardedFor)
	before := w.read.Load()
	res, err := w.http.Do(req)
	if err != nil {
		w.c.t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		w.c.t.Fatal(err)
	}
	return rawAnswer{res.StatusCode, res.Header, body}, w.read.Load() - before
}

// visit loads page and every /static/ file it names that cache does not
// hold fresh, as a browser does; it returns the bytes on the wire, the
// files fetched, and the page's answer. The files fetched go into cache
// when their Cache-Control lets a browser keep them.
func (w *wireClient) visit(page string, cache map[string]bool) (int64, []string, rawAnswer) {
	t := w.c.t
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, w.c.abs(page), nil)
	ans, total := w.do(req)
	if ans.Status != http.StatusOK {
		t.Fatalf("%s: status %d", page, ans.Status)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(ans.decoded(t)))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	doc.Find("[src], [href]").Each(func(_ int, el *goquery.Selection) {
		for _, attr := range []string{"src", "href"} {
			if v, ok := el.Attr(attr); ok && strings.HasPrefix(v, "/static/") {
				v, _, _ = strings.Cut(v, "#")
				if !slices.Contains(files, v) {
					files = append(files, v)
				}
			}
		}
	})
	var fetched []string
	for _, f := range files {
		if cache[f] {
			continue
		}
		req, _ := http.NewRequest(http.MethodGet, w.c.abs(f), nil)
		fa, n := w.do(req)
		if fa.Status != http.StatusOK {
			t.Fatalf("%s: status %d", f, fa.Status)
		}
		total += n
		fetched = append(fetched, f)
		if strings.Contains(fa.Header.Get("Cache-Control"), "immutable") {
			cache[f] = true
		}
	}
	return total, fetched, ans
}

// TestBytesOnTheWire: on a phone's budget, a first visit to a game page
// with every file it loads takes at most 40 KB on the wire (headers
// included) for a browser accepting gzip, a second visit fetches no
// static file at all, and a TRENCH move's answer (the #game fragment)
// sends at most 2.5 KB of body. The figures are logged.
func TestBytesOnTheWire(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	a.HTMX, b.HTMX = true, true
	id := challenge(t, a, b, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	for _, browser := range []struct{ name, accept string }{
		{"chromium", "gzip, deflate, br, zstd"},
		{"gzip only", "gzip, deflate"},
	} {
		w := newWireClient(a, browser.accept)
		cache := map[string]bool{}
		first, files, _ := w.visit(page, cache)
		t.Logf("%s: first visit to a game page: %d bytes on the wire, page and %d files", browser.name, first, len(files))
		if first > 40_000 {
			t.Errorf("%s: a first visit to a game page takes %d bytes, want at most 40,000", browser.name, first)
		}
		second, again, _ := w.visit(page, cache)
		t.Logf("%s: second visit: %d bytes, %d files fetched", browser.name, second, len(again))
		if len(again) != 0 {
			t.Errorf("%s: a second visit fetches %v again", browser.name, again)
		}
	}

	// Moves answered as htmx asks for them, as a browser accepting gzip
	// and zstd (zstd) and one accepting gzip alone.
	players := map[string]*wireClient{}
	var bodies, wires []int64
	for ply := 0; ply < 40; ply++ {
		p, g := whoMoves(t, s, id, a, b)
		if p == nil {
			break
		}
		accept := "gzip, deflate, br, zstd"
		if ply%2 == 1 {
			accept = "gzip, deflate"
		}
		w := players[p.Name+accept]
		if w == nil {
			w = newWireClient(p, accept)
			players[p.Name+accept] = w
		}
		p.Get(page)
		_, moves, st := storedGame(t, s, id)
		for _, m := range moves {
			var err error
			if st, err = st.Apply(m.Move); err != nil {
				t.Fatal(err)
			}
		}
		legal := st.Legal(st.ToMove())
		form := url.Values{"_csrf": {csrfOf(p)}, "ply": {fmt.Sprint(g.Ply)}, "move": {legal[(ply*7)%len(legal)]}}
		req, _ := http.NewRequest(http.MethodPost, s.URL+page+"/move", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("HX-Request", "true")
		req.Header.Set("HX-Current-URL", s.URL+page)
		ans, n := w.do(req)
		if ans.Status != http.StatusOK || ans.Header.Get("Content-Encoding") == "" {
			t.Fatalf("move at ply %d: status %d, Content-Encoding %q", ply, ans.Status, ans.Header.Get("Content-Encoding"))
		}
		bodies = append(bodies, int64(len(ans.Body)))
		wires = append(wires, n)
	}
	slices.Sort(bodies)
	slices.Sort(wires)
	t.Logf("a move's answer, %d moves: body %d–%d bytes (median %d), on the wire with headers %d–%d (median %d)",
		len(bodies), bodies[0], bodies[len(bodies)-1], bodies[len(bodies)/2], wires[0], wires[len(wires)-1], wires[len(wires)/2])
	if bodies[len(bodies)-1] > 2_500 {
		t.Errorf("a move's answer sends up to %d bytes of body, want at most 2,500", bodies[len(bodies)-1])
	}
}
