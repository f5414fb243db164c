package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/net/html"
)

// acceptEncoding is the Accept-Encoding every client request and event
// stream sends: gzip, which every browser accepts (and which the clients
// decode themselves, counting the bytes as they came).
const acceptEncoding = "gzip"

// countingConn counts the bytes read from a connection: what the server
// sent, headers included.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// countingDial is dial with every connection's reads added to n.
func countingDial(dial func(ctx context.Context, network, addr string) (net.Conn, error), n *atomic.Int64) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countingConn{conn, n}, nil
	}
}

// gzipReaders are the decoders of gzip-encoded answers, kept between
// answers.
var gzipReaders sync.Pool

// readAnswer reads res's body into buf, decoding it as its
// Content-Encoding says (gzip or none), with raw as scratch space for the
// encoded bytes. It returns the body, the scratch space (to keep) and
// the body's length as it came over the wire.
func readAnswer(buf, raw []byte, res *http.Response) (body, scratch []byte, wire int, err error) {
	switch enc := res.Header.Get("Content-Encoding"); enc {
	case "":
		body, err = readBody(buf, res.Body, res.ContentLength)
		return body, raw, len(body), err
	case "gzip":
		if raw, err = readBody(raw[:0], res.Body, res.ContentLength); err != nil {
			return buf, raw, len(raw), err
		}
		zr, _ := gzipReaders.Get().(*gzip.Reader)
		if zr == nil {
			zr = new(gzip.Reader)
		}
		defer gzipReaders.Put(zr)
		if err = zr.Reset(bytes.NewReader(raw)); err != nil {
			return buf, raw, len(raw), err
		}
		body, err = readBody(buf, zr, -1)
		return body, raw, len(raw), err
	default:
		return buf, raw, 0, fmt.Errorf("an answer encoded as %q, not asked for", enc)
	}
}

// streamBody is res's body (an event stream) decoded as its
// Content-Encoding says.
func streamBody(res *http.Response) (io.Reader, error) {
	switch enc := res.Header.Get("Content-Encoding"); enc {
	case "":
		return res.Body, nil
	case "gzip":
		return gzip.NewReader(res.Body)
	default:
		return nil, fmt.Errorf("an event stream encoded as %q, not asked for", enc)
	}
}

// visit is what loading a page with every static file it names took.
type visit struct {
	Bytes int64 // on the wire, headers included
	Files int   // static files fetched
	// Again is how many of those files a browser would fetch again on a
	// second visit: those not sent to be kept (immutable).
	Again int
}

// firstVisit loads path of the server at base as a browser with an
// empty cache and no session: the page, then every /static/ file it
// names (scripts, style sheets, the icon, the units' sprite), each asked
// for once, all with Accept-Encoding: gzip.
func firstVisit(ctx context.Context, base, path string) (visit, error) {
	var n atomic.Int64
	hc := &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		Proxy:       nil,
		DialContext: countingDial((&net.Dialer{Timeout: 5 * time.Second, Control: loopbackOnly}).DialContext, &n),
	}}
	defer hc.CloseIdleConnections()
	get := func(u string) (*http.Response, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+u, nil)
		if err != nil {
			return nil, nil, err
		}
		req.Header["Accept-Encoding"] = []string{acceptEncoding}
		res, err := hc.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer res.Body.Close()
		body, _, _, err := readAnswer(nil, nil, res)
		if err == nil && res.StatusCode != http.StatusOK {
			err = fmt.Errorf("GET %s: status %d", u, res.StatusCode)
		}
		return res, body, err
	}
	_, body, err := get(path)
	if err != nil {
		return visit{}, err
	}
	var v visit
	seen := map[string]bool{}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		for _, more := z.TagName(); more; {
			var key, val []byte
			key, val, more = z.TagAttr()
			if k := string(key); k == "src" || k == "href" {
				u, _, _ := strings.Cut(string(val), "#")
				if strings.HasPrefix(u, "/static/") && !seen[u] {
					seen[u] = true
					res, _, err := get(u)
					if err != nil {
						return visit{}, err
					}
					v.Files++
					if !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
						v.Again++
					}
				}
			}
		}
	}
	v.Bytes = n.Load()
	return v, nil
}
