package mcp

import (
	"slices"
	"strings"

	"github.com/zaxy/zaxy/validation"
)

// Profiles name the sets of tools a server lists.
const (
	// ProfileCore lists the few tools an agent needs every turn (at most 8), checkout first.
	ProfileCore = "core"
	// ProfileFull lists a tool for every operation of the HTTP API.
	ProfileFull = "full"
)

// Profiles lists every profile, the default first.
var Profiles = []string{ProfileCore, ProfileFull}

// maxCoreTools caps the core profile: agents pick tools worse as the list grows.
const maxCoreTools = 8

// ParseProfile returns the profile s names; empty is core. A bad name is an
// validation.Error naming field.
func ParseProfile(s, field string) (string, error) {
	if s == "" {
		return ProfileCore, nil
	}
	if !slices.Contains(Profiles, s) {
		return "", &validation.Error{Field: field, Message: "must be " + strings.Join(Profiles, " or ") + ", got " + s}
	}
	return s, nil
}

// listed reports whether profile lists t.
func (t *tool) listed(profile string) bool { return profile == ProfileFull || t.core }
