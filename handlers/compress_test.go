package handlers_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/klauspost/compress/zstd"

	"github.com/trench-games/trench/handlers"
)

// rawAnswer is an answer as it came over the wire, before any decoding.
type rawAnswer struct {
	Status int
	Header http.Header
	Body   []byte
}

// raw sends req as c (its cookies and address) with the given headers
// and returns the answer undecoded: the transport's own gzip handling is
// off whenever Accept-Encoding is set.
func (c *client) raw(req *http.Request, header map[string]string) rawAnswer {
	c.t.Helper()
	if c.ForwardedFor != "" {
		req.Header.Set("X-Forwarded-For", c.ForwardedFor)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return rawAnswer{res.StatusCode, res.Header, body}
}

// decoded is the answer's body decoded as its Content-Encoding says.
func (a rawAnswer) decoded(t *testing.T) string {
	t.Helper()
	switch a.Header.Get("Content-Encoding") {
	case "":
		return string(a.Body)
	case "gzip":
		r, err := gzip.NewReader(bytes.NewReader(a.Body))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	case "zstd":
		r, err := zstd.NewReader(bytes.NewReader(a.Body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	t.Fatalf("unknown Content-Encoding %q", a.Header.Get("Content-Encoding"))
	return ""
}

// wantEncoded fails unless the answer is encoded as enc ("" for none),
// says Vary: Accept-Encoding, and decodes to a document holding sel.
func (a rawAnswer) wantEncoded(t *testing.T, what, enc, sel string) {
	t.Helper()
	if a.Status != http.StatusOK {
		t.Fatalf("%s: status %d", what, a.Status)
	}
	if got := a.Header.Get("Content-Encoding"); got != enc {
		t.Fatalf("%s: Content-Encoding %q, want %q", what, got, enc)
	}
	if !strings.Contains(strings.Join(a.Header.Values("Vary"), ","), "Accept-Encoding") {
		t.Fatalf("%s: Vary %q does not name Accept-Encoding", what, a.Header.Values("Vary"))
	}
	html := a.decoded(t)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Find(sel).Length() == 0 {
		t.Fatalf("%s: no %s in the decoded answer: %.300s", what, sel, html)
	}
	if enc != "" && len(a.Body)*3 > len(html) {
		t.Fatalf("%s: %d bytes sent for %d: hardly compressed", what, len(a.Body), len(html))
	}
}

// TestAnswersCompressed: a game page and a move's #game fragment are sent
// gzip- or zstd-encoded to a browser that accepts it (padded against
// BREACH) and plain to one that does not, always with Vary:
// Accept-Encoding; a tiny answer is sent as it is.
func TestAnswersCompressed(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	get := func(enc string) rawAnswer {
		req, _ := http.NewRequest(http.MethodGet, s.URL+page, nil)
		return a.raw(req, map[string]string{"Accept-Encoding": enc})
	}
	get("gzip, deflate, br, zstd").wantEncoded(t, "the game page (a browser offering zstd)", "zstd", "#game")
	gz := get("gzip, deflate")
	gz.wantEncoded(t, "the game page (gzip)", "gzip", "#game")
	// The page carries a CSRF token: its size is padded against BREACH.
	if zr, err := gzip.NewReader(bytes.NewReader(gz.Body)); err != nil || zr.Comment == "" || !strings.HasPrefix(strings.Repeat("Padding-", 8), zr.Comment) {
		t.Fatalf("the gzip-encoded page carries no padding (error %v)", err)
	}
	get("identity").wantEncoded(t, "the game page (no encoding accepted)", "", "#game")

	a.Get(page)
	_, _, st := storedGame(t, s, id)
	legal := st.Legal(st.ToMove())
	move := func(enc, mv string, ply int) rawAnswer {
		form := url.Values{"_csrf": {csrfOf(a)}, "ply": {fmt.Sprint(ply)}, "move": {mv}}
		req, _ := http.NewRequest(http.MethodPost, s.URL+page+"/move", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return a.raw(req, map[string]string{"Accept-Encoding": enc, "HX-Request": "true", "HX-Current-URL": s.URL + page})
	}
	ans := move("gzip", legal[0], 0)
	ans.wantEncoded(t, "a move's answer", "gzip", "#game")
	if strings.Contains(ans.decoded(t), "<html") {
		t.Fatal("an htmx move got a whole page, want the #game fragment")
	}

	// Bob's move, answered plain.
	b.Get(page)
	_, _, st = storedGame(t, s, id)
	st, _ = st.Apply(legal[0])
	form := url.Values{"_csrf": {csrfOf(b)}, "ply": {"1"}, "move": {st.Legal(st.ToMove())[0]}}
	req, _ := http.NewRequest(http.MethodPost, s.URL+page+"/move", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	b.raw(req, map[string]string{"Accept-Encoding": "identity", "HX-Request": "true", "HX-Current-URL": s.URL + page}).
		wantEncoded(t, "a move's answer (no encoding accepted)", "", "#game")

	req, _ = http.NewRequest(http.MethodGet, s.URL+"/healthz", nil)
	if tiny := a.raw(req, map[string]string{"Accept-Encoding": "gzip"}); tiny.Header.Get("Content-Encoding") != "" || string(tiny.Body) != "ok\n" {
		t.Fatalf("a 3-byte answer sent encoded %q: %q", tiny.Header.Get("Content-Encoding"), tiny.Body)
	}
}

// TestEventStreamCompressedEventByEvent: a game page's event stream,
// gzip-encoded, still brings each event as it happens: the opening comes
// before anything changed, the move's update while the server waits for
// the next change, then the message's.
func TestEventStreamCompressedEventByEvent(t *testing.T) {
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.LiveHeartbeat = time.Hour })
	a, b := signedUpPair(t, s)
	a.HTMX = true
	id := challenge(t, a, b, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	b.Get(page)
	req, err := http.NewRequest(http.MethodGet, b.abs(liveURL(t, b.Last)), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	req.Header.Set("X-Forwarded-For", b.ForwardedFor)
	res, err := b.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("stream: status %d, Content-Encoding %q, want gzip", res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	events := make(chan sseEvent, 64)
	go func() {
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			close(events)
			return
		}
		readEvents(zr, events)
		close(events)
	}()
	next := func(what string) sseEvent {
		t.Helper()
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("the stream ended before %s", what)
			}
			return ev
		case <-time.After(5 * time.Second):
			t.Fatalf("%s did not arrive through the compressor within 5 s", what)
		}
		return sseEvent{}
	}
	if ev := next("the opening"); ev.comment != "open" {
		t.Fatalf("first: %+v, want the opening comment", ev)
	}
	clickMove(t, a, id, func(int) int { return 0 })
	if ev := next("the move's update"); ev.name != "update" || !strings.Contains(ev.data, `data-ply="1"`) {
		t.Fatalf("after the move: %+v", ev)
	}
	a.Get(page)
	a.Post(page+"/messages", url.Values{"message": {"Your turn, Bob"}})
	a.wantStatus(http.StatusOK)
	if ev := next("the message's update"); ev.name != "update" || !strings.Contains(ev.data, "Your turn, Bob") {
		t.Fatalf("after the message: %.300s", ev.data)
	}
}
