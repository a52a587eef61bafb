package checkout_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
)

// rankTexts ranks query in space under the built-in policy version and returns the items' texts.
func rankTexts(t *testing.T, f *fixture, space, version, query string) []string {
	t.Helper()
	return rankTextsWith(t, f, space, checkout.BuiltinPolicyOf(version), query)
}

// rankTextsWith ranks query in space under policy p and returns the items' texts.
func rankTextsWith(t *testing.T, f *fixture, space string, p *checkout.Policy, query string) []string {
	t.Helper()
	svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: p})
	res, err := svc.Query(context.Background(), &checkout.Request{SpaceID: space, Query: query})
	require.NoError(t, err)
	var out []string
	for _, it := range res.Items {
		out = append(out, it.Text)
	}
	return out
}

// TestTastePrior_TheUsersOwnTasteOutranksTalkAboutTheTopic: a request for a recommendation
// shares its words with the assistant's general advice and with a friend's taste, not with the
// user's own dislike said in passing. Under builtin-7 the dislike ranks below them; under
// builtin-8 the taste prior lifts the user's own statement of taste above them.
func TestTastePrior_TheUsersOwnTasteOutranksTalkAboutTheTopic(t *testing.T) {
	f := newFixture(t)
	const space = "taste"
	own := "Before we start on the budget: I really can't stand horror films, so keep that in mind."
	f.append(t, space,
		said("s1", "user", own, 0),
		said("s1", "assistant", "Noted. For the budget, list your fixed costs first.", 1),
		said("s2", "user", "My flatmate has a film on every night, mostly thrillers.", 10),
		said("s2", "assistant", "A film a night is a lot; a watch list helps.", 11),
		said("s3", "user", "The film club meets on Thursday at the library.", 20),
		said("s3", "assistant", "Thursday at the library works; bring the film list.", 21),
	)
	f.index(t, space)
	q := "Can you recommend a film I could watch tonight?"
	seven, eight := rankTexts(t, f, space, "builtin-7", q), rankTexts(t, f, space, "builtin-8", q)
	require.Greater(t, slices.Index(seven, own), 2, "under builtin-7: %q", seven)
	require.Less(t, slices.Index(eight, own), slices.Index(seven, own), "under builtin-8: %q", eight)
}

// TestResolutionPrior_TheFixOutranksTheLogs: a question about how a failure was fixed shares
// the component's and the error's names with the logs pasted while debugging it, many times
// over, and few words with the turn that states the fix. Under builtin-8 two logs rank above
// the fix; with the resolution prior at 2 (a policy field no built-in policy sets) it ranks
// among the first two.
func TestResolutionPrior_TheFixOutranksTheLogs(t *testing.T) {
	f := newFixture(t)
	const space = "resolution"
	fix := "Giving the client a 10 second deadline and passing the context through solved it."
	f.append(t, space,
		said("s1", "user", "uploader timeout again: level=error component=uploader msg=\"upload timeout\" uploader retry=3 uploader timeout", 0),
		said("s1", "assistant", "The uploader's http client has no deadline, so a slow peer holds it.", 1),
		said("s1", "assistant", fix, 2),
		said("s1", "user", "level=info component=uploader msg=\"upload ok\" uploader timeout=10s", 3),
		said("s2", "user", "level=warn component=uploader msg=\"slow upload\" uploader timeout nearly reached", 10),
	)
	f.index(t, space)
	q := "How did we fix the uploader timeout?"
	p := checkout.BuiltinPolicy()
	p.ResolutionBoost = 2
	eight, resolved := rankTexts(t, f, space, "builtin-8", q), rankTextsWith(t, f, space, p, q)
	require.Greater(t, slices.Index(eight, fix), 1, "under builtin-8: %q", eight)
	require.Less(t, slices.Index(resolved, fix), 2, "with the resolution prior: %q", resolved)
}
