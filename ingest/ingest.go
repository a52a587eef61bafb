package ingest

import (
	"fmt"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/validation"
)

// Config holds the ingest limits.
type Config struct {
	// MaxChunkBytes caps a document chunk. Defaults to DefaultMaxChunkBytes (2000).
	MaxChunkBytes int
	// MaxChunksPerDocument caps the chunks of one document, which are appended as one batch.
	// Defaults to 10000 (about 20 MB at the default chunk size).
	MaxChunksPerDocument int
	// TranscriptBatch is how many messages one transcript append holds. Defaults to 1000.
	TranscriptBatch int
	// MaxGroupChunks caps the chunks of the documents one ingest transaction appends (whole
	// documents only; a larger document is a transaction of its own). Defaults to 500.
	MaxGroupChunks int
}

// WithDefaults returns a copy with zero fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.MaxChunkBytes == 0 {
		c.MaxChunkBytes = DefaultMaxChunkBytes
	}
	if c.MaxChunksPerDocument == 0 {
		c.MaxChunksPerDocument = 10000
	}
	if c.TranscriptBatch == 0 {
		c.TranscriptBatch = 1000
	}
	if c.MaxGroupChunks == 0 {
		c.MaxGroupChunks = 500
	}
	return c
}

func (c Config) validate() error {
	switch {
	case c.MaxChunkBytes < 0:
		return fmt.Errorf("ingest config: MaxChunkBytes must not be negative, got %d", c.MaxChunkBytes)
	case c.MaxChunksPerDocument < 1:
		return fmt.Errorf("ingest config: MaxChunksPerDocument must be at least 1, got %d", c.MaxChunksPerDocument)
	case c.TranscriptBatch < 1:
		return fmt.Errorf("ingest config: TranscriptBatch must be at least 1, got %d", c.TranscriptBatch)
	case c.MaxGroupChunks < 1:
		return fmt.Errorf("ingest config: MaxGroupChunks must be at least 1, got %d", c.MaxGroupChunks)
	}
	return nil
}

// Ingester appends documents and transcripts to the Eventloom.
type Ingester struct {
	db    pgexec.Executor
	store *eventloom.Store
	cfg   Config
}

// New returns an Ingester that appends through store, grouping a request's documents in one
// transaction begun on db (a pool, or a connection or transaction; on a transaction the group
// is a savepoint). It fails only on a bad Config.
func New(db pgexec.Executor, store *eventloom.Store, cfg Config) (*Ingester, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Ingester{db: db, store: store, cfg: cfg}, nil
}

// invalid returns the eventloom validation error naming field, which the API maps to a 400
// with details.field.
func invalid(field, format string, args ...any) error {
	return &validation.Error{Field: field, Message: fmt.Sprintf(format, args...)}
}

// checkText rejects what Postgres text cannot store and caps the length in characters
// (maxChars 0 means no cap): eventloom's rule for event text.
func checkText(field, s string, maxChars int) error { return eventloom.CheckText(field, s, maxChars) }
