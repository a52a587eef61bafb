// Package buildinfo says which build of zaxy is running: the module version and the VCS
// revision the Go toolchain stamped into the binary (runtime/debug.ReadBuildInfo). The CLI's
// `zaxy version`, the MCP server's implementation info and the HTTP API's /healthz and
// zaxy_build_info metric all read it here, so they always agree. It reads nothing else and
// must never fail: a binary without build information reports "dev".
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// Info is one build's identity.
type Info struct {
	// Version is the main module's version: a tag such as v1.2.0 for `go install
	// module@version`, a pseudo-version, or "dev" for a build from a work tree ("(devel)").
	Version string `json:"version"`
	// Revision is the VCS commit the binary was built from ("" when the build had none),
	// with "+dirty" when the work tree had uncommitted changes.
	Revision string `json:"revision,omitempty"`
	// GoVersion is the Go toolchain that built the binary.
	GoVersion string `json:"go_version"`
}

// String is "zaxy <version> (<revision>, <go version>)", as `zaxy version` prints it.
func (i Info) String() string {
	s := "zaxy " + i.Version + " ("
	if i.Revision != "" {
		s += i.Revision + ", "
	}
	return s + i.GoVersion + ")"
}

var (
	once   sync.Once
	cached Info
)

// Get returns this binary's build information, read once.
func Get() Info {
	once.Do(func() {
		bi, ok := debug.ReadBuildInfo()
		cached = fromBuildInfo(bi, ok)
	})
	return cached
}

// fromBuildInfo builds an Info from what debug.ReadBuildInfo returned.
func fromBuildInfo(bi *debug.BuildInfo, ok bool) Info {
	info := Info{Version: "dev", GoVersion: runtime.Version()}
	if !ok || bi == nil {
		return info
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		info.Version = v
	}
	if bi.GoVersion != "" {
		info.GoVersion = bi.GoVersion
	}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && info.Revision != "" {
		info.Revision += "+dirty"
	}
	return info
}
