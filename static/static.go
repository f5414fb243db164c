// Package static holds the files the server sends as they are: htmx
// (vendored from the npm package htmx.org, see VERSIONS), the style sheet
// and the icon, embedded in the binary.
package static

import "embed"

// FS holds every file of this folder but the Go sources.
//
//go:embed *.js *.css *.svg VERSIONS
var FS embed.FS
