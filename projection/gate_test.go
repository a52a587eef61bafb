package projection_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// checksumBeforeGate is sql/projection/checksum.sql as it was before the encoding gate
// (migration 000020), its mention lines without the event hash that mentions no longer hold
// (migration 000063) and its item lines with the item's text read as coalesce(text,
// events.content) (migration 000068): with the gate off, the projection must digest to the
// same value.
const checksumBeforeGate = `
SELECT encode(sha256(convert_to(coalesce(string_agg(line, E'\n' ORDER BY line), ''), 'UTF8')), 'hex')::text AS digest,
       count(*) FILTER (WHERE line LIKE 'entity|%') AS entities,
       count(*) FILTER (WHERE line LIKE 'mention|%') AS mentions,
       count(*) FILTER (WHERE line LIKE 'fact|%') AS facts,
       count(*) FILTER (WHERE line LIKE 'invalidation|%') AS invalidations,
       count(*) FILTER (WHERE line LIKE 'item|%') AS items,
       count(*) FILTER (WHERE line LIKE 'term|%') AS terms,
       count(*) FILTER (WHERE line LIKE 'speaker|%') AS speakers,
       count(*) FILTER (WHERE line LIKE 'proposal|%') AS proposals,
       count(*) FILTER (WHERE line LIKE 'reinforcement|%') AS reinforcements
FROM (
  SELECT concat_ws('|', 'entity', entity_id, key, name, array_to_string(kinds, ','), version, first_seq,
                   encode((SELECT ev.hash FROM events ev WHERE ev.space_id = $1 AND ev.seq = x.first_seq), 'hex'),
                   last_seq, mentions, invalidated_seq) AS line
  FROM entities x WHERE x.space_key = (SELECT space_key FROM spaces WHERE space_id = $1)
  UNION ALL
  SELECT concat_ws('|', 'mention', seq, start_byte, end_byte, entity_id, kind)
  FROM mentions x WHERE x.space_key = (SELECT space_key FROM spaces WHERE space_id = $1)
  UNION ALL
  SELECT concat_ws('|', 'fact', fact_id, subject_id, predicate, coalesce(object_id, '-'), coalesce(value::text, '-'),
                   version, valid_from, coalesce(valid_to::text, '-'), recorded_seq, encode(recorded_hash, 'hex'),
                   coalesce(closed_seq::text, '-'), status, coalesce(superseded_by, '-'), authority, review_status,
                   inferred, coalesce(confidence::text, '-'), evidence::text, coalesce(close_reason, '-'))
  FROM facts x WHERE x.space_key = (SELECT space_key FROM spaces WHERE space_id = $1)
  UNION ALL
  SELECT concat_ws('|', 'invalidation', target_seq, seq, encode(hash, 'hex'), reason)
  FROM invalidations x WHERE x.space_id = $1
  UNION ALL
  SELECT concat_ws('|', 'item', x.item_id, x.kind, x.seq, x.event_type, x.session_id, x.occurred_at, x.ts_config::text,
                   coalesce(x.text, e.content), x.tsv::text, x.tsv_len)
  FROM memory_items x JOIN events e ON e.space_id = $1 AND e.seq = x.seq WHERE x.space_key = (SELECT space_key FROM spaces WHERE space_id = $1)
  UNION ALL
  SELECT concat_ws('|', 'term', lexeme, df)
  FROM term_stats x WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1)
  UNION ALL
  SELECT concat_ws('|', 'terms', items, tokens)
  FROM term_totals x WHERE x.space_id = $1
  UNION ALL
  SELECT concat_ws('|', 'speaker', name_key, events)
  FROM speaker_names x WHERE x.space_id = $1
  UNION ALL
  SELECT concat_ws('|', 'proposal', seq, encode(hash, 'hex'), kind, status, proposed_by, proposed_at, coalesce(confidence::text, '-'),
                   evidence::text, coalesce(fact::text, '-'), coalesce(contradicts, '-'), coalesce(inference_seq::text, '-'),
                   coalesce(inference_model, '-'), coalesce(inference_ordinal::text, '-'), rationale,
                   coalesce(decided_seq::text, '-'), coalesce(decided_by, '-'), coalesce(decided_at::text, '-'),
                   coalesce(reason, '-'), coalesce(fact_id, '-'))
  FROM proposals x WHERE x.space_id = $1
  UNION ALL
  SELECT concat_ws('|', 'reinforcement', item_id, seq, signal, occurred_at)
  FROM reinforcements x WHERE x.space_id = $1
  UNION ALL
  SELECT concat_ws('|', 'salience', item_id, surfaced, helpful, unhelpful, wrong, outdated, invalidated, pinned,
                   coalesce(last_use_at::text, '-'), coalesce(last_use_seq::text, '-'), coalesce(last_use_signal, '-'),
                   reinforcement)
  FROM salience x WHERE x.space_id = $1
  UNION ALL
  SELECT concat_ws('|', 'salience_space', half_life_days, floor, coalesce(configured_seq::text, '-'),
                   coalesce(use_started_at::text, '-'))
  FROM salience_spaces x WHERE x.space_id = $1
  UNION ALL
  SELECT concat_ws('|', 'watermark', projected_seq, encode(projected_hash, 'hex'))
  FROM projection_watermarks x WHERE x.space_id = $1
) rows;
`

// redundantOf reads the items of space the gate tagged, by item id.
func (f *bundle) redundantOf(t *testing.T, space string) map[string]string {
	t.Helper()
	rows, err := f.DB.Query(context.Background(), `SELECT item_id, redundant_of FROM memory_items
		WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND redundant_of IS NOT NULL`, space)
	require.NoError(t, err)
	out := map[string]string{}
	for rows.Next() {
		var id, of string
		require.NoError(t, rows.Scan(&id, &of))
		out[id] = of
	}
	require.NoError(t, rows.Err())
	return out
}

func said(actor, content string) eventloom.NewEvent {
	e := ev("message", content, map[string]any{"role": "user"})
	e.Actor = actor
	return e
}

// cuedSaid is said with the event's cues.
func cuedSaid(actor, content, cues string) eventloom.NewEvent {
	e := said(actor, content)
	e.Cues = json.RawMessage(cues)
	return e
}

func TestGate_RepeatIsRedundantAndReinforcesWhatItRepeats(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 2, Gate: projection.GateOff})
	ctx := context.Background()
	f.Append(t, "rep",
		said("ann", "Before the gate: the audit topic keeps seven days of events."),                                        // 1
		ev("gate.configured", "", map[string]any{"mode": "on"}),                                                            // 2
		said("ann", "Before the gate: the audit topic keeps seven days of events."),                                        // 3 novel: 1 predates the gate
		said("ann", "The audit topic keeps seven days of events, and consumers run in eu-west."),                           // 4
		said("ann", "the audit topic keeps seven days of events and consumers run in EU-West"),                             // 5 trivially edited repeat of 4
		said("ann", "The audit topic keeps thirty days of events, and consumers run in eu-west."),                          // 6 another fact: novel
		said("bob", "The audit topic keeps seven days of events, and consumers run in eu-west."),                           // 7 another actor: novel
		said("ann", "The audit topic keeps seven days of events, and consumers run in eu-west."),                           // 8 verbatim repeat of 4
		said("ann", "The audit topic keeps seven days of events, and consumers run in eu-west, I think."),                  // 9 adds words: novel
		said("ann", "We do not deploy on Fridays because the pager rotation is thin at the weekend."),                      // 10
		said("ann", "We do deploy on Fridays because the pager rotation is thin at the weekend."),                          // 11 drops a negation: novel
		ev("fact.asserted", "", map[string]any{"subject": "audit", "predicate": "owner", "value": "platform"}),             // 12
		ev("fact.asserted", "", map[string]any{"subject": "audit", "predicate": "owner", "value": "platform"}),             // 13 restates 12
		ev("fact.asserted", "", map[string]any{"subject": "audit", "predicate": "owner", "value": "data"}),                 // 14 another value
		cuedSaid("ann", "The audit topic keeps seven days of events, and consumers run in eu-west.", `{"repo": "ledger"}`), // 15 4 under other cues: novel
		cuedSaid("ann", "The audit topic keeps seven days of events, and consumers run in eu-west.", `{"repo":"ledger"}`),  // 16 repeat of 15, same cues
	)
	f.Project(t, "rep")

	require.Equal(t, map[string]string{"ev:5": "ev:4", "ev:8": "ev:4", "ev:16": "ev:15"}, f.redundantOf(t, "rep"))
	four := f.salience(t, "rep", "ev:4")
	require.NotNil(t, four)
	require.InDelta(t, 1.04, four.Reinforcement, 1e-12, "two repetitions, 2% each")
	require.Equal(t, int64(8), *four.LastUseSeq, "a repetition refreshes recency")
	require.Equal(t, "repeated", *four.LastUseSignal)
	var repeated int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT repeated FROM salience WHERE space_id = 'rep' AND item_id = 'ev:4'`).Scan(&repeated))
	require.Equal(t, 2, repeated)

	var factItem string
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT item_id FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'rep') AND seq = 12 AND kind = 'fact'`).Scan(&factItem))
	fact := f.salience(t, "rep", factItem)
	require.NotNil(t, fact, "the restated fact is reinforced")
	require.InDelta(t, 1.02, fact.Reinforcement, 1e-12)

	var started int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT count(*) FROM salience_spaces WHERE space_id = 'rep' AND use_started_at IS NOT NULL`).Scan(&started))
	require.Zero(t, started, "a repetition is no consultation: disuse does not start")

	incremental, err := f.Proj.Checksum(ctx, "rep")
	require.NoError(t, err)
	_, err = f.Proj.Rebuild(ctx, "rep")
	require.NoError(t, err)
	rebuilt, err := f.Proj.Checksum(ctx, "rep")
	require.NoError(t, err)
	require.Equal(t, incremental, rebuilt)

	// Switching the gate off stops tagging from then on and keeps earlier tags.
	f.Append(t, "rep", ev("gate.configured", "", map[string]any{"mode": "off"}),
		said("ann", "The audit topic keeps seven days of events, and consumers run in eu-west."))
	f.Project(t, "rep")
	require.Len(t, f.redundantOf(t, "rep"), 3)
}

func TestGate_RebuildUnderAChangedSettingReversesTheTags(t *testing.T) {
	on := newFixtureTx(t, projection.Config{BatchSize: 7, Gate: projection.GateOn})
	ctx := context.Background()
	space := "rev"
	// Incremental under the gate: appended and projected in small steps.
	for i := range 6 {
		randomWorkload(t, on, space, 100, uint64(40+i))
		on.Project(t, space)
	}
	incremental, err := on.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	tagged := on.redundantOf(t, space)
	require.NotEmpty(t, tagged, "the workload repeats its messages")

	off, err := projection.New(ctx, on.DB, projection.Config{BatchSize: 50, Gate: projection.GateOff})
	require.NoError(t, err)
	_, err = off.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Empty(t, on.redundantOf(t, space), "rebuilt with the gate off, nothing is redundant")
	plain, err := off.Checksum(ctx, space)
	require.NoError(t, err)
	require.NotEqual(t, incremental.Digest, plain.Digest)

	big, err := projection.New(ctx, on.DB, projection.Config{BatchSize: 1000, Gate: projection.GateOn})
	require.NoError(t, err)
	_, err = big.Rebuild(ctx, space)
	require.NoError(t, err)
	again, err := big.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, again, "a rebuild under the gate gives the incremental state")
	require.Equal(t, tagged, on.redundantOf(t, space))
}

func TestGate_OffIsTheProjectionBeforeTheGate(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 13, Gate: projection.GateOff})
	ctx := context.Background()
	space := "off"
	randomWorkload(t, f, space, 600, 9)
	f.Project(t, space)
	sum, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.NotZero(t, sum.Reinforcements)
	var before string
	require.NoError(t, f.DB.QueryRow(ctx, checksumBeforeGate, space).Scan(&before, new(int64), new(int64), new(int64),
		new(int64), new(int64), new(int64), new(int64), new(int64), new(int64)))
	require.Equal(t, before, sum.Digest, "with the gate off the projection digests as before the gate")
	var keys, tagged, repeated int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT (SELECT count(*) FROM gate_keys WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)),
		(SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND redundant_of IS NOT NULL),
		(SELECT count(*) FROM reinforcements WHERE space_id = $1 AND signal = 'repeated')`, space).Scan(&keys, &tagged, &repeated))
	require.Zero(t, keys+tagged+repeated)

	// Without repetitions the multiplier is the one before the gate, bit for bit.
	var differ int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT count(*) FROM generate_series(0, 6) s, generate_series(0, 6) h,
		generate_series(0, 3) u, generate_series(0, 2) w, generate_series(0, 2) o, generate_series(0, 2) i
		WHERE zaxy_salience_reinforcement(s, h, u, w, o, i) IS DISTINCT FROM zaxy_salience_reinforcement(s, h, u, w, o, i, 0)`).Scan(&differ))
	require.Zero(t, differ)
}

// The gate keeps one gate_keys row per key of each ranked event item it looked at (eight band
// keys and the sequence key), keyed by the item's seq; a redundant item adds no row.
func TestGate_KeepsNineKeyRowsPerRankedItem(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 2, Gate: projection.GateOn})
	ctx := context.Background()
	f.Append(t, "rows",
		said("ann", "The audit topic keeps seven days of events, and consumers run in eu-west."), // 1
		said("ann", "The audit topic keeps seven days of events, and consumers run in eu-west."), // 2 repeat of 1
		said("ann", "We do not deploy on Fridays because the pager rotation is thin."),           // 3
	)
	f.Project(t, "rows")
	require.Equal(t, map[string]string{"ev:2": "ev:1"}, f.redundantOf(t, "rows"))
	rows, err := f.DB.Query(ctx, `SELECT seq, count(*) FROM gate_keys WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'rows') GROUP BY seq ORDER BY seq`)
	require.NoError(t, err)
	type row struct{ Seq, Keys int64 }
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[row])
	require.NoError(t, err)
	require.Equal(t, []row{{1, 9}, {3, 9}}, got)
}

// A batch's candidate lookup is one backward descent of gate_keys' primary key per key, and one
// lookup of memory_items' primary key per candidate, even under a generic plan on tables never
// analyzed: no plan compares rows against the batch's whole key list (the one-row-per-item form
// before it did, and took seconds a batch at 20,000 items), and none reads the space's items
// into a hash (at 100,000 items that, compiled by JIT, was most of a batch's lookup;
// docs/benchmarks.md, "The encoding gate's key lookup" and "Session 29").
func TestGate_CandidateLookupIsAnIndexScanOnTheKeys(t *testing.T) {
	f := newFixtureTx(t, projection.Config{Gate: projection.GateOn})
	ctx := context.Background()
	f.Append(t, "big", said("ann", "The big space's first note."))
	_, err := f.DB.Exec(ctx, `INSERT INTO gate_keys (space_key, key, seq)
		SELECT (SELECT space_key FROM spaces WHERE space_id = 'big'), hashint8(i * 8 + b), i FROM generate_series(1, 5000) i, generate_series(0, 7) b`)
	require.NoError(t, err)
	_, err = f.DB.Exec(ctx, `INSERT INTO memory_items (space_key, item_id, kind, seq, event_type, occurred_at, text, ts_config, tsv)
		SELECT (SELECT space_key FROM spaces WHERE space_id = 'big'), 'ev:' || i, 'event', i, 'message.said', now(), 'note ' || i, 'english', to_tsvector('english', 'note ' || i)
		FROM generate_series(1, 5000) i`)
	require.NoError(t, err)
	query, err := os.ReadFile(filepath.Join("..", "sql", "projection", "gate_candidates.sql"))
	require.NoError(t, err)
	sql := strings.NewReplacer("@space_id", "$1", "@keys", "$2", "@per_key", "$3").Replace(string(query))
	_, err = f.DB.Exec(ctx, "SET LOCAL plan_cache_mode = force_generic_plan")
	require.NoError(t, err)
	_, err = f.DB.Exec(ctx, "PREPARE gate_candidates (text, int[], int) AS "+strings.TrimSuffix(strings.TrimSpace(sql), ";"))
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = f.DB.Exec(ctx, "DEALLOCATE gate_candidates") }) // a session's, not the transaction's
	keys := make([]string, 4000)
	for i := range keys {
		keys[i] = strconv.Itoa(i * 7919)
	}
	rows, err := f.DB.Query(ctx, `EXPLAIN (COSTS OFF) EXECUTE gate_candidates('big', '{`+strings.Join(keys, ",")+`}', `+
		strconv.Itoa(projection.GateCandidatesPerKey)+`)`)
	require.NoError(t, err)
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	plan := strings.Join(lines, "\n")
	require.Regexp(t, `Index Only Scan Backward using gate_keys_pkey on gate_keys`, plan)
	require.Regexp(t, `Index Cond: \(\(space_key = \(InitPlan \d+\)\.col1\) AND \(key = k\.key\)\)`, plan)
	require.Regexp(t, `Index Scan using memory_items_(pkey|seq) on memory_items m\s+Index Cond: \(\(space_key = \(InitPlan \d+\)\.col1\) AND \((item_id|seq) = `,
		plan, "each candidate's item is one index lookup")
	require.NotContains(t, plan, "Seq Scan on gate_keys", plan)
	require.NotContains(t, plan, "Seq Scan on memory_items", plan)
	require.NotContains(t, plan, "Hash", plan)
	require.NotRegexp(t, `Filter: .*key`, plan, "no plan compares rows against the batch's keys")
}

// An item is compared with the latest GateCandidatesPerKey ranked items under each of its keys,
// whichever batches they came in: a near repeat (a word left out) of an item that many newer
// items share every band key with is novel, a near repeat of one of those newer items
// redundant, a verbatim repeat of the first item redundant (its sequence key is its own), and
// the tags are the same projected one event at a time, in batches of five, or rebuilt in one
// batch.
func TestGate_ComparesTheLatestCandidatesOfEachKey(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 1, Gate: projection.GateOn})
	ctx := context.Background()
	words := strings.Fields("the audit topic keeps seven days of events in eu-west")
	// Orderings of the same words: the same MinHash band keys, none a repeat of another.
	orderings := make([]string, 0, projection.GateCandidatesPerKey+10)
	for r := 0; len(orderings) < cap(orderings); r++ {
		w := slices.Clone(words)
		slices.Reverse(w[:1+r%len(w)])
		w = append(w[r/len(w)%len(w):], w[:r/len(w)%len(w)]...)
		line := strings.Join(w, " ")
		if !slices.Contains(orderings, line) {
			orderings = append(orderings, line)
		}
	}
	var evs []eventloom.NewEvent
	for _, line := range orderings {
		evs = append(evs, said("ann", line))
	}
	// without leaves out the word "events" (one of eleven, no value).
	without := func(line string) string { return strings.Replace(line, "events ", "", 1) }
	n := len(orderings)
	recent := n - projection.GateCandidatesPerKey + 5 // its index; its seq is one more
	evs = append(evs,
		said("ann", without(orderings[0])),      // n+1: novel, 1 is past the latest 32
		said("ann", without(orderings[recent])), // n+2: repeats recent+1
		said("ann", orderings[0]))               // n+3: repeats 1 verbatim
	f.Append(t, "hot", evs...)
	f.Project(t, "hot")
	want := map[string]string{
		fmt.Sprintf("ev:%d", n+2): fmt.Sprintf("ev:%d", recent+1),
		fmt.Sprintf("ev:%d", n+3): "ev:1",
	}
	require.Equal(t, want, f.redundantOf(t, "hot"), "the first ordering's near repeat is novel: %d newer items share its band keys", n-1)

	for _, size := range []int{5, 1000} {
		p, err := projection.New(ctx, f.DB, projection.Config{BatchSize: size, Gate: projection.GateOn})
		require.NoError(t, err)
		_, err = p.Rebuild(ctx, "hot")
		require.NoError(t, err)
		require.Equal(t, want, f.redundantOf(t, "hot"), "rebuilt in batches of %d", size)
	}
}

// The gate's keys are a space's own: the same sentence in a second space, whose keys are
// equal, is novel there, and each space keeps its own key rows under its own space key.
func TestGate_KeysOfOneSpaceAreNotAnothersCandidates(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 2, Gate: projection.GateOn})
	ctx := context.Background()
	const line = "The audit topic keeps seven days of events, and consumers run in eu-west."
	f.Append(t, "first", said("ann", line), said("ann", line))
	f.Project(t, "first")
	f.Append(t, "second", said("ann", "We do not deploy on Fridays."), said("ann", line)) // seq 2, after first's 1
	f.Project(t, "second")
	require.Equal(t, map[string]string{"ev:2": "ev:1"}, f.redundantOf(t, "first"))
	require.Empty(t, f.redundantOf(t, "second"))
	var shared, spaces int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT count(DISTINCT key) FILTER (WHERE n = 2), count(DISTINCT space_key)
		FROM (SELECT key, space_key, count(*) OVER (PARTITION BY key) AS n FROM gate_keys
		      WHERE space_key IN (SELECT space_key FROM spaces WHERE space_id IN ('first', 'second'))) x`).Scan(&shared, &spaces))
	require.Equal(t, 9, shared, "the same nine keys in both spaces")
	require.Equal(t, 2, spaces)
}
