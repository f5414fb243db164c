// Package static holds the files the server sends as they are: htmx and
// its SSE extension (vendored from the npm packages htmx.org and
// htmx-ext-sse, see VERSIONS), the style sheets (style.css, and dark.css
// for the dark theme), the icon (SVG, and PNG at 192 and 512 pixels for
// the app's manifest), the service worker sw.js (served at /sw.js) and
// push.js, which registers it, embedded in the binary.
package static

import "embed"

// FS holds every file of this folder but the Go sources.
//
//go:embed *.js *.css *.svg *.png VERSIONS
var FS embed.FS
