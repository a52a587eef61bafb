package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/topic"
)

// NewCheckoutRetriever is the retrieval `zaxy bench longmemeval|locomo` measures, its name for
// the report and the lanes its fused ranking runs with: checkout's own (every lane but
// disabled, fusion, tiers, the packet). Without an embedder the vector lane is off too, and
// the recent lane always is: the bench asks without a session. pprWeight is the PPR lane's
// weight (checkout.Config.PPRWeight; 0, the default, leaves it off).
func NewCheckoutRetriever(pool *pgxpool.Pool, proj *projection.Projector, emb *projection.Embedder, provider embedding.Embedder, tsConfig string, disabled []string, pprWeight float64) (Retriever, string, []string) {
	svc := checkout.New(pool, eventloom.NewStore(pool, nil, nil), checkout.Config{TextSearchConfig: tsConfig, Embedder: provider, PPRWeight: pprWeight})
	var lanes []string
	for _, l := range checkout.Lanes {
		if !slices.Contains(disabled, l) && (l != checkout.LaneVector || provider != nil) && l != checkout.LaneRecent &&
			(l != checkout.LanePPR || pprWeight != 0) {
			lanes = append(lanes, l)
		}
	}
	name := "checkout: " + strings.Join(lanes, ", ") + " lanes, weighted RRF; token-budgeted packet"
	if provider == nil && !slices.Contains(disabled, checkout.LaneVector) {
		name += " (no vector lane: embeddings off)"
	}
	return &checkoutRetriever{proj: proj, emb: emb, svc: svc, latent: topic.NewRefresher(pool, topic.DefaultParams),
		fok:      metamemory.New(pool, metamemory.Config{TextSearchConfig: tsConfig}),
		disabled: slices.Clone(disabled)}, name, lanes
}

// checkoutRetriever is what `zaxy bench longmemeval|locomo` measures: the retrieval checkout
// uses (package checkout: every lane, fusion, tiers and the token-budgeted packet).
type checkoutRetriever struct {
	proj *projection.Projector
	emb  *projection.Embedder // nil when embedding is off
	svc  *checkout.Service
	// latent builds the space's latent model (the topic lane), as the topic_space job does.
	latent *topic.Refresher
	// disabled are the lanes the fused ranking and packet run without (--disable-lanes).
	disabled []string
	// whoWhen asks the packets for who_when (DatasetParams.WhoWhen).
	whoWhen bool
	// tokenizer is the packets' tokenizer (DatasetParams.Tokenizer; empty: checkout's default).
	tokenizer string
	// tokens, when set, counts every fused packet's text under every tokenizer.
	tokens *packetTokenTally
	// fok answers the feeling of knowing (Feeler).
	fok *metamemory.Service
}

// Feel answers the feeling of knowing for a question, as POST /feeling-of-knowing does.
func (c *checkoutRetriever) Feel(ctx context.Context, space, question string) (*metamemory.Feeling, error) {
	return c.fok.Feel(ctx, &metamemory.Request{SpaceID: space, Query: question})
}

// Prepare projects the space (waiting while another worker holds it), embeds its items and
// builds its latent model.
func (c *checkoutRetriever) Prepare(ctx context.Context, space string) error {
	for {
		_, err := c.proj.ProjectSpace(ctx, space)
		if err == nil {
			break
		}
		if !errors.Is(err, projection.ErrBusy) {
			return fmt.Errorf("project space: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	if c.emb != nil {
		if _, err := c.emb.EmbedSpace(ctx, space); err != nil {
			return fmt.Errorf("embed space: %w", err)
		}
	}
	if _, err := c.latent.Refresh(ctx, space); err != nil {
		return fmt.Errorf("latent model: %w", err)
	}
	return nil
}

// Rank returns the first k event seqs of checkout's raw query: an event item is its seq, a
// fact item the events it cites.
func (c *checkoutRetriever) Rank(ctx context.Context, space, question string, asOf time.Time, k int, keywordOnly bool) ([]int64, error) {
	r := &checkout.Request{SpaceID: space, Query: question, AsOf: &asOf, Limit: min(max(k, 1), 200), DisableLanes: c.disabled}
	if keywordOnly {
		r.DisableLanes = allButKeyword()
	}
	res, err := c.svc.Query(ctx, r)
	if err != nil {
		return nil, err
	}
	var seqs []int64
	seen := map[int64]bool{}
	for _, it := range res.Items {
		for _, cite := range it.Citations {
			if !seen[cite.Seq] && len(seqs) < k {
				seen[cite.Seq] = true
				seqs = append(seqs, cite.Seq)
			}
		}
	}
	return seqs, nil
}

// Packet runs a checkout (recording nothing) and returns the seqs its items cite.
func (c *checkoutRetriever) Packet(ctx context.Context, space, question string, asOf time.Time, maxTokens int, keywordOnly bool) ([]int64, int, error) {
	r := &checkout.Request{SpaceID: space, Query: strings.TrimSpace(question), AsOf: &asOf, MaxTokens: maxTokens, NoRecord: true, DisableLanes: c.disabled, WhoWhen: c.whoWhen,
		Tokenizer: c.tokenizer}
	if keywordOnly {
		r.DisableLanes = allButKeyword()
	}
	p, err := c.svc.Checkout(ctx, r)
	if err != nil {
		return nil, 0, err
	}
	if c.tokens != nil && !keywordOnly {
		c.tokens.add(p.Text)
	}
	var seqs []int64
	for _, t := range p.Tiers {
		for _, it := range t.Items {
			for _, cite := range it.Citations {
				seqs = append(seqs, cite.Seq)
			}
		}
	}
	return seqs, p.Budget.Used, nil
}

// allButKeyword lists every lane but keyword, to switch them off.
func allButKeyword() []string {
	var out []string
	for _, l := range checkout.Lanes {
		if l != checkout.LaneKeyword {
			out = append(out, l)
		}
	}
	return out
}
