package ingestwire

// Document is one document to ingest.
type Document struct {
	// Path is where the document came from (a file path or URL); required unless DocumentID
	// is set.
	Path string `json:"path"`
	// DocumentID identifies the document across versions; defaults to Path.
	DocumentID string `json:"document_id,omitempty"`
	// Text is the document's full text, valid UTF-8 without NUL characters.
	Text string `json:"text"`
	// Format is "markdown" or "text"; empty means markdown for .md/.markdown (and similar)
	// paths and text otherwise.
	Format string `json:"format,omitempty"`
}

// DocumentsParams is one ingest of documents into a space; its JSON form is the body of
// POST /v1/spaces/{space}/documents (ingest.DecodeDocumentsBody).
type DocumentsParams struct {
	// SpaceID is the space to append to.
	SpaceID string `json:"-"`
	// Documents are ingested in order, in bounded transactions (ingest.Config.MaxGroupChunks).
	Documents []Document `json:"documents"`
}

// DocumentResult reports what ingesting one document did.
type DocumentResult struct {
	DocumentID string `json:"document_id"`
	Path       string `json:"path,omitempty"`
	// Chunks is how many document.chunk events the (redacted) document is made of.
	Chunks int `json:"chunks"`
	// Appended is false when this exact version was already in the log.
	Appended bool `json:"appended"`
	// FirstSeq and LastSeq are the chunks' seqs: new ones when Appended, otherwise those of
	// the earlier ingest of the same version (both 0 when it was chunked differently then).
	FirstSeq int64 `json:"first_seq"`
	LastSeq  int64 `json:"last_seq"`
	// DocumentSHA256 is the hex SHA-256 of the redacted text (the chunks concatenated).
	DocumentSHA256 string `json:"document_sha256"`
	// Redactions counts the secrets replaced: in the text before chunking, and in the path
	// and document_id of the chunks' data. 0 when the space's redaction is off.
	Redactions int `json:"redactions"`
}

// DocumentsResult reports an ingest of documents.
type DocumentsResult struct {
	SpaceID   string           `json:"space_id"`
	Documents []DocumentResult `json:"documents"`
}

// Appended reports whether any document was appended.
func (r *DocumentsResult) Appended() bool {
	for _, d := range r.Documents {
		if d.Appended {
			return true
		}
	}
	return false
}
