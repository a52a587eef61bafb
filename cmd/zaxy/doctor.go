package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/zaxy/zaxy/doctor"
)

// doctorCmd: zaxy doctor [--json] [--no-probe] [--full] [--stall-after D]; exit 1 when a check
// fails. A database it cannot reach is a failed check, not an error.
type doctorCmd struct {
	asJSON, noProbe, full bool
	stallAfter            time.Duration
}

func (c *doctorCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
	fs.BoolVar(&c.noProbe, "no-probe", false, "do not call the embedding provider")
	fs.BoolVar(&c.full, "full", false, "verify every event of every space (default: each space's last 1000)")
	fs.DurationVar(&c.stallAfter, "stall-after", doctor.DefaultStallAfter, "fail naming a space whose projection stood before one event this long")
}

func (c *doctorCmd) validate(args []string) error {
	if c.stallAfter <= 0 {
		return invalid(fmt.Errorf("--stall-after must be positive, got %s", c.stallAfter))
	}
	return noArgs(args)
}

func (c *doctorCmd) run(ctx context.Context, env *env) error {
	provider, why, err := env.cfg.memory.embedProviderWhy()
	if err != nil {
		return invalid(err)
	}
	var report *doctor.Report
	if env.dbErr != nil {
		report = &doctor.Report{Checks: []doctor.Check{{Name: "database", Status: doctor.StatusFail, Message: env.dbErr.Error(),
			Remedy: "check ZAXY_DATABASE_URL, or run 'make db' for a local one"}}}
	} else {
		standbys, closeStandbys, err := doctorStandbys(ctx, env.cfg)
		if err != nil {
			return err
		}
		defer closeStandbys()
		report = doctor.Run(ctx, env.pool, doctor.Options{Embedder: provider, EmbedderReason: why, ProbeEmbedder: !c.noProbe, FullChains: c.full,
			StallAfter: c.stallAfter, Standbys: standbys, MaxStandbyLag: env.cfg.replicas.maxLag})
		for _, ch := range clusterChecks(ctx, env.cfg, env.pool) {
			report.Checks = append(report.Checks, ch)
			report.OK = report.OK && ch.Status != doctor.StatusFail
		}
	}
	if c.asJSON {
		_ = json.NewEncoder(env.stdout).Encode(report)
	} else {
		for _, ch := range report.Checks {
			line := fmt.Sprintf("%-4s %s: %s", strings.ToUpper(ch.Status), ch.Name, ch.Message)
			if ch.Remedy != "" {
				line += " (" + ch.Remedy + ")"
			}
			fmt.Fprintln(env.stdout, line)
		}
	}
	if !report.OK {
		return errFailed
	}
	return nil
}
