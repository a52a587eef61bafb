package projection_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// TestBatchWrites_KeepNULLsAndValues appends one keyed batch (events with and without
// occurred_at and data) whose facts cover every NULLable column of facts, items and entities
// both NULL and set with a value a sentinel could be mistaken for (confidence 0, a closed or
// superseded fact's reason), projects it in one batch, and compares the stored rows with
// the expected lines.
func TestBatchWrites_KeepNULLsAndValues(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	ctx := context.Background()
	zero := 0.0
	bob, alice := "Bob", "Alice"
	events := []eventloom.NewEvent{
		ev("fact.asserted", "", map[string]any{"subject": "pump", "predicate": "state", "value": "on",
			"valid_to": "2030-01-01T00:00:00Z", "confidence": &zero}),
		ev("fact.asserted", "", map[string]any{"subject": "pump", "predicate": "owner", "object": &alice}),
		ev("fact.retracted", "", map[string]any{"subject": "pump", "predicate": "state"}),
		ev("fact.asserted", "", map[string]any{"subject": "pump", "predicate": "owner", "object": &bob, "confidence": 0.5}),
		{Type: "message", Actor: "user", Content: "Alice met Bob at the pump"},
		{Type: "observation", Content: "the pump hums"},
		ev("fact.asserted", "", map[string]any{"subject": "pump", "predicate": "color", "value": map[string]any{"rgb": []int{1, 2}},
			"valid_from": "2024-01-01T00:00:00Z", "valid_to": "2030-01-01T00:00:00Z", "confidence": 1}),
		ev("memory.invalidated", "", map[string]any{"target_seq": 2, "reason": "wrong owner"}),
	}
	events[0].OccurredAt = at("2024-05-01T10:00:00Z")
	events[4].OccurredAt = at("2024-05-02T10:00:00Z")
	_, err := f.Store.Append(ctx, &eventloom.AppendParams{SpaceID: "nulls", Events: events, IdempotencyKey: "k1"})
	require.NoError(t, err)
	f.Project(t, "nulls")

	var lines []string
	rows, err := f.DB.Query(ctx, `
SELECT concat_ws('|', 'event', seq, type, CASE WHEN occurred_at = recorded_at THEN 'recorded' ELSE occurred_at::text END,
                 coalesce(data::text, '-'), coalesce(cues::text, '-'))
FROM events WHERE space_id = $1
UNION ALL
SELECT concat_ws('|', 'fact', subject_id, predicate, coalesce(object_id, '-'), coalesce(value::text, '-'), version,
                 CASE WHEN valid_from = (SELECT e.occurred_at FROM events e WHERE e.space_id = $1 AND e.seq = x.recorded_seq)
                      THEN 'occurred' ELSE valid_from::text END,
                 CASE WHEN valid_to IS NULL THEN '-'
                      WHEN valid_to = (SELECT e.occurred_at FROM events e WHERE e.space_id = $1 AND e.seq = x.closed_seq)
                      THEN 'closed' ELSE valid_to::text END,
                 recorded_seq, coalesce(closed_seq::text, '-'), status,
                 coalesce((SELECT s.recorded_seq::text FROM facts s WHERE s.space_key = x.space_key AND s.fact_id = x.superseded_by), '-'),
                 authority, inferred, coalesce(confidence::text, '-'), coalesce('[' || close_reason || ']', '-'), review_status)
FROM facts x WHERE x.space_key = (SELECT space_key FROM spaces WHERE space_id = $1)
UNION ALL
SELECT concat_ws('|', 'item', item_id LIKE 'ev:%', kind, seq, event_type, coalesce(redundant_of, '-'), ts_config::text, tsv_len)
FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)
UNION ALL
SELECT concat_ws('|', 'entity', key, name, array_to_string(kinds, ','), version, first_seq, last_seq, mentions, coalesce(invalidated_seq::text, '-'))
FROM entities WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)
ORDER BY 1`, "nulls")
	require.NoError(t, err)
	for rows.Next() {
		var l string
		require.NoError(t, rows.Scan(&l))
		lines = append(lines, l)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, strings.TrimSpace(wantNullLines), strings.Join(lines, "\n"))
}

const wantNullLines = `
entity|alice|Alice|entity|1|2|2|0|-
entity|bob|Bob|entity,name|2|4|5|1|-
entity|pump|pump|entity|1|1|7|0|-
event|1|fact.asserted|2024-05-01 10:00:00+00|{"value": "on", "subject": "pump", "valid_to": "2030-01-01T00:00:00Z", "predicate": "state", "confidence": 0}|{}
event|2|fact.asserted|recorded|{"object": "Alice", "subject": "pump", "predicate": "owner"}|{}
event|3|fact.retracted|recorded|{"subject": "pump", "predicate": "state"}|{}
event|4|fact.asserted|recorded|{"object": "Bob", "subject": "pump", "predicate": "owner", "confidence": 0.5}|{}
event|5|message|2024-05-02 10:00:00+00|{"role": "user"}|{}
event|6|observation|recorded|{}|{}
event|7|fact.asserted|recorded|{"value": {"rgb": [1, 2]}, "subject": "pump", "valid_to": "2030-01-01T00:00:00Z", "predicate": "color", "confidence": 1, "valid_from": "2024-01-01T00:00:00Z"}|{}
event|8|memory.invalidated|recorded|{"reason": "wrong owner", "target_seq": 2}|{}
fact|ed751f6d916cf34f5e1fc|color|-|{"rgb": [1, 2]}|1|2024-01-01 00:00:00+00|2030-01-01 00:00:00+00|7|-|current|-|asserted|f|1|-|unreviewed
fact|ed751f6d916cf34f5e1fc|owner|e50634328a3a54cd11884|-|1|occurred|closed|2|4|superseded|4|asserted|f|-|[superseded]|unreviewed
fact|ed751f6d916cf34f5e1fc|owner|ec768676d9e06e7f921a8|-|2|occurred|-|4|-|current|-|asserted|f|0.5|-|unreviewed
fact|ed751f6d916cf34f5e1fc|state|-|"on"|1|occurred|closed|1|3|retracted|-|asserted|f|0|[retracted]|unreviewed
item|f|fact|1|fact.asserted|-|english|2
item|f|fact|2|fact.asserted|-|english|3
item|f|fact|4|fact.asserted|-|english|3
item|f|fact|7|fact.asserted|-|english|5
item|t|event|3|fact.retracted|-|english|3
item|t|event|5|message|-|english|4
item|t|event|6|observation|-|english|2
item|t|event|8|memory.invalidated|-|english|3
`
