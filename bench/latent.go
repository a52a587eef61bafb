package bench

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/topic"
)

// Sections of `zaxy bench latent` (LatentParams.Sections).
const (
	LatentFidelity = "fidelity"
	LatentStale    = "stale"
	LatentTokens   = "tokens"
	// LatentTraces is the token lane on scripted agent traces (latent_traces.go).
	LatentTraces = "traces"
)

// LatentSections lists every section, in the order they run.
var LatentSections = []string{LatentFidelity, LatentStale, LatentTokens, LatentTraces}

// LatentParams configures Latent.
type LatentParams struct {
	Pool             *pgxpool.Pool
	Projector        *projection.Projector
	Embedder         *projection.Embedder // nil when embedding is off
	Provider         embedding.Embedder   // nil when embedding is off
	TextSearchConfig string
	// Sets are the dev sets the token-reduction lane runs on (loaded cases, by dataset name).
	Sets map[string][]Case
	// Limit asks at most this many questions per set (0: all).
	Limit int
	// WeaveTokens and PlainTokens are the two packets' budgets (defaults 1000 and 2000).
	WeaveTokens, PlainTokens int
	// Sections are the lanes to run (default all, LatentSections).
	Sections []string
	// Families is how many scripted task families the fidelity and stale lanes build (default 6).
	Families int
	// WhoWhen asks the token lane's packets for who_when (checkout.Request.WhoWhen).
	WhoWhen bool
	Logger  *slog.Logger
}

// LatentReport is what `zaxy bench latent` measured.
type LatentReport struct {
	Run      string          `json:"run"`
	Fidelity *FidelityReport `json:"citation_fidelity,omitempty"`
	Stale    *StaleReport    `json:"stale_rejection,omitempty"`
	Tokens   []*TokenReport  `json:"token_reduction,omitempty"`
	Seconds  float64         `json:"seconds"`
}

// FidelityReport is the citation-fidelity lane: every claim a weave or prospective pass makes
// (an evidence line, an artifact's cited event, a prior's cited event) checked against the log
// by the bench itself (the stored hash, the event not erased, not invalidated, not a statement
// the script superseded), and every space's hash chain recomputed.
type FidelityReport struct {
	Weaves    int `json:"weaves"`
	Artifacts int `json:"artifacts"`
	Claims    int `json:"claims"`
	Verified  int `json:"verified"`
	// Rate is Verified / Claims (target 1).
	Rate           float64 `json:"rate"`
	Chains         int     `json:"chains"`
	ChainsVerified int     `json:"chains_verified"`
	// Failures lists the first claims that did not verify.
	Failures []string `json:"failures,omitempty"`
}

// StaleReport is the stale-rejection lane on scripted traces: sources invalidated or
// superseded after the artifacts were built; weaves asked before the projection and artifact
// build catch up (query-time verification) and after (stale rows).
type StaleReport struct {
	Spaces int `json:"spaces"`
	// Unusable counts the source events made unusable (invalidated, or a superseded preference).
	Unusable int `json:"unusable_sources"`
	// ArtifactsCiting counts the artifacts citing one of them before the change.
	ArtifactsCiting int `json:"artifacts_citing"`
	// MarkedStale counts those the artifact build marked stale afterwards.
	MarkedStale int `json:"marked_stale"`
	Weaves      int `json:"weaves"`
	// RejectedBeforeRebuild and RejectedAfterRebuild count rejections with a diagnostic.
	RejectedBeforeRebuild int `json:"rejected_before_rebuild"`
	RejectedAfterRebuild  int `json:"rejected_after_rebuild"`
	// Leaked counts woven artifacts citing an unusable source once the change is projected
	// (target 0).
	Leaked int `json:"leaked"`
	// LeakedUnprojected counts them in weaves asked before the projection caught up:
	// invalidations are read from the log itself, supersessions only once projected.
	LeakedUnprojected int `json:"leaked_unprojected"`
	// Prospective counts prospective passes asked while the artifacts were settled (before the
	// change and after the build); PriorHits those whose top procedure and failure priors were
	// the family's own.
	Prospective int `json:"prospective"`
	PriorHits   int `json:"prior_hits"`
}

// TokenReport is the token-reduction lane on one dev set: evidence inside a plain checkout
// packet at PlainTokens against a packet with a weave at WeaveTokens.
type TokenReport struct {
	Dataset   string `json:"dataset"`
	Questions int    `json:"questions"`
	// Plain and Weave are the two packets' results; PlainSame is a plain packet at the weave's
	// budget (what the weave adds at equal tokens).
	Plain     TokenSide `json:"plain"`
	Weave     TokenSide `json:"weave"`
	PlainSame TokenSide `json:"plain_same_budget"`
	// Ratio is Weave.EvidenceRate / Plain.EvidenceRate (target ≥ 1 at half the tokens).
	Ratio float64 `json:"evidence_ratio"`
	// Artifacts counts the current artifacts of the set's spaces, by type.
	Artifacts map[string]int `json:"artifacts"`
	// WeaveEvidenceOnly counts questions whose evidence was only in the weave's lines.
	WeaveEvidenceOnly int `json:"weave_evidence_only"`
	// Asked is each question's result, in the order asked (`zaxy bench latent --json`), so two
	// runs can be compared question by question.
	Asked []TokenQuestion `json:"asked,omitempty"`
}

// TokenQuestion is one question of a token lane: whether each packet showed its evidence, and
// the tokens each used (plain at PlainTokens, with a weave and plain at WeaveTokens).
type TokenQuestion struct {
	ID     string  `json:"id"`
	Hits   [3]bool `json:"hits"`
	Tokens [3]int  `json:"tokens"`
}

// TokenSide is one packet configuration's result.
type TokenSide struct {
	Budget       int     `json:"budget"`
	Hits         int     `json:"hits"`
	EvidenceRate float64 `json:"evidence_rate"`
	MeanTokens   float64 `json:"mean_tokens"`
	MeanMS       float64 `json:"mean_ms"`
}

// Latent runs the latent-layer measurement lanes (docs/benchmarks.md, "Latent layer"):
// citation fidelity, stale rejection and token reduction. It appends only to spaces it creates
// (named latent-<run>-..., lme-<run>-..., locomo-<run>-...).
func Latent(ctx context.Context, p *LatentParams) (*LatentReport, error) {
	start := time.Now()
	if p.WeaveTokens == 0 {
		p.WeaveTokens = 1000
	}
	if p.PlainTokens == 0 {
		p.PlainTokens = 2000
	}
	if p.Families == 0 {
		p.Families = 6
	}
	if len(p.Sections) == 0 {
		p.Sections = LatentSections
	}
	if p.Logger == nil {
		p.Logger = slog.New(slog.DiscardHandler)
	}
	l := &latentBench{p: p, store: eventloom.NewStore(p.Pool, nil, p.Logger), run: strconv.FormatInt(start.UnixMilli(), 36),
		fid: &FidelityReport{}}
	l.svc = checkout.New(p.Pool, l.store, checkout.Config{TextSearchConfig: p.TextSearchConfig, Embedder: p.Provider})
	var err error
	if l.builder, err = latent.NewBuilder(ctx, p.Pool, l.store, latent.Config{Logger: p.Logger}); err != nil {
		return nil, err
	}
	rep := &LatentReport{Run: l.run}
	if slices.Contains(p.Sections, LatentFidelity) || slices.Contains(p.Sections, LatentStale) {
		if rep.Stale, err = l.scripted(ctx); err != nil {
			return nil, err
		}
		if !slices.Contains(p.Sections, LatentStale) {
			rep.Stale = nil
		}
	}
	if slices.Contains(p.Sections, LatentTokens) {
		for _, name := range []string{DatasetLongMemEval, DatasetLoCoMo} {
			cases, ok := p.Sets[name]
			if !ok {
				continue
			}
			tr, err := l.tokens(ctx, name, cases)
			if err != nil {
				return nil, err
			}
			rep.Tokens = append(rep.Tokens, tr)
		}
	}
	if slices.Contains(p.Sections, LatentTraces) {
		trs, err := l.traces(ctx)
		if err != nil {
			return nil, err
		}
		rep.Tokens = append(rep.Tokens, trs...)
	}
	if slices.Contains(p.Sections, LatentFidelity) {
		if l.fid.Claims > 0 {
			l.fid.Rate = float64(l.fid.Verified) / float64(l.fid.Claims)
		}
		rep.Fidelity = l.fid
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// latentBench is one Latent run's state.
type latentBench struct {
	p       *LatentParams
	store   *eventloom.Store
	svc     *checkout.Service
	builder *latent.Builder
	run     string
	fid     *FidelityReport
}

// prepare projects, embeds, refreshes the topic model and builds the artifacts of space, then
// projects the proposals the build appended, as the workers do.
func (l *latentBench) prepare(ctx context.Context, space string) error {
	cr := &checkoutRetriever{proj: l.p.Projector, emb: l.p.Embedder, svc: l.svc, latent: topic.NewRefresher(l.p.Pool, topic.DefaultParams),
		fok: metamemory.New(l.p.Pool, metamemory.Config{TextSearchConfig: l.p.TextSearchConfig})}
	if err := cr.Prepare(ctx, space); err != nil {
		return err
	}
	if _, err := l.builder.Build(ctx, space); err != nil {
		return fmt.Errorf("build artifacts: %w", err)
	}
	return cr.Prepare(ctx, space)
}

// unusable is the set of a space's seqs no claim may rest on: invalidated (read from the log
// itself, not from a projection), erased, plus those the caller knows it superseded.
func (l *latentBench) unusable(ctx context.Context, space string, superseded []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	for _, s := range superseded {
		out[s] = true
	}
	rows, err := l.p.Pool.Query(ctx, `SELECT (data->>'target_seq')::bigint FROM events
		WHERE space_id = $1 AND type = 'memory.invalidated' AND data ? 'target_seq'
		UNION SELECT seq FROM events WHERE space_id = $1 AND erased_by_seq IS NOT NULL`, space)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var s int64
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out[s] = true
	}
	return out, rows.Err()
}

// checkClaims checks citations against the log (hash stored for that seq, not unusable) and
// counts them into the fidelity report.
func (l *latentBench) checkClaims(ctx context.Context, space string, cites []checkout.Citation, bad map[int64]bool) error {
	if len(cites) == 0 {
		return nil
	}
	seqs := make([]int64, len(cites))
	for i, c := range cites {
		seqs[i] = c.Seq
	}
	hashes := map[int64]string{}
	rows, err := l.p.Pool.Query(ctx, `SELECT seq, hash FROM events WHERE space_id = $1 AND seq = ANY ($2)`, space, seqs)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var s int64
		var h []byte
		if err := rows.Scan(&s, &h); err != nil {
			return err
		}
		hashes[s] = hex.EncodeToString(h)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range cites {
		l.fid.Claims++
		switch h, ok := hashes[c.Seq]; {
		case !ok:
			l.fail(fmt.Sprintf("%s seq %d: no such event", space, c.Seq))
		case h != c.Hash.String():
			l.fail(fmt.Sprintf("%s seq %d: hash %s cited, %s stored", space, c.Seq, c.Hash.String(), h))
		case bad[c.Seq]:
			l.fail(fmt.Sprintf("%s seq %d: unusable (invalidated, erased or superseded)", space, c.Seq))
		default:
			l.fid.Verified++
		}
	}
	return nil
}

func (l *latentBench) fail(s string) {
	if len(l.fid.Failures) < 20 {
		l.fid.Failures = append(l.fid.Failures, s)
	}
}

// checkWeave counts a weave into the fidelity report: its evidence lines, its source refs and
// each woven artifact's citations.
func (l *latentBench) checkWeave(ctx context.Context, space string, w *checkout.Weave, bad map[int64]bool) error {
	l.fid.Weaves++
	l.fid.Artifacts += len(w.Inferred)
	cites := slices.Clone(w.SourceEventRefs)
	for _, e := range w.Evidence {
		cites = append(cites, e.Citation)
		if e.LastRepeat != nil {
			cites = append(cites, *e.LastRepeat)
		}
	}
	for _, a := range w.Inferred {
		cites = append(cites, a.Citations...)
	}
	return l.checkClaims(ctx, space, cites, bad)
}

// checkChain recomputes space's hash chain.
func (l *latentBench) checkChain(ctx context.Context, space string) error {
	v, err := l.store.Verify(ctx, space)
	if err != nil {
		return err
	}
	l.fid.Chains++
	if v.OK {
		l.fid.ChainsVerified++
	} else {
		l.fail(fmt.Sprintf("%s: chain broken", space))
	}
	return nil
}

// tokens runs the token-reduction lane on one dev set: each case appended into a fresh space,
// prepared (projection, embeddings, topic model, artifacts), then every question with evidence
// asked twice, a plain packet at PlainTokens and a packet with a weave at WeaveTokens; a hit is
// an evidence turn among the events whose text the packet shows (tier items, weave evidence
// lines; an artifact's summary is not evidence).
func (l *latentBench) tokens(ctx context.Context, dataset string, cases []Case) (*TokenReport, error) {
	cases = limitQuestions(cases, l.p.Limit)
	t := l.newTokenTally(dataset)
	for i := range cases {
		c := &cases[i]
		space := spaceID(c, "lat"+l.run)
		refs, err := appendTurns(ctx, l.store, space, c, &caseResult{})
		if err != nil {
			return nil, err
		}
		if err := l.prepare(ctx, space); err != nil {
			return nil, fmt.Errorf("case %s: %w", c.ID, err)
		}
		if err := l.countArtifacts(ctx, space, t.tr.Artifacts); err != nil {
			return nil, err
		}
		for _, q := range c.Questions {
			if q.Abstain || len(q.EvidenceTurns) == 0 {
				continue
			}
			asOf := q.Date
			if asOf.IsZero() {
				asOf = time.Now()
			}
			hit := func(seqs []int64) bool {
				for _, s := range seqs {
					if slices.Contains(q.EvidenceTurns, refs[s].turn) {
						return true
					}
				}
				return false
			}
			if err := t.ask(ctx, q.ID, checkout.Request{SpaceID: space, Query: strings.TrimSpace(q.Text), AsOf: &asOf}, hit); err != nil {
				return nil, fmt.Errorf("question %s: %w", q.ID, err)
			}
		}
		if err := l.checkChain(ctx, space); err != nil {
			return nil, err
		}
		l.p.Logger.InfoContext(ctx, "latent bench case done", "dataset", dataset, "case", c.ID, "index", i+1, "of", len(cases))
	}
	return t.report(), nil
}

// tierSeqs are the seqs a packet's tier items cite.
func tierSeqs(p *checkout.Packet) []int64 {
	var out []int64
	for _, t := range p.Tiers {
		for _, it := range t.Items {
			for _, c := range it.Citations {
				out = append(out, c.Seq)
			}
		}
	}
	return out
}

// countArtifacts adds space's current artifacts by type to into.
func (l *latentBench) countArtifacts(ctx context.Context, space string, into map[string]int) error {
	rows, err := l.p.Pool.Query(ctx, `SELECT artifact_type, count(*) FROM latent_current WHERE space_id = $1 GROUP BY 1`, space)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var n int
		if err := rows.Scan(&t, &n); err != nil {
			return err
		}
		into[t] += n
	}
	return rows.Err()
}

// WriteText prints the report as a table.
func (r *LatentReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "latent bench run %s (%.1f s)\n", r.Run, r.Seconds)
	if f := r.Fidelity; f != nil {
		fmt.Fprintf(w, "\ncitation fidelity: %d of %d claims verify (%.4f) over %d weaves and %d woven artifacts; chains %d of %d verify\n",
			f.Verified, f.Claims, f.Rate, f.Weaves, f.Artifacts, f.ChainsVerified, f.Chains)
		for _, x := range f.Failures {
			fmt.Fprintf(w, "  failed: %s\n", x)
		}
	}
	if s := r.Stale; s != nil {
		fmt.Fprintf(w, "\nstale rejection: %d spaces, %d sources made unusable, %d artifacts cited them, %d marked stale by the build\n"+
			"  %d weaves; rejected with a diagnostic: %d before the rebuild (query-time verification), %d after\n"+
			"  leaked into a weave once projected: %d (before the projection caught up: %d)\n"+
			"  prospective passes whose top procedure and failure priors were the task family's own: %d of %d\n",
			s.Spaces, s.Unusable, s.ArtifactsCiting, s.MarkedStale, s.Weaves, s.RejectedBeforeRebuild, s.RejectedAfterRebuild,
			s.Leaked, s.LeakedUnprojected, s.PriorHits, s.Prospective)
	}
	for _, t := range r.Tokens {
		fmt.Fprintf(w, "\ntoken reduction, %s (%d questions with evidence; artifacts %v)\n", t.Dataset, t.Questions, t.Artifacts)
		fmt.Fprintf(w, "  %-28s %9s %9s %11s %8s\n", "packet", "evidence", "rate", "mean tokens", "mean ms")
		fmt.Fprintf(w, "  %-28s %9d %9.3f %11.0f %8.1f\n", fmt.Sprintf("plain checkout at %d", t.Plain.Budget), t.Plain.Hits, t.Plain.EvidenceRate, t.Plain.MeanTokens, t.Plain.MeanMS)
		fmt.Fprintf(w, "  %-28s %9d %9.3f %11.0f %8.1f\n", fmt.Sprintf("checkout + weave at %d", t.Weave.Budget), t.Weave.Hits, t.Weave.EvidenceRate, t.Weave.MeanTokens, t.Weave.MeanMS)
		fmt.Fprintf(w, "  %-28s %9d %9.3f %11.0f %8.1f\n", fmt.Sprintf("plain checkout at %d", t.PlainSame.Budget), t.PlainSame.Hits, t.PlainSame.EvidenceRate, t.PlainSame.MeanTokens, t.PlainSame.MeanMS)
		fmt.Fprintf(w, "  evidence ratio weave/plain %.3f (target ≥ 1.000); evidence only in weave lines: %d\n", t.Ratio, t.WeaveEvidenceOnly)
	}
}
