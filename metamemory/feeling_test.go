package metamemory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/validation"
)

// testBundle is one test's log and feeling-of-knowing service.
type testBundle struct {
	*fixture.Log
	svc *metamemory.Service
}

// setup runs on a rolled-back test transaction.
func setup(t *testing.T, lim metamemory.Limits) *testBundle {
	t.Helper()
	return setupOn(t, testcontainers.TestTx(t), lim)
}

func setupOn(t *testing.T, db pgexec.Executor, lim metamemory.Limits) *testBundle {
	t.Helper()
	return &testBundle{Log: fixture.New(t, db, projection.Config{}), svc: metamemory.New(db, metamemory.Config{Limits: lim})}
}

// remember appends messages to a space and projects it, as the workers would.
func (b *testBundle) remember(t *testing.T, space string, texts ...string) {
	t.Helper()
	evs := make([]eventloom.NewEvent, len(texts))
	for i, s := range texts {
		evs[i] = eventloom.NewEvent{Type: "message", SessionID: "s1", Content: s, Data: json.RawMessage(`{"role":"user"}`)}
	}
	b.Append(t, space, evs...)
	b.Project(t, space)
}

func (b *testBundle) feel(t *testing.T, space, query string) *metamemory.Feeling {
	t.Helper()
	f, err := b.svc.Feel(context.Background(), &metamemory.Request{SpaceID: space, Query: query})
	require.NoError(t, err)
	return f
}

// chatter is a small everyday memory: common words in many items, a few rare ones.
func chatter() []string {
	var out []string
	for i := range 40 {
		out = append(out, fmt.Sprintf("We talked about the weather and lunch plans again, day %d of the week.", i))
	}
	return append(out,
		"My sister adopted a greyhound named Biscuit from the shelter in Tacoma.",
		"The sourdough starter needs feeding every twelve hours.",
	)
}

func TestFeel_UnknownTermsAndStopWordsAreUnlikely(t *testing.T) {
	b := setup(t, metamemory.Limits{})
	b.remember(t, "fok-a", chatter()...)
	for _, q := range []string{"Which saxophone brand did the orchestra recommend?", "what is it that they were", "zyxwvut qqqq"} {
		f := b.feel(t, "fok-a", q)
		require.Equal(t, metamemory.Unlikely, f.Judgement, "%q: %+v", q, f.Signals)
	}
	// A space nobody wrote to knows nothing, as an empty space.
	f, err := b.svc.Feel(context.Background(), &metamemory.Request{SpaceID: "fok-none", Query: "greyhound"})
	require.NoError(t, err)
	require.Equal(t, metamemory.Unlikely, f.Judgement)
	require.Zero(t, f.Signals.SpaceItems)
}

func TestFeel_RareKnownTermsAreLikely(t *testing.T) {
	b := setup(t, metamemory.Limits{})
	b.remember(t, "fok-a", chatter()...)
	f := b.feel(t, "fok-a", "Where did my sister adopt the greyhound?")
	require.Equal(t, metamemory.Likely, f.Judgement, "%+v", f.Signals)
	require.Contains(t, f.Signals.KnownTerms, "greyhound")
	require.Greater(t, f.Signals.MaxKnownSpecificity, 0.5)
	// The same question about things the space never mentioned is less certain.
	unknown := b.feel(t, "fok-a", "Where did my sister adopt the hamster, the iguana and the parrot?")
	require.Less(t, unknown.Probability, f.Probability)
	require.Subset(t, unknown.Signals.UnknownTerms, []string{"hamster", "iguana", "parrot"})
}

// TestFeel_AskingASpeakerAboutWhatOthersSaidIsLessLikely: the speaker signal. Alice told of the
// marathon; asking what Bob did at the marathon is less likely to find evidence.
func TestFeel_AskingASpeakerAboutWhatOthersSaidIsLessLikely(t *testing.T) {
	b := setup(t, metamemory.Limits{})
	var evs []eventloom.NewEvent
	say := func(actor, text string) {
		evs = append(evs, eventloom.NewEvent{Type: "message", SessionID: "s1", Actor: actor, Content: text,
			Data: json.RawMessage(`{"role":"user"}`)})
	}
	for i, line := range chatter() {
		say([]string{"alice", "bob"}[i%2], line)
	}
	say("alice", "I finally ran the Boston marathon last spring, my knees still hurt.")
	say("bob", "I spent the spring repainting the garage.")
	b.Append(t, "fok-s", evs...)
	b.Project(t, "fok-s")
	alice := b.feel(t, "fok-s", "When did Alice run the Boston marathon?")
	bob := b.feel(t, "fok-s", "When did Bob run the Boston marathon?")
	require.Equal(t, []string{"alice"}, alice.Signals.Speakers)
	require.Equal(t, []string{"bob"}, bob.Signals.Speakers)
	require.NotNil(t, alice.Signals.SpeakerSupport)
	require.NotNil(t, bob.Signals.SpeakerSupport)
	require.Greater(t, *alice.Signals.SpeakerSupport, 0.9)
	require.Less(t, *bob.Signals.SpeakerSupport, 0.1)
	require.Less(t, bob.Probability, alice.Probability)
	require.Equal(t, metamemory.Likely, alice.Judgement)
	require.NotEqual(t, metamemory.Likely, bob.Judgement)
}

func TestFeel_SeesATermAppendedAfterACachedAnswer(t *testing.T) {
	b := setup(t, metamemory.Limits{})
	b.remember(t, "fok-a", chatter()...)
	q := "When is the kayak rental due back?"
	before := b.feel(t, "fok-a", q)
	require.Equal(t, metamemory.Unlikely, before.Judgement)
	require.Contains(t, before.Signals.UnknownTerms, "kayak")
	require.True(t, b.feel(t, "fok-a", q).Sketch.Cached, "the second answer reads the cached sketch")

	// Appended, not yet projected: not known, and the answer says how far behind it is.
	b.Append(t, "fok-a", eventloom.NewEvent{Type: "message", SessionID: "s1", Content: "The kayak rental is due back at the marina on Sunday.", Data: json.RawMessage(`{"role":"user"}`)})
	pending := b.feel(t, "fok-a", q)
	require.EqualValues(t, 1, pending.Sketch.ProjectionLag)
	require.Contains(t, pending.Signals.UnknownTerms, "kayak")
	b.Project(t, "fok-a")
	after := b.feel(t, "fok-a", q)
	require.Zero(t, after.Sketch.ProjectionLag)
	require.False(t, after.Sketch.Cached, "the new watermark invalidates the sketch")
	require.Contains(t, after.Signals.KnownTerms, "kayak")
	require.Greater(t, after.Probability, before.Probability)
	require.NotEqual(t, metamemory.Unlikely, after.Judgement)
}

func TestFeel_SpacesAreIsolated(t *testing.T) {
	b := setup(t, metamemory.Limits{})
	b.remember(t, "fok-a", chatter()...)
	b.remember(t, "fok-b", append(chatter(), "The harpsichord tuning is booked for Thursday.")...)
	q := "When is the harpsichord tuning?"
	require.Contains(t, b.feel(t, "fok-b", q).Signals.KnownTerms, "harpsichord")
	a := b.feel(t, "fok-a", q)
	require.Contains(t, a.Signals.UnknownTerms, "harpsichord")
	require.Equal(t, metamemory.Unlikely, a.Judgement)
}

// TestFeel_DeltaEqualsRebuild: a sketch brought forward by what was projected since gives the
// answer a sketch built from scratch gives.
func TestFeel_DeltaEqualsRebuild(t *testing.T) {
	b := setup(t, metamemory.Limits{})
	b.remember(t, "fok-a", chatter()...)
	q := "Did the marina rent a kayak to my sister, and what about lunch with Biscuit?"
	b.feel(t, "fok-a", q)
	b.remember(t, "fok-a", "The kayak rental is due back at the marina on Sunday.", "Lunch with Biscuit at the marina.")
	delta := b.feel(t, "fok-a", q)
	fresh, err := metamemory.New(b.DB, metamemory.Config{}).Feel(context.Background(), &metamemory.Request{SpaceID: "fok-a", Query: q})
	require.NoError(t, err)
	delta.Sketch, fresh.Sketch = metamemory.SketchInfo{}, metamemory.SketchInfo{}
	require.Equal(t, fresh, delta)
}

// TestFeel_BoundedSketchesAndSpaces: past Limits.Lexemes the rarest lexemes are still known
// (through the tail filter), and past Limits.Spaces the least recently asked space is dropped.
func TestFeel_BoundedSketchesAndSpaces(t *testing.T) {
	b := setup(t, metamemory.Limits{})
	svc := metamemory.New(b.DB, metamemory.Config{Limits: metamemory.Limits{Lexemes: 8, Spaces: 2}})
	b.remember(t, "fok-a", chatter()...)
	b.remember(t, "fok-b", chatter()...)
	b.remember(t, "fok-c", chatter()...)
	f, err := svc.Feel(context.Background(), &metamemory.Request{SpaceID: "fok-a", Query: "greyhound sourdough saxophone"})
	require.NoError(t, err)
	require.True(t, f.Sketch.Truncated)
	require.Equal(t, 8, f.Sketch.Lexemes)
	require.ElementsMatch(t, []string{"greyhound", "sourdough"}, f.Signals.KnownTerms)
	require.Equal(t, []string{"saxophon"}, f.Signals.UnknownTerms)
	for _, s := range []string{"fok-b", "fok-c"} {
		_, err := svc.Feel(context.Background(), &metamemory.Request{SpaceID: s, Query: "greyhound"})
		require.NoError(t, err)
	}
	require.Equal(t, 2, svc.CachedSpaces())
	f, err = svc.Feel(context.Background(), &metamemory.Request{SpaceID: "fok-a", Query: "greyhound"})
	require.NoError(t, err)
	require.False(t, f.Sketch.Cached, "fok-a was dropped as the least recently asked")
}

func TestFeel_RejectsBadInput(t *testing.T) {
	b := setup(t, metamemory.Limits{})
	for _, r := range []metamemory.Request{
		{SpaceID: "fok-a", Query: ""},
		{SpaceID: "fok-a", Query: "   "},
		{SpaceID: "fok-a", Query: strings.Repeat("a", metamemory.MaxQueryChars+1)},
		{SpaceID: "fok-a", Query: "grey\x00hound"},
		{SpaceID: "fok-a", Query: "grey\xffhound"},
		{SpaceID: "", Query: "greyhound"},
	} {
		_, err := b.svc.Feel(context.Background(), &r)
		var ve *validation.Error
		require.ErrorAs(t, err, &ve, "%q", r.Query)
		if r.SpaceID != "" {
			require.Equal(t, checkout.ValidateQuery(r.Query), err, "a query is refused as checkout refuses it")
		}
	}
}

// statementLog records every statement a pool's connections run (a pgx QueryTracer).
type statementLog struct {
	mu   sync.Mutex
	sqls []string
}

func (l *statementLog) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sqls = append(l.sqls, d.SQL)
	return ctx
}

func (l *statementLog) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (l *statementLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.sqls
	l.sqls = nil
	return out
}

// TestFeel_RunsNoVectorOrGraphStatement traces every statement a feeling of knowing runs, on
// a space that has embeddings and facts: none reads the vector tables, runs Cypher or walks
// the facts, and a cached answer is one statement.
func TestFeel_RunsNoVectorOrGraphStatement(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	cfg, err := pgxpool.ParseConfig(db.AppURL)
	require.NoError(t, err)
	pgexec.Configure(cfg)
	log := &statementLog{}
	cfg.ConnConfig.Tracer = log
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	ctx := context.Background()
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	store := eventloom.NewStore(pool, nil, nil)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "fok-a", Events: []eventloom.NewEvent{
		{Type: "message", SessionID: "s1", Content: "Dana moved the deploy pipeline to GitHub Actions.", Data: json.RawMessage(`{"role":"user"}`)},
		{Type: "fact.asserted", Data: json.RawMessage(`{"subject":"deploy pipeline","predicate":"runs on","object":"GitHub Actions"}`)},
	}})
	require.NoError(t, err)
	_, err = proj.ProjectSpace(ctx, "fok-a")
	require.NoError(t, err)

	svc := metamemory.New(pool, metamemory.Config{})
	log.take()
	f, err := svc.Feel(ctx, &metamemory.Request{SpaceID: "fok-a", Query: "Where does the deploy pipeline run?"})
	require.NoError(t, err)
	require.Contains(t, f.Signals.EntityHits, "deploy pipeline")
	first := log.take()
	_, err = svc.Feel(ctx, &metamemory.Request{SpaceID: "fok-a", Query: "Where does the deploy pipeline run?"})
	require.NoError(t, err)
	cached := log.take()
	require.Len(t, cached, 1, "a cached answer is one statement: %q", cached)
	require.NotEmpty(t, first)
	for _, s := range append(first, cached...) {
		low := strings.ToLower(s)
		for _, banned := range []string{"embeddings", "vector_spaces", "halfvec", "<=>", "cypher", "ag_catalog", " facts", "mentions m"} {
			require.NotContains(t, low, banned, "statement %q", s)
		}
	}
}

// TestFeel_SalienceHistogramOnceSalienceIsMaterialised: before the salience_decay job has
// materialised a space's salience the signal is absent; after, the sketch carries the space's
// histogram (rows written here as the job writes them, for two spaces).
func TestFeel_SalienceHistogramOnceSalienceIsMaterialised(t *testing.T) {
	ctx := context.Background()
	tx := testcontainers.TestTx(t)
	b := setupOn(t, tx, metamemory.Limits{})
	b.remember(t, "fok-a", chatter()...)
	require.Nil(t, b.feel(t, "fok-a", "greyhound").Signals.Salience)
	testcontainers.AsOwner(t, tx, func() { // the salience_decay job's rows
		_, err := tx.Exec(ctx, `INSERT INTO salience_decayed (space_id, item_id, salience, attenuated, decayed_at)
			VALUES ('fok-a', 'ev:1', 0.05, true, now()), ('fok-a', 'ev:2', 0.95, false, now()), ('fok-a', 'ev:3', 1.0, false, now()),
			       ('fok-b', 'ev:1', 0.5, false, now())`)
		require.NoError(t, err)
	})
	// A new sketch (the histogram is read when a sketch is built).
	f, err := metamemory.New(tx, metamemory.Config{}).Feel(ctx, &metamemory.Request{SpaceID: "fok-a", Query: "greyhound"})
	require.NoError(t, err)
	require.NotNil(t, f.Signals.Salience)
	require.Equal(t, []int64{1, 0, 0, 0, 0, 0, 0, 0, 0, 2}, f.Signals.Salience.Buckets)
	require.EqualValues(t, 1, f.Signals.Salience.Attenuated)
}
