package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
)

// keysOf are the idempotency keys of a space.
func keysOf(t *testing.T, e *env, space string) []string {
	t.Helper()
	rows, err := e.db.AdminPool(t).Query(context.Background(), `SELECT key FROM idempotency_keys WHERE space_id = $1 ORDER BY first_seq`, space)
	require.NoError(t, err)
	var keys []string
	for rows.Next() {
		var k string
		require.NoError(t, rows.Scan(&k))
		keys = append(keys, k)
	}
	require.NoError(t, rows.Err())
	return keys
}

// After an erasure, re-sending a guess of the erased transcript answers as re-sending any
// text never sent does (201, appended anew), never 409 idempotency_conflict naming the erased
// seq; and a transcript's key is keyed by the space's secret: not the SHA-256 anyone can
// compute from the turns, and not the same in two spaces. A retry of an import not erased is
// still replayed.
func TestHTTP_ErasureLeavesNoTranscriptGuessOracle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := `{"turns":[{"role":"user","content":"my pin is 4321"}]}`
	status, out := e.do(t, "POST", "/v1/spaces/g/transcripts", body)
	require.Equal(t, 201, status, out)
	status, out = e.do(t, "POST", "/v1/spaces/other/transcripts", body)
	require.Equal(t, 201, status, out)

	p, err := ingest.DecodeTranscriptBody([]byte(body))
	require.NoError(t, err)
	hash, err := ingest.TranscriptContentHash(p)
	require.NoError(t, err)
	g, other := keysOf(t, e, "g"), keysOf(t, e, "other")
	require.Len(t, g, 1)
	require.NotEqual(t, ingest.TranscriptKeyMaterial(hash, 0), g[0], "not computable from the turns")
	require.NotEqual(t, g, other, "not the same in every space")

	status, out = e.do(t, "POST", "/v1/spaces/g/transcripts", body)
	require.Equal(t, 200, status, out)
	require.Equal(t, true, out["replayed"], "a retry of an import is replayed")
	require.Equal(t, 2, e.count(t))

	status, out = e.do(t, "POST", "/v1/spaces/g/erasures", `{"seq":1,"reason":"GDPR request"}`)
	require.Equal(t, 201, status, out)
	require.Equal(t, []string{"erased 1"}, keysOf(t, e, "g"), "the erased import's key is forgotten")

	guessed, out := e.do(t, "POST", "/v1/spaces/g/transcripts", body)
	require.Equal(t, 201, guessed, "the erased text is not confirmed: %v", out)
	require.Equal(t, false, out["replayed"])
	novel, out := e.do(t, "POST", "/v1/spaces/g/transcripts", `{"turns":[{"role":"user","content":"my pin is 9999"}]}`)
	require.Equal(t, guessed, novel, "%v", out)
}

// The same for a document: once one of its chunks is erased, the same version sent again is
// appended anew (appended: true), as a document never sent is, instead of reported as known.
func TestHTTP_ErasureLeavesNoDocumentGuessOracle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := `{"documents":[{"path":"notes.txt","text":"the vault code is 8812"}]}`
	status, out := e.do(t, "POST", "/v1/spaces/d/documents", body)
	require.Equal(t, 201, status, out)
	status, out = e.do(t, "POST", "/v1/spaces/d/documents", body)
	require.Less(t, status, 300, out)
	docs, _ := json.Marshal(out["documents"])
	require.Contains(t, string(docs), `"appended":false`, "an unchanged document appends nothing")
	key := keysOf(t, e, "d")[0]
	sum := sha256.Sum256([]byte("notes.txt\n" + hex.EncodeToString(func() []byte { s := sha256.Sum256([]byte("the vault code is 8812")); return s[:] }())))
	require.NotEqual(t, "doc:"+hex.EncodeToString(sum[:]), key, "not computable from the text")
	require.NoError(t, eventloom.ValidateIdempotencyKey(key))

	status, out = e.do(t, "POST", "/v1/spaces/d/erasures", `{"seq":1,"reason":"GDPR request"}`)
	require.Equal(t, 201, status, out)
	status, out = e.do(t, "POST", "/v1/spaces/d/documents", body)
	require.Equal(t, 201, status, out)
	docs, _ = json.Marshal(out["documents"])
	require.Contains(t, string(docs), `"appended":true`, "the erased version is not confirmed")
}
