package openapigen_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api/internal/openapigen"
	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
	"github.com/zaxy/zaxy/latent/latentwire"
	"github.com/zaxy/zaxy/review/reviewwire"
)

// TestRef_NamesComponentsByDomainAndDescribesThem: a wire leaf's type is a component led by its
// domain (two Pages stay two), referred to from components.schemas, described by its Go doc
// comment; an event log type keeps its name, and a hash is lowercase hex, not base64.
func TestRef_NamesComponentsByDomainAndDescribesThem(t *testing.T) {
	t.Chdir("../../..")
	gen, err := openapigen.New("github.com/zaxy/zaxy", []string{"eventloom/eventloomwire", "review/reviewwire", "latent/latentwire"})
	require.NoError(t, err)
	for _, v := range []any{reviewwire.Page{}, latentwire.Page{}, eventloomwire.ReplayPage{}} {
		_, err := gen.Ref(v)
		require.NoError(t, err)
	}
	ref, err := gen.Ref(reviewwire.Page{})
	require.NoError(t, err)
	require.Equal(t, "#/components/schemas/ReviewPage", ref.Ref)
	c := gen.Components()
	require.Contains(t, c, "ReviewPage")
	require.Contains(t, c, "LatentPage")
	require.Contains(t, c, "Event")
	require.NotEmpty(t, c["ReplayPage"].Description, "the type's doc comment")
	next, ok := c["ReplayPage"].Properties.Get("next_after_seq")
	require.True(t, ok)
	require.Contains(t, next.Description, "cursor", "the field's doc comment")
	hash, ok := c["Event"].Properties.Get("hash")
	require.True(t, ok)
	b, err := json.Marshal(hash)
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"string","pattern":"^[0-9a-f]*$"}`, string(b))
	events, _ := c["ReplayPage"].Properties.Get("events")
	require.Equal(t, "#/components/schemas/Event", events.Items.Ref)

	one, err := gen.OneOf(checkoutwire.Request{}, checkoutwire.StepRequest{})
	require.NoError(t, err)
	require.Len(t, one.OneOf, 2)
}

// TestQueryParameters_OnePerJSONField: a query struct becomes one parameter per json-tagged
// field, in order, described by the field's comment.
func TestQueryParameters_OnePerJSONField(t *testing.T) {
	type q struct {
		// After is the cursor.
		After string `json:"after,omitempty"`
		// Limit caps the page.
		Limit *int64 `json:"limit,omitempty"`
	}
	gen, err := openapigen.New("github.com/zaxy/zaxy", nil)
	require.NoError(t, err)
	ps, err := gen.QueryParameters(q{})
	require.NoError(t, err)
	require.Len(t, ps, 2)
	require.Equal(t, "after", ps[0].Name)
	require.Equal(t, "query", ps[0].In)
	require.Equal(t, "integer", ps[1].Schema.Type)
}
