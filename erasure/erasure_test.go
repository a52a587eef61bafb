package erasure_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/extract"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/topic"
	"github.com/zaxy/zaxy/validation"
)

// marker is the word planted in the erased events; nothing else in the test uses it.
const marker = "Zorblaxquint"

// fakeLLM "infers" a triple naming whatever capitalized word the text starts with, so an
// inference read from an erased event carries the marker.
type fakeLLM struct{}

func (fakeLLM) Extract(_ context.Context, text string) ([]extract.Triple, error) {
	first := strings.Fields(text)[0]
	return []extract.Triple{{Subject: first, Predicate: "appears_in", Object: "notes", Confidence: 0.5}}, nil
}

type bundle struct {
	*fixture.Log
	db       *testcontainers.Database
	pool     *pgxpool.Pool // the application role
	admin    *pgxpool.Pool
	svc      *erasure.Service
	embedder *projection.Embedder
	inferrer *projection.Inferrer
	latent   *topic.Refresher
}

func setup(t testing.TB) *bundle {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	b := &bundle{db: db, pool: db.AppPool(t), admin: db.AdminPool(t)}
	b.Log = fixture.New(t, b.pool, projection.Config{})
	require.True(t, b.Proj.AGE(), "the test cluster has Apache AGE; the mirror must be covered")
	b.svc = erasure.New(b.pool, b.Store, b.Proj, nil)
	b.embedder = projection.NewEmbedder(b.pool, embedding.NewOffline(), 0)
	b.inferrer = projection.NewInferrer(b.pool, fakeLLM{}, "fake@1")
	b.latent = topic.NewRefresher(b.pool, topic.Params{MinDocs: 5, MinDF: 1})
	return b
}

// plantV1 writes seq 1 of space as an event appended before migration 000011 would have been:
// hashed under version 1 (triggers off, as a superuser), with the chain head.
func plantV1(t *testing.T, admin *pgxpool.Pool, space, content string) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, pgx.BeginFunc(ctx, admin, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO events (space_id, seq, type, occurred_at, recorded_at, content, prev_hash, hash)
			SELECT $1, 1, 'message', t, t, $2, z, sha256(z || zaxy_event_canonical($1, 1, 'message', '', '', t, t, $2, '{}', '{}'))
			FROM (SELECT date_trunc('milliseconds', clock_timestamp()) - interval '1 minute' AS t,
			             '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea AS z) v`, space, content); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO spaces (space_id, head_seq, head_hash, head_at)
			SELECT space_id, seq, hash, recorded_at FROM events WHERE space_id = $1 AND seq = 1`, space)
		return err
	}))
}

// derive runs every job that derives data from the log: projection, embeddings, inferences
// and the latent model.
func (b *bundle) derive(t *testing.T, space string) {
	t.Helper()
	ctx := context.Background()
	b.Project(t, space)
	_, err := b.embedder.EmbedSpace(ctx, space)
	require.NoError(t, err)
	_, err = b.inferrer.InferSpace(ctx, space)
	require.NoError(t, err)
	_, err = b.latent.Refresh(ctx, space)
	require.NoError(t, err)
}

// hits searches every row of every table in every schema (AGE graph schemas, River's tables
// and the latent tables included), rendered as text, for each needle (case-insensitive), and
// returns "schema.table" for each table with a match.
func hits(t *testing.T, admin *pgxpool.Pool, needles ...string) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := admin.Query(ctx, `
		SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
		  AND n.nspname NOT LIKE 'pg_toast%' ORDER BY 1, 2`)
	require.NoError(t, err)
	type rel struct{ schema, name string }
	rels, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (rel, error) {
		var x rel
		return x, r.Scan(&x.schema, &x.name)
	})
	require.NoError(t, err)
	require.Greater(t, len(rels), 20)
	patterns := make([]string, len(needles))
	for i, n := range needles {
		patterns[i] = "%" + strings.ToLower(n) + "%"
	}
	var found []string
	for _, r := range rels {
		var n int
		q := fmt.Sprintf(`SELECT count(*) FROM %s.%s t WHERE lower(t::text) LIKE ANY ($1)`,
			pgx.Identifier{r.schema}.Sanitize(), pgx.Identifier{r.name}.Sanitize())
		require.NoError(t, admin.QueryRow(ctx, q, patterns).Scan(&n), q)
		if n > 0 {
			found = append(found, r.schema+"."+r.name)
		}
	}
	return found
}

func TestErase_MarkerFoundNowhereAndChainStillVerifies(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	const space = "erase-me"
	plantV1(t, b.admin, space, "a legacy note from before version 2")

	filler := []string{
		"The build pipeline failed on the linter step again",
		"We agreed to ship the release on Friday after review",
		"Ada prefers short standups and written summaries",
		"The staging database needs a bigger disk next month",
		"Remember to rotate the signing keys before the audit",
		"Lighthouse scores improved after the image change",
	}
	user := json.RawMessage(`{"role":"user"}`)
	var evs []eventloom.NewEvent
	for i, f := range filler {
		evs = append(evs, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", i%2), Content: f, Data: user})
	}
	b.Append(t, space, evs...)
	target := b.Append(t, space,
		eventloom.NewEvent{Type: "message", SessionID: "s9", Content: marker + " met Ada at the lighthouse and talked about " + strings.ToLower(marker) + "ing",
			Data: json.RawMessage(`{"role":"user","from":"` + strings.ToLower(marker) + `@example.com","tags":["` + marker + `"]}`)},
		eventloom.NewEvent{Type: "fact.asserted", Content: marker + " likes tea",
			Data: json.RawMessage(`{"subject":"` + marker + `","predicate":"likes","value":"tea with ` + marker + `"}`)},
	)
	after := b.Append(t, space, eventloom.NewEvent{Type: "message", SessionID: "s1", Content: "Ada likes coffee in the morning", Data: user})
	b.derive(t, space)

	// The lexemes of the marker as full-text search stores them.
	var lexemes []string
	require.NoError(t, b.admin.QueryRow(ctx, `SELECT array_agg(lexeme) FROM unnest(to_tsvector('english', $1))`,
		marker+" "+strings.ToLower(marker)+"ing").Scan(&lexemes))
	needles := append([]string{marker, hex.EncodeToString([]byte(strings.ToLower(marker)))}, lexemes...)

	// The search can fail: before the erasure the marker is everywhere it was derived to.
	before := hits(t, b.admin, needles...)
	for _, want := range []string{"public.events", "public.memory_items", "public.entities", "public.facts",
		"public.inferences", "public.latent_terms"} {
		require.Contains(t, before, want)
	}
	var graphHits bool
	for _, h := range before {
		graphHits = graphHits || strings.HasPrefix(h, "zs_")
	}
	require.True(t, graphHits, "the AGE mirror holds the marker before erasure: %v", before)
	var vectors int
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM embeddings WHERE space_id = $1 AND item_id = $2`,
		space, memoryitem.EventID(target[0].Seq)).Scan(&vectors))
	require.Equal(t, 1, vectors)
	var mentions int
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM mentions WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND seq = $2`, space, target[0].Seq).Scan(&mentions))
	require.Positive(t, mentions)

	for _, r := range target {
		res, err := b.svc.Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: r.Seq, Reason: "data subject request #42", Actor: "admin:test"})
		require.NoError(t, err)
		require.Equal(t, r.Seq, res.Seq)
		require.Greater(t, res.ErasureSeq, after[0].Seq)
	}
	// Jobs running after the erasure derive nothing from it again.
	b.derive(t, space)

	require.Empty(t, hits(t, b.admin, needles...), "the erased text survives somewhere")

	// No vector derives from an erased event: each belongs to a live item with the same text.
	require.NoError(t, b.pool.QueryRow(ctx, `
		SELECT count(*) FROM embeddings e WHERE e.space_id = $1 AND (e.item_id = ANY ($2) OR NOT EXISTS (
		  SELECT FROM memory_items m JOIN events c ON c.space_id = $1 AND c.seq = m.seq
		  WHERE m.space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND m.item_id = e.item_id
		    AND sha256(convert_to(coalesce(m.text, c.content), 'UTF8')) = e.text_hash))`,
		space, []string{memoryitem.EventID(target[0].Seq), memoryitem.EventID(target[1].Seq)}).Scan(&vectors))
	require.Zero(t, vectors)
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND seq = ANY ($2)`,
		space, []int64{target[0].Seq, target[1].Seq}).Scan(&vectors))
	require.Zero(t, vectors)
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM mentions WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND seq = ANY ($2)`,
		space, []int64{target[0].Seq, target[1].Seq}).Scan(&mentions))
	require.Zero(t, mentions)
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM latent_topics WHERE space_id = $1 AND seq = ANY ($2)`,
		space, []int64{target[0].Seq, target[1].Seq}).Scan(&vectors))
	require.Zero(t, vectors)

	// The chain verifies in Go and in SQL, with the v1 event, v2 events and erased ones.
	for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
		v, err := b.Store.VerifyWith(ctx, space, method)
		require.NoError(t, err)
		require.True(t, v.OK, "%s: %+v", method, v)
	}

	// Replay shows the tombstone, says it is erased, and the erasure records are in the log.
	var export bytes.Buffer
	var erased, records int
	require.NoError(t, b.Store.ReplayAll(ctx, eventloom.ReplayParams{SpaceID: space}, func(e *eventloom.Event) error {
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		export.Write(append(line, '\n'))
		switch {
		case e.Seq == 1:
			require.Equal(t, eventloom.HashV1, e.Version())
			require.NotContains(t, string(line), "hash_version")
		case e.Seq == target[0].Seq || e.Seq == target[1].Seq:
			erased++
			require.True(t, e.Erased())
			require.Empty(t, e.Content)
			require.JSONEq(t, `{}`, string(e.Data))
			require.Len(t, e.BodyDigest, 32)
			require.Nil(t, e.Salt)
			require.Contains(t, string(line), `"erased_by_seq":`)
		case e.Type == eventloom.ErasureType:
			records++
			require.Empty(t, e.Content)
			var d struct {
				Seq    int64  `json:"seq"`
				Reason string `json:"reason"`
			}
			require.NoError(t, json.Unmarshal(e.Data, &d))
			require.Equal(t, "data subject request #42", d.Reason)
			require.Contains(t, []int64{target[0].Seq, target[1].Seq}, d.Seq)
		default:
			require.Equal(t, eventloom.HashV2, e.Version())
			require.Len(t, e.Salt, 16)
			require.False(t, e.Erased())
		}
		return nil
	}))
	require.Equal(t, 2, erased)
	require.Equal(t, 2, records)

	// The independent verifier agrees.
	path := filepath.Join(t.TempDir(), "log.jsonl")
	require.NoError(t, os.WriteFile(path, export.Bytes(), 0o600))
	code, out := verifylog(t, path)
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "OK: space "+space)

	// A rebuild from the log gives the projections the purge left.
	sum, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	_, err = b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	again, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, sum, again)
}

func TestErase_Refusals(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	const space = "refusals"
	plantV1(t, b.admin, space, "old text")
	r := b.Append(t, space, eventloom.NewEvent{Type: "note", Content: "erase me"}, eventloom.NewEvent{Type: "note", Content: "keep me"})

	erase := func(seq int64, reason string) error {
		_, err := b.svc.Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: seq, Reason: reason})
		return err
	}
	err := erase(1, "legal")
	require.ErrorIs(t, err, eventloom.ErrNotErasable)
	require.ErrorContains(t, err, "version 1")
	require.ErrorIs(t, erase(99, "legal"), eventloom.ErrNotFound)
	var ve *validation.Error
	require.ErrorAs(t, erase(r[0].Seq, "  "), &ve)
	require.Equal(t, "reason", ve.Field)
	require.ErrorAs(t, erase(r[0].Seq, strings.Repeat("x", eventloom.MaxErasureReasonLen+1)), &ve)
	require.Equal(t, "reason", ve.Field)
	require.ErrorAs(t, erase(0, "legal"), &ve)
	require.Equal(t, "seq", ve.Field)

	res, err := b.svc.Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: r[0].Seq, Reason: "legal"})
	require.NoError(t, err)
	err = erase(r[0].Seq, "again")
	require.ErrorIs(t, err, eventloom.ErrNotErasable)
	require.ErrorContains(t, err, "already erased")
	err = erase(res.ErasureSeq, "hide the record")
	require.ErrorIs(t, err, eventloom.ErrNotErasable)
	require.ErrorContains(t, err, "erasure record")

	// Refused erasures changed nothing: one erasure record, the v1 event intact.
	var n int
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = $1 AND type = 'erasure.recorded'`, space).Scan(&n))
	require.Equal(t, 1, n)

	// Nobody appends an erasure record by hand.
	_, err = b.Store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{
		{Type: eventloom.ErasureType, Data: json.RawMessage(fmt.Sprintf(`{"seq":%d,"reason":"x"}`, r[1].Seq))}}})
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "type", ve.Field)

	// The application role may not update the log at all; even the owner may only do what
	// zaxy_erase does, bound to an erasure record naming the event.
	_, err = b.pool.Exec(ctx, `UPDATE events SET content = 'x' WHERE space_id = $1 AND seq = $2`, space, r[1].Seq)
	require.ErrorContains(t, err, "permission denied")
	for name, q := range map[string]string{
		"other text":          `UPDATE events SET content = 'forged' WHERE space_id = $1 AND seq = $2`,
		"tombstone unbound":   `UPDATE events SET content = '', data = '{}', salt = NULL, erased_by_seq = seq + 1 WHERE space_id = $1 AND seq = $2`,
		"rebind the record":   fmt.Sprintf(`UPDATE events SET content = '', data = '{}', salt = NULL, erased_by_seq = %d WHERE space_id = $1 AND seq = $2`, res.ErasureSeq),
		"un-erase":            fmt.Sprintf(`UPDATE events SET erased_by_seq = NULL WHERE space_id = $1 AND seq = %d AND $2 > 0`, r[0].Seq),
		"swap the digest":     fmt.Sprintf(`UPDATE events SET body_digest = sha256(body_digest) WHERE space_id = $1 AND seq = %d AND $2 > 0`, r[0].Seq),
		"delete":              `DELETE FROM events WHERE space_id = $1 AND seq = $2`,
		"tombstone v1":        `UPDATE events SET content = '', erased_by_seq = 3 WHERE space_id = $1 AND seq = 1 AND $2 > 0`,
		"erase erasure event": fmt.Sprintf(`UPDATE events SET data = '{}', salt = NULL, erased_by_seq = %d WHERE space_id = $1 AND seq = %d AND $2 > 0`, res.ErasureSeq+1, res.ErasureSeq),
	} {
		_, err := b.admin.Exec(ctx, q, space, r[1].Seq)
		require.Error(t, err, name)
		require.Contains(t, err.Error(), "ZX001", name)
	}
	for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
		v, err := b.Store.VerifyWith(ctx, space, method)
		require.NoError(t, err)
		require.True(t, v.OK, "%s: %+v", method, v)
	}
}

func TestVerify_DetectsTamperingWithVersion2AndErasedEvents(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	// Forgeries as a superuser with triggers off; the row constraint goes too (this database
	// is the test's own), so only verify stands in the way.
	_, err := b.admin.Exec(ctx, `ALTER TABLE events DROP CONSTRAINT events_version_fields`)
	require.NoError(t, err)

	cases := []struct {
		name, sql string
		seq       int64
		reason    string
	}{
		{"content", `UPDATE events SET content = 'TWO' WHERE space_id = $1 AND seq = 2`, 2, "content or data does not match the event's body digest"},
		{"data", `UPDATE events SET data = '{"k":2}' WHERE space_id = $1 AND seq = 2`, 2, "content or data does not match the event's body digest"},
		{"content and digest", `UPDATE events SET content = 'TWO', body_digest = zaxy_event_body_digest(salt, 'TWO', data) WHERE space_id = $1 AND seq = 2`, 2, "hash does not match the recomputed hash of the event"},
		{"salt dropped", `UPDATE events SET salt = NULL WHERE space_id = $1 AND seq = 2`, 2, "content or data does not match the event's body digest"},
		{"erased digest", `UPDATE events SET body_digest = sha256(body_digest) WHERE space_id = $1 AND seq = 3`, 3, "hash does not match the recomputed hash of the event"},
		{"erased content back", `UPDATE events SET content = 'three' WHERE space_id = $1 AND seq = 3`, 3, "an erased event holds more than the tombstone"},
		{"erasure record names another seq", `UPDATE events SET data = '{"seq": 1, "reason": "legal"}' WHERE space_id = $1 AND seq = 4`, 3, "the event is erased but no later erasure.recorded event names it"},
		{"erased silently", `UPDATE events SET content = '', data = '{}', salt = NULL, erased_by_seq = 3 WHERE space_id = $1 AND seq = 1`, 1, "the event is erased but no later erasure.recorded event names it"},
		{"erased by a later record of another seq", `UPDATE events SET content = '', data = '{}', salt = NULL, erased_by_seq = 4 WHERE space_id = $1 AND seq = 2`, 2, "the event is erased but no later erasure.recorded event names it"},
		{"downgraded to version 1", `UPDATE events SET hash_version = 1 WHERE space_id = $1 AND seq = 1`, 1, "hash does not match the recomputed hash of the event"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			space := fmt.Sprintf("tamper-%d", i)
			r := b.Append(t, space,
				eventloom.NewEvent{Type: "note", Content: "one"},
				eventloom.NewEvent{Type: "note", Content: "two", Data: json.RawMessage(`{"k":1}`)},
				eventloom.NewEvent{Type: "note", Content: "three"})
			res, err := b.svc.Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: r[2].Seq, Reason: "legal"})
			require.NoError(t, err)
			require.Equal(t, int64(4), res.ErasureSeq)
			require.NoError(t, pgx.BeginFunc(ctx, b.admin, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
					return err
				}
				tag, err := tx.Exec(ctx, c.sql, space)
				if err == nil && tag.RowsAffected() != 1 {
					err = fmt.Errorf("changed %d rows", tag.RowsAffected())
				}
				return err
			}))
			for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
				v, err := b.Store.VerifyWith(ctx, space, method)
				require.NoError(t, err)
				require.False(t, v.OK, method)
				require.Equal(t, c.seq, v.BrokenSeq, method)
				require.Equal(t, c.reason, v.Reason, method)
			}
		})
	}
}

// verifylog runs tools/verifylog on path and returns its exit status and output.
func verifylog(t *testing.T, path string, args ...string) (int, string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	require.NoError(t, err, "python3 runs the independent verifier")
	cmd := exec.Command(python, append([]string{"../tools/verifylog/verifylog.py"}, append(args, path)...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if exitErr, ok := err.(*exec.ExitError); ok {
		return exitErr.ExitCode(), out.String()
	}
	require.NoError(t, err, out.String())
	return 0, out.String()
}

// The idempotency record of an erased event's append keeps a digest of the whole request,
// which would confirm a guess of the erased text: erasure zeroes it, and a retry with the key
// is then a conflict rather than a replay.
func TestErase_ZeroesTheIdempotencyDigestOfTheErasedRequest(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	const space = "keyed"
	secret := eventloom.AppendParams{SpaceID: space, IdempotencyKey: "k-1", Events: []eventloom.NewEvent{
		{Type: "note", Content: "keep"}, {Type: "note", Content: "my pin is 4321"}}}
	other := eventloom.AppendParams{SpaceID: space, IdempotencyKey: "k-2", Events: []eventloom.NewEvent{{Type: "note", Content: "unrelated"}}}
	res, err := b.Store.Append(ctx, &secret)
	require.NoError(t, err)
	_, err = b.Store.Append(ctx, &other)
	require.NoError(t, err)

	digest := func(key string) []byte {
		var h []byte
		require.NoError(t, b.pool.QueryRow(ctx, `SELECT request_hash FROM idempotency_keys WHERE space_id = $1 AND key = $2`, space, key).Scan(&h))
		return h
	}
	zero := make([]byte, 32)
	require.NotEqual(t, zero, digest("k-1"))
	// Not before an erasure: the table stays append-only.
	_, err = b.admin.Exec(ctx, `UPDATE idempotency_keys SET request_hash = $2 WHERE space_id = $1`, space, zero)
	require.ErrorContains(t, err, "ZX001")

	_, err = b.svc.Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: res.Receipts[1].Seq, Reason: "request"})
	require.NoError(t, err)
	require.Equal(t, zero, digest("k-1"))
	require.NotEqual(t, zero, digest("k-2"), "records of other appends keep their digest")
	_, err = b.admin.Exec(ctx, `UPDATE idempotency_keys SET request_hash = $2 WHERE space_id = $1 AND key = 'k-2'`, space, zero)
	require.ErrorContains(t, err, "ZX001")
	_, err = b.admin.Exec(ctx, `DELETE FROM idempotency_keys WHERE space_id = $1`, space)
	require.ErrorContains(t, err, "ZX001")

	_, err = b.Store.Append(ctx, &secret)
	require.ErrorIs(t, err, eventloom.ErrConflict, "a retry of the erased request is not replayed")
	again, err := b.Store.Append(ctx, &other)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	v, err := b.Store.VerifySQL(ctx, space)
	require.NoError(t, err)
	require.True(t, v.OK, v.Reason)
}

func TestErase_ErasesTheProposalsInterferenceDerivedFromTheEvent(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	const space = "erase-derived"
	user := json.RawMessage(`{"role":"user"}`)
	b.Append(t, space,
		eventloom.NewEvent{Type: "fact.asserted", Data: json.RawMessage(`{"subject":"Ada","predicate":"appears_in","value":"slides"}`)},
		eventloom.NewEvent{Type: "message", Content: "Ada wrote it down in her notebook", Data: user},
		eventloom.NewEvent{Type: "message", Content: "Bob reviewed the migration", Data: user},
	)
	b.derive(t, space) // fakeLLM: "Ada appears_in notes" contradicts the fact: a proposal (seq 4)
	var typ string
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT type FROM events WHERE space_id = $1 AND seq = 4`, space).Scan(&typ))
	require.Equal(t, "proposal.created", typ)
	_, err := b.Proj.ProjectSpace(ctx, space)
	require.NoError(t, err)
	var review string
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT review_status FROM facts WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`, space).Scan(&review))
	require.Equal(t, "conflicted", review)

	res, err := b.svc.Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: 2, Reason: "user request", Actor: "admin:test"})
	require.NoError(t, err)
	require.Len(t, res.DerivedErased, 1)
	require.Equal(t, int64(4), res.DerivedErased[0].Seq)

	var erasedBy *int64
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT erased_by_seq FROM events WHERE space_id = $1 AND seq = 4`, space).Scan(&erasedBy))
	require.NotNil(t, erasedBy, "the proposal repeating what the model read is erased with the event")
	var proposals int
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT count(*) FROM proposals WHERE space_id = $1`, space).Scan(&proposals))
	require.Zero(t, proposals)
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT review_status FROM facts WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`, space).Scan(&review))
	require.Equal(t, "unreviewed", review, "no open proposal contests the fact any more")
	v, err := b.Store.VerifyWith(ctx, space, eventloom.MethodGo)
	require.NoError(t, err)
	require.True(t, v.OK)
}
