package crashtest

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestCrashRecovery is a short `trench crashtest`: the built binary is
// killed with SIGKILL once under load, restarted on the same database and
// checked (`make crashtest` runs the full one). Skipped with -short.
func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a server: not with -short")
	}
	var out bytes.Buffer
	err := runCrashtest(context.Background(), crashConfig{Dir: t.TempDir(), Rounds: 1, Load: 1500 * time.Millisecond,
		Users: 8, Games: 4, Clients: 4, After: 2}, &out)
	t.Log("\n" + out.String())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "crashtest: ok") {
		t.Fatal("no verdict")
	}
}
