package migrations_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// Migration 000014 records the speakers of the events projected before it (and only those:
// the projector adds the rest), and its down migration removes the table again.
func TestSpeakerNamesMigration_BackfillsEventsProjectedBefore(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	_, err := pool.Exec(ctx, readMigration(t, "000014_speaker_names.down.sql"))
	require.NoError(t, err)
	var exists bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT to_regclass('speaker_names') IS NOT NULL`).Scan(&exists))
	require.False(t, exists)

	store := eventloom.NewStore(pool, nil, nil)
	say := func(actor, name string) eventloom.NewEvent {
		data := json.RawMessage(`{"role":"user"}`)
		if name != "" {
			data = json.RawMessage(`{"role":"user","name":"` + name + `"}`)
		}
		return eventloom.NewEvent{Type: "message", Actor: actor, Content: "hello", Data: data}
	}
	fixture.Append(t, store, "a",
		say("Maren", "Maren"), say("", "Tobias"), say("maren", ""), say("Late", "Later"))
	fixture.Append(t, store, "b", say("Ilse", ""))
	// Space a is projected up to seq 3, space b not at all.
	_, err = pool.Exec(ctx, `INSERT INTO projection_watermarks (space_id, projected_seq) VALUES ('a', 3), ('b', 0)`)
	require.NoError(t, err)

	_, err = pool.Exec(ctx, readMigration(t, "000014_speaker_names.up.sql"))
	require.NoError(t, err)
	rows, err := pool.Query(ctx, `SELECT space_id || '/' || name_key, events FROM speaker_names WHERE space_id IN ('a', 'b')`)
	require.NoError(t, err)
	got := map[string]int{}
	var k string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&k, &n}, func() error { got[k] = n; return nil })
	require.NoError(t, err)
	require.Equal(t, map[string]int{"a/maren": 2, "a/tobias": 1}, got)
}
