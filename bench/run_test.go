package bench_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// wordRetriever is a stand-in for checkout that ranks by SQL over the events table: fused
// ranks a space's messages by how many of the question's words (4+ letters) they contain,
// then by seq; keyword-only ranks newest first (deliberately different). Its packet is the
// fused ranking packed greedily by characters/4.
type wordRetriever struct {
	pool *pgxpool.Pool

	mu     sync.Mutex
	spaces []string
	asOf   map[string]time.Time // question -> as of
}

type message struct {
	seq     int64
	content string
}

func (r *wordRetriever) Prepare(_ context.Context, space string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spaces = append(r.spaces, space)
	return nil
}

func (r *wordRetriever) messages(ctx context.Context, space string, asOf time.Time) ([]message, error) {
	rows, err := r.pool.Query(ctx, `SELECT seq, content FROM events
		WHERE space_id = $1 AND type = 'message' AND occurred_at <= $2 ORDER BY seq`, space, asOf)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (message, error) {
		var m message
		err := row.Scan(&m.seq, &m.content)
		return m, err
	})
}

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) >= 4 {
			out[w] = true
		}
	}
	return out
}

func (r *wordRetriever) Rank(ctx context.Context, space, question string, asOf time.Time, k int, keywordOnly bool) ([]int64, error) {
	r.mu.Lock()
	r.asOf[question] = asOf
	r.mu.Unlock()
	ms, err := r.messages(ctx, space, asOf)
	if err != nil {
		return nil, err
	}
	if keywordOnly {
		slices.Reverse(ms)
	} else {
		q := words(question)
		score := func(m message) int {
			n := 0
			for w := range words(m.content) {
				if q[w] {
					n++
				}
			}
			return n
		}
		sort.SliceStable(ms, func(i, j int) bool { return score(ms[i]) > score(ms[j]) })
	}
	var out []int64
	for _, m := range ms[:min(k, len(ms))] {
		out = append(out, m.seq)
	}
	return out, nil
}

func (r *wordRetriever) Packet(ctx context.Context, space, question string, asOf time.Time, maxTokens int, keywordOnly bool) ([]int64, int, error) {
	ranked, err := r.Rank(ctx, space, question, asOf, 1000, keywordOnly)
	if err != nil {
		return nil, 0, err
	}
	ms, err := r.messages(ctx, space, asOf)
	if err != nil {
		return nil, 0, err
	}
	text := map[int64]string{}
	for _, m := range ms {
		text[m.seq] = m.content
	}
	var seqs []int64
	used := 0
	for _, s := range ranked {
		if t := (utf8.RuneCountInString(text[s]) + 3) / 4; used+t <= maxTokens {
			seqs, used = append(seqs, s), used+t
		}
	}
	return seqs, used, nil
}

type line struct {
	QuestionID   string `json:"question_id"`
	QuestionType string `json:"question_type"`
	Ranked       []struct {
		Seq       int64  `json:"seq"`
		SessionID string `json:"session_id"`
		TurnID    string `json:"turn_id"`
	} `json:"ranked"`
	PacketTurnIDs []string `json:"packet_turn_ids"`
	PacketTokens  *int     `json:"packet_tokens"`
	LatencyMs     *float64 `json:"latency_ms"`
}

func readLines(t *testing.T, b []byte) []line {
	t.Helper()
	var out []line
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var l line
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
		require.NotNil(t, l.LatencyMs, "every line has latency_ms")
		require.GreaterOrEqual(t, *l.LatencyMs, 0.0)
		out = append(out, l)
	}
	return out
}

func (l line) seqs() []int64 {
	var out []int64
	for _, r := range l.Ranked {
		out = append(out, r.Seq)
	}
	return out
}

func load(t *testing.T, name string, fn func(*os.File) ([]bench.Case, error)) []bench.Case {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	require.NoError(t, err)
	defer f.Close()
	cases, err := fn(f)
	require.NoError(t, err)
	return cases
}

// storedTurn is an appended event as the log holds it.
type storedTurn struct {
	space, sessionID, actor, content string
	occurredAt                       time.Time
	data                             map[string]string
}

// storedTurns reads every event of the spaces, keyed by space and seq.
func storedTurns(ctx context.Context, t *testing.T, pool *pgxpool.Pool, spaces []string) map[string]map[int64]storedTurn {
	out := map[string]map[int64]storedTurn{}
	for _, sp := range spaces {
		rows, err := pool.Query(ctx, `SELECT seq, type, session_id, actor, content, occurred_at, data FROM events WHERE space_id = $1`, sp)
		require.NoError(t, err)
		out[sp] = map[int64]storedTurn{}
		for rows.Next() {
			var seq int64
			var typ string
			st := storedTurn{space: sp}
			require.NoError(t, rows.Scan(&seq, &typ, &st.sessionID, &st.actor, &st.content, &st.occurredAt, &st.data))
			require.Equal(t, "message", typ)
			out[sp][seq] = st
		}
		require.NoError(t, rows.Err())
	}
	return out
}

func TestRun_LongMemEval(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	r := &wordRetriever{pool: pool, asOf: map[string]time.Time{}}
	cases := load(t, "longmemeval_mini.json", func(f *os.File) ([]bench.Case, error) { return bench.LoadLongMemEval(f) })

	var out, kwOut, table bytes.Buffer
	sum, err := bench.Run(ctx, store, r, cases, bench.Options{Out: &out, KeywordOut: &kwOut, Summary: &table, K: 8, PacketTokens: 30, Parallel: 2})
	require.NoError(t, err)

	// One fresh space per case, named by dataset.
	require.Len(t, r.spaces, 2)
	for _, sp := range r.spaces {
		require.NoError(t, eventloom.ValidateSpaceID(sp))
		require.True(t, strings.HasPrefix(sp, "lme-"), sp)
	}
	require.NotEqual(t, r.spaces[0], r.spaces[1])
	require.Equal(t, time.Date(2023, 6, 10, 23, 59, 59, 0, time.UTC), r.asOf["What is the name of my favourite bakery?"], "asked as of the question's day")

	lines := readLines(t, out.Bytes())
	require.Len(t, lines, 2)
	require.Equal(t, "q-bakery", lines[0].QuestionID, "lines follow the input order")
	require.Equal(t, "single-session-user", lines[0].QuestionType)
	require.Equal(t, "q-dog_abs", lines[1].QuestionID)
	// Seqs 1-2 s-trip, 3-4 answer_bakery_1, 5-10 s-cat. Fused: the evidence turn (2 words),
	// then s-cat_1 ("name"), then the rest by seq; cut at K = 8.
	require.Equal(t, []int64{3, 5, 1, 2, 4, 6, 7, 8}, lines[0].seqs())
	require.Equal(t, "answer_bakery_1", lines[0].Ranked[0].SessionID)
	require.Equal(t, "answer_bakery_1_1", lines[0].Ranked[0].TurnID)
	require.Equal(t, "s-cat_4", lines[0].Ranked[7].TurnID)
	// 67 chars (17 tokens) + 38 chars (10 tokens) fit in 30; nothing else does.
	require.Equal(t, []string{"answer_bakery_1_1", "s-cat_1"}, lines[0].PacketTurnIDs)
	require.Equal(t, 27, *lines[0].PacketTokens)
	// "What time does the museum open on Sundays?" (11) + two 9-token turns = 29.
	require.Equal(t, 29, *lines[1].PacketTokens)

	kw := readLines(t, kwOut.Bytes())
	require.Len(t, kw, 2)
	require.Equal(t, []int64{10, 9, 8, 7, 6, 5, 4, 3}, kw[0].seqs())
	require.Nil(t, kw[0].PacketTokens, "keyword-only lines have no packet")

	// Every ranked entry names the turn the log holds at that seq.
	stored := storedTurns(ctx, t, pool, r.spaces)
	var bakery map[int64]storedTurn
	for _, sp := range r.spaces {
		if len(stored[sp]) == 10 {
			bakery = stored[sp]
		}
	}
	require.NotNil(t, bakery)
	for _, e := range append(lines[0].Ranked, kw[0].Ranked...) {
		st := bakery[e.Seq]
		require.Equal(t, e.TurnID, st.data["turn_id"])
		require.Equal(t, e.SessionID, st.data["lme_session_id"])
		require.Equal(t, e.SessionID, st.sessionID)
	}
	first := bakery[1]
	require.Equal(t, map[string]string{"role": "user", "lme_session_id": "s-trip", "turn_id": "s-trip_1"}, first.data)
	require.Equal(t, "user", first.actor, "actor is the role when there is no speaker")
	require.Equal(t, time.Date(2023, 5, 1, 9, 0, 0, 0, time.UTC), first.occurredAt.UTC())
	require.Equal(t, "I am planning a trip to Lisbon in the autumn.", first.content)
	require.Equal(t, "assistant", bakery[4].data["role"])

	// Summary, by hand: the abstention question is left out of recall; fused finds the
	// evidence turn first; keyword-only (newest first) has it at rank 8 and its session
	// second.
	require.Equal(t, 2, sum.Cases)
	require.Equal(t, 2, sum.Questions)
	require.Equal(t, 14, sum.Turns)
	require.Zero(t, sum.SkippedTurns)
	require.Equal(t, 8, sum.K)
	all := sum.Overall
	require.Equal(t, 1, all.Abstention)
	require.Equal(t, bench.LevelScores{Questions: 1, RecallAny5: 1, RecallAny10: 1, RecallAll10: 1, NDCG10: 1, Recall10: 1}, all.Fused.Turn)
	require.Equal(t, bench.LevelScores{Questions: 1, RecallAny5: 1, RecallAny10: 1, RecallAll10: 1, NDCG10: 1, Recall10: 1}, all.Fused.Session)
	require.Equal(t, bench.LevelScores{Questions: 1, RecallAny5: 0, RecallAny10: 1, RecallAll10: 1, NDCG10: 1 / math.Log2(9), Recall10: 1}, all.KeywordOnly.Turn)
	require.Equal(t, bench.LevelScores{Questions: 1, RecallAny5: 1, RecallAny10: 1, RecallAll10: 1, NDCG10: 1 / math.Log2(3), Recall10: 1}, all.KeywordOnly.Session)
	require.Equal(t, 1.0, all.PacketEvidence)
	require.Zero(t, all.KeywordPacketEvidence, "keyword-only ranks the evidence 8th: its 30-token packet holds only the first turns")
	require.Equal(t, 28.0, all.PacketTokensMean)
	require.Equal(t, 29, all.PacketTokensMax)
	require.Greater(t, all.LatencyP95Ms, 0.0)
	require.Len(t, sum.ByType, 2)
	require.Equal(t, "multi-session", sum.ByType[0].Name)
	require.Equal(t, 1, sum.ByType[0].Abstention)
	require.Zero(t, sum.ByType[0].Fused.Turn.Questions)
	require.Equal(t, "single-session-user", sum.ByType[1].Name)

	txt := table.String()
	require.Contains(t, txt, "2 cases, 2 questions (1 abstention), 14 turns appended")
	require.Contains(t, txt, "keyword only:")
	require.Regexp(t, `\| all +\| 2 \| +1 (\| +1\.000 ){11}\| +28 \|`, txt)
	require.Regexp(t, `\| multi-session +\| 1 \| +1 (\| +- ){11}\| +29 \|`, txt)
	require.Regexp(t, `\| all +\| 2 \| +1 \| +1\.000 \| +1\.000 \| +1\.000 \| +1\.000 \| +0\.631 \| +0\.000 \| +1\.000 \| +1\.000 \| +1\.000 \| +0\.315 \|`, txt)
}

func TestRun_LoCoMoWithLimit(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	r := &wordRetriever{pool: pool, asOf: map[string]time.Time{}}
	cases := load(t, "locomo_mini.json", func(f *os.File) ([]bench.Case, error) { return bench.LoadLoCoMo(f) })

	var out bytes.Buffer
	before := time.Now()
	sum, err := bench.Run(ctx, store, r, cases, bench.Options{Out: &out, Parallel: 2, Limit: 6})
	require.NoError(t, err)
	lines := readLines(t, out.Bytes())
	var ids []string
	for _, l := range lines {
		ids = append(ids, l.QuestionID)
	}
	require.Equal(t, []string{"conv-30#0", "conv-30#1", "conv-30#2", "conv-30#3", "conv-30#4", "conv-41#0"}, ids, "the first 6 questions, in order")
	require.Equal(t, "category-4", lines[0].QuestionType)
	// "What did Caroline decide to study?": D1:2 has "what" and "caroline", D1:3 "study".
	require.Equal(t, "D1:2", lines[0].Ranked[0].TurnID)
	require.Equal(t, "S1", lines[0].Ranked[0].SessionID)
	require.Equal(t, "D1:3", lines[0].Ranked[1].TurnID)
	require.Len(t, lines[0].Ranked, 7)
	require.Len(t, lines[5].Ranked, 5, "conv-41 appends 5 turns; the blank one is skipped")
	require.False(t, r.asOf["Why did Jon open a dance studio?"].Before(before), "no question date: asked as of now")

	require.Equal(t, 2, sum.Cases)
	require.Equal(t, 6, sum.Questions)
	require.Equal(t, 12, sum.Turns)
	require.Equal(t, 1, sum.SkippedTurns)
	require.Equal(t, 50, sum.K)
	require.Equal(t, 2000, sum.PacketTokens)
	require.Equal(t, 1, sum.Overall.Abstention)
	require.Equal(t, 5, sum.Overall.Fused.Turn.Questions, "the adversarial question with evidence is scored")
	require.Equal(t, []string{"category-1", "category-2", "category-3", "category-4", "category-5"}, func() []string {
		var n []string
		for _, g := range sum.ByType {
			n = append(n, g.Name)
		}
		return n
	}())
	// Categories 1-4 pooled: the adversarial category-5 questions stay out.
	require.Len(t, sum.Pooled, 1)
	require.Equal(t, "category-1-4", sum.Pooled[0].Name)
	require.Equal(t, 4, sum.Pooled[0].Questions)
	require.Equal(t, 4, sum.Pooled[0].Fused.Turn.Questions)

	stored := storedTurns(ctx, t, pool, r.spaces)
	var found int
	for _, sp := range r.spaces {
		require.True(t, strings.HasPrefix(sp, "locomo-"), sp)
		for _, st := range stored[sp] {
			switch st.data["dia_id"] {
			case "D1:4":
				found++
				require.Equal(t, map[string]string{"role": "assistant", "name": "Melanie", "dia_id": "D1:4", "turn_id": "D1:4"}, st.data)
				require.Equal(t, "Melanie", st.actor)
				require.Equal(t, "S1", st.sessionID)
				require.Equal(t, time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC), st.occurredAt.UTC())
				require.True(t, strings.HasSuffix(st.content, "[image: a painting of a sunrise over a lake]"))
			case "D2:3":
				if st.data["name"] == "Gina" {
					found++
					require.Equal(t, "[image: a photo of a wooden dance floor]", st.content)
				}
			}
		}
	}
	require.Equal(t, 2, found)
}

// failingRetriever fails to prepare.
type failingRetriever struct{ *wordRetriever }

func (*failingRetriever) Prepare(context.Context, string) error { return context.DeadlineExceeded }

func TestRun_RetrieverErrorStopsTheRun(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	cases := load(t, "longmemeval_mini.json", func(f *os.File) ([]bench.Case, error) { return bench.LoadLongMemEval(f) })
	var out bytes.Buffer
	_, err := bench.Run(context.Background(), eventloom.NewStore(pool, nil, nil), &failingRetriever{}, cases, bench.Options{Out: &out})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorContains(t, err, "case q-bakery: prepare space lme-")
	require.Empty(t, out.String())
}

func TestRun_ReuseAsksAnEarlierRunsSpacesWithoutAppending(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	cases := load(t, "locomo_mini.json", func(f *os.File) ([]bench.Case, error) { return bench.LoadLoCoMo(f) })
	count := func() int {
		var n int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&n))
		return n
	}

	var first bytes.Buffer
	sum, err := bench.Run(ctx, store, &wordRetriever{pool: pool, asOf: map[string]time.Time{}}, cases, bench.Options{Out: &first})
	require.NoError(t, err)
	require.NotEmpty(t, sum.Run)
	events := count()

	var again bytes.Buffer
	r := &wordRetriever{pool: pool, asOf: map[string]time.Time{}}
	sum2, err := bench.Run(ctx, store, r, cases, bench.Options{Out: &again, Reuse: sum.Run})
	require.NoError(t, err)
	require.Equal(t, events, count(), "nothing appended")
	require.Equal(t, sum.Run, sum2.Run)
	require.Equal(t, sum.Turns, sum2.Turns)
	require.Equal(t, sum.SkippedTurns, sum2.SkippedTurns)
	noLatency := regexp.MustCompile(`"latency_ms":[0-9.e+-]+`)
	require.Equal(t, noLatency.ReplaceAllString(first.String(), ""), noLatency.ReplaceAllString(again.String(), ""),
		"the same spaces rank the same, turn ids read back from the log")
	require.Len(t, r.spaces, len(cases), "each space is still prepared")

	// A run name with no spaces appends as usual; a space holding other turns is refused.
	_, err = bench.Run(ctx, store, &wordRetriever{pool: pool, asOf: map[string]time.Time{}}, cases[:1], bench.Options{Reuse: "fresh"})
	require.NoError(t, err)
	require.Greater(t, count(), events)
	other := cases[1]
	other.ID = cases[0].ID
	_, err = bench.Run(ctx, store, &wordRetriever{pool: pool, asOf: map[string]time.Time{}}, []bench.Case{other}, bench.Options{Reuse: "fresh"})
	require.ErrorContains(t, err, "which case "+cases[0].ID+" does not have")
}
