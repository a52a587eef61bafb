package api

import (
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHostAllowed_LoopbackNamesWithTheListenPort(t *testing.T) {
	t.Parallel()
	cases := []struct {
		host, listen string
		ok           bool
	}{
		{"localhost:8080", "127.0.0.1:8080", true},
		{"LOCALHOST:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"[::1]:8080", "127.0.0.1:8080", true},
		{"127.0.0.2:8080", "127.0.0.2:8080", true},
		{"127.0.0.2:8080", "127.0.0.1:8080", false},
		{"localhost:8081", "127.0.0.1:8080", false},
		{"localhost", "127.0.0.1:8080", false},
		{"localhost", "127.0.0.1:80", true},
		{"localhost:1234", "127.0.0.1:0", true},
		{"localhost:1234", "", true},
		{"evil.example.com:8080", "127.0.0.1:8080", false},
		{"evil.example.com", "", false},
		{"localhost.evil.example:8080", "127.0.0.1:8080", false},
		{"0.0.0.0:8080", "0.0.0.0:8080", false},
		{"", "127.0.0.1:8080", false},
	}
	for _, tc := range cases {
		h, p, _ := net.SplitHostPort(tc.listen)
		require.Equal(t, tc.ok, hostAllowed(tc.host, h, p), "Host %q, listening on %q", tc.host, tc.listen)
	}
}

func TestValidRequestID(t *testing.T) {
	t.Parallel()
	require.True(t, validRequestID("a"))
	require.True(t, validRequestID("req-1/2:3_4.5~!")) // printable ASCII without spaces
	require.True(t, validRequestID(strings.Repeat("x", maxRequestIDLen)))
	require.False(t, validRequestID(""))
	require.False(t, validRequestID(strings.Repeat("x", maxRequestIDLen)+"x"))
	require.False(t, validRequestID("a b"))
	require.False(t, validRequestID("a\x7f"))
	require.False(t, validRequestID("é"))
}
