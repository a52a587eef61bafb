package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/zaxy/zaxy/bench"
)

// benchReplicaCmd: zaxy bench replica [--replica-url URL] [--memories N] [--queries N]
// [--warmup N] [--corpus F] [--write-rate N] [--readers N] [--duration D] [--copy-events N]
// [--wait D] [--out FILE] [--json]; package bench's Replica on ZAXY_DATABASE_URL's cluster and
// its standby (--replica-url, default the first of ZAXY_REPLICA_URLS).
type benchReplicaCmd struct {
	o          bench.ReplicaOptions
	replicaURL string
	out        string
	asJSON     bool
}

func (c *benchReplicaCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.replicaURL, "replica-url", "", "URL of a streaming standby of ZAXY_DATABASE_URL's cluster (default: the first of ZAXY_REPLICA_URLS); its database name is replaced by the scratch database's")
	fs.IntVar(&c.o.Memories, "memories", 10000, "memories (message events) in the checkout space")
	fs.IntVar(&c.o.Queries, "queries", 100, "checkouts timed on each side (primary, standby)")
	fs.IntVar(&c.o.Warmup, "warmup", 10, "checkouts run untimed on each side first")
	fs.StringVar(&c.o.Corpus, "corpus", "../shared/bench/longmemeval_s_dev.json", "LongMemEval file whose sentences are the memories (synthetic text when missing)")
	fs.IntVar(&c.o.WriteRate, "write-rate", 50, "the writer's appends per second during the load phase")
	fs.IntVar(&c.o.Readers, "readers", 2, "concurrent readers during the load phase")
	fs.DurationVar(&c.o.LoadDuration, "duration", 10*time.Second, "length of the load phase")
	fs.IntVar(&c.o.CopyEvents, "copy-events", 10000, "events of the space exported and imported into a second database")
	fs.DurationVar(&c.o.Wait, "wait", 0, "how long a read with a token waits for the standby (0: ZAXY_REPLICA_WAIT's default)")
	fs.StringVar(&c.out, "out", "", "also write the report as JSON to this file")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *benchReplicaCmd) validate(args []string) error {
	switch {
	case c.o.Memories < 100:
		return fmt.Errorf("--memories must be at least 100, got %d", c.o.Memories)
	case c.o.Queries < 10:
		return fmt.Errorf("--queries must be at least 10, got %d", c.o.Queries)
	case c.o.Warmup < 0 || c.o.Warmup > c.o.Memories:
		return fmt.Errorf("--warmup must be between 0 and --memories, got %d", c.o.Warmup)
	case c.o.WriteRate < 1 || c.o.WriteRate > 1000:
		return fmt.Errorf("--write-rate must be between 1 and 1000, got %d", c.o.WriteRate)
	case c.o.Readers < 1 || c.o.Readers > 64:
		return fmt.Errorf("--readers must be between 1 and 64, got %d", c.o.Readers)
	case c.o.LoadDuration < time.Second:
		return fmt.Errorf("--duration must be at least 1s, got %s", c.o.LoadDuration)
	case c.o.CopyEvents < 500:
		return fmt.Errorf("--copy-events must be at least 500, got %d", c.o.CopyEvents)
	case c.o.Wait < 0:
		return fmt.Errorf("--wait must not be negative, got %s", c.o.Wait)
	}
	return noArgs(args)
}

func (c *benchReplicaCmd) run(ctx context.Context, env *env) error {
	if env.cfg.databaseURL == "" {
		return errNoDatabaseURL
	}
	standby := c.replicaURL
	if standby == "" && len(env.cfg.replicas.urls) > 0 {
		standby = env.cfg.replicas.urls[0]
	}
	if standby == "" {
		return errors.New("no standby: pass --replica-url or set ZAXY_REPLICA_URLS (make db-replica prints one)")
	}
	var err error
	if c.o.Embedder, err = env.cfg.memory.benchEmbedder(); err != nil {
		return err
	}
	c.o.OpenPool, c.o.Logger = newPool, env.logger
	rep, err := bench.Replica(ctx, env.cfg.databaseURL, standby, c.o)
	if err != nil {
		return err
	}
	if err := writeOut(c.out, rep); err != nil {
		return err
	}
	return printReport(env, c.asJSON, rep)
}
