package projection_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/projection"
)

// wordVec is the word-vector embedder of the model cache (ZAXY_MODEL_DIR, default
// /var/cache/zaxy/models); its absence fails the test under ZAXY_REQUIRE_MODELS=1 (make test)
// and skips it otherwise.
func wordVec(t testing.TB) embedding.Embedder {
	t.Helper()
	dir := os.Getenv("ZAXY_MODEL_DIR")
	if dir == "" {
		dir = "/var/cache/zaxy/models"
	}
	path := filepath.Join(dir, embedding.WordVecPackage, "wordvec.bin")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("ZAXY_REQUIRE_MODELS") == "1" {
			t.Fatalf("ZAXY_REQUIRE_MODELS=1 but the word vectors are not installed: %v (run make models)", err)
		}
		t.Skipf("word vectors not installed at %s (make models installs them)", path)
	}
	e, err := embedding.NewWordVec(path)
	require.NoError(t, err)
	return e
}

// With the paraphrase test on, a reworded repeat is redundant of what it rewords, across
// batches, while a text that states another value (a number, a day, a name, a negation) stays
// novel however close its vector; a rebuild in other batches gives the incremental state, and a
// rebuild without the paraphrase test leaves only the word-sequence tags.
func TestGate_ParaphraseIsRedundantButNeverAnotherValue(t *testing.T) {
	wv := wordVec(t)
	f := newFixtureTx(t, projection.Config{BatchSize: 2, Gate: projection.GateOn, GateParaphrase: wv})
	ctx := context.Background()
	space := "para"
	f.Append(t, space,
		said("ann", "I moved to Berlin last year for a new job."),                      // 1
		said("ann", "My sister Anna is visiting us on Saturday."),                      // 2
		said("ann", "Last year I moved to Berlin for a new job."),                      // 3 rewords 1
		said("ann", "I moved to Munich last year for a new job."),                      // 4 another city: novel
		said("ann", "My sister Anna is visiting us on Sunday."),                        // 5 another day: novel
		said("ann", "On Saturday my sister Anna is visiting us."),                      // 6 rewords 2
		said("ann", "The worker retries the job three times before giving up."),        // 7
		said("ann", "The worker retries the job five times before giving up."),         // 8 another number: novel
		said("ann", "Before giving up the worker retries the job three times."),        // 9 rewords 7
		said("ann", "I think the bug is in the retry logic of the HTTP client."),       // 10
		said("ann", "I don't think the bug is in the retry logic of the HTTP client."), // 11 negated: novel
		said("ann", "I believe the bug is in the retry logic of the HTTP client."),     // 12 rewords 10
		said("bob", "I believe the bug is in the retry logic of the HTTP client."),     // 13 another actor: novel
		said("ann", "I only eat fish on Fridays."),                                     // 14
		said("ann", "I eat fish on Fridays."),                                          // 15 drops "only": novel
	)
	f.Project(t, space)
	want := map[string]string{"ev:3": "ev:1", "ev:6": "ev:2", "ev:9": "ev:7", "ev:12": "ev:10"}
	require.Equal(t, want, f.redundantOf(t, space))

	incremental, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	big, err := projection.New(ctx, f.DB, projection.Config{BatchSize: 1000, Gate: projection.GateOn, GateParaphrase: wv})
	require.NoError(t, err)
	_, err = big.Rebuild(ctx, space)
	require.NoError(t, err)
	rebuilt, err := big.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, rebuilt, "a rebuild gives the incremental state")

	words, err := projection.New(ctx, f.DB, projection.Config{BatchSize: 1000, Gate: projection.GateOn})
	require.NoError(t, err)
	_, err = words.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Empty(t, f.redundantOf(t, space), "without the paraphrase test no rewording is redundant")
}

// The word-sequence test alone (no paraphrase embedder) never merges a text that leaves out a
// value of the one it repeats: "only", a number, a name.
func TestGate_LeavingOutAValueIsNotARepeat(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 3, Gate: projection.GateOn})
	space := "vals"
	f.Append(t, space,
		said("ann", "I only eat fish on Fridays with my family."),                 // 1
		said("ann", "I eat fish on Fridays with my family."),                      // 2 drops "only": novel
		said("ann", "The deploy waits 30 seconds for the health check to pass."),  // 3
		said("ann", "The deploy waits seconds for the health check to pass."),     // 4 drops the number: novel
		said("ann", "Ask Priya before merging anything into the release branch."), // 5
		said("ann", "Ask before merging anything into the release branch."),       // 6 drops the name: novel
		said("ann", "ask priya before merging anything into the release branch!"), // 7 repeats 5
	)
	f.Project(t, space)
	require.Equal(t, map[string]string{"ev:7": "ev:5"}, f.redundantOf(t, space))
}

// Incremental under the paraphrase test in small steps equals its rebuild in one batch.
func TestGate_ParaphraseRebuildEqualsIncremental(t *testing.T) {
	wv := wordVec(t)
	f := newFixtureTx(t, projection.Config{BatchSize: 7, Gate: projection.GateOn, GateParaphrase: wv})
	ctx := context.Background()
	space := "pinc"
	for i := range 4 {
		randomWorkload(t, f, space, 100, uint64(70+i))
		f.Project(t, space)
	}
	incremental, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.NotEmpty(t, f.redundantOf(t, space))
	big, err := projection.New(ctx, f.DB, projection.Config{BatchSize: 1000, Gate: projection.GateOn, GateParaphrase: wv})
	require.NoError(t, err)
	_, err = big.Rebuild(ctx, space)
	require.NoError(t, err)
	again, err := big.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, again)
}
