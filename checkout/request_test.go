package checkout_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/validation"
)

func TestValidateQuery_NamesTheQueryAndSaysWhatIsWrong(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query, message string
	}{
		{"", "is required"},
		{" \t\n", "is required"},
		{strings.Repeat("é", checkout.MaxQueryChars+1), "must be at most 4000 characters"},
		{"a\x00b", "must be valid UTF-8 without NUL characters"},
		{"a\xffb", "must be valid UTF-8 without NUL characters"},
	} {
		var ve *validation.Error
		require.ErrorAs(t, checkout.ValidateQuery(tc.query), &ve, "%q", tc.query)
		require.Equal(t, validation.Error{Field: "query", Message: tc.message}, *ve, "%q", tc.query)
	}
	for _, ok := range []string{"deploy", "  " + strings.Repeat("é", checkout.MaxQueryChars) + "  "} {
		require.NoError(t, checkout.ValidateQuery(ok))
	}
}
