// Package redact finds secrets (API keys, tokens, private keys, passwords) in text and JSON
// and replaces each whole value with "[REDACTED:<kind>]". It is the one redactor of every
// write path: the Eventloom applies it to every event before the insert (unless the space
// recorded redaction.configured {"mode":"off"}), and ingest applies it to whole documents
// before chunking. docs/redaction.md lists the patterns.
//
// It never does I/O, never logs what it found, and runs in time linear in its input (RE2
// expressions only).
package redact
