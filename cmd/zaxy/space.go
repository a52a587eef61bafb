package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/spacelog"
	"github.com/zaxy/zaxy/validation"
)

// spaceExportCmd: zaxy space export --space S [--out FILE] [--json]. Writes the space's whole
// log (docs/scaling.md, "Moving a space's log: export and import") to FILE or stdout; the
// summary goes to stdout with --out, to stderr otherwise.
type spaceExportCmd struct {
	space, out string
	asJSON     bool
}

func (c *spaceExportCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.space, "space", "", "space to export (required)")
	fs.StringVar(&c.out, "out", "", "file to write (default stdout); written beside it and renamed when complete")
	fs.BoolVar(&c.asJSON, "json", false, "print the summary as JSON")
}

func (c *spaceExportCmd) validate(args []string) error {
	if c.space == "" {
		return errNeedsSpace
	}
	return noArgs(args)
}

func (c *spaceExportCmd) run(ctx context.Context, env *env) error {
	report := env.stderr
	if c.out == "" {
		sum, err := spacelog.Export(ctx, env.pool, env.stdout, c.space)
		if err != nil {
			return invalidIf(err)
		}
		return c.print(report, sum)
	}
	f, err := os.CreateTemp(filepath.Dir(c.out), ".zaxy-export-*")
	if err != nil {
		return fmt.Errorf("create export file: %w", err)
	}
	defer os.Remove(f.Name()) //nolint:errcheck // gone after the rename
	sum, err := spacelog.Export(ctx, env.pool, f, c.space)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return invalidIf(err)
	}
	if err := os.Rename(f.Name(), c.out); err != nil {
		return fmt.Errorf("write export file: %w", err)
	}
	return c.print(env.stdout, sum)
}

func (c *spaceExportCmd) print(w io.Writer, sum *spacelog.Summary) error {
	if c.asJSON {
		return json.NewEncoder(w).Encode(sum)
	}
	_, err := fmt.Fprintf(w, "exported: space %s, %d events, head seq %d hash %s, %d idempotency records, %d bytes\n",
		sum.SpaceID, sum.Events, sum.HeadSeq, sum.HeadHash, sum.IdempotencyKeys, sum.Bytes)
	return err
}

// spaceImportCmd: zaxy space import --space S [FILE|-] [--head-hash HEX] [--check] [--json].
// Imports an export into the empty space S of this database, or with --check only verifies
// the file (no database needed). Runs as the schema owner.
type spaceImportCmd struct {
	space, headHex string
	check, asJSON  bool
	file           string
	headHash       eventloom.Hash
}

func (c *spaceImportCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.space, "space", "", "space to import into; must be the file's (required)")
	fs.StringVar(&c.headHex, "head-hash", "", "the chain head (64 hex characters) the file must end at, known from elsewhere")
	fs.BoolVar(&c.check, "check", false, "verify the file only; write nothing")
	fs.BoolVar(&c.asJSON, "json", false, "print the summary as JSON")
}

func (c *spaceImportCmd) validate(args []string) error {
	if c.space == "" {
		return errNeedsSpace
	}
	if c.headHex != "" {
		h, err := hex.DecodeString(c.headHex)
		if err != nil || len(h) != 32 {
			return fmt.Errorf("--head-hash must be 64 hex characters, got %q", c.headHex)
		}
		c.headHash = h
	}
	switch len(args) {
	case 0:
		c.file = "-"
	case 1:
		c.file = args[0]
	default:
		return fmt.Errorf("want at most one FILE (or - for stdin), got %d", len(args))
	}
	return nil
}

func (c *spaceImportCmd) run(ctx context.Context, env *env) error {
	r := env.stdin
	if c.file != "-" {
		f, err := os.Open(c.file)
		if err != nil {
			return invalid(fmt.Errorf("open export file: %w", err))
		}
		defer f.Close()
		r = f
	}
	var (
		sum *spacelog.Summary
		err error
	)
	if c.check {
		sum, err = spacelog.Check(r, c.space, c.headHash)
	} else {
		if env.pool == nil {
			return env.dbErr
		}
		client, cerr := jobs.NewInsertOnlyClient(env.pool, env.logger)
		if cerr != nil {
			return cerr
		}
		sum, err = spacelog.Import(ctx, env.pool, r, spacelog.ImportParams{Space: c.space, HeadHash: c.headHash,
			Outbox: jobs.NewOutbox(client)})
	}
	if err != nil {
		if errors.Is(err, validation.ErrInvalid) {
			return invalid(err)
		}
		return err
	}
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(sum)
	}
	verb := "imported"
	if c.check {
		verb = "ok"
	}
	_, err = fmt.Fprintf(env.stdout, "%s: space %s, %d events, head seq %d hash %s, %d idempotency records\n",
		verb, sum.SpaceID, sum.Events, sum.HeadSeq, sum.HeadHash, sum.IdempotencyKeys)
	return err
}
