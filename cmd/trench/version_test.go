package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
)

func TestVersionCommand(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "v1.2.3", "0123abc"
	var out bytes.Buffer
	if err := run(context.Background(), []string{"version"}); err != nil {
		t.Fatal(err)
	}
	if err := versionCommand(context.Background(), &out, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 || lines[0] != "trench v1.2.3" || lines[1] != "commit 0123abc" ||
		!strings.Contains(lines[2], runtime.Version()) || !strings.HasPrefix(lines[3], "sqlite 3.") {
		t.Fatalf("trench version printed:\n%s", out.String())
	}
	if err := versionCommand(context.Background(), &out, []string{"extra"}); err == nil {
		t.Error("version with an argument: no error")
	}
}
