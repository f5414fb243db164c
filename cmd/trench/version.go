package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/trench-games/trench/db"
)

// version and commit are set by `make release` with -ldflags -X; a plain
// `go build` leaves version "dev" and takes the commit from the build
// information Go records.
var (
	version = "dev"
	commit  = ""
)

// buildCommit returns the commit the binary was built from, "unknown"
// when neither -ldflags nor Go's build information says.
func buildCommit() string {
	if commit != "" {
		return commit
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" && dirty {
			return rev + "-dirty"
		}
		if rev != "" {
			return rev
		}
	}
	return "unknown"
}

// versionCommand runs `trench version`: the release, the commit, the Go
// version and platform, and the SQLite version, one per line.
func versionCommand(ctx context.Context, stdout io.Writer, args []string) error {
	if len(args) != 0 {
		return fmt.Errorf("version: no arguments wanted\n%s", usage)
	}
	sqlite, err := db.SQLiteVersion(ctx)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "trench %s\ncommit %s\ngo     %s %s/%s\nsqlite %s\n",
		version, buildCommit(), runtime.Version(), runtime.GOOS, runtime.GOARCH, sqlite)
	return err
}
