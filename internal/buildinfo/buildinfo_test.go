package buildinfo

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFromBuildInfo_ReadsVersionAndRevision(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}}
	got := fromBuildInfo(bi, true)
	require.Equal(t, Info{Version: "v1.2.3", Revision: "abc123+dirty", GoVersion: "go1.99"}, got)
	require.Equal(t, "zaxy v1.2.3 (abc123+dirty, go1.99)", got.String())
}

func TestFromBuildInfo_AWorkTreeBuildIsDev(t *testing.T) {
	got := fromBuildInfo(&debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "(devel)"}}, true)
	require.Equal(t, "dev", got.Version)
	require.Empty(t, got.Revision)
	require.Equal(t, "dev", fromBuildInfo(nil, false).Version)
	require.NotEmpty(t, Get().GoVersion)
}
