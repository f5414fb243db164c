package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trench-games/trench/cmd/trench/internal/doctor"
	"github.com/trench-games/trench/db"
)

func TestDoctorCommand(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "trench.db")
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	var out bytes.Buffer
	if err := doctorCommand(ctx, &out, []string{"--db", path}); err != nil {
		t.Fatalf("doctor on a new installation: %v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(doctor.Run(ctx, doctor.Config{DB: path})) {
		t.Fatalf("want one line per check:\n%s", out.String())
	}
	os.Chmod(path, 0o644)
	out.Reset()
	var exit exitError
	if err := doctorCommand(ctx, &out, []string{"--db", path}); !errors.As(err, &exit) || exit != 1 ||
		!strings.Contains(out.String(), "FAIL  files") || !strings.Contains(out.String(), "chmod 600") {
		t.Fatalf("doctor on a database others may read: %v\n%s", err, out.String())
	}
}
