package views

// ThemeColor is the colour of the navigation bar, the same in the light
// and the dark theme: the browser's and the installed app's frame take it.
const ThemeColor = "#2b2418"

// BackgroundColor is the light theme's paper: the installed app's splash
// screen.
const BackgroundColor = "#f6f1e7"

// ManifestIcon is one icon of the web app manifest.
type ManifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose,omitempty"`
}

// Manifest is the web app manifest (/manifest.webmanifest) that lets a
// browser install the site as an app.
type Manifest struct {
	Name            string         `json:"name"`
	ShortName       string         `json:"short_name"`
	Description     string         `json:"description,omitempty"`
	Lang            string         `json:"lang,omitempty"`
	ID              string         `json:"id"`
	StartURL        string         `json:"start_url"`
	Scope           string         `json:"scope"`
	Display         string         `json:"display"`
	ThemeColor      string         `json:"theme_color"`
	BackgroundColor string         `json:"background_color"`
	Icons           []ManifestIcon `json:"icons"`
}

// AppManifest is the site's manifest: it starts at the dashboard, stands
// alone (no browser frame) and has icons of 192 and 512 pixels and any
// size.
func AppManifest() Manifest {
	return Manifest{Name: "Trench", ShortName: "Trench", ID: "/", StartURL: "/", Scope: "/", Display: "standalone",
		ThemeColor: ThemeColor, BackgroundColor: BackgroundColor,
		Icons: []ManifestIcon{
			{Src: "/static/icon-192.png", Sizes: "192x192", Type: "image/png", Purpose: "any"},
			{Src: "/static/icon-512.png", Sizes: "512x512", Type: "image/png", Purpose: "any"},
			{Src: "/static/icon.svg", Sizes: "any", Type: "image/svg+xml"},
		}}
}
