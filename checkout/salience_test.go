package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/validation"
)

// salienceSpace is a space whose memory has been in use for 200 days: an old note nobody
// used since, a fresh note, an old asserted fact, and a feedback event 199 days ago that
// started the space's use. It returns the seqs of the old and the fresh note and the time the
// space is asked at.
func salienceSpace(t *testing.T, f *fixture, space string) (old, fresh int64, now time.Time) {
	t.Helper()
	now = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	t0 := now.AddDate(0, 0, -200)
	t1 := now.AddDate(0, 0, -199)
	oldNote := msg("", "user", "The kafka retention for the audit topic is seven days, set by the platform team.")
	oldNote.OccurredAt = &t0
	oldFact := fact("audit topic", "owned by", "platform team", t0.Format(time.RFC3339))
	rc := f.append(t, space, oldNote, oldFact)
	freshNote := msg("", "user", "The kafka consumers for the audit topic now run in the eu-west cluster.")
	d1 := now.AddDate(0, 0, -1)
	freshNote.OccurredAt = &d1
	fb := eventloom.NewEvent{Type: "feedback.recorded", OccurredAt: &t1,
		Data: json.RawMessage(fmt.Sprintf(`{"target_seqs":[%d],"signal":"unhelpful"}`, rc[1].Seq))}
	rc2 := f.append(t, space, fb, freshNote)
	f.index(t, space)
	return rc[0].Seq, rc2[1].Seq, now
}

func queryIDs(res *checkout.QueryResult) map[string]*checkout.Item {
	out := map[string]*checkout.Item{}
	for _, it := range res.Items {
		out[it.ItemID] = it
	}
	return out
}

func TestSalience_AttenuatedLeavesDefaultRankingStaysQueryableAndAPinRestoresIt(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	old, fresh, now := salienceSpace(t, f, "sal")
	oldID, freshID := memoryitem.EventID(old), memoryitem.EventID(fresh)
	ask := func(include bool) map[string]*checkout.Item {
		res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "sal", Query: "kafka retention audit topic", AsOf: &now, IncludeAttenuated: include})
		require.NoError(t, err)
		return queryIDs(res)
	}

	def := ask(false)
	require.NotContains(t, def, oldID, "200 days of disuse put the old note below the floor")
	require.Contains(t, def, freshID)
	require.InDelta(t, math.Pow(0.5, 1.0/30), def[freshID].Salience.Decay, 1e-9, "one whole day old")

	all := ask(true)
	require.Contains(t, all, oldID, "explicit recall still reaches it")
	it := all[oldID]
	require.True(t, it.Labels.Attenuated)
	require.Equal(t, checkout.AttenuatedBySalience, it.Labels.AttenuatedBy)
	require.Less(t, it.Salience.Value, it.Salience.Floor)
	require.Empty(t, it.Salience.Exempt)

	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "sal", Query: "kafka retention audit topic", AsOf: &now, NoRecord: true})
	require.NoError(t, err)
	for _, tier := range p.Tiers {
		for _, x := range tier.Items {
			require.NotEqual(t, oldID, x.ItemID, "absent from the default packet")
		}
	}
	require.Positive(t, p.Diagnostics.Salience.Attenuated)

	// A pin restores it, and its salience names the pin as the reason.
	pin := eventloom.NewEvent{Type: "memory.pinned", OccurredAt: &now, Data: json.RawMessage(fmt.Sprintf(`{"target_seqs":[%d]}`, old))}
	pinSeq := f.append(t, "sal", pin)[0].Seq
	f.index(t, "sal")
	def = ask(false)
	require.Contains(t, def, oldID)
	s := def[oldID].Salience
	require.Equal(t, "pinned", s.Exempt)
	require.Equal(t, "pinned", s.LastUseSignal)
	require.Equal(t, pinSeq, *s.LastUseSeq)
	require.False(t, def[oldID].Labels.Attenuated)

	// Unpinned, it is no longer exempt but the pin was a use: it stays restored for now.
	unpin := eventloom.NewEvent{Type: "memory.unpinned", OccurredAt: &now, Data: json.RawMessage(fmt.Sprintf(`{"target_seqs":[%d]}`, old))}
	f.append(t, "sal", unpin)
	f.index(t, "sal")
	def = ask(false)
	require.Contains(t, def, oldID)
	require.Empty(t, def[oldID].Salience.Exempt)
	require.Equal(t, 1.0, def[oldID].Salience.Decay)

	// ... and 150 days later it is attenuated again.
	later := now.AddDate(0, 0, 150)
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "sal", Query: "kafka retention audit topic", AsOf: &later})
	require.NoError(t, err)
	require.NotContains(t, queryIDs(res), oldID)
}

func TestSalience_HelpfulFeedbackRestoresAnAttenuatedItem(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	old, _, now := salienceSpace(t, f, "fb")
	oldID := memoryitem.EventID(old)
	fb := eventloom.NewEvent{Type: "feedback.recorded", OccurredAt: &now, Data: json.RawMessage(fmt.Sprintf(`{"item_ids":[%q],"signal":"helpful"}`, oldID))}
	seq := f.append(t, "fb", fb)[0].Seq
	f.index(t, "fb")
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "fb", Query: "kafka retention audit topic", AsOf: &now})
	require.NoError(t, err)
	it := queryIDs(res)[oldID]
	require.NotNil(t, it)
	require.Equal(t, "helpful", it.Salience.LastUseSignal)
	require.Equal(t, seq, *it.Salience.LastUseSeq)
	require.Equal(t, 1.05, it.Salience.Reinforcement)
}

func TestSalience_AssertedAndPinnedItemsNeverFallBelowTheFloor(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	_, _, now := salienceSpace(t, f, "ex")
	// Unhelpful feedback and 200 days of disuse would sink the asserted fact; it stays.
	far := now.AddDate(3, 0, 0)
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "ex", Query: "who owns the audit topic platform team", AsOf: &far})
	require.NoError(t, err)
	var found bool
	for _, it := range res.Items {
		if it.Kind == "fact" {
			found = true
			require.Equal(t, "asserted", it.Salience.Exempt)
			require.Equal(t, it.Salience.Floor, it.Salience.Value, "raised to the floor")
			require.Less(t, it.Salience.Base*it.Salience.Reinforcement*it.Salience.Decay, it.Salience.Floor)
			require.False(t, it.Labels.Attenuated)
		}
	}
	require.True(t, found, "the asserted fact stays in default ranking")
}

func TestSalience_ACitingItemNeverReinforcesWhatItCites(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rc := f.append(t, "cite", eventloom.NewEvent{Type: "fact.asserted", Content: "Dana said the audit topic belongs to the platform team",
		Data: json.RawMessage(`{"subject":"audit topic","predicate":"owned by","object":"platform team"}`)})
	f.index(t, "cite")
	var factID string
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT 'fact:' || fact_id FROM facts WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'cite')`).Scan(&factID))
	evID := memoryitem.EventID(rc[0].Seq)
	// The fact (citing the event) is surfaced, judged helpful and pinned; a latent artifact
	// citing the event is surfaced too.
	f.append(t, "cite",
		eventloom.NewEvent{Type: "checkout.surfaced", Actor: "zaxy", Data: json.RawMessage(fmt.Sprintf(
			`{"items":[{"item_id":%q,"tier":"stable","seqs":[%d]},{"item_id":"latent:7","tier":"query","seqs":[%d]}]}`, factID, rc[0].Seq, rc[0].Seq))},
		eventloom.NewEvent{Type: "feedback.recorded", Data: json.RawMessage(fmt.Sprintf(`{"item_ids":[%q],"signal":"helpful"}`, factID))},
		eventloom.NewEvent{Type: "memory.pinned", Data: json.RawMessage(fmt.Sprintf(`{"item_ids":[%q]}`, factID))},
	)
	f.index(t, "cite")
	var items []string
	rows, err := f.pool.Query(ctx, `SELECT DISTINCT item_id FROM reinforcements WHERE space_id = 'cite' ORDER BY 1`)
	require.NoError(t, err)
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		items = append(items, id)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{factID}, items, "only the fact itself is reinforced, never the event it cites")

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "cite", Query: "who owns the audit topic"})
	require.NoError(t, err)
	got := queryIDs(res)
	require.Contains(t, got, evID)
	require.Equal(t, 1.0, got[evID].Salience.Reinforcement)
	require.Nil(t, got[evID].Salience.LastUseSeq)
	require.InDelta(t, 1.01*1.05, got[factID].Salience.Reinforcement, 1e-9, "surfaced once and judged helpful: 1.01 × 1.05")
}

// stripTimings zeroes what differs between two identical checkouts (timings, the surfacing
// record's seq) so packets compare byte for byte.
func stripTimings(t *testing.T, p *checkout.Packet) []byte {
	t.Helper()
	p.Diagnostics.TotalMS = 0
	for name, l := range p.Diagnostics.Lanes {
		l.MS = 0
		p.Diagnostics.Lanes[name] = l
	}
	p.SurfacedSeq = 0
	b, err := json.Marshal(p)
	require.NoError(t, err)
	return b
}

func TestSalience_PlainProfileIsTodaysPacketByteForByte(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	seedSpace(t, f, "plain")
	f.index(t, "plain")
	asOf := time.Now().UTC().Add(time.Hour).Truncate(time.Second)
	req := func(profile string) *checkout.Request {
		return &checkout.Request{SpaceID: "plain", Query: "why did the staging deploy fail with a registry timeout", SessionID: "s1",
			AsOf: &asOf, NoRecord: true, RetrievalProfile: profile}
	}
	// The golden: before any salience event exists, plain and salience rank alike (every
	// salience is 1), and plain carries no trace of salience.
	golden, err := f.svc.Checkout(ctx, req(checkout.ProfilePlain))
	require.NoError(t, err)
	goldenJSON := stripTimings(t, golden)
	require.NotContains(t, string(goldenJSON), `"salience"`)
	require.NotContains(t, string(goldenJSON), `attenuated_by`)
	before, err := f.svc.Checkout(ctx, req(""))
	require.NoError(t, err)
	require.Equal(t, golden.Text, before.Text)

	// Salience events that change the default packet: a high floor, the best query-tier item
	// judged wrong twice (so below it), another item pinned.
	var top, other int64
	for _, tier := range golden.Tiers {
		for _, it := range tier.Items {
			if it.Kind != "fact" && (tier.Name == checkout.TierQuery || top != 0) {
				if top == 0 {
					top = it.Citations[0].Seq
				} else if other == 0 {
					other = it.Citations[0].Seq
				}
			}
		}
	}
	require.NotZero(t, other, golden.Text)
	yearAgo := asOf.AddDate(-1, 0, 0)
	f.append(t, "plain",
		eventloom.NewEvent{Type: "salience.configured", Data: json.RawMessage(`{"floor":0.5}`)},
		eventloom.NewEvent{Type: "feedback.recorded", OccurredAt: &yearAgo, Data: json.RawMessage(fmt.Sprintf(`{"target_seqs":[%d],"signal":"wrong"}`, top))},
		eventloom.NewEvent{Type: "feedback.recorded", Data: json.RawMessage(fmt.Sprintf(`{"target_seqs":[%d],"signal":"wrong"}`, top))},
		eventloom.NewEvent{Type: "memory.pinned", Data: json.RawMessage(fmt.Sprintf(`{"target_seqs":[%d]}`, other))},
	)
	f.index(t, "plain")
	after, err := f.svc.Checkout(ctx, req(""))
	require.NoError(t, err)
	require.NotEqual(t, golden.Text, after.Text, "salience changed the default packet")

	plain, err := f.svc.Checkout(ctx, req(checkout.ProfilePlain))
	require.NoError(t, err)
	require.Equal(t, string(goldenJSON), string(stripTimings(t, plain)), "plain is the golden, byte for byte")

	// And plain raw queries carry no salience either.
	res, err := f.svc.Query(ctx, req(checkout.ProfilePlain))
	require.NoError(t, err)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	require.NotContains(t, string(b), `"salience"`)
}

func TestSalience_UnknownProfileIsRefused(t *testing.T) {
	f := newFixture(t)
	_, err := f.svc.Query(context.Background(), &checkout.Request{SpaceID: "x", Query: "q", RetrievalProfile: "fancy"})
	require.ErrorIs(t, err, validation.ErrInvalid)
	require.ErrorContains(t, err, "retrieval_profile")
}

func TestSalience_ACheckoutThatRecallsAnAttenuatedItemRestoresIt(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	old, _, now := salienceSpace(t, f, "rec")
	oldID := memoryitem.EventID(old)
	// Recalled explicitly by a recorded checkout: a use, which the log records.
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "rec", Query: "kafka retention audit topic", AsOf: &now, IncludeAttenuated: true})
	require.NoError(t, err)
	require.Contains(t, p.Text, "attenuated: salience")
	f.index(t, "rec")
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "rec", Query: "kafka retention audit topic", AsOf: &now})
	require.NoError(t, err)
	it := queryIDs(res)[oldID]
	require.NotNil(t, it, "restored to default ranking")
	require.Equal(t, "recalled", it.Salience.LastUseSignal)
	require.Equal(t, p.SurfacedSeq, *it.Salience.LastUseSeq)

	// The ledger holds the recall as its own signal.
	var signals []string
	rows, err := f.pool.Query(ctx, `SELECT DISTINCT signal FROM reinforcements WHERE space_id = 'rec' ORDER BY 1`)
	require.NoError(t, err)
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		signals = append(signals, s)
	}
	require.NoError(t, rows.Err())
	require.Contains(t, signals, "recalled")
}
