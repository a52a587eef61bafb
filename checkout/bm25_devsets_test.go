package checkout_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// laneVsReference is a bench.Retriever whose ranking is the keyword lane alone (checkout.Keyword,
// no fusion, no priors) and whose "keyword only" ranking is the reference plain BM25 over the
// same items: bench.Run then scores both on the same questions.
type laneVsReference struct {
	// candidates is the lane's candidate budget (0: the default).
	candidates int
	pool       *pgxpool.Pool
	proj       *projection.Projector
	mu         sync.Mutex
	refs       map[string]*bm25Corpus
}

func (r *laneVsReference) Prepare(ctx context.Context, space string) error {
	for {
		_, err := r.proj.ProjectSpace(ctx, space)
		if !errors.Is(err, projection.ErrBusy) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *laneVsReference) Rank(ctx context.Context, space, question string, asOf time.Time, k int, reference bool) ([]int64, error) {
	var ids []string
	if reference {
		r.mu.Lock()
		c := r.refs[space]
		r.mu.Unlock()
		if c == nil {
			var err error
			if c, err = loadBM25Corpus(ctx, r.pool, space, "english"); err != nil {
				return nil, err
			}
			r.mu.Lock()
			r.refs[space] = c
			r.mu.Unlock()
		}
		hits, err := c.rank(ctx, r.pool, question, asOf, k)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			ids = append(ids, h.ItemID)
		}
	} else {
		hits, err := checkout.Keyword(ctx, r.pool, checkout.KeywordParams{SpaceID: space, Query: question, AsOf: asOf, K: k, Candidates: r.candidates})
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			ids = append(ids, h.ItemID)
		}
	}
	var seqs []int64
	for _, id := range ids {
		if s, ok := strings.CutPrefix(id, "ev:"); ok {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, err
			}
			seqs = append(seqs, n)
		}
	}
	return seqs, nil
}

func (r *laneVsReference) Packet(context.Context, string, string, time.Time, int, bool) ([]int64, int, error) {
	return nil, 0, nil
}

// TestKeywordLane_MatchesReferenceBM25OnDevSets is a measurement, run on demand because it
// loads both dev sets (about a minute): ZAXY_BM25_DEVSETS=1 (files in $ZAXY_BENCH_DIR or
// ../../shared/bench; ranked lines in $ZAXY_BM25_OUT when set; the lane's candidate budget in
// $ZAXY_BM25_CANDIDATES when set). In the table it prints, "fused"
// is the keyword lane alone and "keyword only" the reference plain BM25 over the same items;
// the lane must match or beat the reference at turn level.
func TestKeywordLane_MatchesReferenceBM25OnDevSets(t *testing.T) {
	if os.Getenv("ZAXY_BM25_DEVSETS") == "" {
		t.Skip("a measurement over the dev sets: set ZAXY_BM25_DEVSETS=1")
	}
	dir := os.Getenv("ZAXY_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "bench")
	}
	outDir := os.Getenv("ZAXY_BM25_OUT")
	candidates, _ := strconv.Atoi(os.Getenv("ZAXY_BM25_CANDIDATES"))
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	for _, set := range []struct{ dataset, file string }{
		{bench.DatasetLoCoMo, "locomo_dev.json"},
		{bench.DatasetLongMemEval, "longmemeval_s_dev.json"},
	} {
		f, err := os.Open(filepath.Join(dir, set.file))
		require.NoError(t, err)
		var cases []bench.Case
		if set.dataset == bench.DatasetLoCoMo {
			cases, err = bench.LoadLoCoMo(bufio.NewReader(f))
		} else {
			cases, err = bench.LoadLongMemEval(bufio.NewReader(f))
		}
		f.Close()
		require.NoError(t, err)
		var table strings.Builder
		opts := bench.Options{Summary: &table}
		if outDir != "" {
			lane, err := os.Create(filepath.Join(outDir, set.dataset+".lane.jsonl"))
			require.NoError(t, err)
			ref, err := os.Create(filepath.Join(outDir, set.dataset+".reference.jsonl"))
			require.NoError(t, err)
			opts.Out, opts.KeywordOut = lane, ref
			defer lane.Close()
			defer ref.Close()
		}
		r := &laneVsReference{candidates: candidates, pool: pool, proj: proj, refs: map[string]*bm25Corpus{}}
		sum, err := bench.Run(ctx, eventloom.NewStore(pool, nil, nil), r, cases, opts)
		require.NoError(t, err)
		t.Logf("%s (fused = keyword lane alone, keyword only = reference BM25):\n%s", set.dataset, table.String())
		lane, ref := sum.Overall.Fused.Turn, sum.Overall.KeywordOnly.Turn
		require.GreaterOrEqual(t, lane.RecallAny10, ref.RecallAny10, set.dataset)
		require.GreaterOrEqual(t, lane.RecallAll10, ref.RecallAll10, set.dataset)
	}
}
