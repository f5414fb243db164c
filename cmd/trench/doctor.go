package main

import (
	"context"
	"fmt"
	"io"

	"github.com/trench-games/trench/cmd/trench/internal/doctor"
)

// doctorCommand runs `trench doctor [--full-check] [--db FILE] [flags as
// for serve]`: one line per check of the installation serve would run
// with these flags, each saying what to do when something is wrong; exit
// status 1 when a check fails. The database gets SQLite's quick check;
// with --full-check, its full integrity check.
func doctorCommand(ctx context.Context, stdout io.Writer, args []string) error {
	full := false
	rest := args[:0:0]
	for _, a := range args {
		switch a {
		case "--full-check", "-full-check":
			full = true
		default:
			rest = append(rest, a)
		}
	}
	c, err := parseServeFlags("doctor", rest)
	if err != nil {
		return err
	}
	cfg := doctor.Config{DB: c.DB, BaseURL: c.BaseURL, TLS: c.TLS, SMTP: c.SMTP, Replica: c.Replica, KeyFile: c.KeyFile, MetricsAddr: c.MetricsAddr,
		MetricsToken: c.MetricsToken, FullCheck: full}
	if len(c.TLS.Domains) > 0 {
		cfg.TimeURL = c.TLS.Directory
	} else {
		cfg.TimeURL = doctor.ReplicaTimeURL(c.Replica)
	}
	results := doctor.Run(ctx, cfg)
	for _, r := range results {
		fmt.Fprintf(stdout, "%-4s  %-12s  %s\n", r.Status, r.Check, r.Message)
	}
	if doctor.Failed(results) {
		return exitError(1)
	}
	return nil
}
