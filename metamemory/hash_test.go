package metamemory

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSketchHash_IsTheSameInEveryProcess pins the sketch's hash: a sketch built by one process
// (a server, a bench run, a restart) must answer as one built by another, which a hash seeded
// per process (maphash.MakeSeed) did not.
func TestSketchHash_IsTheSameInEveryProcess(t *testing.T) {
	for s, want := range map[string]uint64{
		"":                0xf52a15e9a9b5e89b,
		"deploy":          0xb51c0f211bf216e3,
		"alice\x00deploy": 0x925fa53f9784a1bc,
	} {
		require.Equal(t, want, sketchHash(s), "sketchHash(%q)", s)
	}
}
