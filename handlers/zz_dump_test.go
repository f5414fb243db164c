package handlers_test

import (
	"os"
	"testing"
)

func BenchmarkZZDump(b *testing.B) {
	m := newMoveBench(b)
	body := m.moveBody(b, "identity")
	os.WriteFile("/tmp/answer.html", body, 0o644)
	for b.Loop() {
	}
}
