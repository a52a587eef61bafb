package projection_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/projection"
)

func TestSpaces_ListsEverySpaceWithEventsInOrder(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	for _, space := range []string{"spaces-b", "spaces-a"} {
		f.Append(t, space, ev("message", "hello from "+space, map[string]any{"role": "user"}))
	}
	spaces, err := f.Proj.Spaces(context.Background())
	require.NoError(t, err)
	require.True(t, slices.IsSorted(spaces), "%v", spaces)
	require.Contains(t, spaces, "spaces-a")
	require.Contains(t, spaces, "spaces-b")
}
