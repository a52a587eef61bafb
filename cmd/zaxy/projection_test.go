package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestRebuildChecksumFactsAndDoctorCommands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	cli := func(stdin string, args ...string) int {
		out.Reset()
		errOut.Reset()
		return run(ctx, args, getenv, strings.NewReader(stdin), &out, &errOut)
	}
	events := `{"type":"fact.asserted","occurred_at":"2024-01-01T00:00:00Z","data":{"subject":"Alice","predicate":"works at","object":"Acme"}}
{"type":"fact.asserted","occurred_at":"2024-06-01T00:00:00Z","data":{"subject":"Alice","predicate":"works at","object":"Globex"}}
{"type":"message","content":"@bob reviewed docs/plan.md","data":{"role":"user"}}
`
	require.Equal(t, 0, cli(events, "append", "--space", "cli"), errOut.String())

	require.Equal(t, 0, cli("", "projection", "status", "--space", "cli"), errOut.String())
	require.Contains(t, out.String(), "lag 3")

	require.Equal(t, 0, cli("", "rebuild", "--space", "cli", "--json"), errOut.String())
	var rebuilt struct {
		Events   int `json:"events"`
		Embedded int `json:"embedded"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &rebuilt))
	require.Equal(t, 3, rebuilt.Events)
	require.Equal(t, 3, rebuilt.Embedded, "the message and two fact versions")

	require.Equal(t, 0, cli("", "projection", "checksum", "--space", "cli"), errOut.String())
	first := out.String()
	require.Equal(t, 0, cli("", "rebuild", "--all"), errOut.String())
	require.Equal(t, 0, cli("", "projection", "checksum", "--space", "cli"), errOut.String())
	require.Equal(t, first, out.String(), "a rebuild gives the same digest")

	require.Equal(t, 0, cli("", "facts", "--space", "cli", "--entity", "alice"), errOut.String())
	require.Contains(t, out.String(), "Alice works at Globex")
	require.Equal(t, 0, cli("", "facts", "--space", "cli", "--at", "2024-03-01T00:00:00Z"), errOut.String())
	require.Contains(t, out.String(), "Alice works at Acme")
	require.Equal(t, 2, cli("", "facts", "--space", "cli", "--at", "March"))
	require.Contains(t, errOut.String(), "--at must be an RFC 3339 time")
	require.Equal(t, 2, cli("", "rebuild"))
	require.Contains(t, errOut.String(), "exactly one of --space S or --all")

	require.Equal(t, 0, cli("", "doctor"), out.String())
	require.Contains(t, out.String(), "OK   age: AGE")
	require.Contains(t, out.String(), "OK   embedder: zaxy-offline@")

	// Without AGE the doctor says so and still passes; the relational graph keeps working.
	_, err := db.AdminPool(t).Exec(ctx, `DROP EXTENSION age CASCADE`)
	require.NoError(t, err)
	require.Equal(t, 0, cli("", "doctor", "--json"), out.String())
	require.Contains(t, out.String(), "AGE is off")
	require.Equal(t, 0, cli("", "rebuild", "--space", "cli"), errOut.String())

	// Something wrong: exit 1, one line naming it with its remedy, and the same in JSON.
	_, err = db.AdminPool(t).Exec(ctx, `INSERT INTO river_job (kind, args, state, max_attempts, errors, finalized_at)
		VALUES ('embed_space', '{"space_id":"cli"}', 'discarded', 25, ARRAY['{"error":"provider down","attempt":25}'::jsonb], now())`)
	require.NoError(t, err)
	require.Equal(t, 1, cli("", "doctor"), out.String())
	require.Contains(t, out.String(), "provider down")
	require.Contains(t, out.String(), "fix the cause")
	require.Equal(t, 1, cli("", "doctor", "--json"), out.String())
	var report struct {
		OK     bool `json:"ok"`
		Checks []struct {
			Name, Status, Message, Remedy string
		} `json:"checks"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &report), out.String())
	require.False(t, report.OK)
}

func TestCheckoutCommand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out bytes.Buffer
	// checkout enqueues its record's projection in the background, which may log here after
	// run has returned.
	var errOut lockedBuffer
	require.Equal(t, 0, run(ctx, []string{"append", "--space", "co", "--type", "message", "--content", "The registry times out after 30 seconds", "--data", `{"role":"user"}`}, getenv, nil, &out, &errOut), errOut.String())
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"checkout", "--space", "co", "--query", "registry timeout", "--max-tokens", "300"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "times out after 30 seconds")
	require.Contains(t, out.String(), "of 300 tokens")
	require.NotContains(t, out.String(), "Memory weave", "a weave only when asked for")
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"checkout", "--space", "co", "--query", "registry timeout", "--weave", "--no-record"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "## Memory weave")
	require.Equal(t, 2, run(ctx, []string{"checkout", "--space", "co", "--query", "x", "--purpose", "gossip"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "purpose")
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"checkout", "--space", "co", "--query", "registry", "--cues", `{"phase":"debug"}`, "--no-record"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "-- debugging,", "the cues reach checkout")
	errOut.Reset()
	require.Equal(t, 2, run(ctx, []string{"checkout", "--space", "co", "--query", "x", "--cues", `{"Repo":"x"}`}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "cues")
	require.Equal(t, 2, run(ctx, []string{"checkout", "--space", "co", "--query", "x", "--cues", `["x"]`}, getenv, nil, &out, &errOut))
}

func TestRebuildCommand_ReproducesTheIncrementalSalience(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	cli := func(stdin string, args ...string) int {
		out.Reset()
		errOut.Reset()
		return run(ctx, args, getenv, strings.NewReader(stdin), &out, &errOut)
	}
	events := `{"type":"message","content":"the audit topic keeps seven days","occurred_at":"2026-01-01T00:00:00Z","data":{"role":"user"}}
{"type":"fact.asserted","occurred_at":"2026-01-01T00:00:00Z","data":{"subject":"audit topic","predicate":"owner","value":"platform"}}
{"type":"checkout.surfaced","actor":"zaxy","occurred_at":"2026-01-02T00:00:00Z","data":{"items":[{"item_id":"ev:1","tier":"query","seqs":[1]}]}}
{"type":"feedback.recorded","occurred_at":"2026-01-03T00:00:00Z","data":{"target_seqs":[1],"signal":"helpful"}}
{"type":"memory.pinned","occurred_at":"2026-01-04T00:00:00Z","data":{"target_seqs":[1]}}
{"type":"salience.configured","data":{"half_life_days":14}}
`
	require.Equal(t, 0, cli(events, "append", "--space", "sal"), errOut.String())
	// Incremental projection, one event per batch, as workers would apply a trickle.
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{BatchSize: 1})
	require.NoError(t, err)
	_, err = proj.ProjectSpace(ctx, "sal")
	require.NoError(t, err)
	// And the latent_rebuild job after it (zaxy rebuild derives the artifacts too).
	builder, err := latent.NewBuilder(ctx, pool, eventloom.NewStore(pool, nil, nil), latent.Config{})
	require.NoError(t, err)
	_, err = builder.Build(ctx, "sal")
	require.NoError(t, err)

	require.Equal(t, 0, cli("", "projection", "checksum", "--space", "sal", "--json"), errOut.String())
	incremental := out.String()
	var sum projection.Checksum
	require.NoError(t, json.Unmarshal([]byte(incremental), &sum))
	require.Equal(t, int64(3), sum.Reinforcements)
	require.Equal(t, 0, cli("", "rebuild", "--space", "sal", "--no-embed"), errOut.String())
	require.Equal(t, 0, cli("", "projection", "checksum", "--space", "sal", "--json"), errOut.String())
	require.Equal(t, incremental, out.String(), "zaxy rebuild reproduces the ledger, salience and policy")
}
