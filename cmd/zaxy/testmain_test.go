package main

import (
	"os"
	"sync"
	"testing"
)

// zaxyBinary is the zaxy command that buildZaxy compiles once for the package's tests that run
// it as a process (serve, worker): one build instead of one per test.
var zaxyBinary struct {
	mu   sync.Mutex
	dir  string // the temporary directory holding it, removed by TestMain
	path string // empty until built
}

// TestMain runs the package's tests and then removes the binary buildZaxy built, if any.
func TestMain(m *testing.M) {
	code := m.Run()
	if zaxyBinary.dir != "" {
		_ = os.RemoveAll(zaxyBinary.dir)
	}
	os.Exit(code)
}
