package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// harnessConfig is what zaxy hook doctor reads of a Claude Code configuration: settings'
// hooks and env, and MCP servers (.mcp.json, ~/.claude.json).
type harnessConfig struct {
	Hooks map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Type    string `json:"type"`
			Command string `json:"command"`
		} `json:"hooks"`
	} `json:"hooks"`
	Env        map[string]string `json:"env"`
	MCPServers map[string]struct {
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	} `json:"mcpServers"`
}

// harnessFiles are the configuration files of path: path itself when it is a file; in a
// directory (a project), .claude/settings.json, .claude/settings.local.json and .mcp.json.
func harnessFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read harness configuration: %w", err)
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	var out []string
	for _, f := range []string{".claude/settings.json", ".claude/settings.local.json", ".mcp.json"} {
		if _, err := os.Stat(filepath.Join(path, f)); err == nil {
			out = append(out, filepath.Join(path, f))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read harness configuration: %w", err)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("read harness configuration: %s has no .claude/settings.json, .claude/settings.local.json or .mcp.json", path)
	}
	return out, nil
}

// hookCheck is one line of zaxy hook doctor's report.
type hookCheck struct {
	name, message, remedy string
	ok                    bool
}

// checkHarness checks the configuration in files: a zaxy hook for each of the four events
// (SessionStart's matcher covering compact and resume), a zaxy MCP server and its profile,
// and a token, server and space the hooks can use (from getenv or the configuration).
func checkHarness(files []string, getenv func(string) string) ([]hookCheck, error) {
	var cfgs []harnessConfig
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read harness configuration: %w", err)
		}
		var c harnessConfig
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("read harness configuration %s: %w", f, err)
		}
		cfgs = append(cfgs, c)
	}
	var checks []hookCheck
	var commands []string
	env := map[string]string{}
	for _, k := range []string{"ZAXY_URL", "ZAXY_TOKEN", "ZAXY_SPACE"} {
		if v := getenv(k); v != "" {
			env[k] = "the environment"
		}
	}
	for _, c := range cfgs {
		for k, v := range c.Env {
			if v != "" && env[k] == "" {
				env[k] = "the settings' env"
			}
		}
	}
	for _, event := range []string{"pre-compact", "session-start", "stop", "subagent-stop"} {
		name := hookEvents[event]
		ch := hookCheck{name: "hook " + name, message: "no zaxy hook " + event,
			remedy: "add the " + name + " entry of docs/hooks/claude-code-settings.json"}
		isZaxy := regexp.MustCompile(`(^|\s)hook\s+` + event + `(\s|$)`)
		// SessionStart's hooks must run after a compaction and after a resume.
		uncovered := map[string]bool{}
		if name == "SessionStart" {
			uncovered = map[string]bool{"compact": true, "resume": true}
		}
		found := false
		for _, c := range cfgs {
			for _, m := range c.Hooks[name] {
				for _, h := range m.Hooks {
					if h.Type != "command" || !isZaxy.MatchString(h.Command) {
						continue
					}
					found = true
					commands = append(commands, h.Command)
					ch.message = h.Command
					for v := range uncovered {
						if matcherCovers(m.Matcher, v) {
							delete(uncovered, v)
						}
					}
				}
			}
		}
		switch {
		case found && len(uncovered) > 0:
			ch.message = fmt.Sprintf("%q: no matcher covers %s", ch.message, strings.Join(slices.Sorted(maps.Keys(uncovered)), " and "))
			ch.remedy = `match "compact" and "resume" (two entries, or "compact|resume")`
		case found:
			ch.ok, ch.remedy = true, ""
		}
		checks = append(checks, ch)
	}
	checks = append(checks, mcpCheck(cfgs))
	for _, cmd := range commands {
		if strings.Contains(cmd, "ZAXY_TOKEN=") || strings.Contains(cmd, "--token") {
			env["ZAXY_TOKEN"] = "the hook's command"
		}
		if strings.Contains(cmd, "ZAXY_URL=") || strings.Contains(cmd, "--url") {
			env["ZAXY_URL"] = "the hook's command"
		}
		if strings.Contains(cmd, "ZAXY_SPACE=") || strings.Contains(cmd, "--space") {
			env["ZAXY_SPACE"] = "the hook's command"
		}
	}
	for _, k := range []string{"ZAXY_TOKEN", "ZAXY_URL", "ZAXY_SPACE"} {
		ch := hookCheck{name: k, ok: env[k] != "", message: "set in " + env[k]}
		if !ch.ok {
			ch.message, ch.remedy = "not set", "set it in the settings' env, the hook's command or the harness's environment"
			if k == "ZAXY_TOKEN" {
				ch.remedy = "create one with 'zaxy token create --space S --scope write' and " + ch.remedy
			}
		}
		checks = append(checks, ch)
	}
	return checks, nil
}

// mcpCheck finds a zaxy MCP server in cfgs and reports its transport and profile.
func mcpCheck(cfgs []harnessConfig) hookCheck {
	ch := hookCheck{name: "mcp server", message: "no zaxy MCP server in mcpServers", remedy: "add the zaxy entry of docs/mcp.md, \"Client configuration\""}
	for _, c := range cfgs {
		for name, s := range c.MCPServers {
			profile := "default (core, or ZAXY_MCP_PROFILE)"
			switch {
			case filepath.Base(s.Command) == "zaxy" && slices.Contains(s.Args, "mcp"):
				if i := slices.Index(s.Args, "--profile"); i >= 0 && i+1 < len(s.Args) {
					profile = s.Args[i+1]
				}
				for _, a := range s.Args {
					if v, ok := strings.CutPrefix(a, "--profile="); ok {
						profile = v
					}
				}
				return hookCheck{name: "mcp server", ok: true, message: fmt.Sprintf("%q: stdio, profile %s", name, profile)}
			case strings.HasSuffix(strings.SplitN(s.URL, "?", 2)[0], "/mcp"):
				if u, err := url.Parse(s.URL); err == nil && u.Query().Get("profile") != "" {
					profile = u.Query().Get("profile")
				}
				ch = hookCheck{name: "mcp server", ok: true, message: fmt.Sprintf("%q: HTTP %s, profile %s", name, s.URL, profile)}
				if s.Headers["Authorization"] == "" {
					ch.ok, ch.remedy = false, `add "headers": {"Authorization": "Bearer zx_..."}`
					ch.message += ", without an Authorization header"
				}
				return ch
			}
		}
	}
	return ch
}

// matcherCovers reports whether a hook matcher (a regular expression; empty or "*" matches
// everything) matches every one of values.
func matcherCovers(matcher string, values ...string) bool {
	if matcher == "" || matcher == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	if err != nil {
		return false
	}
	for _, v := range values {
		if !re.MatchString(v) {
			return false
		}
	}
	return true
}

// runHookDoctor prints the checks of the harness configuration at path; exit 1 when one
// fails, 2 when path cannot be read.
func runHookDoctor(env *env, path string) error {
	files, err := harnessFiles(path)
	if err != nil {
		return invalid(err)
	}
	getenv := func(k string) string {
		return map[string]string{"ZAXY_URL": env.cfg.url, "ZAXY_TOKEN": env.cfg.token, "ZAXY_SPACE": env.cfg.space}[k]
	}
	checks, err := checkHarness(files, getenv)
	if err != nil {
		return invalid(err)
	}
	fmt.Fprintf(env.stdout, "checked %s\n", strings.Join(files, ", "))
	failed := false
	for _, ch := range checks {
		status := "OK  "
		if !ch.ok {
			status, failed = "FAIL", true
		}
		line := fmt.Sprintf("%s %s: %s", status, ch.name, ch.message)
		if ch.remedy != "" {
			line += " (" + ch.remedy + ")"
		}
		fmt.Fprintln(env.stdout, line)
	}
	if failed {
		return errFailed
	}
	return nil
}
