package main

import (
	"os"
	"sync"
	"testing"
)

// zaxyBinary is the zaxy command that sharedZaxy compiles once for the package's tests that run
// it as a process (serve, worker): one build instead of one per test.
var zaxyBinary struct {
	mu   sync.Mutex
	dir  string // the temporary directory holding it, removed by TestMain
	path string // empty until built
}

// TestMain runs the package's tests and then removes the binary buildZaxy built, if any. The
// tests run in parallel (t.Parallel): each has its own database (testcontainers.NewDatabase)
// and passes its environment to run as a getenv, so none sees another's rows or settings; the
// long ones wait on subprocesses (zaxy serve and worker, River's rescuer, standbys) while the
// others run. A test that needs the process to itself stays serial and says why.
func TestMain(m *testing.M) {
	code := m.Run()
	if zaxyBinary.dir != "" {
		_ = os.RemoveAll(zaxyBinary.dir)
	}
	os.Exit(code)
}
