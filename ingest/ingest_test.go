package ingest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/redact"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/validation"
)

type fixture struct {
	store *eventloom.Store
	// exec is what the store and the ingester run on: a pool, or a test transaction.
	exec pgexec.Executor
	in   *ingest.Ingester
	// db is the test's own database (nil on a test transaction).
	db *testcontainers.Database
	// counter counts the events: the owner's pool, or the test transaction.
	counter pgexec.Executor
}

// newFixture runs on a database of the test's own, for tests that commit, run several
// sessions at once or change the schema.
func newFixture(t *testing.T, cfg ingest.Config) *fixture {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	f := newFixtureOn(t, db.AppPool(t), cfg)
	f.db, f.counter = db, db.AdminPool(t)
	return f
}

// newFixtureTx runs on a rolled-back test transaction (testcontainers.TestTx), where the
// ingester's transactions are savepoints. Each such test writes to spaces no other test uses.
func newFixtureTx(t *testing.T, cfg ingest.Config) *fixture {
	t.Helper()
	tx := testcontainers.TestTx(t)
	f := newFixtureOn(t, tx, cfg)
	f.counter = tx
	return f
}

func newFixtureOn(t *testing.T, exec pgexec.Executor, cfg ingest.Config) *fixture {
	t.Helper()
	store := eventloom.NewStore(exec, nil, nil)
	in, err := ingest.New(exec, store, cfg)
	require.NoError(t, err)
	return &fixture{store: store, exec: exec, in: in}
}

func (f *fixture) count(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, f.counter.QueryRow(context.Background(), `SELECT count(*) FROM events`).Scan(&n))
	return n
}

func (f *fixture) replay(t *testing.T, space string) []eventloom.Event {
	t.Helper()
	page, err := f.store.Replay(context.Background(), &eventloom.ReplayParams{SpaceID: space, Limit: eventloom.MaxReplayLimit})
	require.NoError(t, err)
	return page.Events
}

type chunkData struct {
	DocumentID     string `json:"document_id"`
	Path           string `json:"path"`
	Start          int    `json:"start"`
	End            int    `json:"end"`
	ChunkIndex     int    `json:"chunk_index"`
	ChunkCount     int    `json:"chunk_count"`
	DocumentSHA256 string `json:"document_sha256"`
}

func decodeChunk(t *testing.T, e eventloom.Event) chunkData {
	t.Helper()
	require.Equal(t, "document.chunk", e.Type)
	var d chunkData
	require.NoError(t, json.Unmarshal(e.Data, &d))
	return d
}

const guide = `# Guide

Zaxy keeps memory in Postgres. It is for agents — and for the people who run them.

## Install

Run the migrations first. Then start the server.

` + "```sh\n# not a heading\nzaxy migrate\n```" + `

## Use

Append events. Check out packets. Ünïcödé text is kept byte for byte: 日本語の文です。

## Limits

Chunks are at most the configured size.
`

func TestDocuments_MarkdownChunksCarryExactOffsets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixtureTx(t, ingest.Config{MaxChunkBytes: 120})
	res, err := f.in.Documents(ctx, &ingest.DocumentsParams{SpaceID: "docs", Documents: []ingest.Document{{Path: "docs/guide.md", Text: guide}}})
	require.NoError(t, err)
	require.Len(t, res.Documents, 1)
	d := res.Documents[0]
	require.True(t, d.Appended)
	require.Equal(t, "docs/guide.md", d.DocumentID)
	require.Greater(t, d.Chunks, 3)
	require.EqualValues(t, 1, d.FirstSeq)
	require.EqualValues(t, d.Chunks, d.LastSeq)

	events := f.replay(t, "docs")
	require.Len(t, events, d.Chunks)
	var rebuilt strings.Builder
	for i, e := range events {
		c := decodeChunk(t, e)
		require.Equal(t, guide[c.Start:c.End], e.Content, "chunk %d", i)
		require.Equal(t, len(e.Content), c.End-c.Start)
		require.Equal(t, i, c.ChunkIndex)
		require.Equal(t, d.Chunks, c.ChunkCount)
		require.Equal(t, "docs/guide.md", c.DocumentID)
		require.Equal(t, "docs/guide.md", c.Path)
		require.Equal(t, d.DocumentSHA256, c.DocumentSHA256)
		require.Equal(t, "ingest", e.Actor)
		rebuilt.WriteString(e.Content)
	}
	require.Equal(t, guide, rebuilt.String())
	// Markdown-aware: the sections start chunks, and the fenced "# not a heading" does not.
	starts := map[string]bool{}
	for _, e := range events {
		starts[strings.SplitN(e.Content, "\n", 2)[0]] = true
	}
	for _, h := range []string{"## Install", "## Use", "## Limits"} {
		require.True(t, starts[h], "%s should start a chunk: %v", h, starts)
	}
	require.False(t, starts["# not a heading"])
}

func TestDocuments_UnchangedAppendsNothingChangedAppendsNewVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixtureTx(t, ingest.Config{MaxChunkBytes: 120})
	ingestOnce := func(text string) ingest.DocumentResult {
		res, err := f.in.Documents(ctx, &ingest.DocumentsParams{SpaceID: "versions",
			Documents: []ingest.Document{{Path: "guide.md", DocumentID: "guide", Text: text}}})
		require.NoError(t, err)
		return res.Documents[0]
	}
	first := ingestOnce(guide)
	require.True(t, first.Appended)
	n := f.count(t)

	again := ingestOnce(guide)
	require.False(t, again.Appended)
	require.Equal(t, first.FirstSeq, again.FirstSeq)
	require.Equal(t, first.LastSeq, again.LastSeq)
	require.Equal(t, n, f.count(t), "an unchanged document appends nothing")

	changed := ingestOnce(guide + "\n## New\n\nA new section.\n")
	require.True(t, changed.Appended)
	require.NotEqual(t, first.DocumentSHA256, changed.DocumentSHA256)
	require.Equal(t, first.LastSeq+1, changed.FirstSeq)
	require.Equal(t, n+changed.Chunks, f.count(t))

	// The same version chunked differently (another chunk size) counts as unchanged.
	other, err := ingest.New(f.exec, f.store, ingest.Config{MaxChunkBytes: 500})
	require.NoError(t, err)
	res, err := other.Documents(ctx, &ingest.DocumentsParams{SpaceID: "versions",
		Documents: []ingest.Document{{Path: "guide.md", DocumentID: "guide", Text: guide}}})
	require.NoError(t, err)
	require.False(t, res.Documents[0].Appended)
	require.Equal(t, n+changed.Chunks, f.count(t))
}

func TestDocuments_BadInputAnywhereAppendsNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixtureTx(t, ingest.Config{})
	docs := []ingest.Document{{Path: "a.txt", Text: "alpha"}, {Path: "b.md", Text: "# beta"}}
	res, err := f.in.Documents(ctx, &ingest.DocumentsParams{SpaceID: "bad-input", Documents: docs})
	require.NoError(t, err)
	require.True(t, res.Appended())
	require.EqualValues(t, 2, res.Documents[1].FirstSeq)

	// One new document and one invalid one: nothing is appended.
	_, err = f.in.Documents(ctx, &ingest.DocumentsParams{SpaceID: "bad-input",
		Documents: []ingest.Document{{Path: "c.txt", Text: "gamma"}, {Path: "d.txt", Text: "bad\x00"}}})
	var ve *validation.Error
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "documents[1].text", ve.Field)
	require.Equal(t, 2, f.count(t))

	res, err = f.in.Documents(ctx, &ingest.DocumentsParams{SpaceID: "bad-input", Documents: docs})
	require.NoError(t, err)
	require.False(t, res.Appended())
}

func TestDocuments_RejectsBadInputNamingTheField(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixtureTx(t, ingest.Config{MaxChunkBytes: 10, MaxChunksPerDocument: 3})
	cases := []struct {
		name  string
		doc   ingest.Document
		field string
	}{
		{"no path or id", ingest.Document{Text: "x"}, "documents[0].path"},
		{"blank id", ingest.Document{Path: "a", DocumentID: " ", Text: "x"}, "documents[0].document_id"},
		{"empty text", ingest.Document{Path: "a"}, "documents[0].text"},
		{"invalid utf-8", ingest.Document{Path: "a", Text: "\xff"}, "documents[0].text"},
		{"bad format", ingest.Document{Path: "a", Text: "x", Format: "html"}, "documents[0].format"},
		{"too many chunks", ingest.Document{Path: "a", Text: strings.Repeat("word ", 20)}, "documents[0].text"},
	}
	for _, tc := range cases {
		_, err := f.in.Documents(ctx, &ingest.DocumentsParams{SpaceID: "s", Documents: []ingest.Document{tc.doc}})
		var ve *validation.Error
		require.ErrorAs(t, err, &ve, tc.name)
		require.Equal(t, tc.field, ve.Field, tc.name)
	}
	_, err := f.in.Documents(ctx, &ingest.DocumentsParams{SpaceID: "Bad Space", Documents: []ingest.Document{{Path: "a", Text: "x"}}})
	require.ErrorIs(t, err, validation.ErrInvalid)
	require.Equal(t, 0, f.count(t))
}

// secretsDoc holds one secret of every kind Redact knows.
var secretsDoc = strings.Join([]string{
	"# Secrets that must never reach the log",
	"openai: " + fakeOpenAI,
	"project: " + fakeOpenAIPrj,
	"anthropic: " + fakeAnthropic,
	"aws id: " + fakeAWSID,
	"aws_secret_access_key=" + fakeAWSSecret,
	"github: " + fakeGitHub + " " + fakeGitHubPAT,
	"slack: " + fakeSlack,
	"google: " + fakeGoogle,
	"stripe: " + fakeStripe,
	"Authorization: Bearer opaque-header-token",
	"token in prose: Bearer " + fakeJWT,
	fakePEM,
	"db: postgres://app:Sup3rS3cret@db.internal/zaxy",
	`config: {"password": "correct-horse-battery"}`,
	"client_secret=0a1b2c3d4e5f6a7b",
}, "\n")

var secrets = []string{fakeOpenAI, fakeOpenAIPrj, fakeAnthropic, fakeAWSID, fakeAWSSecret, fakeGitHub, fakeGitHubPAT,
	fakeSlack, fakeGoogle, fakeStripe, "opaque-header-token", fakeJWT, "MIIEowIBAAKCAQEAu1SU1", "Sup3rS3cret",
	"correct-horse-battery", "0a1b2c3d4e5f6a7b"}

var kinds = []string{"openai_api_key", "anthropic_api_key", "aws_access_key_id", "aws_secret_access_key", "github_token",
	"slack_token", "google_api_key", "stripe_key", "authorization_header", "bearer_token", "private_key", "url_password",
	"password", "secret"}

func TestDocuments_SecretsReachTheLogRedacted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixtureTx(t, ingest.Config{MaxChunkBytes: 64})
	res, err := f.in.Documents(ctx, &ingest.DocumentsParams{SpaceID: "sec", Documents: []ingest.Document{{Path: "notes.md", Text: secretsDoc}}})
	require.NoError(t, err)
	require.Equal(t, len(secrets), res.Documents[0].Redactions)
	var all strings.Builder
	redacted, _ := redact.String(secretsDoc)
	for _, e := range f.replay(t, "sec") {
		c := decodeChunk(t, e)
		require.Equal(t, redacted[c.Start:c.End], e.Content, "offsets refer to the redacted text")
		all.WriteString(e.Content)
		for _, s := range secrets {
			require.NotContains(t, string(e.Data), s)
		}
	}
	log := all.String()
	require.Equal(t, redacted, log)
	for _, s := range secrets {
		require.NotContains(t, log, s)
	}
	for _, k := range kinds {
		require.Contains(t, log, "[REDACTED:"+k+"]")
	}
	require.Contains(t, log, "postgres://app:[REDACTED:url_password]@db.internal/zaxy")
}

func TestTranscript_AppendsRedactedMessagesIdempotently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixtureTx(t, ingest.Config{TranscriptBatch: 2})
	jsonl := `{"role":"system","content":"You are helpful."}
{"role":"user","content":"my key is ` + fakeAnthropic + `","name":"ana","occurred_at":"2026-01-02T15:04:05Z"}

{"role":"assistant","content":"Please rotate it.","actor":"bot-1"}
{"role":"tool","content":"rotated","session_id":"other","name":"rotate_key"}
{"role":"user","content":"thanks"}
`
	turns, err := ingest.ParseTranscript(strings.NewReader(jsonl))
	require.NoError(t, err)
	require.Len(t, turns, 5)
	p := &ingest.TranscriptParams{SpaceID: "chat", SessionID: "s1", Turns: turns}
	res, err := f.in.Transcript(ctx, p)
	require.NoError(t, err)
	require.Len(t, res.Receipts, 5)
	require.Equal(t, 3, res.Batches)
	require.Equal(t, 3, res.AppendedBatches)
	require.False(t, res.Replayed)
	require.Equal(t, 1, res.Redactions)

	events := f.replay(t, "chat")
	require.Len(t, events, 5)
	require.Equal(t, "message", events[1].Type)
	require.Equal(t, "my key is [REDACTED:anthropic_api_key]", events[1].Content)
	require.JSONEq(t, `{"role":"user","name":"ana"}`, string(events[1].Data))
	require.Equal(t, "2026-01-02T15:04:05Z", events[1].OccurredAt.UTC().Format("2006-01-02T15:04:05Z07:00"))
	require.Equal(t, "s1", events[0].SessionID)
	require.Equal(t, "bot-1", events[2].Actor)
	require.Equal(t, "other", events[3].SessionID)
	require.JSONEq(t, `{"role":"tool","name":"rotate_key"}`, string(events[3].Data))

	// A retried import appends nothing and answers with the original receipts.
	again, err := f.in.Transcript(ctx, p)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, 0, again.AppendedBatches)
	require.Equal(t, res.Receipts, again.Receipts)
	require.Equal(t, 5, f.count(t))
}

func TestTranscript_RetryAfterAPartialImportAppendsOnlyTheRest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixtureTx(t, ingest.Config{TranscriptBatch: 2})
	turns := make([]ingest.Turn, 5)
	for i := range turns {
		turns[i] = ingest.Turn{Role: "user", Content: fmt.Sprintf("turn %d", i)}
	}
	p := &ingest.TranscriptParams{SpaceID: "chat-retry", Turns: turns}
	// An earlier import committed its first batch (2 events) and then died.
	hash, err := ingest.TranscriptContentHash(p)
	require.NoError(t, err)
	var first []eventloom.NewEvent
	for _, turn := range turns[:2] {
		first = append(first, eventloom.NewEvent{Type: "message", Content: turn.Content, Data: json.RawMessage(`{"role":"user"}`)})
	}
	keys, err := f.store.DerivedKeys(ctx, "chat-retry", "transcript", ingest.TranscriptKeyMaterial(hash, 0))
	require.NoError(t, err)
	_, err = f.store.Append(ctx, &eventloom.AppendParams{SpaceID: "chat-retry", Events: first, IdempotencyKey: keys[0]})
	require.NoError(t, err)

	res, err := f.in.Transcript(ctx, p)
	require.NoError(t, err)
	require.Equal(t, 5, f.count(t), "a retry appends only the missing batches")
	require.Len(t, res.Receipts, 5)
	require.Equal(t, 3, res.Batches)
	require.Equal(t, 2, res.AppendedBatches)
	require.False(t, res.Replayed)
	for i, r := range res.Receipts {
		require.EqualValues(t, i+1, r.Seq)
	}
}

func TestTranscript_BadLineAppendsNothing(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, jsonl, err string }{
		{"bad role", "{\"role\":\"user\",\"content\":\"a\"}\n\n{\"role\":\"robot\",\"content\":\"b\"}\n", "line 3: role: must be one of user, assistant, system, tool"},
		{"missing content", "{\"role\":\"user\"}\n", "line 1: content: is required"},
		{"unknown field", "{\"role\":\"user\",\"content\":\"a\",\"tool_calls\":[]}\n", "line 1: tool_calls: is not a known field"},
		{"not json", "{\"role\":\"user\",\"content\":\"a\"}\nnot json\n", "line 2: must be a JSON object"},
		{"broken json", "{\"role\":\"user\",", "line 1: is not valid JSON"},
		{"bad time", "{\"role\":\"user\",\"content\":\"a\",\"occurred_at\":\"yesterday\"}\n", "line 1: occurred_at: must be an RFC 3339 timestamp"},
		{"number content", "{\"role\":\"user\",\"content\":5}\n", "line 1: content: must be a string"},
	}
	for _, tc := range cases {
		turns, err := ingest.ParseTranscript(strings.NewReader(tc.jsonl))
		require.ErrorIs(t, err, validation.ErrInvalid, tc.name)
		require.Contains(t, err.Error(), tc.err, tc.name)
		require.Nil(t, turns, tc.name)
	}

	// Turns handed over directly are validated before anything is appended.
	f := newFixtureTx(t, ingest.Config{TranscriptBatch: 1})
	_, err := f.in.Transcript(context.Background(), &ingest.TranscriptParams{SpaceID: "chat-bad", Turns: []ingest.Turn{
		{Role: "user", Content: "fine"}, {Role: "user", Content: "fine too"}, {Role: "boss", Content: "x"}}})
	var ve *validation.Error
	require.True(t, errors.As(err, &ve))
	require.Equal(t, "turns[2].role", ve.Field)
	require.Equal(t, 0, f.count(t))
}

func TestDecodeBodies_NameTheField(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, body, field string }{
		{"documents missing", `{}`, "documents"},
		{"documents not array", `{"documents":{}}`, "documents"},
		{"unknown top field", `{"documents":[],"x":1}`, "x"},
		{"document not object", `{"documents":[1]}`, "documents[0]"},
		{"text not string", `{"documents":[{"path":"a","text":5}]}`, "documents[0].text"},
		{"unknown document field", `{"documents":[{"path":"a","text":"x","body":"y"}]}`, "documents[0].body"},
	}
	for _, tc := range cases {
		_, err := ingest.DecodeDocumentsBody([]byte(tc.body))
		var ve *validation.Error
		require.ErrorAs(t, err, &ve, tc.name)
		require.Equal(t, tc.field, ve.Field, tc.name)
	}
	p, err := ingest.DecodeDocumentsBody([]byte(`{"documents":[{"path":"a.md","document_id":"A","text":"x","format":"text"}]}`))
	require.NoError(t, err)
	require.Equal(t, []ingest.Document{{Path: "a.md", DocumentID: "A", Text: "x", Format: "text"}}, p.Documents)

	tp, err := ingest.DecodeTranscriptBody([]byte(`{"session_id":"s","turns":[{"role":"user","content":"hi"}]}`))
	require.NoError(t, err)
	require.Equal(t, "s", tp.SessionID)
	require.Equal(t, []ingest.Turn{{Role: "user", Content: "hi"}}, tp.Turns)
	_, err = ingest.DecodeTranscriptBody([]byte(`{"turns":[{"role":"user","content":"hi"},{"role":1}]}`))
	var ve *validation.Error
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "turns[1].role", ve.Field)
	_, err = ingest.DecodeTranscriptBody([]byte(`{"turns":`))
	require.ErrorIs(t, err, validation.ErrInvalid)
}

func TestDerivedKeysAreValidIdempotencyKeys(t *testing.T) {
	t.Parallel()
	for _, k := range []string{
		eventloom.DeriveKey(make([]byte, 32), "doc", ingest.DocumentKeyMaterial("guide", strings.Repeat("a", 64))),
		eventloom.DeriveKey(make([]byte, 32), "transcript", ingest.TranscriptKeyMaterial(strings.Repeat("b", 64), 12345)),
	} {
		require.NoError(t, eventloom.ValidateIdempotencyKey(k))
	}
}
