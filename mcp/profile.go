package mcp

import (
	"slices"

	"github.com/zaxy/zaxy/validation"
)

// Profiles name the sets of tools a server lists.
const (
	// ProfileCore lists the few tools an agent needs every turn (at most 8), checkout first.
	ProfileCore = "core"
	// ProfileCompact lists the fewest definitions: checkout, append, feedback, capabilities and
	// memory_manage, which runs every other tool by name (an operation enum).
	ProfileCompact = "compact"
	// ProfileFull lists a tool for every operation of the HTTP API.
	ProfileFull = "full"
)

// Profiles lists every profile, the default first.
var Profiles = []string{ProfileCore, ProfileCompact, ProfileFull}

// compactTools are the tools the compact profile lists.
var compactTools = []string{"memory_checkout", "memory_append", "memory_feedback", "memory_capabilities", manageTool}

// maxCoreTools caps the core profile: agents pick tools worse as the list grows.
const maxCoreTools = 8

// ParseProfile returns the profile s names; empty is core. A bad name is an
// validation.Error naming field.
func ParseProfile(s, field string) (string, error) {
	if s == "" {
		return ProfileCore, nil
	}
	if !slices.Contains(Profiles, s) {
		return "", &validation.Error{Field: field, Message: "must be core, compact or full, got " + s}
	}
	return s, nil
}

// listed reports whether profile lists t: full every tool, compact compactTools, core the
// core ones.
func (t *tool) listed(profile string) bool {
	switch profile {
	case ProfileFull:
		return true
	case ProfileCompact:
		return slices.Contains(compactTools, t.name)
	}
	return t.core
}
