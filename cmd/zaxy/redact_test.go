package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// zaxy append redacts like every write path, says how many secrets it replaced, and (holding
// database credentials) may switch a space's redaction off.
func TestAppendCommand_RedactsAndMaySwitchRedactionOff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	const secret = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(ctx, []string{"append", "--space", "cli", "--type", "note", "--content", "token " + secret, "--actor", "me"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, errOut.String(), "1 secrets were replaced")
	lines := strings.NewReader(`{"type":"redaction.configured","data":{"mode":"off","reason":"fixtures"}}` + "\n" + `{"type":"note","content":"raw ` + secret + `"}` + "\n")
	require.Equal(t, 0, run(ctx, []string{"append", "--space", "cli"}, getenv, lines, &out, &errOut), errOut.String())
	require.Equal(t, 0, run(ctx, []string{"append", "--space", "cli", "--type", "note", "--content", "after " + secret}, getenv, nil, &out, &errOut), errOut.String())

	var contents []string
	rows, err := db.AdminPool(t).Query(ctx, `SELECT content FROM events WHERE space_id = 'cli' ORDER BY seq`)
	require.NoError(t, err)
	for rows.Next() {
		var c string
		require.NoError(t, rows.Scan(&c))
		contents = append(contents, c)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"token [REDACTED:github_token]", "", "raw [REDACTED:github_token]", "after " + secret}, contents,
		"the switch applies from the next append: the rest of its own batch is still redacted")
}
