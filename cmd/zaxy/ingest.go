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
			res, err := in.Documents(ctx, &ingest.DocumentsParams{SpaceID: c.space, Documents: []ingest.Document{{Path: r.Path, Text: string(b)}}})
			if err != nil {
				r.Error = strings.TrimPrefix(err.Error(), "documents[0].")
			} else {
				r.DocumentResult = &res.Documents[0]
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
		return fmt.Errorf("%s: %w (nothing was appended)", name, err)
	}
	if len(turns) == 0 {
		return fmt.Errorf("%s: no turns (nothing was appended)", name)
	}
	in, err := ingest.New(env.pool, env.store, ingest.Config{})
	if err != nil {
		return invalid(err)
	}
	res, err := in.Transcript(ctx, &ingest.TranscriptParams{SpaceID: c.space, SessionID: c.session, Turns: turns})
	if err != nil {
		var ve *validation.Error
		if errors.As(err, &ve) {
			return fmt.Errorf("%s: %w (nothing was appended)", name, err)
		}
		return fmt.Errorf("%s: %w (earlier batches may have been appended; running the same import again appends only what is missing)", name, err)
	}
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
