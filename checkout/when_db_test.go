package checkout_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

func TestQuery_TemporalQuestionFindsTheTurnOfTheNamedMonth(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "diary"
	at := func(y int, m time.Month, d int, text string) eventloom.NewEvent {
		ts := time.Date(y, m, d, 15, 0, 0, 0, time.UTC)
		return eventloom.NewEvent{Type: "message", SessionID: ts.Format("2006-01-02"), OccurredAt: &ts, Content: text,
			Data: json.RawMessage(`{"role":"user"}`)}
	}
	// Three hikes in three months; June's turn says the most besides, so on words alone it
	// ranks below the other two.
	f.append(t, space,
		at(2023, 4, 9, "We went hiking up the ridge trail."),
		at(2023, 4, 9, "Lunch was sandwiches by the car."),
		at(2023, 6, 14, "We went hiking along the river gorge, which took all day because the kids kept stopping to look at frogs, herons and the old mill."),
		at(2023, 6, 14, "The kids want a new tent for the summer."),
		at(2023, 8, 20, "We went hiking to the waterfall."),
		at(2023, 8, 20, "Work has been busy with the quarterly report."),
	)
	f.index(t, space)
	asOf := time.Date(2023, 10, 1, 0, 0, 0, 0, time.UTC)
	first := func(query string) string {
		res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query, AsOf: &asOf})
		require.NoError(t, err)
		require.NotEmpty(t, res.Items)
		return res.Items[0].Text
	}
	june := "We went hiking along the river gorge, which took all day because the kids kept stopping to look at frogs, herons and the old mill."
	require.NotEqual(t, june, first("Where did we go hiking?"), "without a time, the June turn is not first")
	for _, q := range []string{
		"Where did we go hiking in June?",
		"Where did we go hiking in June 2023?",
		"Where did we go hiking on 14 June 2023?",
		"Where did we go hiking last June?",
	} {
		require.Equal(t, june, first(q), q)
	}
	// A time outside the space's memory changes nothing.
	require.Equal(t, first("Where did we go hiking?"), first("Where did we go hiking in 2019?"))
}
