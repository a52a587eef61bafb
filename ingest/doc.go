// Package ingest turns documents and conversation transcripts into Eventloom events:
// documents become "document.chunk" events (markdown-aware chunks with byte offsets) and
// transcript turns become "message" events. Secrets (API keys, tokens, private keys,
// passwords) are redacted before anything is chunked or appended, and every append is
// idempotent so a repeated ingest of unchanged input appends nothing.
//
// It only appends: it never updates or deletes events, never writes a secret it recognises
// to the log, and never appends part of a document or part of a transcript batch.
package ingest
