package main

import (
	"errors"
	"fmt"

	"github.com/trench-games/trench/cmd/trench/internal/doctor"
	"github.com/trench-games/trench/db"
)

// withReplicaChoice adds to a *db.BehindReplicaError the two commands an
// operator chooses between; other errors are returned as they are.
func withReplicaChoice(err error, c serveConfig) error {
	var behind *db.BehindReplicaError
	if !errors.As(err, &behind) {
		return err
	}
	return fmt.Errorf("%w\nnothing was replicated; %s", err, doctor.ReplicaChoice(c.DB, behind.Replica))
}
