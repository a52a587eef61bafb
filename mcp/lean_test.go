package mcp

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLean_ListsEveryArgumentAnOperationUses: a lean profile's schema of a tool has full's
// arguments, types, enums and required set, less only leanOmit's (arguments its operation
// ignores), and no other tool's schema differs but in its docs.
func TestLean_ListsEveryArgumentAnOperationUses(t *testing.T) {
	all, err := schemas()
	require.NoError(t, err)
	for _, profile := range []string{ProfileCore, ProfileCompact} {
		listed := listedSchemas(profile, all)
		for _, tl := range tools {
			full, lean := all[tl.name], listed[tl.name]
			want := slices.DeleteFunc(properties(full), func(n string) bool { return slices.Contains(leanOmit[tl.name], n) })
			require.Equal(t, want, properties(lean), tl.name)
			require.Equal(t, full.Required, lean.Required, tl.name)
			for _, name := range want {
				f, l := full.Properties[name], lean.Properties[name]
				require.Equal(t, f.Type, l.Type, "%s.%s", tl.name, name)
				require.Equal(t, f.Enum, l.Enum, "%s.%s", tl.name, name)
			}
			for _, name := range leanOmit[tl.name] {
				require.Contains(t, full.Properties, name, "%s: leanOmit names an argument it has", tl.name)
				require.NotContains(t, full.Required, name, tl.name)
			}
			require.NotEmpty(t, tl.describe(profile), tl.name)
		}
	}
	require.NotSame(t, all["memory_checkout"], listedSchemas(ProfileCore, all)["memory_checkout"], "the full schema is never edited")
	require.NotEmpty(t, all["memory_checkout"].Properties["space"].Description)
}
