package api

import (
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"

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
