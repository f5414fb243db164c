package handlers

import (
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/labstack/echo/v4"
)

// The compression settings, chosen by measuring a TRENCH move's answer, a
// #game fragment of about 12 KB. Alone (BenchmarkAnswerLevels), gzip level
// 1 sends 2,353 bytes for ~18 µs of CPU, level 5 2,196 bytes for ~45 µs,
// level 9 2,070 bytes for ~125 µs; zstd's fastest level 2,341 bytes for
// ~28 µs, its default 2,203 for ~33 µs. Inside the whole server under the
// bench (trench bench --rate 500), where each move sends three such
// answers and the encoders' tables are no longer in the processor's cache,
// gzip without state between answers (StatelessCompression: a 16 KB table
// made afresh on the stack for each answer, where level 1 keeps a 128 KB
// one per pooled encoder) cost 2.09 to 2.19 ms of server CPU per move
// against 2.13 to 2.27 at level 1 (six and eight runs, in turn), for the
// same bytes (a move's answer 2,382 bytes at the median against 2,385).
const (
	// compressLevel is the gzip level of ordinary answers: each is
	// written whole at once (render), so stateless encoding compresses
	// it as one piece.
	compressLevel = gzip.StatelessCompression
	// compressZstdLevel is the zstd level of ordinary answers, for the
	// clients that prefer zstd.
	compressZstdLevel = int(zstd.SpeedFastest)
	// compressMinSize is the smallest answer, in bytes, worth compressing:
	// below it the encoding's overhead eats most of the gain.
	compressMinSize = 1024
)

// compress encodes the answers for the clients that accept it
// (Accept-Encoding: zstd or gzip): pages, fragments, SVG, JSON, Atom, the
// records and the event streams. Answers under compressMinSize bytes,
// answers already encoded (the static files, which carry their own
// Content-Encoding) and compressed media are sent as they are. Every answer
// says Vary: Accept-Encoding.
//
// An event stream (a request accepting text/event-stream) is gzip-encoded
// without state between its events, each event a whole deflate block
// flushed at once: a stream stays open for hours, and a compressor with
// its window would hold about a megabyte per open page.
//
// Pages carry a CSRF token beside text others wrote (messages, names,
// search words): each compressed answer gets 1 to 32 bytes of padding
// chosen by a checksum of its content (gzhttp's RandomJitter, "Heal the
// Breach"), so that an answer's size says less about how well a guess
// matched the token (BREACH).
//
// An error returned by the handlers after compress is sent through the
// error handler inside it, so that error pages are compressed too.
func compress() (echo.MiddlewareFunc, error) {
	pages, err := gzhttp.NewWrapper(
		gzhttp.MinSize(compressMinSize),
		gzhttp.CompressionLevel(compressLevel),
		gzhttp.ZstdCompressionLevel(compressZstdLevel),
		gzhttp.RandomJitter(32, 0, false),
	)
	if err != nil {
		return nil, err
	}
	streams, err := gzhttp.NewWrapper(
		gzhttp.MinSize(compressMinSize),
		gzhttp.CompressionLevel(gzip.StatelessCompression),
		gzhttp.EnableZstd(false),
		gzhttp.RandomJitter(32, 0, false),
	)
	if err != nil {
		return nil, err
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			wrap := pages
			if strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/event-stream") {
				wrap = streams
			}
			res := c.Response()
			orig := res.Writer
			// The encoder goes back to its pool when the wrapper returns,
			// even on a panic: nothing may write to it after.
			defer func() { res.Writer = orig }()
			wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				res.Writer = w
				c.SetRequest(r)
				if err := next(c); err != nil {
					c.Error(err)
				}
			})).ServeHTTP(orig, c.Request())
			return nil
		}
	}, nil
}
