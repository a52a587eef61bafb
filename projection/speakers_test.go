package projection_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// readSpeakers reads name_key → events with query ($1 the space).
func readSpeakers(t *testing.T, f *bundle, space, query string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	rows, err := f.DB.Query(context.Background(), query, space)
	require.NoError(t, err)
	var key string
	var n int64
	_, err = pgx.ForEachRow(rows, []any{&key, &n}, func() error { out[key] = n; return nil })
	require.NoError(t, err)
	return out
}

// storedSpeakers reads speaker_names.
func storedSpeakers(t *testing.T, f *bundle, space string) map[string]int64 {
	return readSpeakers(t, f, space, `SELECT name_key, events FROM speaker_names WHERE space_id = $1`)
}

// derivedSpeakers computes the speaker names from scratch, from the projected events: what
// the projection must hold.
func derivedSpeakers(t *testing.T, f *bundle, space string) map[string]int64 {
	return readSpeakers(t, f, space, `
		SELECT lower(v.name), count(DISTINCT e.seq)
		FROM events e
		JOIN projection_watermarks w ON w.space_id = e.space_id AND e.seq <= w.projected_seq,
		     LATERAL (VALUES (e.actor), (e.data->>'name')) v (name)
		WHERE e.space_id = $1 AND v.name IS NOT NULL AND v.name <> ''
		GROUP BY 1`)
}

// turn is a conversation turn spoken by speaker (actor and data.name), or by nobody.
func turn(actor, name, text string) eventloom.NewEvent {
	data := map[string]any{"role": "user"}
	if name != "" {
		data["name"] = name
	}
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	return eventloom.NewEvent{Type: "message", SessionID: "s1", Actor: actor, Content: text, Data: b}
}

func TestSpeakerNames_IncrementalEqualsRebuildAndTheLog(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 7})
	ctx := context.Background()
	space := "speakers"
	randomWorkload(t, f, space, 120, 11)
	var events []eventloom.NewEvent
	for i := 0; i < 40; i++ {
		switch i % 4 {
		case 0:
			events = append(events, turn("Maren", "Maren", fmt.Sprintf("Turn %d about the lighthouse.", i)))
		case 1:
			events = append(events, turn("TOBIAS", "Tobias", fmt.Sprintf("Turn %d about the fair.", i)))
		case 2:
			events = append(events, turn("assistant", "", fmt.Sprintf("Turn %d, no name.", i)))
		default:
			events = append(events, turn("", "Ilse", fmt.Sprintf("Turn %d, a name but no actor.", i)))
		}
	}
	// Appended in small batches and projected between them, so batches start mid-conversation.
	for i := 0; i < len(events); i += 9 {
		f.Append(t, space, events[i:min(i+9, len(events))]...)
		f.Project(t, space)
	}

	incremental := storedSpeakers(t, f, space)
	require.Equal(t, derivedSpeakers(t, f, space), incremental)
	require.Equal(t, int64(10), incremental["maren"], "actor and data.name of one event count it once")
	require.Equal(t, int64(10), incremental["tobias"], "names are lower-cased, so TOBIAS and Tobias are one speaker")
	require.Equal(t, int64(10), incremental["ilse"])
	require.GreaterOrEqual(t, incremental["assistant"], int64(10))
	require.NotContains(t, incremental, "", "an empty actor is no speaker")

	sumBefore, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, int64(len(incremental)), sumBefore.Speakers)
	_, err = f.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, storedSpeakers(t, f, space))
	sumAfter, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, sumBefore, sumAfter)
}

func TestChecksum_ChangesWhenSpeakerNamesAreTamperedWith(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	ctx := context.Background()
	space := "tamper-speakers"
	f.Append(t, space, turn("Maren", "Maren", "The lighthouse is red."), turn("Tobias", "Tobias", "And white."))
	f.Project(t, space)
	clean, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, int64(2), clean.Speakers)

	for _, tamper := range []string{
		`UPDATE speaker_names SET events = events + 1 WHERE space_id = $1 AND name_key = 'maren'`,
		`DELETE FROM speaker_names WHERE space_id = $1 AND name_key = 'tobias'`,
		`INSERT INTO speaker_names (space_id, name_key, events) VALUES ($1, 'lighthouse', 1)`,
	} {
		tag, err := f.DB.Exec(ctx, tamper, space)
		require.NoError(t, err)
		require.Equal(t, int64(1), tag.RowsAffected(), tamper)
		got, err := f.Proj.Checksum(ctx, space)
		require.NoError(t, err)
		require.NotEqual(t, clean.Digest, got.Digest, tamper)
		// A rebuild repairs it.
		_, err = f.Proj.Rebuild(ctx, space)
		require.NoError(t, err)
		repaired, err := f.Proj.Checksum(ctx, space)
		require.NoError(t, err)
		require.Equal(t, clean, repaired, tamper)
	}
}
