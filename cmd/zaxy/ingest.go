package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/validation"
)

// textExts are the extensions a directory walk ingests.
var textExts = map[string]bool{
	".md": true, ".markdown": true, ".mdown": true, ".mkd": true, ".mdx": true,
	".txt": true, ".text": true, ".rst": true, ".adoc": true, ".asciidoc": true, ".org": true,
}

const textExtList = ".md .markdown .mdown .mkd .mdx .txt .text .rst .adoc .asciidoc .org"

// fileReport is one line of `zaxy ingest docs` output.
type fileReport struct {
	Path string `json:"path"`
	*ingest.DocumentResult
	Skipped string `json:"skipped,omitempty"`
	Error   string `json:"error,omitempty"`
}

// ingestDocsCmd: zaxy ingest docs [--space S] [--json] [--max-bytes N] PATH...
type ingestDocsCmd struct {
	space    string
	asJSON   bool
	maxBytes int
	paths    []string
}

func (c *ingestDocsCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space to append to (default $ZAXY_SPACE)")
	fs.BoolVar(&c.asJSON, "json", false, "print one JSON object per file")
	fs.IntVar(&c.maxBytes, "max-bytes", ingest.DefaultMaxChunkBytes, "chunk size limit in bytes")
}

func (c *ingestDocsCmd) validate(args []string) error {
	switch {
	case c.space == "":
		return errors.New("--space is required (or set ZAXY_SPACE)")
	case len(args) == 0:
		return errors.New("no PATH given")
	case c.maxBytes < 1:
		return errors.New("--max-bytes must be at least 1")
	}
	c.paths = args
	return eventloom.ValidateSpaceID(c.space)
}

func (c *ingestDocsCmd) run(ctx context.Context, env *env) error {
	in, err := ingest.New(env.pool, env.store, ingest.Config{MaxChunkBytes: c.maxBytes})
	if err != nil {
		return invalid(err)
	}
	return c.ingest(ctx, env, func(ctx context.Context, doc ingest.Document) (*ingest.DocumentResult, error) {
		res, err := in.Documents(ctx, &ingest.DocumentsParams{SpaceID: c.space, Documents: []ingest.Document{doc}})
		if err != nil {
			return nil, err
		}
		return &res.Documents[0], nil
	})
}

// runRemote sends each file to POST /documents; the server chunks with its own limit.
func (c *ingestDocsCmd) runRemote(ctx context.Context, env *env) error {
	if c.maxBytes != ingest.DefaultMaxChunkBytes {
		return invalid(errors.New("--max-bytes needs ZAXY_DATABASE_URL: over ZAXY_URL the server chunks with its own limit"))
	}
	return c.ingest(ctx, env, func(ctx context.Context, doc ingest.Document) (*ingest.DocumentResult, error) {
		res, err := env.api.IngestDocuments(ctx, c.space, &ingest.DocumentsParams{Documents: []ingest.Document{doc}})
		if err != nil {
			return nil, remoteErr(err, env.cfg.url)
		}
		return &res.Documents[0], nil
	})
}

// ingest walks the paths and ingests each text file through one, reporting each file.
func (c *ingestDocsCmd) ingest(ctx context.Context, env *env, one func(context.Context, ingest.Document) (*ingest.DocumentResult, error)) error {
	stdout := env.stdout
	var appended, unchanged, skipped, failed int
	report := func(r fileReport) {
		switch {
		case r.Error != "":
			failed++
		case r.Skipped != "":
			skipped++
		case r.Appended:
			appended++
		default:
			unchanged++
		}
		if c.asJSON {
			b, _ := json.Marshal(r)
			fmt.Fprintf(stdout, "%s\n", b)
			return
		}
		switch {
		case r.Error != "":
			fmt.Fprintf(stdout, "%s: FAILED: %s\n", r.Path, r.Error)
		case r.Skipped != "":
			fmt.Fprintf(stdout, "%s: skipped (%s)\n", r.Path, r.Skipped)
		case r.Appended:
			fmt.Fprintf(stdout, "%s: %d chunks, appended (seq %d-%d)%s\n", r.Path, r.Chunks, r.FirstSeq, r.LastSeq, redactedNote(r.Redactions))
		default:
			fmt.Fprintf(stdout, "%s: %d chunks, unchanged%s\n", r.Path, r.Chunks, redactedNote(r.Redactions))
		}
	}
	ingestFile := func(p string) {
		r := fileReport{Path: filepath.ToSlash(filepath.Clean(p))}
		b, err := os.ReadFile(p)
		switch {
		case err != nil:
			r.Error = err.Error()
		case bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b):
			r.Skipped = "binary or not UTF-8"
		case len(bytes.TrimSpace(b)) == 0:
			r.Skipped = "empty"
		default:
			res, err := one(ctx, ingest.Document{Path: r.Path, Text: string(b)})
			if err != nil {
				r.Error = strings.TrimPrefix(err.Error(), "documents[0].")
			} else {
				r.DocumentResult = res
			}
		}
		report(r)
	}
	for _, root := range c.paths {
		info, err := os.Stat(root)
		if err != nil {
			report(fileReport{Path: root, Error: err.Error()})
			continue
		}
		if !info.IsDir() {
			ingestFile(root)
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				report(fileReport{Path: p, Error: err.Error()})
				return nil
			}
			if p != root && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && textExts[strings.ToLower(filepath.Ext(p))] {
				ingestFile(p)
			}
			return ctx.Err()
		})
		if err != nil {
			report(fileReport{Path: root, Error: err.Error()})
			break
		}
	}
	if !c.asJSON {
		fmt.Fprintf(stdout, "%d appended, %d unchanged, %d skipped, %d failed\n", appended, unchanged, skipped, failed)
	}
	if failed > 0 {
		return errFailed
	}
	return nil
}

func redactedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d secrets redacted", n)
}

// ingestTranscriptCmd: zaxy ingest transcript [--space S] [--session ID] [--json] FILE.jsonl|-
type ingestTranscriptCmd struct {
	space, session, name string
	asJSON               bool
}

func (c *ingestTranscriptCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space to append to (default $ZAXY_SPACE)")
	fs.StringVar(&c.session, "session", "", "session id of turns that do not name one")
	fs.BoolVar(&c.asJSON, "json", false, "print the result as JSON")
}

func (c *ingestTranscriptCmd) validate(args []string) error {
	switch {
	case c.space == "":
		return errors.New("--space is required (or set ZAXY_SPACE)")
	case len(args) != 1:
		return fmt.Errorf("want exactly one FILE.jsonl (or - for stdin), got %d", len(args))
	}
	c.name = args[0]
	return eventloom.ValidateSpaceID(c.space)
}

func (c *ingestTranscriptCmd) run(ctx context.Context, env *env) error {
	in, err := ingest.New(env.pool, env.store, ingest.Config{})
	if err != nil {
		return invalid(err)
	}
	return c.ingest(ctx, env, func(ctx context.Context, turns []ingest.Turn) (*ingest.TranscriptResult, error) {
		return in.Transcript(ctx, &ingest.TranscriptParams{SpaceID: c.space, SessionID: c.session, Turns: turns})
	})
}

// runRemote sends the transcript's parts to POST /transcripts.
func (c *ingestTranscriptCmd) runRemote(ctx context.Context, env *env) error {
	return c.ingest(ctx, env, func(ctx context.Context, turns []ingest.Turn) (*ingest.TranscriptResult, error) {
		res, err := env.api.IngestTranscript(ctx, c.space, &ingest.TranscriptParams{SessionID: c.session, Turns: turns})
		return res, remoteErr(err, env.cfg.url)
	})
}

// ingest reads the transcript and imports it part by part (transcriptParts) through one,
// reporting each part as it lands: on a terminal as a line rewritten in place, elsewhere as
// a line per part when there is more than one.
func (c *ingestTranscriptCmd) ingest(ctx context.Context, env *env, one func(context.Context, []ingest.Turn) (*ingest.TranscriptResult, error)) error {
	name, r := c.name, env.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	turns, err := ingest.ParseTranscript(r)
	if err != nil {
		return invalid(fmt.Errorf("%s: %w (nothing was appended)", name, err))
	}
	if len(turns) == 0 {
		return invalid(fmt.Errorf("%s: no turns (nothing was appended)", name))
	}
	parts := transcriptParts(turns)
	progress := newProgress(env.stderr)
	res := &ingest.TranscriptResult{SpaceID: c.space, Replayed: true}
	done := 0
	for i, part := range parts {
		pr, err := one(ctx, part)
		if err != nil {
			progress.done()
			var ve *validation.Error
			if errors.As(err, &ve) || exitCode(err, 1) == 2 {
				err = invalid(err)
			}
			if i == 0 {
				return fmt.Errorf("%s: turns 1-%d: %w (nothing was appended)", name, len(part), err)
			}
			return fmt.Errorf("%s: turns %d-%d: %w (the turns before them were appended; running the same import again appends only what is missing)", name, done+1, done+len(part), err)
		}
		res.Receipts = append(res.Receipts, pr.Receipts...)
		res.Replayed = res.Replayed && pr.Replayed
		res.Batches += pr.Batches
		res.AppendedBatches += pr.AppendedBatches
		res.Redactions += pr.Redactions
		done += len(part)
		switch {
		case progress.tty:
			progress.show("zaxy ingest transcript: %d of %d turns", done, len(turns))
		case len(parts) > 1:
			state := "appended"
			if pr.Replayed {
				state = "unchanged"
			}
			fmt.Fprintf(env.stderr, "zaxy ingest transcript: %s: turns %d-%d of %d %s (seq %d-%d)\n", name, done-len(part)+1, done, len(turns),
				state, pr.Receipts[0].Seq, pr.Receipts[len(pr.Receipts)-1].Seq)
		}
	}
	progress.done()
	stdout := env.stdout
	if c.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(res)
		return nil
	}
	first, last := res.Receipts[0].Seq, res.Receipts[len(res.Receipts)-1].Seq
	if res.Replayed {
		fmt.Fprintf(stdout, "%s: %d messages, unchanged (imported before as seq %d-%d)\n", name, len(res.Receipts), first, last)
	} else {
		fmt.Fprintf(stdout, "%s: %d messages in %d batches, appended (seq %d-%d)%s\n", name, len(res.Receipts), res.Batches, first, last, redactedNote(res.Redactions))
	}
	return nil
}

// Transcript parts: the CLI imports a transcript in parts of at most transcriptPartTurns
// turns (one server batch) and about transcriptPartBytes of JSON (well under the API's
// default body limit), each keyed by its own content, so it can report progress between
// them and a repeated import of the same file appends nothing, over HTTP or the database.
const (
	transcriptPartTurns = 1000
	transcriptPartBytes = 512 << 10
)

// transcriptParts splits turns into the parts the CLI imports one by one.
func transcriptParts(turns []ingest.Turn) [][]ingest.Turn {
	var parts [][]ingest.Turn
	start, size := 0, 0
	for i := range turns {
		b, _ := json.Marshal(&turns[i])
		if i > start && (i-start == transcriptPartTurns || size+len(b) > transcriptPartBytes) {
			parts = append(parts, turns[start:i])
			start, size = i, 0
		}
		size += len(b) + 1
	}
	return append(parts, turns[start:])
}
