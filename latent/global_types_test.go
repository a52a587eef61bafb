package latent

import (
	"io/fs"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/migrations"
)

// TestGlobalTypes_AreTheIndexedOnes: the space-wide producers' event types are those the
// partial index events_space_wide_sources (migration 000041) holds and events_read.sql names
// in the list that lets the planner use it: a type missing there would never be read.
func TestGlobalTypes_AreTheIndexedOnes(t *testing.T) {
	up, err := fs.ReadFile(migrations.FS, "000041_space_wide_sources.up.sql")
	require.NoError(t, err)
	query, err := os.ReadFile("../sql/latent/events_read.sql")
	require.NoError(t, err)
	for _, typ := range globalTypes {
		require.Contains(t, string(up), "'"+typ+"'")
		require.Contains(t, string(query), "'"+typ+"'")
	}
}
