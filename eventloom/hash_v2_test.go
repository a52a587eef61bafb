package eventloom_test

import (
	"context"
	"encoding/hex"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// The version 2 worked example in docs/eventloom.md: Go, Postgres and tools/verifylog agree.
func TestCanonicalBytesV2_DocumentedExample(t *testing.T) {
	t.Parallel()
	o, err := time.Parse(time.RFC3339Nano, "2026-01-02T03:04:05.5Z")
	require.NoError(t, err)
	r, err := time.Parse(time.RFC3339Nano, "2026-01-02T03:04:05.678901Z")
	require.NoError(t, err)
	salt, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f")
	e := &eventloom.Event{SpaceID: "demo", Seq: 1, Type: "message", OccurredAt: o, RecordedAt: r,
		Content: "héllo", Data: []byte(`{"n": 1.50, "role": "user"}`), Cues: []byte(`{}`),
		HashVersion: eventloom.HashV2, Salt: salt}
	const digest = "5b393e7349e9eec60f8025480509167ac3a166a6aa0b80a63b4d56bdf3c4984e"
	const hash = "b9bafdd793a50a94a80bde31f43f20c8434a75bb0385e30216a36d177d454e8c"
	d := eventloom.ComputeBodyDigest(salt, e.Content, e.Data)
	require.Equal(t, digest, d.String())
	require.Equal(t, "zaxy-event-v2\n4:demo\n1:1\n7:message\n0:\n0:\n27:2026-01-02T03:04:05.500000Z\n"+
		"27:2026-01-02T03:04:05.678901Z\n64:"+digest+"\n2:{}\n", string(eventloom.CanonicalBytesV2(e, d)))
	require.Equal(t, hash, eventloom.ComputeHash(eventloom.ZeroHash, e).String())

	// Erased: the tombstone and the stored digest give the same hash.
	erased := *e
	erased.Content, erased.Data, erased.Salt, erased.BodyDigest, erased.ErasedBySeq = "", []byte(`{}`), nil, d, 2
	require.Equal(t, hash, eventloom.ComputeHash(eventloom.ZeroHash, &erased).String())

	var sqlDigest, sqlHash string
	require.NoError(t, testcontainers.TestTx(t).QueryRow(context.Background(), `
		SELECT encode(d, 'hex'), encode(sha256('\x0000000000000000000000000000000000000000000000000000000000000000'::bytea ||
		       zaxy_event_canonical_v2('demo', 1, 'message', '', '', $1, $2, d, '{}')), 'hex')
		FROM (SELECT zaxy_event_body_digest($3, 'héllo', '{"role":"user","n":1.50}') AS d) x`, o, r, salt).Scan(&sqlDigest, &sqlHash))
	require.Equal(t, digest, sqlDigest)
	require.Equal(t, hash, sqlHash)

	out, err := exec.Command("python3", "-c", `
import sys; sys.path.insert(0, "../tools/verifylog"); import verifylog
d = verifylog.body_digest(bytes(range(16)), "héllo", '{"n": 1.50, "role": "user"}')
ev = {"space_id": "demo", "seq": 1, "type": "message", "session_id": "", "actor": "",
      "occurred_at": "2026-01-02T03:04:05.500000Z", "recorded_at": "2026-01-02T03:04:05.678901Z", "cues": "{}"}
import hashlib
print(d.hex(), hashlib.sha256(bytes(32) + verifylog.canonical_bytes_v2(ev, d)).hexdigest())
`).CombinedOutput()
	require.NoError(t, err, string(out))
	require.Equal(t, digest+" "+hash+"\n", string(out))
}
