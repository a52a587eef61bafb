package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// eraseCmd: zaxy erase --space S --seq N --reason R [--actor A] [--json]. Replaces one event's
// content and data with the tombstone, records the erasure in the log and purges everything
// derived from the event (docs/eventloom.md, "Erasure"). Like every CLI command it acts with
// the database role's rights: whoever runs it holds the admin power.
func eraseCmd(ctx context.Context, args []string, dbURL string, getenv func(string) string, logger *slog.Logger, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("erase", flag.ContinueOnError)
	fs.SetOutput(stderr)
	space := fs.String("space", "", "space of the event (required)")
	seq := fs.Int64("seq", 0, "seq of the event to erase (required)")
	reason := fs.String("reason", "", "why, 1-1000 characters, recorded in the log: never repeat the erased text (required)")
	actor := fs.String("actor", "", "who asked, recorded as the erasure event's actor")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	p := &eventloom.EraseParams{SpaceID: *space, Seq: *seq, Reason: *reason, Actor: *actor}
	if err := p.Validate(); err != nil {
		fmt.Fprintf(stderr, "zaxy erase: %v\n", err)
		return 2
	}
	cfg, err := parseMemoryConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy erase: %v\n", err)
		return 2
	}
	pool, store, closeFn, err := openPoolStore(ctx, dbURL, logger)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy erase: %v\n", err)
		return 2
	}
	defer closeFn()
	proj, err := projection.New(ctx, pool, projection.Config{TextSearchConfig: cfg.textSearchConfig, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "zaxy erase: %v\n", err)
		return 2
	}
	res, err := erasure.New(pool, store, proj, logger).Erase(ctx, p)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy erase: %v\n", err)
		return 1
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(res)
		return 0
	}
	fmt.Fprintf(stdout, "erased: space %s seq %d (erasure recorded at seq %d hash %s); projections rebuilt from %d events, %d vectors and %d inferences purged\n",
		res.SpaceID, res.Seq, res.ErasureSeq, res.ErasureHash, res.Rebuild.Events, res.Rebuild.EmbeddingsPruned, res.InferencesDeleted)
	return 0
}
