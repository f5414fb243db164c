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
	ck := &http.Cookie{Name: cookieName(langCookie, h.secure), Value: lang, Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode}
	if lang == "" {
		ck.MaxAge = -1
	}
	c.SetCookie(ck)
	return c.Redirect(http.StatusSeeOther, safeNext(c.FormValue("back")))
}

// setTheme stores the signed-in player's colour theme (theme: "system",
// "light" or "dark") and goes back to the settings page. Errors:
// KindInvalid for another theme, which changes nothing.
func (h *preferenceHandler) setTheme(c echo.Context) error {
	if err := h.db.SetTheme(c.Request().Context(), currentViewer(c).ID, c.FormValue("theme")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/settings?theme=1#appearance")
}

// appearance fills the settings page's choices of language and colour
// theme, the viewer's own selected, and on a GET whether one was just
// saved (?language=1, ?theme=1).
func appearance(c echo.Context, p *views.SettingsPage) {
	v := currentViewer(c)
	p.Languages = []views.Option{{Value: "", Label: tr(c, "The browser's language"), Selected: v.Language == ""}}
	for _, l := range views.Languages {
		p.Languages = append(p.Languages, views.Option{Value: l.Code, Label: l.Name, Selected: v.Language == l.Code})
	}
	theme := v.Theme
	if theme == "" {
		theme = "system"
	}
	p.Themes = []views.Option{
		{Value: "system", Label: tr(c, "As the device is set (light or dark)")},
		{Value: "light", Label: tr(c, "Light|theme")},
		{Value: "dark", Label: tr(c, "Dark|theme")},
	}
	for i := range p.Themes {
		p.Themes[i].Selected = p.Themes[i].Value == theme
	}
	if c.Request().Method == http.MethodGet {
		p.LanguageDone = c.QueryParam("language") == "1"
		p.ThemeDone = c.QueryParam("theme") == "1"
	}
}
