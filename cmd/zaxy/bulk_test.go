//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/zaxy/zaxy/testcontainers"
)

// openPTY returns a pseudo-terminal's controlling side and its terminal.
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, unix.IoctlSetPointerInt(int(ctl.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(ctl.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { tty.Close(); ctl.Close() })
	return ctl, tty
}

// TestAppendCommand_ShowsProgressOnlyOnATerminal: with stderr on a terminal a bulk append
// shows its progress as a line rewritten in place and erased at the end; stdout gets the
// summary alone (the other tests run with buffers, and see no progress).
func TestAppendCommand_ShowsProgressOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	ctl, tty := openPTY(t)
	seen := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(ctl) // ends with EIO once the terminal side is closed
		seen <- string(b)
	}()
	var lines strings.Builder
	for range 5 {
		lines.WriteString("{\"type\":\"note\",\"content\":\"x\"}\n")
	}
	var out bytes.Buffer
	code := run(t.Context(), []string{"append", "--space", "tty", "--batch", "2"}, dbEnv(db), strings.NewReader(lines.String()), &out, tty)
	require.Equal(t, 0, code)
	require.Equal(t, "appended 5, already present 0, seq 1-5 (3 batches)\n", out.String())
	require.NoError(t, tty.Close())
	progress := <-seen
	require.Contains(t, progress, "\r\033[Kzaxy append: 2 events (line 2, seq 2)")
	require.True(t, strings.HasSuffix(progress, "\r\033[K"), "the line is erased at the end: %q", progress)
}
