package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zaxy/zaxy/api"
)

// switchProfile says how to change the listed tools, over either transport.
const switchProfile = "stdio: start zaxy mcp with --profile full (or ZAXY_MCP_PROFILE=full), e.g. " +
	`"args": ["mcp", "--profile", "full"] in an mcpServers entry; streamable HTTP: connect to /mcp?profile=full ` +
	"(zaxy serve's default is ZAXY_MCP_PROFILE); profiles are core, compact and full. Tools outside the profile are " +
	"not callable until it is switched, except through memory_manage (compact and full)."

// Capabilities is memory_capabilities' answer: the whole surface, whatever the profile.
type Capabilities struct {
	// Profile is the profile this server lists.
	Profile string `json:"profile"`
	// Profiles describes every profile.
	Profiles map[string]string `json:"profiles"`
	// SwitchProfile says how to list another profile's tools.
	SwitchProfile string `json:"switch_profile"`
	// Auth says how tool calls are authorized.
	Auth string `json:"auth"`
	// Errors says what a failed call returns.
	Errors string `json:"errors"`
	// Tools are every tool, listed in this profile or not.
	Tools []Capability `json:"tools"`
}

// Capability describes one tool.
type Capability struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// HTTP is the operation a call becomes ("POST /v1/spaces/{space}/checkout"); empty for
	// memory_capabilities.
	HTTP string `json:"http,omitempty"`
	// Scope is the token scope the call needs on its space (read or write).
	Scope string `json:"scope,omitempty"`
	// Profiles lists the profiles that list the tool.
	Profiles []string `json:"profiles"`
	// Listed says whether this server's profile lists it.
	Listed    bool     `json:"listed"`
	Arguments []string `json:"arguments"`
	Required  []string `json:"required"`
}

// capabilities describes every tool for a server listing profile.
func capabilities(profile string, schemas map[string]*jsonschema.Schema) *Capabilities {
	c := &Capabilities{
		Profile: profile,
		Profiles: map[string]string{
			ProfileCore:    fmt.Sprintf("the tools an agent needs every turn (at most %d): memory_checkout first, then append, query, assemble, feedback, invalidate and this one", maxCoreTools),
			ProfileCompact: "the fewest definitions: memory_checkout, memory_append, memory_feedback, this one and memory_manage, which runs every other tool by name",
			ProfileFull:    "a tool for every operation of the HTTP API: replay, verify, ingest, facts, entities, projection lag, Cypher, index, timeline, items, after-turn, handoff, subagent cleanup, session resume",
		},
		SwitchProfile: switchProfile,
		Auth: "over HTTP every call carries the connection's bearer token and reaches only that token's spaces " +
			"with its scope (read < write < admin); over stdio the process's own credentials, or ZAXY_MCP_TOKEN's.",
		Errors: "a failed call is a tool error whose structured content is the HTTP API's error body " +
			`{"error":{"code","message","details"}} (codes in docs/api.md) and whose text is "code: message".`,
	}
	for _, t := range tools {
		cp := Capability{Name: t.name, Title: t.title, Description: t.description, HTTP: t.http(),
			Listed: t.listed(profile), Required: slices.Clone(t.required)}
		if cp.Required == nil {
			cp.Required = []string{}
		}
		for _, p := range Profiles {
			if t.listed(p) {
				cp.Profiles = append(cp.Profiles, p)
			}
		}
		if t.method != "" {
			cp.Scope = api.ScopeFor(t.method, "/v1/spaces/{space}"+t.route)
		}
		cp.Arguments = properties(schemas[t.name])
		c.Tools = append(c.Tools, cp)
	}
	return c
}

// text renders c compactly: one line per tool, required arguments starred.
func (c *Capabilities) text() string {
	var b strings.Builder
	listed := 0
	for _, t := range c.Tools {
		if t.Listed {
			listed++
		}
	}
	fmt.Fprintf(&b, "Zaxy memory: profile %s lists %d of %d tools (+ = listed).\n", c.Profile, listed, len(c.Tools))
	for _, t := range c.Tools {
		mark := " "
		if t.Listed {
			mark = "+"
		}
		args := make([]string, len(t.Arguments))
		for i, a := range t.Arguments {
			args[i] = a
			if slices.Contains(t.Required, a) {
				args[i] += "*"
			}
		}
		fmt.Fprintf(&b, "%s %s(%s): %s", mark, t.Name, strings.Join(args, ", "), t.Title)
		if t.HTTP != "" {
			fmt.Fprintf(&b, " [%s, scope %s]", t.HTTP, t.Scope)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Profiles: core = %s; compact = %s; full = %s.\nSwitch profile: %s\nAuth: %s\nErrors: %s\n",
		c.Profiles[ProfileCore], c.Profiles[ProfileCompact], c.Profiles[ProfileFull], c.SwitchProfile, c.Auth, c.Errors)
	return b.String()
}

// capabilitiesResult is memory_capabilities' result.
func capabilitiesResult(c *Capabilities) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: c.text()}}, StructuredContent: json.RawMessage(b)}, nil
}
