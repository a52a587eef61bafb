package api

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
)

// ingester returns the ingester for one request; transcript batches follow the server's
// MaxBatch.
func (s *server) ingester() (*ingest.Ingester, error) { return s.ingest, s.ingestErr }

// readSpaceBody validates the space in the path and reads the body within MaxBodyBytes.
func (s *server) readSpaceBody(w http.ResponseWriter, r *http.Request) (string, []byte, error) {
	space := chi.URLParam(r, "space")
	if err := eventloom.ValidateSpaceID(space); err != nil {
		return "", nil, err
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err != nil {
		return "", nil, err
	}
	return space, body, nil
}

// ingestDocuments: POST /v1/spaces/{space}/documents. 201 when any document was appended,
// 200 when every one was already in the log unchanged.
func (s *server) ingestDocuments(w http.ResponseWriter, r *http.Request) {
	space, body, err := s.readSpaceBody(w, r)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	p, err := ingest.DecodeDocumentsBody(body)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	p.SpaceID = space
	in, err := s.ingester()
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	res, err := in.Documents(r.Context(), p)
	if de := (*ingest.DocumentsError)(nil); errors.As(err, &de) {
		// Documents before the failed one are committed: say which, with the cause's status.
		if status, _ := ErrorResponse(de.Err); status >= 500 {
			s.logger.ErrorContext(r.Context(), "ingest stopped", "request_id", middleware.GetReqID(r.Context()), "index", de.Index, "error", de.Err)
		}
		ae := toAPIError(de.Err)
		details := map[string]any{"failed_index": de.Index, "documents": de.Result.Documents}
		for k, v := range ae.details {
			details[k] = v
		}
		writeError(w, r, s.logger, &apiError{status: ae.status, code: ae.code, details: details,
			message: fmt.Sprintf("documents[%d]: %s; the %d documents before it are in the log (details.documents), a retry appends only the rest", de.Index, ae.message, de.Index)})
		return
	}
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	status := http.StatusOK
	if res.Appended() {
		status = http.StatusCreated
	}
	writeJSON(w, status, res)
}

// ingestTranscript: POST /v1/spaces/{space}/transcripts. 201 with the receipts, 200 when
// the same transcript had been imported before and nothing was appended.
func (s *server) ingestTranscript(w http.ResponseWriter, r *http.Request) {
	space, body, err := s.readSpaceBody(w, r)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	p, err := ingest.DecodeTranscriptBody(body)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	p.SpaceID = space
	in, err := s.ingester()
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	res, err := in.Transcript(r.Context(), p)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	status := http.StatusCreated
	if res.Replayed {
		status = http.StatusOK
	}
	writeJSON(w, status, res)
}
