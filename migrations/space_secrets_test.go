package migrations_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/testcontainers"
)

// zaxy_hmac_sha256 is HMAC-SHA256 as Go's crypto/hmac computes it, for keys shorter and
// longer than the block.
func TestHMACSHA256_MatchesGo(t *testing.T) {
	ctx := context.Background()
	tx := testcontainers.TestTx(t)
	testcontainers.AsOwner(t, tx, func() {
		for _, key := range [][]byte{{}, []byte("k"), make([]byte, 32), []byte(strings.Repeat("long key ", 20))} {
			for _, msg := range []string{"", "transcript:abc:0", strings.Repeat("x", 1000)} {
				var got []byte
				require.NoError(t, tx.QueryRow(ctx, `SELECT zaxy_hmac_sha256($1, convert_to($2, 'UTF8'))`, key, msg).Scan(&got))
				mac := hmac.New(sha256.New, key)
				mac.Write([]byte(msg))
				require.Equal(t, mac.Sum(nil), got, "key %q msg %q", key, msg)
			}
		}
	})
}

// Migration 000053 re-keys the derived keys stored before it under each space's new secret,
// so an import made before it is still recognized, and forgets those of records covering an
// event erased before it; client keys are left as they are.
func TestSpaceSecretsMigration_RekeysDerivedKeysAndForgetsErasedOnes(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AdminPool(t)
	_, err := pool.Exec(ctx, readMigration(t, "000053_space_secrets.down.sql"))
	require.NoError(t, err)

	store := eventloom.NewStore(pool, nil, nil)
	p := &ingest.TranscriptParams{SpaceID: "a", Turns: []ingest.Turn{{Role: "user", Content: "hello there"}}}
	hash, err := ingest.TranscriptContentHash(p)
	require.NoError(t, err)
	events := []eventloom.NewEvent{{Type: "message", Content: "hello there", Data: []byte(`{"role":"user"}`)}}
	legacy := ingest.TranscriptKeyMaterial(hash, 0)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "a", Events: events, IdempotencyKey: legacy})
	require.NoError(t, err)
	erasedKey := ingest.DocumentKeyMaterial("secret.txt", strings.Repeat("e", 64))
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{{Type: "note", Content: "pin 4321"}}, IdempotencyKey: erasedKey})
	require.NoError(t, err)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{{Type: "note", Content: "x"}}, IdempotencyKey: "client-key"})
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `SELECT zaxy_erase('a', 2, 'request', 'admin')`)
	require.NoError(t, err)

	_, err = pool.Exec(ctx, readMigration(t, "000053_space_secrets.up.sql"))
	require.NoError(t, err)
	var secret []byte
	require.NoError(t, pool.QueryRow(ctx, `SELECT secret FROM space_secrets WHERE space_id = 'a'`).Scan(&secret))
	require.Len(t, secret, 32)
	keys := map[int64]string{}
	rows, err := pool.Query(ctx, `SELECT first_seq, key FROM idempotency_keys WHERE space_id = 'a'`)
	require.NoError(t, err)
	for rows.Next() {
		var s int64
		var k string
		require.NoError(t, rows.Scan(&s, &k))
		keys[s] = k
	}
	require.NoError(t, rows.Err())
	require.Equal(t, map[int64]string{1: eventloom.DeriveKey(secret, "transcript", legacy), 2: "erased 2", 3: "client-key"}, keys)

	in, err := ingest.New(pool, store, ingest.Config{})
	require.NoError(t, err)
	res, err := in.Transcript(ctx, p)
	require.NoError(t, err)
	require.True(t, res.Replayed, "the import made before the migration is recognized")
}
