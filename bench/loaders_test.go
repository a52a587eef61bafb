package bench

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func loadFixture(t *testing.T, name string, load func(r *os.File) ([]Case, error)) []Case {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	require.NoError(t, err)
	defer f.Close()
	cases, err := load(f)
	require.NoError(t, err)
	return cases
}

func TestLoadLongMemEval_Fixture(t *testing.T) {
	cases := loadFixture(t, "longmemeval_mini.json", func(f *os.File) ([]Case, error) { return LoadLongMemEval(f) })
	require.Len(t, cases, 2)

	c := cases[0]
	require.Equal(t, "q-bakery", c.ID)
	require.Equal(t, DatasetLongMemEval, c.Dataset)
	require.Len(t, c.Turns, 10)
	require.Equal(t, Turn{SessionID: "s-trip", TurnID: "s-trip_1", Role: "user", Text: "I am planning a trip to Lisbon in the autumn.",
		Date: time.Date(2023, 5, 1, 9, 0, 0, 0, time.UTC)}, c.Turns[0])
	require.Equal(t, "answer_bakery_1_2", c.Turns[3].TurnID, "i counts every turn of the session from 1")
	require.Equal(t, "assistant", c.Turns[3].Role)
	require.Equal(t, "s-cat_6", c.Turns[9].TurnID)
	require.Equal(t, time.Date(2023, 5, 3, 20, 15, 0, 0, time.UTC), c.Turns[9].Date)
	require.Equal(t, []Question{{
		ID: "q-bakery", Type: "single-session-user", Text: "What is the name of my favourite bakery?",
		Date:             time.Date(2023, 6, 10, 23, 59, 59, 0, time.UTC), // asked as of the end of its day
		EvidenceSessions: []string{"answer_bakery_1"}, EvidenceTurns: []string{"answer_bakery_1_1"},
	}}, c.Questions)

	abs := cases[1].Questions[0]
	require.Equal(t, "q-dog_abs", abs.ID)
	require.True(t, abs.Abstain)
	require.Empty(t, abs.EvidenceTurns)
	require.Len(t, cases[1].Turns, 4)
}

func TestLoadLongMemEval_RejectsBadRecords(t *testing.T) {
	for name, tc := range map[string]struct{ body, want string }{
		"not an array":     {`{"question_id":"x"}`, "JSON array"},
		"ragged haystack":  {`[{"question_id":"x","question":"q?","haystack_session_ids":["a","b"],"haystack_dates":["2023/01/01 (Sun) 10:00"],"haystack_sessions":[[],[]]}]`, "differ in length"},
		"bad date":         {`[{"question_id":"x","question":"q?","question_date":"yesterday"}]`, "question_date: unrecognized date"},
		"missing id":       {`[{"question":"q?"}]`, "question_id is missing"},
		"blank question":   {`[{"question_id":"x","question":"  "}]`, "question is blank"},
		"truncated":        {`[{"question_id":"x","question":"q?"}`, "load longmemeval"},
		"wrong field type": {`[{"question_id":"x","question":"q?","haystack_sessions":"nope"}]`, "record 0"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := LoadLongMemEval(strings.NewReader(tc.body))
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestLoadLoCoMo_Fixture(t *testing.T) {
	cases := loadFixture(t, "locomo_mini.json", func(f *os.File) ([]Case, error) { return LoadLoCoMo(f) })
	require.Len(t, cases, 2)

	c := cases[0]
	require.Equal(t, "conv-30", c.ID)
	require.Equal(t, DatasetLoCoMo, c.Dataset)
	require.Len(t, c.Turns, 7)
	may8 := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	require.Equal(t, Turn{SessionID: "S1", TurnID: "D1:1", Role: "user", Speaker: "Caroline",
		Text: "Hey Mel! I went to an LGBTQ support group yesterday and it was so powerful.", Date: may8}, c.Turns[0])
	require.Equal(t, Turn{SessionID: "S1", TurnID: "D1:4", Role: "assistant", Speaker: "Melanie",
		Text: "I'm painting a lake sunrise these days; it keeps me calm. [image: a painting of a sunrise over a lake]", Date: may8}, c.Turns[3])
	require.Equal(t, "S2", c.Turns[4].SessionID)
	require.Equal(t, time.Date(2023, 6, 27, 10, 37, 0, 0, time.UTC), c.Turns[4].Date)

	type ev struct {
		id, typ         string
		sessions, turns []string
		abstain         bool
	}
	got := func(qs []Question) []ev {
		var out []ev
		for _, q := range qs {
			require.True(t, q.Date.IsZero(), "LoCoMo questions have no date")
			out = append(out, ev{q.ID, q.Type, q.EvidenceSessions, q.EvidenceTurns, q.Abstain})
		}
		return out
	}
	require.Equal(t, []ev{
		{"conv-30#0", "category-4", []string{"S1"}, []string{"D1:3"}, false},
		{"conv-30#1", "category-1", []string{"S1", "S2"}, []string{"D1:4", "D2:1"}, false}, // "D1:4; D2:1"
		{"conv-30#2", "category-2", []string{"S2"}, []string{"D2:3"}, false},               // "D:2:3"
		{"conv-30#3", "category-5", []string{}, []string{}, true},                          // adversarial, no evidence
		{"conv-30#4", "category-5", []string{"S2"}, []string{"D2:2"}, false},               // adversarial with evidence
	}, got(c.Questions))
	require.Equal(t, "What did Caroline decide to study?", c.Questions[0].Text)

	c = cases[1]
	require.Equal(t, "conv-41", c.ID)
	ids := make([]string, len(c.Turns))
	for i, tr := range c.Turns {
		ids[i] = tr.TurnID
	}
	require.Equal(t, []string{"D1:1", "D1:2", "D2:1", "D2:2", "D2:3", "D2:4"}, ids, "sessions in numeric order")
	require.Equal(t, "[image: a photo of a wooden dance floor]", c.Turns[4].Text, "a caption alone is the text")
	require.Equal(t, "assistant", c.Turns[4].Role)
	require.Equal(t, "  ", c.Turns[5].Text, "blank turns are kept by the loader; Run skips them")
	require.Equal(t, []ev{
		{"conv-41#0", "category-3", []string{"S1"}, []string{"D1:1"}, false}, // category as a string
		{"conv-41#1", "category-4", []string{"S2"}, []string{"D2:2"}, false}, // "D2:02"
		{"conv-41#2", "category-5", []string{}, []string{}, true},            // no evidence field
	}, got(c.Questions))
}

func TestParseEvidence_Lenient(t *testing.T) {
	for in, want := range map[string][]string{
		`["D8:6; D9:17"]`:        {"D8:6", "D9:17"},
		`["D:11:26"]`:            {"D11:26"},
		`["D30:05", "d4:1"]`:     {"D30:5", "D4:1"},
		`"D1:2, D1:3"`:           {"D1:2", "D1:3"},
		`["D1:2", "D1:2", null]`: {"D1:2"},
		`["D 3 : 4"]`:            {"D3:4"},
		`["no evidence", 7]`:     {},
		`null`:                   {},
		``:                       {},
	} {
		require.Equal(t, want, parseEvidence([]byte(in)), in)
	}
}

func TestLoadLoCoMo_RejectsBadConversations(t *testing.T) {
	for name, tc := range map[string]struct{ body, want string }{
		"not a list":     {`{"sample_id":"x"}`, "load locomo"},
		"no sample id":   {`[{"conversation":{}}]`, "sample_id is missing"},
		"bad date":       {`[{"sample_id":"x","conversation":{"session_1":[],"session_1_date_time":"soon"}}]`, "session_1_date_time: unrecognized date"},
		"bad session":    {`[{"sample_id":"x","conversation":{"session_1":{"a":1}}}]`, "x: session_1"},
		"blank question": {`[{"sample_id":"x","conversation":{},"qa":[{"question":""}]}]`, "qa 0: question is blank"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := LoadLoCoMo(strings.NewReader(tc.body))
			require.ErrorContains(t, err, tc.want)
		})
	}
}
