package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/latent/latentwire"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/memoryaction/memoryactionwire"
	"github.com/zaxy/zaxy/vocab"
)

// artifactListCmd: zaxy artifact list --space S [--type T] [--entity ID] [--include-stale]
// [--after ID] [--limit N] [--json]. Lists latent artifacts (GET /artifacts, latent.List).
type artifactListCmd struct {
	space, typ, entity, after string
	includeStale, asJSON      bool
	limit                     int
}

func (c *artifactListCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.StringVar(&c.typ, "type", "", "keep one artifact type: episode, procedure, failure, preference, causal")
	fs.StringVar(&c.entity, "entity", "", "keep artifacts covering this entity id")
	fs.BoolVar(&c.includeStale, "include-stale", false, "list stale artifacts too")
	fs.StringVar(&c.after, "after", "", "cursor: only artifacts whose id sorts after this one")
	fs.IntVar(&c.limit, "limit", latent.DefaultListLimit, "page size, 1-200")
	fs.BoolVar(&c.asJSON, "json", false, "print the page as JSON")
}

func (c *artifactListCmd) validate(args []string) error {
	if c.space == "" {
		return errors.New("--space is required (or set ZAXY_SPACE)")
	}
	return noArgs(args)
}

func (c *artifactListCmd) run(ctx context.Context, env *env) error {
	page, err := latent.List(ctx, env.pool, latent.ListParams{SpaceID: c.space, Type: c.typ, EntityID: c.entity,
		IncludeStale: c.includeStale, After: c.after, Limit: c.limit})
	if err != nil {
		return invalidIf(err)
	}
	return c.print(env, page)
}

func (c *artifactListCmd) runRemote(ctx context.Context, env *env) error {
	limit := int64(c.limit)
	page, err := env.api.Artifacts(ctx, c.space, &client.ArtifactsParams{Type: c.typ, Entity: c.entity, IncludeStale: c.includeStale,
		After: c.after, Limit: &limit})
	if err != nil {
		return err
	}
	return c.print(env, page)
}

// print writes one line per artifact (id, type, confidence, review status, staleness,
// summary's first line), or the page as JSON.
func (c *artifactListCmd) print(env *env, page *latentwire.Page) error {
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(page)
	}
	for _, a := range page.Artifacts {
		fmt.Fprintln(env.stdout, artifactLine(&a))
	}
	if page.NextAfter != nil {
		fmt.Fprintf(env.stderr, "more: --after %s\n", *page.NextAfter)
	}
	return nil
}

// artifactLine is one artifact on one line: id, type, confidence, review status, "stale:
// <reason>" or "withdrawn" when it is, and the first line of its summary.
func artifactLine(a *latentwire.Listed) string {
	state := a.ReviewStatus
	switch {
	case a.StaleReason != nil:
		state += ", stale: " + *a.StaleReason
	case a.ConfidenceRevision != nil && a.Confidence == 0:
		state += ", withdrawn"
	}
	summary, _, _ := strings.Cut(a.Summary, "\n")
	return fmt.Sprintf("%s\t%s\t%s\t%s\t%s", a.ArtifactID, a.ArtifactType, confidenceText(a.Confidence), state, summary)
}

// confidenceText is a confidence to three decimals (artifacts store it as a real).
func confidenceText(c float64) string {
	return strconv.FormatFloat(math.Round(c*1000)/1000, 'f', -1, 64)
}

// artifactShowCmd: zaxy artifact show --space S ID [--json]. One artifact, current or stale,
// with its citations, confidence revision and weaves.
type artifactShowCmd struct {
	space, id string
	asJSON    bool
}

func (c *artifactShowCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.BoolVar(&c.asJSON, "json", false, "print the artifact as JSON")
}

func (c *artifactShowCmd) validate(args []string) error {
	if c.space == "" {
		return errors.New("--space is required (or set ZAXY_SPACE)")
	}
	id, err := artifactArg(args)
	c.id = id
	return err
}

// artifactArg is the one positional argument, an artifact id.
func artifactArg(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("want exactly one artifact ID (zaxy artifact list)")
	}
	if !vocab.IsArtifactID(args[0]) {
		return "", fmt.Errorf("ID must be an artifact id (64 lowercase hex digits), got %q", args[0])
	}
	return args[0], nil
}

// showPage is the listing whose first artifact is id if it exists: one artifact, current or
// stale, after the id one less than id (the listing's cursor is an artifact id; ids are
// listed in order).
func showPage(id string) latent.ListParams {
	return latent.ListParams{IncludeStale: true, After: predecessor(id), Limit: 1}
}

// predecessor is the 64-digit hex id one less than id, or "" (the listing's start) for the
// smallest.
func predecessor(id string) string {
	b := []byte(id)
	for i := len(b) - 1; i >= 0; i-- {
		switch b[i] {
		case '0':
			b[i] = 'f'
			continue
		case 'a':
			b[i] = '9'
		default:
			b[i]--
		}
		return string(b)
	}
	return ""
}

func (c *artifactShowCmd) run(ctx context.Context, env *env) error {
	p := showPage(c.id)
	p.SpaceID = c.space
	page, err := latent.List(ctx, env.pool, p)
	if err != nil {
		return invalidIf(err)
	}
	return c.print(env, page)
}

func (c *artifactShowCmd) runRemote(ctx context.Context, env *env) error {
	p := showPage(c.id)
	limit := int64(p.Limit)
	page, err := env.api.Artifacts(ctx, c.space, &client.ArtifactsParams{IncludeStale: true, After: p.After, Limit: &limit})
	if err != nil {
		return err
	}
	return c.print(env, page)
}

// print writes the artifact: its line, summary, citations, revision and weaves, or JSON. An
// unknown id exits 1.
func (c *artifactShowCmd) print(env *env, page *latentwire.Page) error {
	for _, a := range page.Artifacts {
		if a.ArtifactID != c.id {
			continue
		}
		if c.asJSON {
			return json.NewEncoder(env.stdout).Encode(a)
		}
		fmt.Fprintln(env.stdout, artifactLine(&a))
		fmt.Fprintln(env.stdout, a.Summary)
		seqs := make([]string, len(a.SourceEventRefs))
		for i, r := range a.SourceEventRefs {
			seqs[i] = strconv.FormatInt(r.Seq, 10)
		}
		fmt.Fprintf(env.stdout, "cites: %s\n", strings.Join(seqs, ","))
		fmt.Fprintf(env.stdout, "produced confidence: %s\n", confidenceText(a.ProducedConfidence))
		if a.ConfidenceRevision != nil {
			fmt.Fprintf(env.stdout, "revised to %s by seq %d\n", confidenceText(a.Confidence), a.ConfidenceRevision.Seq)
		}
		if a.StaleReason != nil && a.StaleSeq != nil {
			fmt.Fprintf(env.stdout, "stale: %s by seq %d\n", *a.StaleReason, *a.StaleSeq)
		}
		if len(a.Weaves) > 0 {
			w := make([]string, len(a.Weaves))
			for i, s := range a.Weaves {
				w[i] = strconv.FormatInt(s, 10)
			}
			fmt.Fprintf(env.stdout, "woven by: %s\n", strings.Join(w, ","))
		}
		return nil
	}
	return fmt.Errorf("no artifact %s in space %q", c.id, c.space)
}

// artifactInvalidateCmd: zaxy artifact invalidate --space S ID --reason R [--evidence 1,2]
// [--actor A] [--json]. Withdraws an artifact: revise_confidence to 0, which the weave, the
// prospective pass and the memory actions leave out (docs/latent.md, "Withdrawing an
// artifact"); a later revision brings it back.
type artifactInvalidateCmd struct {
	space, id, reason, actor, evidence string
	seqs                               []int64
	asJSON                             bool
}

func (c *artifactInvalidateCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.StringVar(&c.reason, "reason", "", "why (required), recorded in the revision")
	fs.StringVar(&c.evidence, "evidence", "", "comma-separated seqs of the events that show it is wrong")
	fs.StringVar(&c.actor, "actor", "cli", "who withdraws it (the event's actor)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *artifactInvalidateCmd) validate(args []string) error {
	if c.space == "" {
		return errors.New("--space is required (or set ZAXY_SPACE)")
	}
	if strings.TrimSpace(c.reason) == "" {
		return errors.New("--reason is required: say why the artifact is wrong")
	}
	for _, s := range strings.Split(c.evidence, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return fmt.Errorf("--evidence must be comma-separated positive seqs, got %q", s)
		}
		c.seqs = append(c.seqs, n)
	}
	id, err := artifactArg(args)
	c.id = id
	return err
}

func (c *artifactInvalidateCmd) run(ctx context.Context, env *env) error {
	out, err := memoryaction.New(env.pool, env.store).ReviseConfidence(ctx, memoryaction.ReviseParams{SpaceID: c.space, ArtifactID: c.id,
		Confidence: 0, Reason: c.reason, Evidence: c.seqs, Who: memoryaction.Who{Actor: c.actor}})
	if err != nil {
		return invalidIf(err)
	}
	return c.print(env, out)
}

func (c *artifactInvalidateCmd) runRemote(ctx context.Context, env *env) error {
	out, err := env.api.ReviseConfidence(ctx, c.space, &client.ReviseRequest{ArtifactID: c.id, Confidence: 0, Reason: c.reason,
		Evidence: c.seqs, Actor: c.actor})
	if err != nil {
		return err
	}
	return c.print(env, out)
}

func (c *artifactInvalidateCmd) print(env *env, out *memoryactionwire.Appended) error {
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(out)
	}
	fmt.Fprintf(env.stdout, "artifact %s withdrawn (confidence 0, seq %d)\n", c.id, out.Event.Seq)
	return nil
}
