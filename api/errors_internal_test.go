package api

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"
)

// TestToAPIError_DatabaseErrorsByClass maps what the domain packages leave as raw Postgres
// errors: data exceptions are the client's (400), an unreachable or restarting database is
// 503 with Retry-After, anything else stays a 500.
func TestToAPIError_DatabaseErrorsByClass(t *testing.T) {
	t.Parallel()
	cases := []struct {
		code   string
		status int
		name   string
	}{
		{"22021", http.StatusBadRequest, "invalid_request"}, // invalid byte sequence
		{"22003", http.StatusBadRequest, "invalid_request"}, // numeric value out of range
		{"22012", http.StatusBadRequest, "invalid_request"}, // division by zero
		{"22P02", http.StatusBadRequest, "invalid_request"}, // invalid text representation
		{"08006", http.StatusServiceUnavailable, "database_unavailable"},
		{"08001", http.StatusServiceUnavailable, "database_unavailable"},
		{"57P01", http.StatusServiceUnavailable, "database_unavailable"},
		{"57P02", http.StatusServiceUnavailable, "database_unavailable"},
		{"57P03", http.StatusServiceUnavailable, "database_unavailable"},
		{"57014", http.StatusInternalServerError, "internal"}, // query_canceled is not an outage
		{"42501", http.StatusInternalServerError, "internal"},
		{"XX000", http.StatusInternalServerError, "internal"},
	}
	for _, tc := range cases {
		err := fmt.Errorf("append: %w", &pgconn.PgError{Code: tc.code, Message: "m"})
		ae := toAPIError(err)
		require.Equal(t, tc.status, ae.status, tc.code)
		require.Equal(t, tc.name, ae.code, tc.code)
		if tc.status == http.StatusServiceUnavailable {
			require.Positive(t, ae.retryAfter, tc.code)
		} else {
			require.Zero(t, ae.retryAfter, tc.code)
		}
	}
}
