package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/disclosure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/policy"
	"github.com/zaxy/zaxy/review"
	"github.com/zaxy/zaxy/validation"
)

// apiError is an error with its HTTP status and snake_case code.
type apiError struct {
	status  int
	code    string
	message string
	details map[string]any
	// retryAfter, when positive, is sent as the Retry-After header (seconds).
	retryAfter int
}

func (e *apiError) Error() string { return e.message }

// ErrorBody is the body of every error response: {"error":{"code","message","details"}}.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail says what went wrong: a snake_case code, a human sentence and, where there is
// one, details such as the offending field.
type ErrorDetail struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// ErrorResponse returns the HTTP status and body the API answers err with. Other adapters (the
// MCP server) use it for errors they find before a request reaches the API, so that every
// error is mapped here and nowhere else.
func ErrorResponse(err error) (int, ErrorBody) {
	ae := toAPIError(err)
	return ae.status, ErrorBody{Error: ErrorDetail{Code: ae.code, Message: ae.message, Details: ae.details}}
}

// toAPIError is the one place where errors become HTTP statuses and codes: the domain
// packages' sentinels and typed errors, the request boundary's, and what is left of Postgres
// errors (databaseError). Handlers return errors; they never choose a status themselves,
// except through an *apiError for a condition only the API knows (a batch over MaxBatch).
func toAPIError(err error) *apiError {
	var ae *apiError
	var ve *validation.Error
	var mbe *http.MaxBytesError
	var be *bodyError
	var de *ingest.DocumentsError
	var ge *policy.GateError
	switch {
	case errors.As(err, &de):
		return documentsError(de)
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &be):
		return be.apiError()
	case errors.As(err, &mbe):
		return &apiError{status: http.StatusRequestEntityTooLarge, code: "body_too_large", message: err.Error(), details: map[string]any{"limit_bytes": mbe.Limit}}
	case errors.As(err, &ve):
		d := map[string]any{}
		if ve.Field != "" {
			d["field"] = ve.Field
		}
		return &apiError{status: http.StatusBadRequest, code: "invalid_request", message: ve.Error(), details: d}
	case errors.Is(err, auth.ErrUnauthenticated):
		return &apiError{status: http.StatusUnauthorized, code: "unauthorized", message: "a valid bearer token is required (Authorization: Bearer zx_...; zaxy token create)"}
	case errors.Is(err, auth.ErrForbidden):
		return &apiError{status: http.StatusForbidden, code: "forbidden", message: "the token does not grant this on this space"}
	case errors.Is(err, eventloom.ErrChainBroken):
		return &apiError{status: http.StatusConflict, code: "chain_broken", message: err.Error() + " (GET /v1/spaces/{space}/verify names the broken seq)"}
	case errors.Is(err, graph.ErrAGEOff):
		return &apiError{status: http.StatusNotImplemented, code: "age_unavailable", message: err.Error()}
	case errors.Is(err, graph.ErrResponseTooLarge):
		return &apiError{status: http.StatusRequestEntityTooLarge, code: "response_too_large", message: err.Error(), details: map[string]any{"field": "query"}}
	case errors.Is(err, eventloom.ErrSpaceMoving):
		return &apiError{status: http.StatusServiceUnavailable, code: "space_moving", message: err.Error(), retryAfter: spaceMovingRetryAfter}
	case errors.Is(err, eventloom.ErrErasurePending):
		return &apiError{status: http.StatusServiceUnavailable, code: "erasure_pending", message: err.Error(), retryAfter: 1}
	case errors.Is(err, graph.ErrQueryTimeout):
		return &apiError{status: http.StatusUnprocessableEntity, code: "query_timeout", message: err.Error()}
	case errors.Is(err, graph.ErrEntityNotFound):
		return &apiError{status: http.StatusNotFound, code: "entity_not_found", message: err.Error()}
	case errors.Is(err, eventloom.ErrNotErasable):
		return &apiError{status: http.StatusConflict, code: "not_erasable", message: err.Error()}
	case errors.As(err, &ge):
		return &apiError{status: http.StatusConflict, code: "policy_gate_failed", message: err.Error(),
			details: map[string]any{"version": ge.Version, "current": ge.Current, "gate": ge.Gate}}
	case errors.Is(err, policy.ErrPolicyNotFound):
		return &apiError{status: http.StatusNotFound, code: "policy_not_found", message: err.Error(), details: map[string]any{"field": "version"}}
	case errors.Is(err, policy.ErrNothingToLearn):
		return &apiError{status: http.StatusUnprocessableEntity, code: "nothing_to_learn", message: err.Error()}
	case errors.Is(err, policy.ErrNothingToRollBack):
		return &apiError{status: http.StatusConflict, code: "nothing_to_roll_back", message: err.Error()}
	case errors.Is(err, policy.ErrCurrentChanged):
		return &apiError{status: http.StatusConflict, code: "policy_changed", message: err.Error()}
	case errors.Is(err, checkout.ErrCheckoutNotFound):
		return &apiError{status: http.StatusNotFound, code: "checkout_not_found", message: err.Error(), details: map[string]any{"field": "seq"}}
	case errors.Is(err, review.ErrProposalNotFound):
		return &apiError{status: http.StatusNotFound, code: "proposal_not_found", message: err.Error(), details: map[string]any{"field": "seq"}}
	case errors.Is(err, memoryaction.ErrArtifactNotFound):
		return &apiError{status: http.StatusNotFound, code: "artifact_not_found", message: err.Error(), details: map[string]any{"field": "artifact_id"}}
	case errors.Is(err, review.ErrNotPending):
		return &apiError{status: http.StatusConflict, code: "proposal_not_pending", message: err.Error(), details: map[string]any{"field": "seq"}}
	case errors.Is(err, disclosure.ErrItemNotFound):
		return &apiError{status: http.StatusNotFound, code: "item_not_found", message: err.Error(), details: map[string]any{"field": "id"}}
	case errors.Is(err, eventloom.ErrEventNotFound):
		return &apiError{status: http.StatusNotFound, code: "event_not_found", message: err.Error()}
	case errors.Is(err, eventloom.ErrNotFound):
		return &apiError{status: http.StatusNotFound, code: "space_not_found", message: err.Error(), details: map[string]any{"field": "space"}}
	case errors.Is(err, eventloom.ErrConflict):
		return &apiError{status: http.StatusConflict, code: "idempotency_conflict", message: err.Error()}
	case errors.Is(err, context.DeadlineExceeded):
		return &apiError{status: http.StatusServiceUnavailable, code: "request_timeout", message: "the request did not finish before its deadline"}
	}
	if ae := databaseError(err); ae != nil {
		return ae
	}
	return &apiError{status: http.StatusInternalServerError, code: "internal", message: "internal error"}
}

// documentsError maps an ingest that stopped at a document: the cause's status and code, with
// details saying which document failed (failed_index) and which are in the log (documents).
func documentsError(de *ingest.DocumentsError) *apiError {
	cause := toAPIError(de.Err)
	details := map[string]any{"failed_index": de.Index, "documents": de.Result.Documents}
	for k, v := range cause.details {
		details[k] = v
	}
	return &apiError{status: cause.status, code: cause.code, details: details, retryAfter: cause.retryAfter,
		message: fmt.Sprintf("documents[%d]: %s; the %d documents before it are in the log (details.documents), a retry appends only the rest", de.Index, cause.message, de.Index)}
}

// writeError writes err's status, headers (Retry-After) and error body; a 5xx is logged with
// the request id. It is the only writer of error bodies: the handlers' adapter (serve) and the
// middleware that refuse a request call it.
func writeError(w http.ResponseWriter, r *http.Request, logger *slog.Logger, err error) {
	ae := toAPIError(err)
	status, body := ErrorResponse(ae)
	if ae.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(ae.retryAfter))
	}
	if status >= 500 {
		logger.ErrorContext(r.Context(), "request failed", "request_id", middleware.GetReqID(r.Context()), "method", r.Method, "path", r.URL.Path, "error", err)
	}
	_ = writeResponse(w, withStatus(status, body), 0) // an ErrorBody always encodes
}
