// Package static holds the files the server sends as they are: htmx and
// its SSE extension (vendored from the npm packages htmx.org and
// htmx-ext-sse, see VERSIONS), the style sheets (style.css, and dark.css
// for the dark theme) and the icon, embedded in the binary.
package static

import "embed"

// FS holds every file of this folder but the Go sources.
//
//go:embed *.js *.css *.svg VERSIONS
var FS embed.FS
