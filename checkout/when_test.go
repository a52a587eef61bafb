package checkout

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseTimeWindows_ReadsExplicitAndRelativeTimes(t *testing.T) {
	// A Wednesday.
	now := time.Date(2024, 1, 10, 23, 41, 0, 0, time.UTC)
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	end := now.Add(time.Nanosecond)
	for _, tc := range []struct {
		query string
		want  timeWindows
	}{
		{"What painting did she show on October 13, 2023?", timeWindows{{d(2023, 10, 13), d(2023, 10, 14)}}},
		{"What did she find for her store on 1 February, 2023?", timeWindows{{d(2023, 2, 1), d(2023, 2, 2)}}},
		{"what happened on 2023-05-23", timeWindows{{d(2023, 5, 23), d(2023, 5, 24)}}},
		{"What setback did she face in October 2023?", timeWindows{{d(2023, 10, 1), d(2023, 11, 1)}}},
		{"How many times did we go to the beach in 2023?", timeWindows{{d(2023, 1, 1), d(2024, 1, 1)}}},
		{"What did I buy last May?", timeWindows{{d(2023, 5, 1), d(2023, 6, 1)}}},
		{"What did I buy last January?", timeWindows{{d(2023, 1, 1), d(2023, 2, 1)}}},
		{"Which trip did I plan this January?", timeWindows{{d(2024, 1, 1), d(2024, 2, 1)}}},
		{"What certification did I complete last month?", timeWindows{{d(2023, 12, 1), d(2024, 1, 1)}}},
		{"How many art events did I attend in the past month?", timeWindows{{d(2023, 12, 10), end}}},
		{"What did we cook yesterday?", timeWindows{{d(2024, 1, 9), d(2024, 1, 10)}}},
		{"what did I say last week", timeWindows{{d(2024, 1, 1), d(2024, 1, 8)}}},
		{"where did we go last year", timeWindows{{d(2023, 1, 1), d(2024, 1, 1)}}},
		{"the book I started three weeks ago", timeWindows{{d(2023, 12, 16).Add(12 * time.Hour), d(2023, 12, 23).Add(12 * time.Hour)}}},
		{"the call two days ago", timeWindows{{d(2024, 1, 7), d(2024, 1, 10)}}},
		{"what changed in the last 2 weeks", timeWindows{{d(2023, 12, 27), end}}},
		{"what did we ship before May 2023?", timeWindows{{time.Time{}, d(2023, 5, 1)}}},
		{"what happened since 2023", timeWindows{{d(2023, 1, 1), now}}},
		// A month without a year: that month of each of the last ten years up to now.
		{"How many days did I spend on it in December?", func() timeWindows {
			var ws timeWindows
			for y := 2023; y > 2014; y-- {
				ws = append(ws, timeWindow{d(y, 12, 1), d(y+1, 1, 1)})
			}
			return ws
		}()},
	} {
		require.Equal(t, tc.want, parseTimeWindows(mechanism1, tc.query, now), tc.query)
	}
}

func TestParseTimeWindows_IgnoresWordsThatAreNotTimes(t *testing.T) {
	now := time.Date(2024, 1, 10, 12, 0, 0, 0, time.UTC)
	for _, q := range []string{
		"May I ask what you suggested for the garden?",
		"Who will march in the parade?",
		"How many weeks ago did I meet my aunt?",
		"I'm planning my meal prep next week, any suggestions?",
		"Summarize the 2000 token budget rule",
		"What did I buy next May?",
		"Can you recommend a show to watch tonight?",
		"When did Caroline go to the support group?",
	} {
		require.Empty(t, parseTimeWindows(mechanism1, q, now), q)
	}
}

func TestTimeWindows_Contains(t *testing.T) {
	ws := timeWindows{{time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC)}}
	in, edge, out := time.Date(2023, 6, 30, 23, 0, 0, 0, time.UTC), time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC), time.Date(2023, 5, 31, 0, 0, 0, 0, time.UTC)
	require.True(t, ws.contains(&in))
	require.False(t, ws.contains(&edge))
	require.False(t, ws.contains(&out))
	require.False(t, ws.contains(nil))
}

func TestTimeWindows_MatchesItemsByWhenTheyOccurredOrTheDayTheyName(t *testing.T) {
	asked := time.Date(2024, 1, 10, 23, 0, 0, 0, time.UTC)
	december := parseTimeWindows(mechanism1, "How many days did I spend at church in December?", asked)
	item := func(y int, m time.Month, d int, text string) *rankedItem {
		at := time.Date(y, m, d, 12, 0, 0, 0, time.UTC)
		return &rankedItem{Item: Item{Text: text, OccurredAt: &at}}
	}
	require.True(t, december.matches(mechanism1, item(2023, 12, 24, "Midnight mass was lovely.")))
	require.True(t, december.matches(mechanism1, item(2024, 1, 10, "I helped at the holiday food drive on December 10th.")))
	require.True(t, december.matches(mechanism1, item(2024, 1, 3, "Last week I sang in the choir.")), "27 December to 2 January overlaps December")
	require.True(t, december.matches(mechanism1, item(2024, 1, 10, "I washed the car on Monday, December 18th.")))
	require.False(t, december.matches(mechanism1, item(2024, 1, 10, "I sang in the choir on January 7th.")))
	require.False(t, december.matches(mechanism1, item(2024, 1, 10, "Last year was a busy one.")), "a year is too long a time to count")
	require.False(t, december.matches(mechanism1, item(2024, 1, 10, "Nothing in particular.")))
	require.False(t, december.matches(mechanism1, &rankedItem{Item: Item{Text: "on December 10th"}}), "no occurred_at")
	require.False(t, timeWindows(nil).matches(mechanism1, item(2023, 12, 24, "Midnight mass.")))
}
