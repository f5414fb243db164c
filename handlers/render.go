package handlers

import (
	"bytes"
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
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
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	// With its length known the answer goes out whole, not chunked.
	c.Response().Header().Set(echo.HeaderContentLength, strconv.Itoa(buf.Len()))
	return c.HTMLBlob(status, buf.Bytes())
}

// statusOf maps an error to its status code and the message for the
// user, in the language of the request.
func statusOf(c echo.Context, err error) (int, string) {
	status, msg := statusAndMessage(err)
	ctx := c.Request().Context()
	var e *db.Error
	if errors.As(err, &e) && e.Format != "" {
		return status, views.T(ctx, e.Format, e.Args...)
	}
	return status, views.T(ctx, msg)
}

// statusAndMessage maps an error to its status code and the message for
// the user, in English.
func statusAndMessage(err error) (int, string) {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := http.StatusText(he.Code)
		if s, ok := he.Message.(string); ok && s != "" {
			msg = s
		}
		switch he.Code {
		case http.StatusNotFound:
			msg = "There is no such page."
		case http.StatusRequestEntityTooLarge:
			msg = "That request is too large."
		}
		return he.Code, msg
	}
	switch db.KindOf(err) {
	case db.KindInvalid:
		return http.StatusBadRequest, db.Message(err)
	case db.KindUnauthorized:
		return http.StatusUnauthorized, db.Message(err)
	case db.KindForbidden:
		return http.StatusForbidden, db.Message(err)
	case db.KindNotFound:
		return http.StatusNotFound, db.Message(err)
	case db.KindConflict:
		return http.StatusConflict, db.Message(err)
	case db.KindIllegal:
		return http.StatusUnprocessableEntity, db.Message(err)
	case db.KindTooMany:
		return http.StatusTooManyRequests, db.Message(err)
	}
	return http.StatusInternalServerError, db.Message(err)
}

// handleError is the one error handler: it maps the error to a status code
// and answers with a page, or for htmx with a message swapped into #flash.
// Internal errors are logged with their details and shown without them.
func (a *App) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
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
func setRetryAfter(c echo.Context, err error) {
	if d := db.RetryAfter(err); d > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(d.Seconds()))))
	}
}
