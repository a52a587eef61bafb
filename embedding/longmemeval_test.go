package embedding

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// lmeQuestion is one LongMemEval record (docs/design.md, "Benchmark data"), only the fields retrieval needs.
type lmeQuestion struct {
	QuestionID         string      `json:"question_id"`
	QuestionType       string      `json:"question_type"`
	Question           string      `json:"question"`
	AnswerSessionIDs   []string    `json:"answer_session_ids"`
	HaystackSessionIDs []string    `json:"haystack_session_ids"`
	HaystackSessions   [][]lmeTurn `json:"haystack_sessions"`
}

type lmeTurn struct {
	Role      string `json:"role"`
	Content   string `json:"content"`
	HasAnswer bool   `json:"has_answer"`
}

// lmeRow is one haystack turn as loaded into the test table. ord numbers all turns of all
// questions and is the tie-breaker in every ranking.
type lmeRow struct {
	ord       int
	qi        int // index of the question
	session   string
	hasAnswer bool
	text      string
}

// lmeDataset is the dev file flattened into rows; rows of question qi are
// rows[first[qi]:first[qi+1]].
type lmeDataset struct {
	questions []lmeQuestion
	rows      []lmeRow
	first     []int
}

// benchDir finds the shared benchmark directory: $ZAXY_BENCH_DIR, else ../../shared/bench
// relative to this package (the layout CI checks out).
func benchDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("ZAXY_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "bench")
	}
	if _, err := os.Stat(filepath.Join(dir, "longmemeval_s_dev.json")); err != nil {
		t.Fatalf("LongMemEval dev file not found: %v; put the benchmark data at ../../shared/bench "+
			"relative to the embed package or set ZAXY_BENCH_DIR to the directory holding longmemeval_s_dev.json", err)
	}
	return dir
}

func loadLongMemEval(t testing.TB) *lmeDataset {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(benchDir(t), "longmemeval_s_dev.json"))
	require.NoError(t, err)
	var ds lmeDataset
	require.NoError(t, json.Unmarshal(b, &ds.questions), "decode longmemeval_s_dev.json")
	for qi, q := range ds.questions {
		require.Len(t, q.HaystackSessions, len(q.HaystackSessionIDs), "question %s", q.QuestionID)
		ds.first = append(ds.first, len(ds.rows))
		for si, sess := range q.HaystackSessions {
			for _, turn := range sess {
				ds.rows = append(ds.rows, lmeRow{
					ord: len(ds.rows), qi: qi, session: q.HaystackSessionIDs[si],
					hasAnswer: turn.HasAnswer, text: turn.Content,
				})
			}
		}
	}
	ds.first = append(ds.first, len(ds.rows))
	return &ds
}

// lmeRecall accumulates recall_any@k over questions.
type lmeRecall struct {
	sess5, sess10, turn5, turn10 int
	nSess, nTurn                 int
}

func (r lmeRecall) String() string {
	return fmt.Sprintf("session R@5 %.3f R@10 %.3f | turn R@5 %.3f R@10 %.3f",
		r.frac(r.sess5, r.nSess), r.frac(r.sess10, r.nSess), r.frac(r.turn5, r.nTurn), r.frac(r.turn10, r.nTurn))
}

func (lmeRecall) frac(a, n int) float64 { return float64(a) / float64(max(n, 1)) }

func (r lmeRecall) sessionAt5() float64  { return r.frac(r.sess5, r.nSess) }
func (r lmeRecall) sessionAt10() float64 { return r.frac(r.sess10, r.nSess) }
func (r lmeRecall) turnAt10() float64    { return r.frac(r.turn10, r.nTurn) }

// score adds one question's ranking (row ords, best first).
func (r *lmeRecall) score(ds *lmeDataset, qi int, ranked []int) {
	q := &ds.questions[qi]
	hasTurnLabels := false
	for o := ds.first[qi]; o < ds.first[qi+1]; o++ {
		hasTurnLabels = hasTurnLabels || ds.rows[o].hasAnswer
	}
	hitSess := func(k int) bool {
		for _, o := range ranked[:min(k, len(ranked))] {
			if slices.Contains(q.AnswerSessionIDs, ds.rows[o].session) {
				return true
			}
		}
		return false
	}
	hitTurn := func(k int) bool {
		for _, o := range ranked[:min(k, len(ranked))] {
			if ds.rows[o].hasAnswer {
				return true
			}
		}
		return false
	}
	r.nSess++
	r.sess5 += b2i(hitSess(5))
	r.sess10 += b2i(hitSess(10))
	if hasTurnLabels {
		r.nTurn++
		r.turn5 += b2i(hitTurn(5))
		r.turn10 += b2i(hitTurn(10))
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rrf fuses rankings by reciprocal rank fusion with constant k; ties go to the lower ord.
func rrf(k float64, lists ...[]int) []int {
	score := map[int]float64{}
	for _, l := range lists {
		for rank, o := range l {
			score[o] += 1 / (k + float64(rank+1))
		}
	}
	out := make([]int, 0, len(score))
	for o := range score {
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b int) int {
		if score[a] != score[b] {
			if score[a] > score[b] {
				return -1
			}
			return 1
		}
		return a - b
	})
	return out
}

// embedAll embeds texts with e on all cores, in batches.
func embedAll(ctx context.Context, t testing.TB, e Embedder, texts []string) [][]float32 {
	t.Helper()
	out := make([][]float32, len(texts))
	const batch = 256
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for lo := range next {
				hi := min(lo+batch, len(texts))
				vs, err := e.Embed(ctx, texts[lo:hi])
				if err != nil {
					mu.Lock()
					first = errors.Join(first, err)
					mu.Unlock()
					continue
				}
				copy(out[lo:hi], vs)
			}
		})
	}
	for lo := 0; lo < len(texts); lo += batch {
		next <- lo
	}
	close(next)
	wg.Wait()
	require.NoError(t, first, "embed texts")
	return out
}

// registerVector teaches conn to send pgvector.Vector in binary, as COPY requires. It stands
// in for pgxvec.RegisterTypes (github.com/pgvector/pgvector-go/pgx), whose halfvec support
// imports github.com/x448/float16, a module go.mod does not list.
func registerVector(ctx context.Context, conn *pgx.Conn) error {
	var oid uint32
	if err := conn.QueryRow(ctx, `SELECT 'vector'::regtype::oid`).Scan(&oid); err != nil {
		return fmt.Errorf("look up vector type: %w", err)
	}
	conn.TypeMap().RegisterType(&pgtype.Type{Name: "vector", OID: oid, Codec: vectorCodec{}})
	return nil
}

// vectorCodec encodes pgvector.Vector in pgvector's binary format; it never decodes
// (the tests read back only ids).
type vectorCodec struct{}

func (vectorCodec) FormatSupported(format int16) bool { return format == pgtype.BinaryFormatCode }

func (vectorCodec) PreferredFormat() int16 { return pgtype.BinaryFormatCode }

func (vectorCodec) PlanEncode(_ *pgtype.Map, _ uint32, format int16, value any) pgtype.EncodePlan {
	if _, ok := value.(pgvector.Vector); ok && format == pgtype.BinaryFormatCode {
		return vectorEncodePlan{}
	}
	return nil
}

func (vectorCodec) PlanScan(*pgtype.Map, uint32, int16, any) pgtype.ScanPlan { return nil }

func (vectorCodec) DecodeDatabaseSQLValue(*pgtype.Map, uint32, int16, []byte) (driver.Value, error) {
	return nil, errors.New("decode vector: not supported by this test codec")
}

func (vectorCodec) DecodeValue(*pgtype.Map, uint32, int16, []byte) (any, error) {
	return nil, errors.New("decode vector: not supported by this test codec")
}

type vectorEncodePlan struct{}

func (vectorEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	return value.(pgvector.Vector).EncodeBinary(buf)
}

// lmeDB is the dev set loaded into a test database: one row per haystack turn, with a
// stored english tsvector and the offline embedding.
type lmeDB struct {
	pool *pgxpool.Pool
	ds   *lmeDataset
}

func loadLMEDatabase(ctx context.Context, t testing.TB, ds *lmeDataset, e Embedder, vecs [][]float32) *lmeDB {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AdminPool(t)
	_, err := pool.Exec(ctx, fmt.Sprintf(`CREATE TABLE lme_turn (
		ord int PRIMARY KEY,
		qi int NOT NULL,
		body text NOT NULL,
		tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED,
		vec vector(%d) NOT NULL
	)`, e.Dimensions()))
	require.NoError(t, err)

	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	require.NoError(t, registerVector(ctx, conn.Conn()))
	n, err := conn.Conn().CopyFrom(ctx, pgx.Identifier{"lme_turn"}, []string{"ord", "qi", "body", "vec"},
		pgx.CopyFromSlice(len(ds.rows), func(i int) ([]any, error) {
			r := ds.rows[i]
			return []any{r.ord, r.qi, r.text, pgvector.NewVector(vecs[i])}, nil
		}))
	require.NoError(t, err)
	require.EqualValues(t, len(ds.rows), n)
	_, err = pool.Exec(ctx, `CREATE INDEX ON lme_turn (qi); ANALYZE lme_turn`)
	require.NoError(t, err)
	return &lmeDB{pool: pool, ds: ds}
}

// keyword is the full-text lane: an OR of the question's english lexemes over its haystack,
// ranked by ts_rank_cd, top 50.
func (l *lmeDB) keyword(ctx context.Context, conn *pgx.Conn, qi int) ([]int, error) {
	rows, err := conn.Query(ctx, `
		WITH q AS (SELECT replace(plainto_tsquery('english', $2)::text, ' & ', ' | ')::tsquery AS q)
		SELECT ord FROM lme_turn, q
		WHERE qi = $1 AND tsv @@ q.q
		ORDER BY ts_rank_cd(tsv, q.q) DESC, ord
		LIMIT 50`, qi, l.ds.questions[qi].Question)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int])
}

// vector is the vector lane: exact cosine distance over the question's haystack, top 50.
func (l *lmeDB) vector(ctx context.Context, conn *pgx.Conn, qi int, qv []float32) ([]int, error) {
	rows, err := conn.Query(ctx, `
		SELECT ord FROM lme_turn WHERE qi = $1 ORDER BY vec <=> $2, ord LIMIT 50`, qi, pgvector.NewVector(qv))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int])
}

// TestOffline_FusionBeatsKeywordOnLongMemEval loads each dev question's haystack turns into
// Postgres and checks that fusing the offline vector lane with the full-text lane finds
// the evidence sessions more often than full text alone.
func TestOffline_FusionBeatsKeywordOnLongMemEval(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ds := loadLongMemEval(t)
	e := NewOffline()

	start := time.Now()
	texts := make([]string, len(ds.rows))
	for i, r := range ds.rows {
		texts[i] = r.text
	}
	vecs := embedAll(ctx, t, e, texts)
	embedTook := time.Since(start)
	lme := loadLMEDatabase(ctx, t, ds, e, vecs)
	loadTook := time.Since(start) - embedTook

	conn, err := lme.pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	require.NoError(t, registerVector(ctx, conn.Conn()))

	var kw, vec, fused lmeRecall
	for qi := range ds.questions {
		q := &ds.questions[qi]
		if strings.HasSuffix(q.QuestionID, "_abs") {
			continue
		}
		qv, err := e.Embed(ctx, []string{q.Question})
		require.NoError(t, err)
		k, err := lme.keyword(ctx, conn.Conn(), qi)
		require.NoError(t, err, "keyword lane for %s", q.QuestionID)
		v, err := lme.vector(ctx, conn.Conn(), qi, qv[0])
		require.NoError(t, err, "vector lane for %s", q.QuestionID)
		kw.score(ds, qi, k)
		vec.score(ds, qi, v)
		fused.score(ds, qi, rrf(60, k, v))
	}
	t.Logf("%d questions (%d with turn labels), %d turns; embed %v, load %v, total %v",
		kw.nSess, kw.nTurn, len(ds.rows), embedTook.Round(time.Millisecond), loadTook.Round(time.Millisecond),
		time.Since(start).Round(time.Millisecond))
	t.Logf("keyword only: %v", kw)
	t.Logf("vector only:  %v", vec)
	t.Logf("fused (RRF):  %v", fused)
	// Turn level is what checkout hands out, and where the lanes differ most. At session
	// level both reach the same ceiling on this dev set (the misses need semantics no
	// lexical method has), so fusion must not lose there but cannot be asked to win.
	require.Greater(t, fused.turnAt10(), kw.turnAt10(),
		"fusing the offline vector lane with keyword search must beat keyword search alone (turn recall_any@10)")
	require.GreaterOrEqual(t, fused.sessionAt10(), kw.sessionAt10(),
		"fusing the offline vector lane with keyword search must not lose to keyword search alone (session recall_any@10)")
	require.Greater(t, fused.sessionAt5(), kw.sessionAt5(),
		"fusing the offline vector lane with keyword search must beat keyword search alone (session recall_any@5)")
}
