package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
)

const ingestUsage = `usage:
  zaxy ingest docs [--space S] [--json] [--max-bytes N] PATH...
      files, or directories walked recursively for text files (` + textExtList + `);
      dot-directories, dot-files and binary files are skipped
  zaxy ingest transcript [--space S] [--session ID] [--json] FILE.jsonl|-
      JSON lines {"role","content","session_id"?,"actor"?,"occurred_at"?,"name"?}
--space defaults to $ZAXY_SPACE.
`

// textExts are the extensions a directory walk ingests.
var textExts = map[string]bool{
	".md": true, ".markdown": true, ".mdown": true, ".mkd": true, ".mdx": true,
	".txt": true, ".text": true, ".rst": true, ".adoc": true, ".asciidoc": true, ".org": true,
}

const textExtList = ".md .markdown .mdown .mkd .mdx .txt .text .rst .adoc .asciidoc .org"

// ingestCmd: zaxy ingest docs|transcript ...
func ingestCmd(ctx context.Context, args []string, getenv func(string) string, dbURL string, logger *slog.Logger, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stderr, ingestUsage)
		return 2
	}
	switch args[0] {
	case "docs":
		return ingestDocsCmd(ctx, args[1:], getenv, dbURL, logger, stdout, stderr)
	case "transcript":
		return ingestTranscriptCmd(ctx, args[1:], getenv, dbURL, logger, stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "zaxy ingest: unknown kind %q (want docs or transcript)\n%s", args[0], ingestUsage)
	return 2
}

// parseInterspersed parses flags that may come before, between or after the positional
// arguments, and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// fileReport is one line of `zaxy ingest docs` output.
type fileReport struct {
	Path string `json:"path"`
	*ingest.DocumentResult
	Skipped string `json:"skipped,omitempty"`
	Error   string `json:"error,omitempty"`
}

func ingestDocsCmd(ctx context.Context, args []string, getenv func(string) string, dbURL string, logger *slog.Logger, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("ingest docs", flag.ContinueOnError)
	fl.SetOutput(stderr)
	space := fl.String("space", getenv("ZAXY_SPACE"), "space to append to (default $ZAXY_SPACE)")
	asJSON := fl.Bool("json", false, "print one JSON object per file")
	maxBytes := fl.Int("max-bytes", ingest.DefaultMaxChunkBytes, "chunk size limit in bytes")
	paths, err := parseInterspersed(fl, args)
	if err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "zaxy ingest docs: "+format+"\n", a...)
		return 2
	}
	switch {
	case *space == "":
		return fail("--space is required (or set ZAXY_SPACE)")
	case len(paths) == 0:
		return fail("no PATH given\n%s", ingestUsage)
	case *maxBytes < 1:
		return fail("--max-bytes must be at least 1")
	}
	if err := eventloom.ValidateSpaceID(*space); err != nil {
		return fail("%v", err)
	}
	in, closeFn, err := openIngester(ctx, dbURL, logger, ingest.Config{MaxChunkBytes: *maxBytes})
	if err != nil {
		return fail("%v", err)
	}
	defer closeFn()

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
		if *asJSON {
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
			res, err := in.Documents(ctx, &ingest.DocumentsParams{SpaceID: *space, Documents: []ingest.Document{{Path: r.Path, Text: string(b)}}})
			if err != nil {
				r.Error = strings.TrimPrefix(err.Error(), "documents[0].")
			} else {
				r.DocumentResult = &res.Documents[0]
			}
		}
		report(r)
	}
	for _, root := range paths {
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
	if !*asJSON {
		fmt.Fprintf(stdout, "%d appended, %d unchanged, %d skipped, %d failed\n", appended, unchanged, skipped, failed)
	}
	if failed > 0 {
		return 1
	}
	return 0
}

func redactedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d secrets redacted", n)
}

func ingestTranscriptCmd(ctx context.Context, args []string, getenv func(string) string, dbURL string, logger *slog.Logger, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("ingest transcript", flag.ContinueOnError)
	fl.SetOutput(stderr)
	space := fl.String("space", getenv("ZAXY_SPACE"), "space to append to (default $ZAXY_SPACE)")
	session := fl.String("session", "", "session id of turns that do not name one")
	asJSON := fl.Bool("json", false, "print the result as JSON")
	files, err := parseInterspersed(fl, args)
	if err != nil {
		return 2
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "zaxy ingest transcript: "+format+"\n", a...)
		return code
	}
	switch {
	case *space == "":
		return fail(2, "--space is required (or set ZAXY_SPACE)")
	case len(files) != 1:
		return fail(2, "want exactly one FILE.jsonl (or - for stdin), got %d\n%s", len(files), ingestUsage)
	}
	if err := eventloom.ValidateSpaceID(*space); err != nil {
		return fail(2, "%v", err)
	}
	name, r := files[0], stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail(1, "%v", err)
		}
		defer f.Close()
		r = f
	}
	turns, err := ingest.ParseTranscript(r)
	if err != nil {
		return fail(1, "%s: %v (nothing was appended)", name, err)
	}
	if len(turns) == 0 {
		return fail(1, "%s: no turns (nothing was appended)", name)
	}
	in, closeFn, err := openIngester(ctx, dbURL, logger, ingest.Config{})
	if err != nil {
		return fail(2, "%v", err)
	}
	defer closeFn()
	res, err := in.Transcript(ctx, &ingest.TranscriptParams{SpaceID: *space, SessionID: *session, Turns: turns})
	if err != nil {
		var ve *eventloom.ValidationError
		if errors.As(err, &ve) {
			return fail(1, "%s: %v (nothing was appended)", name, err)
		}
		return fail(1, "%s: %v (earlier batches may have been appended; running the same import again appends only what is missing)", name, err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(res)
		return 0
	}
	first, last := res.Receipts[0].Seq, res.Receipts[len(res.Receipts)-1].Seq
	if res.Replayed {
		fmt.Fprintf(stdout, "%s: %d messages, unchanged (imported before as seq %d-%d)\n", name, len(res.Receipts), first, last)
	} else {
		fmt.Fprintf(stdout, "%s: %d messages in %d batches, appended (seq %d-%d)%s\n", name, len(res.Receipts), res.Batches, first, last, redactedNote(res.Redactions))
	}
	return 0
}

// openIngester connects an Ingester through openStore.
func openIngester(ctx context.Context, dbURL string, logger *slog.Logger, cfg ingest.Config) (*ingest.Ingester, func(), error) {
	pool, store, closeFn, err := openPoolStore(ctx, dbURL, logger)
	if err != nil {
		return nil, nil, err
	}
	in, err := ingest.New(pool, store, cfg)
	if err != nil {
		closeFn()
		return nil, nil, err
	}
	return in, closeFn, nil
}
