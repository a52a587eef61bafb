package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// TestPolicy_ProposePPRWeightThenPromoteRunsTheLane: zaxy policy propose --ppr-weight proposes
// the current policy with the PageRank lane weighed, promote makes it current, and the space's
// raw query then runs the lane (off under every built-in policy).
func TestPolicy_ProposePPRWeightThenPromoteRunsTheLane(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	zaxy := func(want int, args ...string) string {
		t.Helper()
		out.Reset()
		errOut.Reset()
		require.Equal(t, want, run(ctx, args, getenv, nil, &out, &errOut), errOut.String())
		return out.String() + errOut.String()
	}
	pprLane := func() map[string]any {
		t.Helper()
		var res struct {
			Diagnostics struct {
				Lanes map[string]map[string]any `json:"lanes"`
			} `json:"diagnostics"`
		}
		require.NoError(t, json.Unmarshal([]byte(zaxy(0, "checkout", "--space", "pp", "--query", "Ana Ruiz Atlas", "--no-record", "--json")), &res))
		return res.Diagnostics.Lanes["ppr"]
	}
	zaxy(0, "append", "--space", "pp", "--type", "message", "--content", "Ana Ruiz joined the Atlas team", "--data", `{"role":"user"}`)
	zaxy(0, "rebuild", "--space", "pp", "--no-embed")
	require.Equal(t, true, pprLane()["off"])

	require.Contains(t, zaxy(2, "policy", "propose", "--space", "pp"), "--ppr-weight is required")
	require.Contains(t, zaxy(2, "policy", "propose", "--space", "pp", "--ppr-weight", "7"), "between 0 and 5")
	require.Contains(t, zaxy(2, "policy", "propose", "--space", "pp", "--ppr-weight", "1", "--purpose", "gossip"), "purpose")

	msg := zaxy(0, "policy", "propose", "--space", "pp", "--ppr-weight", "0.5")
	version := regexp.MustCompile(`fit-[0-9a-f]{12}`).FindString(msg)
	require.NotEmpty(t, version, msg)
	require.Contains(t, msg, "from builtin-10: general/ppr weighed 0.5")
	require.Contains(t, zaxy(0, "policy", "propose", "--space", "pp", "--ppr-weight", "0.5"), "proposed before: nothing appended")
	require.Contains(t, zaxy(0, "policy", "promote", "--space", "pp", version), "promoted "+version)
	zaxy(0, "rebuild", "--space", "pp", "--no-embed")
	lane := pprLane()
	require.NotEqual(t, true, lane["off"], lane)
}
