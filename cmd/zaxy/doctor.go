package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/zaxy/zaxy/doctor"
)

// doctorCmd: zaxy doctor [--json] [--no-probe] [--full]; exit 1 when a check fails.
func doctorCmd(ctx context.Context, args []string, dbURL string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	noProbe := fs.Bool("no-probe", false, "do not call the embedding provider")
	full := fs.Bool("full", false, "verify every event of every space (default: each space's last 1000)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := parseMemoryConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy doctor: %v\n", err)
		return 2
	}
	provider, why, err := cfg.embedProviderWhy()
	if err != nil {
		fmt.Fprintf(stderr, "zaxy doctor: %v\n", err)
		return 2
	}
	pool, err := openPool(ctx, dbURL)
	var report *doctor.Report
	if err != nil {
		report = &doctor.Report{Checks: []doctor.Check{{Name: "database", Status: doctor.StatusFail, Message: err.Error(),
			Remedy: "check ZAXY_DATABASE_URL, or run 'make db' for a local one"}}}
	} else {
		defer pool.Close()
		report = doctor.Run(ctx, pool, doctor.Options{Embedder: provider, EmbedderReason: why, ProbeEmbedder: !*noProbe, FullChains: *full})
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(report)
	} else {
		for _, c := range report.Checks {
			line := fmt.Sprintf("%-4s %s: %s", strings.ToUpper(c.Status), c.Name, c.Message)
			if c.Remedy != "" {
				line += " (" + c.Remedy + ")"
			}
			fmt.Fprintln(stdout, line)
		}
	}
	if !report.OK {
		return 1
	}
	return 0
}
