package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/topic"
	"github.com/zaxy/zaxy/vocab"
)

// goldenFixtureFile holds the spaces and questions every built-in policy version is checked
// out over; goldenDir the packets each version gives, one file per version.
const (
	goldenFixtureFile = "testdata/golden_fixture.json"
	goldenDir         = "testdata/golden"
)

// goldenFixture is goldenFixtureFile: spaces whose events exercise every lane and rescorer, and
// the questions asked of each.
type goldenFixture struct {
	Spaces []goldenSpace `json:"spaces"`
}

// goldenSpace is one space of the fixture. Its events are appended in one batch (so their seqs
// are 1, 2, ... and events may name each other by seq), projected and embedded; LateEvents are
// appended after that and left unprojected (the verbatim lane's); Latent derives the space's
// latent artifacts (what a weave reads); Topics builds its topic model.
type goldenSpace struct {
	Space      string               `json:"space"`
	Latent     bool                 `json:"latent,omitempty"`
	Topics     bool                 `json:"topics,omitempty"`
	Events     []eventloom.NewEvent `json:"events"`
	LateEvents []eventloom.NewEvent `json:"late_events,omitempty"`
	Questions  []checkout.Request   `json:"questions"`
}

// goldenVersion is one built-in version's golden file: the policy and mechanism record it
// ranks with, and its packet for every question of the fixture.
type goldenVersion struct {
	Version   string              `json:"version"`
	Policy    json.RawMessage     `json:"policy"`
	Mechanism *checkout.Mechanism `json:"mechanism"`
	Answers   []goldenAnswer      `json:"answers"`
}

// goldenAnswer is what a packet says and how it was ranked: its text (citations' hashes
// masked: they depend on when the events were recorded), the tokens it used, its warnings, how
// many candidates each lane gave, and each item as one line (tier, ref, item id, tokens, score,
// cited seqs, labels and score components).
type goldenAnswer struct {
	Space    string         `json:"space"`
	Query    string         `json:"query"`
	Text     string         `json:"text"`
	Tokens   int            `json:"tokens"`
	Warnings []string       `json:"warnings,omitempty"`
	Lanes    map[string]int `json:"lanes"`
	Items    []string       `json:"items"`
}

// seedGoldenFixture builds the fixture's spaces in f and returns the fixture.
func seedGoldenFixture(t *testing.T, f *fixture) *goldenFixture {
	t.Helper()
	ctx := context.Background()
	raw, err := os.ReadFile(goldenFixtureFile)
	require.NoError(t, err)
	var fx goldenFixture
	require.NoError(t, json.Unmarshal(raw, &fx))
	for _, s := range fx.Spaces {
		rc := f.append(t, s.Space, s.Events...)
		require.Equal(t, int64(1), rc[0].Seq, "the fixture's events name each other by seq")
		f.index(t, s.Space)
		if s.Latent {
			f.build(t, s.Space)
		}
		if s.Topics {
			res, err := topic.NewRefresher(f.pool, topic.DefaultParams).Refresh(ctx, s.Space)
			require.NoError(t, err)
			require.True(t, res.Rebuilt, "space %s has too few documents for a topic model", s.Space)
		}
		if len(s.LateEvents) > 0 {
			f.append(t, s.Space, s.LateEvents...)
		}
	}
	return &fx
}

// goldenAnswers checks out every question of fx with the built-in policy version (no_record,
// and goldenAsOf unless the question sets as_of).
func goldenAnswers(t *testing.T, f *fixture, fx *goldenFixture, version string) []goldenAnswer {
	t.Helper()
	svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: checkout.BuiltinPolicyOf(version)})
	var out []goldenAnswer
	for _, s := range fx.Spaces {
		for _, q := range s.Questions {
			r := q
			r.SpaceID, r.NoRecord = s.Space, true
			if r.AsOf == nil {
				r.AsOf = &goldenAsOf
			}
			p, err := svc.Checkout(context.Background(), &r)
			require.NoError(t, err)
			require.Equal(t, version, p.Diagnostics.PolicyVersion)
			out = append(out, answerOf(s.Space, p))
		}
	}
	return out
}

// answerOf is p as a goldenAnswer.
func answerOf(space string, p *checkout.Packet) goldenAnswer {
	a := goldenAnswer{Space: space, Query: p.Query, Text: hashes.ReplaceAllString(p.Text, "#"), Tokens: p.Budget.Used,
		Lanes: map[string]int{}, Items: []string{}}
	for _, w := range p.Warnings {
		a.Warnings = append(a.Warnings, w.Code)
	}
	for lane, st := range p.Diagnostics.Lanes {
		a.Lanes[lane] = st.Count
	}
	for _, tier := range p.Tiers {
		for _, it := range tier.Items {
			a.Items = append(a.Items, itemLine(tier.Name, it))
		}
	}
	return a
}

// itemLine is it in one line; scores to 6 significant digits.
func itemLine(tier string, it *checkout.Item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%d] %s %s tokens=%d score=%.6g", tier, it.Ref, it.ItemID, it.Kind, it.Tokens, it.Score)
	seqs := make([]string, len(it.Citations))
	for i, c := range it.Citations {
		seqs[i] = fmt.Sprint(c.Seq)
	}
	fmt.Fprintf(&b, " cites=%s", strings.Join(seqs, ","))
	l := it.Labels
	for _, f := range []struct {
		name string
		on   bool
	}{{"stale", l.Stale}, {"attenuated", l.Attenuated}, {"inferred", l.Inferred}} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	if l.AttenuatedBy != "" {
		b.WriteString(" by=" + l.AttenuatedBy)
	}
	if it.Salience != nil {
		fmt.Fprintf(&b, " salience=%.6g", it.Salience.Value)
	}
	if it.Repeats > 0 {
		fmt.Fprintf(&b, " repeats=%d", it.Repeats)
	}
	names := make([]string, 0, len(it.Components))
	for n := range it.Components {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		c := it.Components[n]
		fmt.Fprintf(&b, " %s=%d/%.6g/%.6g", n, c.Rank, c.Weight, c.Score)
	}
	return b.String()
}

// TestCheckout_BuiltinPolicyVersionsGiveTheirGoldenPackets checks out every question of the
// golden fixture (three spaces: an agent's project with changed, closed and repeated facts, an
// invalidated turn, failed tool calls and what fixed them, decisions, a document, cues and an
// unprojected turn; a conversation of two named people with questions and replies and a topic
// model; a memory in use for 200 days whose old items fade) with every built-in policy version,
// and compares the packets with the version's golden file: its text, items, scores, citations
// and tokens, and the policy and mechanism record it ranks with. Each version's packets differ
// from the previous version's somewhere, so the fixture shows every change a version made. A
// built-in version ranks the same forever, so any change to the ranking a version gives (a
// weight, a boost, a mechanism constant) fails here. Regenerate with -update only when adding a
// version or for a deliberate change to the fixture.
func TestCheckout_BuiltinPolicyVersionsGiveTheirGoldenPackets(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	fx := seedGoldenFixture(t, f)
	var prev []goldenAnswer
	for i, version := range vocab.BuiltinPolicyVersions {
		t.Run(version, func(t *testing.T) {
			p := checkout.BuiltinPolicyOf(version)
			require.NotNil(t, p)
			content, err := p.Content()
			require.NoError(t, err)
			answers := goldenAnswers(t, f, fx, version)
			if i > 0 {
				require.NotEqual(t, prev, answers, "no packet of the fixture shows what %s changed", version)
			}
			prev = answers
			got, err := json.MarshalIndent(goldenVersion{Version: version, Policy: content, Mechanism: checkout.MechanismOf(p.MechanismVersion),
				Answers: answers}, "", " ")
			require.NoError(t, err)
			got = append(got, '\n')
			file := filepath.Join(goldenDir, version+".json")
			if *updateGolden {
				require.NoError(t, os.MkdirAll(goldenDir, 0o755))
				require.NoError(t, os.WriteFile(file, got, 0o644))
			}
			want, err := os.ReadFile(file)
			require.NoError(t, err, "no golden file for %s: run with -update", version)
			require.Equal(t, string(want), string(got))
		})
	}
}

// The golden fixture exercises every lane and the rescorers: under the default policy some
// question of it gets candidates from each lane, and some packet holds an item boosted by cues
// and by its session, one attenuated by salience and one by invalidation, and a stale one.
func TestGoldenFixture_ExercisesEveryLaneAndRescorer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	fx := seedGoldenFixture(t, f)
	answers := goldenAnswers(t, f, fx, checkout.BuiltinPolicyVersion)
	lanes := map[string]bool{}
	all := ""
	for _, a := range answers {
		for lane, n := range a.Lanes {
			if n > 0 {
				lanes[lane] = true
			}
		}
		all += strings.Join(a.Items, "\n") + "\n" + a.Text
	}
	for _, lane := range []string{checkout.LaneExact, checkout.LaneKeyword, checkout.LaneVector, checkout.LaneGraph,
		checkout.LaneVerbatim, checkout.LaneRecent, checkout.LaneTopic, checkout.LaneReply, checkout.LaneRemedy} {
		require.True(t, lanes[lane], "no question gets candidates from the %s lane", lane)
	}
	for _, mark := range []string{" " + checkout.ComponentCues + "=", " " + checkout.ComponentSession + "=", " attenuated",
		" stale", " by=salience", "(invalidated: "} {
		require.Contains(t, all, mark)
	}
}
