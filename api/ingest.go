package api

import (
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/ingest"
)

// ingestDocuments: POST /v1/spaces/{space}/documents. 201 when any document was appended,
// 200 when every one was already in the log unchanged. When one fails after others were
// appended, the error (an *ingest.DocumentsError) says which are in the log.
func (s *server) ingestDocuments(r *http.Request) (any, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	p, err := ingest.DecodeDocumentsBody(body)
	if err != nil {
		return nil, err
	}
	p.SpaceID = chi.URLParam(r, "space")
	res, err := s.ingest.Documents(r.Context(), p)
	if err != nil {
		return nil, err
	}
	if res.Appended() {
		return withStatus(http.StatusCreated, res), nil
	}
	return res, nil
}

// ingestTranscript: POST /v1/spaces/{space}/transcripts. 201 with the receipts, 200 when
// the same transcript had been imported before and nothing was appended.
func (s *server) ingestTranscript(r *http.Request) (any, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	p, err := ingest.DecodeTranscriptBody(body)
	if err != nil {
		return nil, err
	}
	p.SpaceID = chi.URLParam(r, "space")
	res, err := s.ingest.Transcript(r.Context(), p)
	if err != nil {
		return nil, err
	}
	if res.Replayed {
		return res, nil
	}
	return withStatus(http.StatusCreated, res), nil
}
