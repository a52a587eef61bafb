package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
)

// rebuildCmd: zaxy rebuild (--space S | --all) [--no-embed] [--json]. Discards and replays
// projections and derives the latent artifacts again, then computes the space's embeddings
// unless --no-embed.
type rebuildCmd struct {
	space                string
	all, noEmbed, asJSON bool
}

func (c *rebuildCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.space, "space", "", "space to rebuild")
	fs.BoolVar(&c.all, "all", false, "rebuild every space")
	fs.BoolVar(&c.noEmbed, "no-embed", false, "leave embeddings to the workers")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON lines")
}

func (c *rebuildCmd) validate(args []string) error {
	if (c.space == "") == !c.all {
		return errors.New("give exactly one of --space S or --all")
	}
	return noArgs(args)
}

func (c *rebuildCmd) run(ctx context.Context, env *env) error {
	proj, embedder, err := openMemory(ctx, env.pool, env.cfg.memory, env.logger)
	if err != nil {
		return invalid(err)
	}
	spaces := []string{c.space}
	if c.all {
		if spaces, err = proj.Spaces(ctx); err != nil {
			return err
		}
	}
	builder, err := latent.NewBuilder(ctx, env.pool, eventloom.NewStore(env.pool, nil, env.logger), latent.Config{Logger: env.logger})
	if err != nil {
		return invalid(err)
	}
	for _, s := range spaces {
		res, err := proj.Rebuild(ctx, s)
		if err != nil {
			return err
		}
		// The projection rebuild discarded the latent artifacts; derive them again from the log.
		lres, err := builder.Rebuild(ctx, s)
		if err != nil {
			return err
		}
		out := struct {
			*projection.RebuildResult
			Artifacts       int     `json:"artifacts"`
			Embedded        int     `json:"embedded"`
			EmbedSeconds    float64 `json:"embed_seconds"`
			EventsPerSecond float64 `json:"events_per_second"`
		}{RebuildResult: res, Artifacts: lres.Written}
		total := res.Duration + lres.Duration
		if embedder != nil && !c.noEmbed {
			start := time.Now()
			if out.Embedded, err = embedder.EmbedSpace(ctx, s); err != nil {
				return err
			}
			out.EmbedSeconds = time.Since(start).Seconds()
			total += time.Since(start)
		}
		out.EventsPerSecond = float64(res.Events) / total.Seconds()
		if c.asJSON {
			_ = json.NewEncoder(env.stdout).Encode(out)
		} else {
			fmt.Fprintf(env.stdout, "rebuilt %s: %d events to seq %d in %s, %d latent artifacts, %d embeddings; %.0f events/s end to end\n",
				s, res.Events, res.ProjectedSeq, total.Round(time.Millisecond), lres.Written, out.Embedded, out.EventsPerSecond)
		}
	}
	return nil
}

// projectionStatusCmd: zaxy projection status [--space S] [--json].
type projectionStatusCmd struct {
	space  string
	asJSON bool
}

func (c *projectionStatusCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.space, "space", "", "only this space")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON lines")
}

func (c *projectionStatusCmd) validate(args []string) error { return noArgs(args) }

func (c *projectionStatusCmd) run(ctx context.Context, env *env) error {
	st, err := projection.Lag(ctx, env.pool, c.space)
	if err != nil {
		return err
	}
	c.print(env, st)
	return nil
}

// runRemote reads GET /projection of --space, or of every space the token reaches.
func (c *projectionStatusCmd) runRemote(ctx context.Context, env *env) error {
	spaces := []string{c.space}
	if c.space == "" {
		l, err := env.api.Spaces(ctx)
		if err != nil {
			return err
		}
		spaces = spaces[:0]
		for _, s := range l.Spaces {
			spaces = append(spaces, s.SpaceID)
		}
	}
	var st []projection.Status
	for _, s := range spaces {
		one, err := env.api.Projection(ctx, s)
		if err != nil {
			return err
		}
		st = append(st, *one)
	}
	c.print(env, st)
	return nil
}

// print writes one line (or JSON object) per space.
func (c *projectionStatusCmd) print(env *env, st []projection.Status) {
	for _, s := range st {
		if c.asJSON {
			_ = json.NewEncoder(env.stdout).Encode(s)
		} else {
			fmt.Fprintf(env.stdout, "%s: head %d, projected %d, lag %d\n", s.SpaceID, s.HeadSeq, s.ProjectedSeq, s.Lag)
		}
	}
}

// projectionChecksumCmd: zaxy projection checksum --space S [--json].
type projectionChecksumCmd struct {
	space  string
	asJSON bool
}

func (c *projectionChecksumCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.space, "space", "", "space (required)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *projectionChecksumCmd) validate(args []string) error {
	if c.space == "" {
		return errNeedsSpace
	}
	return noArgs(args)
}

func (c *projectionChecksumCmd) run(ctx context.Context, env *env) error {
	pcfg, err := env.cfg.memory.projection(env.logger)
	if err != nil {
		return err
	}
	proj, err := projection.New(ctx, env.pool, pcfg)
	if err != nil {
		return invalid(err)
	}
	sum, err := proj.Checksum(ctx, c.space)
	if err != nil {
		return err
	}
	if c.asJSON {
		_ = json.NewEncoder(env.stdout).Encode(sum)
	} else {
		fmt.Fprintf(env.stdout, "%s  %s (%d entities, %d mentions, %d facts, %d invalidations, %d items)\n",
			sum.Digest, sum.SpaceID, sum.Entities, sum.Mentions, sum.Facts, sum.Invalidations, sum.Items)
	}
	return nil
}

// factsCmd: zaxy facts --space S [--entity E] [--at T | --as-of-seq N] [--limit N] [--json].
type factsCmd struct {
	p      graph.FactsParams
	at     string
	asJSON bool
}

func (c *factsCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.StringVar(&c.p.SpaceID, "space", "", "space (required)")
	fs.StringVar(&c.p.Entity, "entity", "", "only facts about this entity (id or name)")
	fs.StringVar(&c.at, "at", "", "facts valid at this RFC 3339 time")
	fs.Int64Var(&c.p.AsOfSeq, "as-of-seq", 0, "what memory said right after this seq")
	fs.IntVar(&c.p.Limit, "limit", 1000, "at most this many facts")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON lines")
}

func (c *factsCmd) validate(args []string) error {
	switch {
	case c.p.SpaceID == "":
		return errNeedsSpace
	case c.at != "" && c.p.AsOfSeq > 0:
		return errors.New("give at most one of --at and --as-of-seq")
	case c.at != "":
		t, err := time.Parse(time.RFC3339Nano, c.at)
		if err != nil {
			return fmt.Errorf("--at must be an RFC 3339 time, got %q", c.at)
		}
		c.p.View, c.p.At = graph.ViewAt, t
	case c.p.AsOfSeq > 0:
		c.p.View = graph.ViewAsOf
	}
	return noArgs(args)
}

func (c *factsCmd) run(ctx context.Context, env *env) error {
	facts, err := graph.Facts(ctx, env.pool, c.p)
	if err != nil {
		return invalidIf(err)
	}
	c.print(ctx, env, facts)
	return nil
}

func (c *factsCmd) runRemote(ctx context.Context, env *env) error {
	p := client.FactsParams{Entity: c.p.Entity, Limit: c.p.Limit}
	switch c.p.View {
	case graph.ViewAt:
		p.At = &c.p.At
	case graph.ViewAsOf:
		p.AsOfSeq = &c.p.AsOfSeq
	}
	res, err := env.api.Facts(ctx, c.p.SpaceID, &p)
	if err != nil {
		return err
	}
	c.print(ctx, env, res.Facts)
	return nil
}

// print writes one line (or JSON object) per fact; no facts in a space without events says
// so on stderr, since the space is then new or mistyped.
func (c *factsCmd) print(ctx context.Context, env *env, facts []graph.Fact) {
	if len(facts) == 0 {
		noteEmptySpace(ctx, env, c.p.SpaceID)
	}
	for _, f := range facts {
		if c.asJSON {
			_ = json.NewEncoder(env.stdout).Encode(f)
			continue
		}
		object := string(f.Value)
		if f.Object != nil {
			object = f.Object.Name
		}
		to := "open"
		if f.ValidTo != nil {
			to = f.ValidTo.Format(time.RFC3339)
		}
		fmt.Fprintf(env.stdout, "%s %s %s  [v%d %s, valid %s..%s, seq %d]\n", f.Subject.Name, f.Predicate, object,
			f.Version, f.StatusThen, f.ValidFrom.Format(time.RFC3339), to, f.RecordedSeq)
	}
}
