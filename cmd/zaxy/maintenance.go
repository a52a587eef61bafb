package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/zaxy/zaxy/maintenance"
)

// reindexConfig is the reindex job's schedule and thresholds (ZAXY_REINDEX_*).
type reindexConfig struct {
	// interval is how often the job runs; 0 is off.
	interval time.Duration
	// thresholds select the indexes rebuilt.
	thresholds maintenance.Config
}

// readReindexConfig reads ZAXY_REINDEX_INTERVAL (a duration, 0 for off),
// ZAXY_REINDEX_MIN_BYTES and ZAXY_REINDEX_MIN_WASTE.
func readReindexConfig(r envReader) (reindexConfig, error) {
	var c reindexConfig
	v := r.str("ZAXY_REINDEX_INTERVAL")
	if v != "0" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return c, fmt.Errorf("ZAXY_REINDEX_INTERVAL must be a duration such as 24h, or 0 for off, got %q", v)
		}
		c.interval = d
	}
	n, err := r.positive("ZAXY_REINDEX_MIN_BYTES", 0)
	if err != nil {
		return c, err
	}
	c.thresholds.MinBytes = n
	w := r.str("ZAXY_REINDEX_MIN_WASTE")
	p, err := strconv.Atoi(w)
	if err != nil || p < 1 || p > 99 {
		return c, fmt.Errorf("ZAXY_REINDEX_MIN_WASTE must be a whole percentage between 1 and 99, got %q", w)
	}
	c.thresholds.MinWastePercent = p
	return c, nil
}

// maintenanceReindexCmd: zaxy maintenance reindex [--dry-run] [--min-bytes N] [--min-waste P]
// [--json]. Runs the reindex job once: drops what failed rebuilds left, rebuilds the selected
// indexes one at a time with REINDEX INDEX CONCURRENTLY; --dry-run lists every index with its
// size and estimated waste and changes nothing.
type maintenanceReindexCmd struct {
	dryRun, asJSON     bool
	minBytes, minWaste int64
}

func (c *maintenanceReindexCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.BoolVar(&c.dryRun, "dry-run", false, "list the indexes and their estimated waste; rebuild nothing")
	fs.Int64Var(&c.minBytes, "min-bytes", cfg.reindex.thresholds.MinBytes, "least index size rebuilt (ZAXY_REINDEX_MIN_BYTES)")
	fs.Int64Var(&c.minWaste, "min-waste", int64(cfg.reindex.thresholds.MinWastePercent), "least estimated waste rebuilt, percent (ZAXY_REINDEX_MIN_WASTE)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON lines")
}

func (c *maintenanceReindexCmd) validate(args []string) error {
	if c.minBytes < 0 {
		return fmt.Errorf("--min-bytes must not be negative, got %d", c.minBytes)
	}
	if c.minWaste < 1 || c.minWaste > 99 {
		return fmt.Errorf("--min-waste must be a percentage between 1 and 99, got %d", c.minWaste)
	}
	return noArgs(args)
}

// reindexLine is one index in the command's output.
type reindexLine struct {
	Index        string  `json:"index"`
	Table        string  `json:"table"`
	Bytes        int64   `json:"bytes"`
	Estimated    bool    `json:"estimated"`
	WasteBytes   int64   `json:"estimated_waste_bytes"`
	WastePercent float64 `json:"estimated_waste_percent"`
	Action       string  `json:"action"`
	BytesAfter   *int64  `json:"bytes_after,omitempty"`
}

func (c *maintenanceReindexCmd) run(ctx context.Context, env *env) error {
	cfg := maintenance.Config{MinBytes: c.minBytes, MinWastePercent: int(c.minWaste), Logger: env.logger}
	if c.minBytes == 0 {
		cfg.MinBytes = 1 // 0 on the command line means every size
	}
	var report maintenance.Report
	var err error
	if c.dryRun {
		report.Indexes, err = maintenance.Survey(ctx, env.pool, cfg)
	} else {
		report, err = maintenance.Reindex(ctx, env.pool, cfg)
	}
	after := map[string]int64{}
	for _, r := range report.Rebuilt {
		after[r.Name] = r.After
	}
	for _, d := range report.Dropped {
		c.print(env, reindexLine{Index: d.Name, Bytes: d.Bytes, Action: "dropped (left by a failed rebuild)"})
	}
	for _, ix := range report.Indexes {
		line := reindexLine{Index: ix.Name, Table: ix.Table, Bytes: ix.Bytes, Estimated: ix.Estimated,
			WasteBytes: ix.WasteBytes, WastePercent: ix.WastePercent(), Action: "left alone"}
		switch a, ok := after[ix.Name]; {
		case ok:
			line.Action, line.BytesAfter = "rebuilt", &a
		case ix.Rebuild && c.dryRun:
			line.Action = "would rebuild"
		case ix.Rebuild:
			line.Action = "not rebuilt"
		case ix.NeedsAnalyze && c.dryRun:
			line.Action = "no statistics yet (a run analyzes the table first)"
		case !ix.Estimated:
			line.Action = "left alone (no statistics)"
		}
		c.print(env, line)
	}
	if report.Busy {
		fmt.Fprintln(env.stderr, "another reindex run holds the lock; nothing done")
	} else if !c.dryRun && !c.asJSON {
		fmt.Fprintf(env.stdout, "rebuilt %d indexes, dropped %d leftovers: %d bytes given back\n",
			len(report.Rebuilt), len(report.Dropped), report.GivenBack())
	}
	return err
}

func (c *maintenanceReindexCmd) print(env *env, l reindexLine) {
	if c.asJSON {
		_ = json.NewEncoder(env.stdout).Encode(l)
		return
	}
	waste := "-"
	if l.Estimated {
		waste = fmt.Sprintf("%d (%.0f%%)", l.WasteBytes, l.WastePercent)
	}
	fmt.Fprintf(env.stdout, "%-40s %-28s %12d bytes, waste %s: %s", l.Index, l.Table, l.Bytes, waste, l.Action)
	if l.BytesAfter != nil {
		fmt.Fprintf(env.stdout, " to %d bytes", *l.BytesAfter)
	}
	fmt.Fprintln(env.stdout)
}
