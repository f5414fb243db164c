package main

import (
	"errors"
	"fmt"

	"github.com/trench-games/trench/db"
)

// withReplicaChoice adds to a *db.BehindReplicaError the two commands an
// operator chooses between; other errors are returned as they are.
func withReplicaChoice(err error, c serveConfig) error {
	var behind *db.BehindReplicaError
	if !errors.As(err, &behind) {
		return err
	}
	return fmt.Errorf("%w\n%s", err, replicaChoice(c.DB, behind.Replica))
}

// replicaChoice says how to go on with a database behind its replica:
// restore the replica's copy, or start the replica anew.
func replicaChoice(path, replica string) string {
	return fmt.Sprintf(`nothing was replicated; choose one:
  keep the replica's copy:     mv %[1]s %[1]s.behind && trench restore --from %[2]s %[1]s
                               then start serve again as before
  replace it with this database: trench serve --replicate %[2]s --replica-overwrite (and your other flags)`, path, replica)
}
