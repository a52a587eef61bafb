package release

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/stretchr/testify/require"
)

// loadCompose loads compose.yaml with the loader docker compose itself uses (schema validation,
// interpolation, references between services), with env as the environment.
func loadCompose(t *testing.T, env map[string]string) (*types.Project, error) {
	t.Helper()
	root := repoRoot(t)
	return loader.LoadWithContext(t.Context(), types.ConfigDetails{
		WorkingDir:  root,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(root, "compose.yaml")}},
		Environment: env,
	}, func(o *loader.Options) { o.SetProjectName("zaxy", true) })
}

// compose.yaml is a valid compose file, and compose refuses to start it while either password
// is unset: neither has a default.
func TestCompose_LoadsAndRequiresEachPassword(t *testing.T) {
	both := map[string]string{"POSTGRES_PASSWORD": "superpw", "ZAXY_DB_PASSWORD": "apppw"}
	p, err := loadCompose(t, both)
	require.NoError(t, err)
	names := p.ServiceNames()
	require.ElementsMatch(t, []string{"db", "migrate", "zaxy"}, names)

	zaxy, err := p.GetService("zaxy")
	require.NoError(t, err)
	require.NotNil(t, zaxy.HealthCheck)
	url := zaxy.Environment["ZAXY_DATABASE_URL"]
	require.NotNil(t, url)
	require.Equal(t, "postgres://zaxy:apppw@db:5432/zaxy?sslmode=disable", *url)
	db, err := p.GetService("db")
	require.NoError(t, err)
	require.Empty(t, db.Ports)
	require.NotNil(t, db.HealthCheck)

	for _, missing := range []string{"POSTGRES_PASSWORD", "ZAXY_DB_PASSWORD"} {
		env := map[string]string{}
		for k, v := range both {
			if k != missing {
				env[k] = v
			}
		}
		_, err := loadCompose(t, env)
		require.Error(t, err, "compose.yaml loads without %s", missing)
		require.True(t, strings.Contains(err.Error(), "required variable "+missing), err.Error())

		env[missing] = ""
		_, err = loadCompose(t, env)
		require.Error(t, err, "compose.yaml loads with an empty %s", missing)
	}
}
