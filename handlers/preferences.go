package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// preferenceHandler keeps the choices of how pages look: their language
// (the footer's menu, for players and visitors alike) and the colour
// theme.
type preferenceHandler struct {
	db     *db.DB
	secure bool // cookies only over HTTPS
}

// setLanguage stores the language of the footer's form (lang: a code of
// views.Languages, or "" to follow the browser): in the player's account
// when signed in, and in the lang cookie for every visitor; then goes
// back to the page ?back= names (a path on this site).
func (h *preferenceHandler) setLanguage(c echo.Context) error {
	lang := c.FormValue("lang")
	if lang != "" && !views.IsLanguage(lang) {
		return db.Errorf(db.KindInvalid, "Unknown language %q.", lang)
	}
	if v := currentViewer(c); v.ID != 0 {
		if err := h.db.SetLanguage(c.Request().Context(), v.ID, lang); err != nil {
			return err
		}
	}
	ck := &http.Cookie{Name: langCookie, Value: lang, Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode}
	if lang == "" {
		ck.MaxAge = -1
	}
	c.SetCookie(ck)
	return c.Redirect(http.StatusSeeOther, safeNext(c.FormValue("back")))
}
