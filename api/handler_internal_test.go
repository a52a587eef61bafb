package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/validation"
)

func TestServe_WritesTheValueOrTheErrorBody(t *testing.T) {
	t.Parallel()
	s := &server{cfg: Config{MaxBodyBytes: 16}.WithDefaults(), logger: slog.New(slog.DiscardHandler)}
	serve := func(h handlerFunc, capBytes int64, body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		s.serve(h, capBytes).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(body)))
		return rec
	}
	errorCode := func(rec *httptest.ResponseRecorder) string {
		var eb ErrorBody
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &eb), rec.Body.String())
		return eb.Error.Code
	}

	rec := serve(func(*server, *http.Request) (any, error) { return map[string]string{"a": "<b>"}, nil }, 0, "")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "application/json", rec.Header().Get("Content-Type"))
	require.Equal(t, "{\"a\":\"<b>\"}\n", rec.Body.String(), "no HTML escaping, one newline")

	rec = serve(func(*server, *http.Request) (any, error) {
		return &response{status: http.StatusCreated, header: http.Header{"Location": {"/v1/spaces/a/events/1"}}, body: []int{1}}, nil
	}, 0, "")
	require.Equal(t, http.StatusCreated, rec.Code)
	require.Equal(t, "/v1/spaces/a/events/1", rec.Header().Get("Location"))
	require.Equal(t, "[1]\n", rec.Body.String())

	rec = serve(func(*server, *http.Request) (any, error) {
		return nil, &validation.Error{Field: "limit", Message: "must be positive"}
	}, 0, "")
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.Equal(t, "invalid_request", errorCode(rec))

	rec = serve(func(*server, *http.Request) (any, error) { return nil, errors.New("boom") }, 0, "")
	require.Equal(t, http.StatusInternalServerError, rec.Code)
	require.Equal(t, "internal", errorCode(rec))

	// The cap: a body that fits is sent, one that would pass it is a 413 and nothing of it
	// (nor its headers) goes out.
	big := func(*server, *http.Request) (any, error) {
		return &response{status: http.StatusOK, header: http.Header{"X-Next": {"9"}}, body: strings.Repeat("x", 100)}, nil
	}
	require.Equal(t, http.StatusOK, serve(big, 103, "").Code, `"x…x" and a newline are 103 bytes`)
	rec = serve(big, 102, "")
	require.Equal(t, http.StatusRequestEntityTooLarge, rec.Code)
	require.Equal(t, "response_too_large", errorCode(rec))
	require.Empty(t, rec.Header().Get("X-Next"))
	require.NotContains(t, rec.Body.String(), "xxx")

	// The request body is bounded before the handler reads it.
	rec = serve(func(_ *server, r *http.Request) (any, error) {
		var v map[string]any
		return v, readJSON(r, &v)
	}, 0, `{"a":"0123456789abcdef"}`)
	require.Equal(t, http.StatusRequestEntityTooLarge, rec.Code)
	require.Equal(t, "body_too_large", errorCode(rec))
}

// TestWriteResponse_AddsTheConsistencyFieldToObjectBodies: a response with a consistency token
// answers it as the last field of an object body (empty or not) and leaves any other body as
// it is; without one the body is unchanged.
func TestWriteResponse_AddsTheConsistencyFieldToObjectBodies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body        any
		consistency string
		want        string
	}{
		{map[string]int{"seq": 1}, "lsn:0/16B3F20", `{"seq":1,"consistency":"lsn:0/16B3F20"}`},
		{struct{}{}, "lsn:0/1", `{"consistency":"lsn:0/1"}`},
		{[]int{1, 2}, "lsn:0/1", `[1,2]`},
		{nil, "lsn:0/1", `null`},
		{map[string]int{"seq": 1}, "", `{"seq":1}`},
	} {
		rec := httptest.NewRecorder()
		require.NoError(t, writeResponse(rec, &response{status: http.StatusCreated, body: tc.body, consistency: tc.consistency}, 0))
		require.Equal(t, http.StatusCreated, rec.Code)
		require.Equal(t, tc.want+"\n", rec.Body.String())
		require.True(t, json.Valid(rec.Body.Bytes()))
	}
}
