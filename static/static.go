// Package static holds the files the server sends as they are: htmx and
// its SSE extension (vendored from the npm packages htmx.org and
// htmx-ext-sse, see VERSIONS), the style sheets (style.css, and dark.css
// for the dark theme), the units' sprite, the icon (SVG, and PNG at 192
// and 512 pixels for the app's manifest), the service worker sw.js
// (served at /sw.js) and push.js, which subscribes a device, embedded in the
// binary.
//
// Each file is served under a name carrying a hash of its content
// (htmx.min.js as /static/htmx.min.3f9a1c07d2.js, see URL) that a browser
// may keep for a year without asking again, and under its own name with
// a short cache and an ETag. Our own scripts and style sheets are sent
// minified (comments and spaces taken out by github.com/tdewolff/minify),
// and files that compress well are gzip-encoded; both once, when the
// program starts. The encoded copy goes to the browsers that accept gzip.
package static

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/js"
)

// FS holds every file of this folder but the Go sources.
//
//go:embed *.js *.css *.svg *.png VERSIONS
var FS embed.FS

// Cache-Control of the files: forever under a hashed name (a changed file
// gets a new name), an hour under the file's own name.
const (
	hashedCache = "public, max-age=31536000, immutable"
	plainCache  = "public, max-age=3600"
)

// asset is one file with what serving it needs, computed once.
type asset struct {
	name   string // the file's own name, "htmx.min.js"
	hashed string // its name with the content's hash, "htmx.min.3f9a1c07d2.js"
	ctype  string // Content-Type
	etag   string // strong ETag of the plain content
	plain  []byte // the content sent: the file, minified when it is a script or a style sheet of ours
	gz     []byte // plain gzip-encoded, nil when gzip would not save enough
}

// assets are the files by their own name and by their hashed name.
var assets = map[string]*asset{}

func init() {
	files, err := fs.Glob(FS, "*")
	if err != nil {
		return // the pattern is valid: never happens
	}
	for _, name := range files {
		b, err := FS.ReadFile(name)
		if err != nil {
			continue // an embedded file always reads
		}
		if m, err := Minified(name, b); err == nil {
			b = m // else sent as it is; TestEveryFileMinifies fails first
		}
		sum := sha256.Sum256(b)
		hash := hex.EncodeToString(sum[:5])
		ext := path.Ext(name)
		a := &asset{
			name:   name,
			hashed: strings.TrimSuffix(name, ext) + "." + hash + ext,
			ctype:  mime.TypeByExtension(ext),
			etag:   `"` + hash + `"`,
			plain:  b,
		}
		if a.ctype == "" {
			a.ctype = "text/plain; charset=utf-8"
		}
		a.gz = gzipped(b)
		assets[a.name] = a
		assets[a.hashed] = a
	}
}

// minifier takes the comments and needless spaces out of scripts and
// style sheets.
var minifier = func() *minify.M {
	m := minify.New()
	m.AddFunc("text/css", css.Minify)
	m.AddFunc("text/javascript", js.Minify)
	return m
}()

// Minified is the content b of the file name as it is sent: minified for
// a script (.js, but not an already minified .min.js) or a style sheet
// (.css), b itself for any other file. The error is the minifier's, for
// a file it cannot parse.
func Minified(name string, b []byte) ([]byte, error) {
	switch {
	case strings.HasSuffix(name, ".min.js"):
		return b, nil
	case strings.HasSuffix(name, ".js"):
		return minifier.Bytes("text/javascript", b)
	case strings.HasSuffix(name, ".css"):
		return minifier.Bytes("text/css", b)
	}
	return b, nil
}

// Content is the content of the file name as it is sent (minified, see
// Minified), and false when name is not a file of FS.
func Content(name string) ([]byte, bool) {
	a, ok := assets[name]
	if !ok || a.name != name {
		return nil, false
	}
	return a.plain, true
}

// gzipped is b gzip-encoded at the best compression, or nil when that
// saves less than a tenth of b or 256 bytes.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil
	}
	if _, err := w.Write(b); err != nil {
		return nil
	}
	if err := w.Close(); err != nil {
		return nil
	}
	if saved := len(b) - buf.Len(); saved < len(b)/10 || saved < 256 {
		return nil
	}
	return buf.Bytes()
}

// URL is the address of the file name ("htmx.min.js") under its hashed
// name, "/static/htmx.min.3f9a1c07d2.js": the one place a page learns
// where a static file is. A name that is not a file of FS gets
// "/static/" + name, which answers 404.
func URL(name string) string {
	if a, ok := assets[name]; ok && a.name == name {
		return "/static/" + a.hashed
	}
	return "/static/" + name
}

// Handler serves the files of FS at the path after "/static/", under
// their hashed names (cached for a year, immutable) and their own names
// (cached an hour); either with an ETag, answering 304 to a matching
// If-None-Match, and gzip-encoded for a client that accepts gzip when
// that saves enough. Any other path is a 404.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/static/")
		a, ok := assets[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.ctype)
		if name == a.hashed {
			h.Set("Cache-Control", hashedCache)
		} else {
			h.Set("Cache-Control", plainCache)
		}
		body, etag := a.plain, a.etag
		if a.gz != nil {
			if !strings.Contains(strings.Join(h.Values("Vary"), ","), "Accept-Encoding") {
				h.Add("Vary", "Accept-Encoding")
			}
			if acceptsGzip(r.Header.Get("Accept-Encoding")) {
				h.Set("Content-Encoding", "gzip")
				body, etag = a.gz, a.etag[:len(a.etag)-1]+`-gzip"`
			}
		}
		h.Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// acceptsGzip reports whether an Accept-Encoding header's value accepts
// gzip: it names gzip (or x-gzip) with no q=0.
func acceptsGzip(acceptEncoding string) bool {
	for part := range strings.SplitSeq(acceptEncoding, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" {
			continue
		}
		q := 1.0
		if k, v, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.TrimSpace(k) == "q" {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				q = f
			}
		}
		return q > 0
	}
	return false
}
