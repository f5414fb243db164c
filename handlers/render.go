package handlers

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// isHTMX reports whether c is an htmx request that wants a fragment (a
// history restore wants the whole page).
func isHTMX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-History-Restore-Request") != "true"
}

// render renders into a buffer (so that a failing template sends nothing
// half-written) and sends fragment to an htmx request, full otherwise.
func render(c echo.Context, status int, full, fragment templ.Component) error {
	comp := full
	if fragment != nil && isHTMX(c) {
		comp = fragment
	}
	buf := renderBuffers.Get().(*bytes.Buffer)
	defer func() {
		// An unusually large page's buffer is left to the collector.
		if buf.Cap() <= maxPooledBuffer {
			buf.Reset()
			renderBuffers.Put(buf)
		}
	}()
	if err := comp.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	// With its length known the answer goes out whole, not chunked.
	c.Response().Header().Set(echo.HeaderContentLength, strconv.Itoa(buf.Len()))
	return c.HTMLBlob(status, buf.Bytes())
}

// sendTagged sends body (of Content-Type ctype) with a weak ETag made from
// its content and the given Cache-Control, answering 304 Not Modified
// with no body to a request whose If-None-Match names that ETag: a feed
// reader or a browser asking again for a record, an image or a feed that
// has not changed gets a few header lines. The ETag is weak because the
// same content goes out plain or compressed.
func sendTagged(c echo.Context, ctype, cacheControl string, body []byte) error {
	sum := sha256.Sum256(body)
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, ctype)
	h.Set("Cache-Control", cacheControl)
	h.Set("ETag", `W/"`+hex.EncodeToString(sum[:12])+`"`)
	http.ServeContent(c.Response(), c.Request(), "", time.Time{}, bytes.NewReader(body))
	return nil
}

// renderBuffers are the buffers render renders into, kept between
// requests (a game answer is 10 to 30 KB).
var renderBuffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 32<<10)) }}

// maxPooledBuffer is the largest buffer (in bytes) render keeps for the
// next request.
const maxPooledBuffer = 256 << 10

// statusOf maps an error to its status code and the message for the
// user, in the language of the request.
func statusOf(c echo.Context, err error) (int, string) {
	ctx := c.Request().Context()
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			return he.Code, views.T(ctx, "There is no such page.")
		case http.StatusRequestEntityTooLarge:
			return he.Code, views.T(ctx, "That request is too large.")
		}
		msg := http.StatusText(he.Code)
		if s, ok := he.Message.(string); ok && s != "" {
			msg = s
		}
		return he.Code, views.T(ctx, msg)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return http.StatusServiceUnavailable, views.T(ctx, "This page took too long to make; try again in a moment.")
	}
	status, ok := statusOfKind[db.KindOf(err)]
	if !ok {
		status = http.StatusInternalServerError
	}
	return status, errorText(ctx, err)
}

// statusOfKind is the status code of each kind of error (500 for a kind
// not listed).
var statusOfKind = map[db.Kind]int{
	db.KindInternal:     http.StatusInternalServerError,
	db.KindInvalid:      http.StatusBadRequest,
	db.KindUnauthorized: http.StatusUnauthorized,
	db.KindForbidden:    http.StatusForbidden,
	db.KindNotFound:     http.StatusNotFound,
	db.KindConflict:     http.StatusConflict,
	db.KindIllegal:      http.StatusUnprocessableEntity,
	db.KindTooMany:      http.StatusTooManyRequests,
}

// errorText is the message of err (as db.Message writes it in English)
// in the language of ctx: a db error's format translated with its values
// (each db.Term, wait and rules refusal translated too), a rules refusal
// (*rules.MoveError) as a whole translated sentence, and a generic text
// for an internal error. Another language never quotes the rules' English
// words: a rules error that is not a MoveError reads without its detail.
func errorText(ctx context.Context, err error) string {
	var e *db.Error
	if errors.As(err, &e) {
		if e.Format == "" {
			return views.T(ctx, e.Msg)
		}
		args := make([]any, len(e.Args))
		for i, a := range e.Args {
			switch a := a.(type) {
			case db.Term:
				args[i] = views.T(ctx, string(a))
			case waitSpan:
				args[i] = a.text(ctx)
			case db.Refusal:
				args[i] = views.Refusal(ctx, a.Err)
			default:
				args[i] = a
			}
		}
		return views.T(ctx, e.Format, args...)
	}
	illegal, notation := errors.Is(err, rules.ErrIllegal), errors.Is(err, rules.ErrNotation)
	if !illegal && !notation {
		return views.T(ctx, db.InternalMessage)
	}
	if views.Lang(ctx) == "en" {
		return db.Message(err) // the rules' own words
	}
	detail := ""
	var me *rules.MoveError
	if errors.As(err, &me) {
		detail = views.Refusal(ctx, me)
	}
	switch {
	case illegal && detail == "":
		return views.T(ctx, "This move is not allowed in this position.")
	case illegal:
		return views.T(ctx, "This move is not allowed in this position: %s", detail)
	case detail == "":
		return views.T(ctx, "This notation cannot be read.")
	}
	return views.T(ctx, "This notation cannot be read: %s", detail)
}

// handleError is the one error handler: it maps the error to a status code
// and answers with a page, or for htmx with a message swapped into #flash.
// Internal errors are logged with their details and shown without them.
func (a *App) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil {
		return // the client went away: there is no one to answer (observe logs it)
	}
	if c.Get("lang") == nil {
		setLanguage(c, "") // an error met before the viewer was known
	}
	status, msg := statusOf(c, err)
	setRetryAfter(c, err)
	if status >= 500 {
		a.log.Error("request failed", "method", c.Request().Method, "route", c.Path(), "err", err)
	}
	if isHTMX(c) {
		c.Response().Header().Set("HX-Retarget", "#flash")
		c.Response().Header().Set("HX-Reswap", "innerHTML")
	}
	page := views.ErrorPage{Page: pageOf(c, views.T(c.Request().Context(), http.StatusText(status))), Status: status, Message: msg}
	if err := render(c, status, views.ErrorView(page), views.Flash(msg)); err != nil {
		a.log.Error("render error page", "err", err)
	}
}

func (a *App) logPanic(c echo.Context, err error, stack []byte) error {
	a.log.Error("panic", "method", c.Request().Method, "route", c.Path(), "err", err, "stack", string(stack))
	return err
}

// setRetryAfter sets the Retry-After header (whole seconds) of an answer
// refusing an action for now (db.RetryAfter).
func setRetryAfter(c echo.Context, err error) { retryAfter(c, db.RetryAfter(err)) }

// retryAfter sets the Retry-After header to d rounded up to whole seconds
// (at least 1); nothing when d is not positive.
func retryAfter(c echo.Context, d time.Duration) {
	if d > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(d.Seconds())))))
	}
}
