package ingest

import "github.com/zaxy/zaxy/ingest/ingestwire"

// The types that cross HTTP live in the leaf package ingestwire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// Document is one document to ingest (ingestwire.Document).
	Document = ingestwire.Document
	// DocumentResult reports what ingesting one document did (ingestwire.DocumentResult).
	DocumentResult = ingestwire.DocumentResult
	// DocumentsParams is one ingest of documents into a space (ingestwire.DocumentsParams).
	DocumentsParams = ingestwire.DocumentsParams
	// DocumentsResult reports an ingest of documents (ingestwire.DocumentsResult).
	DocumentsResult = ingestwire.DocumentsResult
	// TranscriptParams is one transcript import into a space (ingestwire.TranscriptParams).
	TranscriptParams = ingestwire.TranscriptParams
	// TranscriptResult reports a transcript import (ingestwire.TranscriptResult).
	TranscriptResult = ingestwire.TranscriptResult
	// Turn is one conversation turn of a transcript (ingestwire.Turn).
	Turn = ingestwire.Turn
)
