// Package ingest turns documents and conversation transcripts into Eventloom events:
// documents become "document.chunk" events (markdown-aware chunks with byte offsets) and
// transcript turns become "message" events. Secrets (API keys, tokens, private keys,
// passwords) are redacted by package redact before anything is chunked or appended (unless
// the space switched redaction off), and every append is idempotent so a repeated ingest of
// unchanged input appends nothing. Documents are appended in bounded transactions of whole
// documents.
//
// It only appends: it never updates or deletes events, never writes a secret it recognises
// to the log, and never appends part of a document or part of a transcript batch.
package ingest
