package release

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// compose is the part of compose.yaml the tests read.
type compose struct {
	Services map[string]composeService `yaml:"services"`
}

type composeService struct {
	Build       any               `yaml:"build"`
	Image       string            `yaml:"image"`
	Command     []string          `yaml:"command"`
	User        string            `yaml:"user"`
	Environment map[string]string `yaml:"environment"`
	Ports       []string          `yaml:"ports"`
	Healthcheck *struct {
		Test    []string `yaml:"test"`
		Disable bool     `yaml:"disable"`
	} `yaml:"healthcheck"`
	DependsOn map[string]struct {
		Condition string `yaml:"condition"`
	} `yaml:"depends_on"`
}

// buildContext returns the directory a service's build: names (a string or {context: ...}).
func (s composeService) buildContext() string {
	switch b := s.Build.(type) {
	case string:
		return b
	case map[string]any:
		if c, ok := b["context"].(string); ok {
			return c
		}
	}
	return ""
}

func readCompose(t *testing.T, root string) compose {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "compose.yaml"))
	require.NoError(t, err)
	var c compose
	require.NoError(t, yaml.Unmarshal(src, &c))
	require.NotEmpty(t, c.Services)
	return c
}

// interpolation matches compose's ${VAR...} references, with the operator and what follows it.
var interpolation = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?+])?([^}]*)\}`)

// finalStage returns the instructions of a Dockerfile's last build stage.
func finalStage(t *testing.T, path string) []Instruction {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	instrs, err := ParseDockerfile(src)
	require.NoError(t, err)
	last := instrs[len(instrs)-1].Stage
	var out []Instruction
	for _, in := range instrs {
		if in.Stage == last {
			out = append(out, in)
		}
	}
	return out
}

// Every long-running service has a health check, and zaxy's probes /readyz (in compose.yaml and
// in the image's HEALTHCHECK); zaxy starts only once the database is healthy and migrated.
func TestCompose_HealthChecks(t *testing.T) {
	root := repoRoot(t)
	c := readCompose(t, root)
	for _, name := range []string{"db", "zaxy"} {
		s, ok := c.Services[name]
		require.True(t, ok, "compose.yaml has no service %s", name)
		require.NotNil(t, s.Healthcheck, "service %s has no healthcheck", name)
		require.False(t, s.Healthcheck.Disable, name)
		require.NotEmpty(t, s.Healthcheck.Test, name)
	}
	probe := strings.Join(c.Services["zaxy"].Healthcheck.Test, " ")
	require.Regexp(t, `http://127\.0\.0\.1:8080/readyz(\s|$)`, probe)

	require.Equal(t, "service_healthy", c.Services["zaxy"].DependsOn["db"].Condition)
	require.Equal(t, "service_completed_successfully", c.Services["zaxy"].DependsOn["migrate"].Condition)
	require.Equal(t, []string{"migrate"}, c.Services["migrate"].Command)
	require.Equal(t, "service_healthy", c.Services["migrate"].DependsOn["db"].Condition)

	var healthcheck []string
	for _, in := range finalStage(t, filepath.Join(root, "Dockerfile")) {
		if in.Cmd == "HEALTHCHECK" {
			healthcheck = append(healthcheck, in.Args)
		}
	}
	require.Len(t, healthcheck, 1, "the image has one HEALTHCHECK")
	require.Contains(t, healthcheck[0], "http://127.0.0.1:8080/readyz")
}

// No password has a default: the superuser's and the application role's come from the
// environment with ${VAR:?...}, the database publishes no port, and zaxy logs in as the
// application role, not the superuser, with tokens required.
func TestCompose_NoDefaultPasswords(t *testing.T) {
	root := repoRoot(t)
	src, err := os.ReadFile(filepath.Join(root, "compose.yaml"))
	require.NoError(t, err)
	c := readCompose(t, root)

	secrets := map[string]bool{"POSTGRES_PASSWORD": true, "ZAXY_DB_PASSWORD": true}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, m := range interpolation.FindAllStringSubmatch(line, -1) {
			if secrets[m[1]] || strings.Contains(m[1], "PASSWORD") {
				require.Contains(t, []string{":?", "?"}, m[2], "%s must be required (${%s:?...}), not defaulted: %s", m[1], m[1], strings.TrimSpace(line))
			}
		}
	}
	for name, s := range c.Services {
		for k, v := range s.Environment {
			if strings.Contains(k, "PASSWORD") {
				require.Regexp(t, `^\$\{`+k+`:\?[^}]+\}$`, v, "service %s: %s", name, k)
			}
			if strings.HasSuffix(k, "DATABASE_URL") {
				require.Regexp(t, `^postgres://[a-z_]+:\$\{[A-Z_]+:\?[^}]*\}@`, v, "service %s: %s has its password from the environment", name, k)
			}
		}
	}

	db := c.Services["db"]
	require.Empty(t, db.Ports, "the database publishes no port")
	require.Contains(t, db.Environment, "POSTGRES_PASSWORD")

	zaxy := c.Services["zaxy"]
	require.True(t, strings.HasPrefix(zaxy.Environment["ZAXY_DATABASE_URL"], "postgres://zaxy:"), "zaxy serve logs in as the application role")
	require.NotEqual(t, "off", zaxy.Environment["ZAXY_AUTH"])
	for _, p := range zaxy.Ports {
		require.True(t, strings.HasPrefix(p, "127.0.0.1:"), "zaxy's port %q is published on loopback only", p)
	}

	// The database image's init script refuses to run without the application role's password.
	script, err := os.ReadFile(filepath.Join(root, db.buildContext(), "initdb", "10-zaxy-roles.sh"))
	require.NoError(t, err)
	require.Contains(t, string(script), `${ZAXY_DB_PASSWORD:?`)
}

// zaxy and migrate run the image built from the repository's Dockerfile, whose final stage runs
// as an unprivileged user, and neither service overrides that.
func TestCompose_ZaxyRunsAsNonRoot(t *testing.T) {
	root := repoRoot(t)
	c := readCompose(t, root)
	for _, name := range []string{"zaxy", "migrate"} {
		s := c.Services[name]
		require.Equal(t, ".", s.buildContext(), "service %s builds the repository's Dockerfile", name)
		require.Empty(t, s.User, "service %s keeps the image's user", name)
	}
	var users []string
	for _, in := range finalStage(t, filepath.Join(root, "Dockerfile")) {
		if in.Cmd == "USER" {
			users = append(users, in.Args)
		}
	}
	require.NotEmpty(t, users, "the runtime stage sets USER")
	user, group, _ := strings.Cut(users[len(users)-1], ":")
	require.False(t, slices.Contains([]string{"root", "0", ""}, user), "USER %q", users[len(users)-1])
	require.NotEqual(t, "0", group)
	require.NotEqual(t, "root", group)
}
