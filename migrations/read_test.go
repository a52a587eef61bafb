package migrations_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/migrations"
)

// readMigration is one migration file's SQL, for the tests that run a migration's up or down
// by hand.
func readMigration(t *testing.T, name string) string {
	t.Helper()
	b, err := migrations.FS.ReadFile(name)
	require.NoError(t, err)
	return string(b)
}
