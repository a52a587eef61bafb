package bench

import (
	"context"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// RunPolicy asks p.Cases through checkout ranked with the retrieval policy pol instead of each
// space's current one (checkout.Config.Policy), writing nothing but what p.Options names. The
// retrieval policy's regression gate (zaxy policy promote --dev-locomo/--dev-longmemeval) and
// `zaxy bench latent-policy` measure a candidate with it: the first run appends the cases'
// spaces, later ones pass its Summary.Run as p.Options.Reuse to ask the same spaces again.
func RunPolicy(ctx context.Context, p *DatasetParams, pol *checkout.Policy) (*Summary, error) {
	disabled := p.DisabledLanes
	if disabled == nil {
		disabled = []string{}
	}
	r, _, _ := NewCheckoutRetriever(p.Pool, p.Projector, p.Embedder, p.Provider, p.TextSearchConfig, disabled, p.PPRWeight)
	cr := r.(*checkoutRetriever)
	cr.svc = checkout.New(p.Pool, eventloom.NewStore(p.Pool, nil, nil), checkout.Config{TextSearchConfig: p.TextSearchConfig,
		Embedder: p.Provider, PPRWeight: p.PPRWeight, Policy: pol})
	return Run(ctx, eventloom.NewStore(p.Pool, nil, p.Options.Logger), cr, p.Cases, p.Options)
}
