package topic_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/topic"
)

// bundle is a test's log and refresher on one executor.
type bundle struct {
	*fixture.Log
	ref *topic.Refresher
}

// newFixture runs on a rolled-back test transaction.
func newFixture(t *testing.T) *bundle {
	t.Helper()
	return newFixtureOn(t, testcontainers.TestTx(t))
}

func newFixtureOn(t *testing.T, db pgexec.Executor) *bundle {
	t.Helper()
	return &bundle{Log: fixture.New(t, db, projection.Config{}), ref: topic.NewRefresher(db, topic.DefaultParams)}
}

// load appends events to space and projects them.
func (f *bundle) load(t *testing.T, space string, events []eventloom.NewEvent) {
	t.Helper()
	f.Append(t, space, events...)
	f.Project(t, space)
}

func (f *bundle) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, f.DB.QueryRow(context.Background(), q, args...).Scan(&n))
	return n
}

// nearest returns the session whose topic is closest to query, and whether its first
// message shares a word (a lexeme) with the query.
func (f *bundle) nearest(t *testing.T, space, query string) (string, bool) {
	t.Helper()
	ctx := context.Background()
	vec, err := topic.QueryVector(ctx, f.DB, space, "english", query)
	require.NoError(t, err)
	require.NotNil(t, vec, "the model knows none of %q", query)
	var session string
	var shares bool
	require.NoError(t, f.DB.QueryRow(ctx, `
		SELECT t.session_id, i.tsv @@ replace(plainto_tsquery('english', $3)::text, ' & ', ' | ')::tsquery
		FROM latent_topics t JOIN memory_items i ON i.space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND i.seq = t.seq AND i.kind = 'event'
		WHERE t.space_id = $1 ORDER BY t.vec <=> $2::vector LIMIT 1`,
		space, vectorText(vec), query).Scan(&session, &shares))
	return session, shares
}

func TestRefresh_TooFewItemsGiveNoModel(t *testing.T) {
	f := newFixture(t)
	f.load(t, "small", corpus(1, 6, nil)) // 30 messages, MinDocs is 50
	res, err := f.ref.Refresh(context.Background(), "small")
	require.NoError(t, err)
	require.False(t, res.Rebuilt)
	require.Zero(t, f.count(t, `SELECT count(*) FROM latent_models`))
	vec, err := topic.QueryVector(context.Background(), f.DB, "small", "english", "camera")
	require.NoError(t, err)
	require.Nil(t, vec)
}

func TestRefresh_BuildsAModelThatBridgesWordsTheTextsDoNotShare(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	openers := map[string]string{
		"photo-0":   "I need a new flash for my sony, any ideas?",
		"cooking-0": "my sourdough comes out flat from the oven",
		"garden-0":  "the tomato seedling leaves turn yellow",
	}
	f.load(t, "s", corpus(2, 8, openers)) // 80 messages, 10 sessions
	res, err := f.ref.Refresh(ctx, "s")
	require.NoError(t, err)
	require.True(t, res.Rebuilt)
	require.Equal(t, 80, res.Docs)
	require.Equal(t, 26, res.Dims) // 80 / 3
	require.Equal(t, 10, res.Topics)
	require.Equal(t, res.Terms, f.count(t, `SELECT count(*) FROM latent_terms b, zaxy_latent_block_terms(b.block) WHERE b.space_key = (SELECT space_key FROM spaces WHERE space_id = 's')`))
	require.Equal(t, 10, f.count(t, `SELECT count(*) FROM latent_topics WHERE space_id = 's'`))

	// No query word occurs in the first message of any session of the topic: the model links
	// them through the rest of each topic's conversations.
	for query, topic := range map[string]string{
		"portrait aperture photography":        "photo-",
		"a recipe with butter for the kitchen": "cooking-",
		"compost and mulch for the greenhouse": "garden-",
	} {
		session, shares := f.nearest(t, "s", query)
		require.True(t, strings.HasPrefix(session, topic), "%q found %s, want a %s session", query, session, topic)
		require.False(t, shares, "%q shares a word with %s's first message", query, session)
	}
}

func TestRefresh_FoldsInNewSessionsAndRebuildsWhenTheSpaceGrows(t *testing.T) {
	// Its own database: built_at is now(), the same for a whole test transaction.
	f := newFixtureOn(t, testcontainers.NewDatabase(t).AppPool(t))
	ctx := context.Background()
	f.load(t, "g", corpus(2, 6, nil)) // 60 messages
	res, err := f.ref.Refresh(ctx, "g")
	require.NoError(t, err)
	require.True(t, res.Rebuilt)
	var builtAt1 string
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT built_at::text FROM latent_models WHERE space_id = 'g'`).Scan(&builtAt1))

	// One new session (2 messages, under a fifth of 60): folded in, no rebuild.
	f.load(t, "g", []eventloom.NewEvent{
		message("new-trip", "user", "which passport and visa for the beach hotel"),
		message("new-trip", "assistant", "check the airport rules"),
	})
	res, err = f.ref.Refresh(ctx, "g")
	require.NoError(t, err)
	require.False(t, res.Rebuilt)
	require.Equal(t, 1, res.Topics)
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM latent_topics WHERE space_id = 'g' AND session_id = 'new-trip'`))
	require.Equal(t, 1, f.count(t, `SELECT count(*) FROM latent_models WHERE space_id = 'g' AND built_at::text = $1`, builtAt1))
	session, _ := f.nearest(t, "g", "which passport and visa for the beach hotel")
	require.Equal(t, "new-trip", session)

	// Nothing new: nothing written.
	res, err = f.ref.Refresh(ctx, "g")
	require.NoError(t, err)
	require.False(t, res.Rebuilt)
	require.Zero(t, res.Topics)

	// A fifth more items: rebuilt from all of them.
	f.load(t, "g", corpus(1, 3, nil)) // 15 more
	res, err = f.ref.Refresh(ctx, "g")
	require.NoError(t, err)
	require.True(t, res.Rebuilt)
	require.Equal(t, 77, res.Docs)
	require.Equal(t, 77, f.count(t, `SELECT docs FROM latent_models WHERE space_id = 'g'`))
}

func TestRefresh_SameItemsGiveTheSameModel(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, space := range []string{"a", "b"} {
		f.load(t, space, corpus(2, 6, nil))
		_, err := f.ref.Refresh(ctx, space)
		require.NoError(t, err)
	}
	terms := func(space string) []string {
		rows, err := f.DB.Query(ctx, `SELECT encode(block, 'hex') FROM latent_terms WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) ORDER BY first_lexeme`, space)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	a := terms("a")
	require.NotEmpty(t, a)
	require.Equal(t, a, terms("b"))
}

// The term vectors are stored as 6-bit codes, packed, and a scale (migration 000070; the
// listing gives one signed byte a code, within ±31), and a rebuild folds its session topics
// from the vectors as they read back, so a topic folded later from the stored terms is the
// same vector.
func TestRefresh_TermsInSixBitsAndTopicsFoldedLaterEqualTheRebuilds(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.load(t, "q", corpus(2, 8, nil))
	res, err := f.ref.Refresh(ctx, "q")
	require.NoError(t, err)
	require.True(t, res.Rebuilt)
	require.Equal(t, res.Terms, f.count(t, `SELECT count(*) FROM latent_terms b, zaxy_latent_block_terms(b.block) t WHERE b.space_key = (SELECT space_key FROM spaces WHERE space_id = 'q') AND length(t.q8) = $1
		AND get_byte(b.block, 2) = 6 AND NOT EXISTS (SELECT FROM generate_series(0, length(t.q8) - 1) i WHERE get_byte(t.q8, i) BETWEEN 32 AND 224)`, res.Dims),
		"a code a dimension, each within ±31")
	require.Positive(t, f.count(t, `SELECT count(*) FROM latent_terms b, zaxy_latent_block_terms(b.block) t WHERE b.space_key = (SELECT space_key FROM spaces WHERE space_id = 'q')
		AND EXISTS (SELECT FROM generate_series(0, length(t.q8) - 1) i WHERE get_byte(t.q8, i) IN (31, 225))`), "the largest magnitude is 31")
	topics := func() []string {
		rows, err := f.DB.Query(ctx, `SELECT session_id || ' ' || vec::text FROM latent_topics WHERE space_id = 'q' ORDER BY session_id`)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	built := topics()
	require.Len(t, built, 10)
	_, err = f.DB.Exec(ctx, `DELETE FROM latent_topics WHERE space_id = 'q'`)
	require.NoError(t, err)
	res, err = f.ref.Refresh(ctx, "q")
	require.NoError(t, err)
	require.False(t, res.Rebuilt, "the model is current: the topics are folded from the stored terms")
	require.Equal(t, built, topics())
}

// A model with some hundreds of terms is stored in several blocks (block.go): every stored
// term is found by a query naming it, whichever block it falls in, with the vector the
// database's own reading of the blocks gives; a word sorting before the first block is
// unknown; and topics folded later from the blocks equal the rebuild's.
func TestRefresh_TermsInBlocksAreFoundInWhicheverBlockTheyFall(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	var events []eventloom.NewEvent
	word := func(i int) string { return fmt.Sprintf("k%c%c%cz", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26) }
	for s := range 6 {
		for i := range 17 {
			// Twelve words a message, each in two consecutive messages, so it is kept (MinDF 2).
			var words []string
			for j := range 12 {
				words = append(words, word(s*200+i*6+j))
			}
			events = append(events, message(fmt.Sprintf("s%d", s), "user", strings.Join(words, " ")))
		}
	}
	f.load(t, "b", events)
	res, err := f.ref.Refresh(ctx, "b")
	require.NoError(t, err)
	require.True(t, res.Rebuilt)
	require.Greater(t, f.count(t, `SELECT count(*) FROM latent_terms WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'b')`), 2,
		"%d terms of %d dimensions fill several blocks", res.Terms, res.Dims)

	rows, err := f.DB.Query(ctx, `SELECT t.lexeme, t.scale, t.q8 FROM latent_terms b, zaxy_latent_block_terms(b.block) t
		WHERE b.space_key = (SELECT space_key FROM spaces WHERE space_id = 'b') ORDER BY t.lexeme COLLATE "C"`)
	require.NoError(t, err)
	type stored struct {
		Lexeme string  `db:"lexeme"`
		Scale  float32 `db:"scale"`
		Q8     []byte  `db:"q8"`
	}
	all, err := pgx.CollectRows(rows, pgx.RowToStructByName[stored])
	require.NoError(t, err)
	require.Len(t, all, res.Terms)
	for _, s := range all {
		vec, err := topic.QueryVector(ctx, f.DB, "b", "english", s.Lexeme)
		require.NoError(t, err)
		require.NotNil(t, vec, "%q is in the model", s.Lexeme)
		want := make([]float64, len(s.Q8))
		var norm float64
		for i, c := range s.Q8 {
			want[i] = float64(s.Scale * float32(int8(c)))
			norm += want[i] * want[i]
		}
		for i := range want {
			require.InDelta(t, want[i]/math.Sqrt(norm), vec[i], 1e-6, "%q component %d", s.Lexeme, i)
		}
	}
	vec, err := topic.QueryVector(ctx, f.DB, "b", "english", "aardvark")
	require.NoError(t, err)
	require.Nil(t, vec, "a word before the first block is unknown")

	topics := func() []string {
		rows, err := f.DB.Query(ctx, `SELECT session_id || ' ' || vec::text FROM latent_topics WHERE space_id = 'b' ORDER BY session_id`)
		require.NoError(t, err)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	built := topics()
	require.Len(t, built, 6)
	_, err = f.DB.Exec(ctx, `DELETE FROM latent_topics WHERE space_id = 'b'`)
	require.NoError(t, err)
	res, err = f.ref.Refresh(ctx, "b")
	require.NoError(t, err)
	require.False(t, res.Rebuilt)
	require.Equal(t, built, topics())
}
