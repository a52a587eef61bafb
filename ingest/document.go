package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/redact"
	"github.com/zaxy/zaxy/vocab"
)

// Document formats.
const (
	FormatMarkdown = "markdown"
	FormatText     = "text"
)

// Actor is the actor of the document.chunk events Documents appends.
const Actor = "ingest"

// Field limits, the same as the document.chunk vocabulary's.
const (
	maxPathLen       = 4096
	maxDocumentIDLen = 1024
)

// chunkData is the data of a document.chunk event (see vocab.DocumentChunk); chunk_index
// is always written, and chunk_count lets a reader tell that it has every chunk.
type chunkData struct {
	DocumentID     string `json:"document_id"`
	Path           string `json:"path,omitempty"`
	Start          int    `json:"start"`
	End            int    `json:"end"`
	ChunkIndex     int    `json:"chunk_index"`
	ChunkCount     int    `json:"chunk_count"`
	DocumentSHA256 string `json:"document_sha256"`
}

// preparedDocument is a validated, redacted and chunked document ready to append.
type preparedDocument struct {
	result DocumentResult
	// key is the version's key material (DocumentKeyMaterial) until deriveKeys makes it the
	// idempotency key derived from it.
	key    string
	events []eventloom.NewEvent
}

// DocumentsError reports an ingest of documents that stopped at a document: the documents
// before it are in the log (Result), that one and those after it were not appended.
// Retrying the same request appends only what is missing.
type DocumentsError struct {
	// Err is why documents[Index] could not be appended.
	Err error
	// Index is the failed document's position in the request.
	Index int
	// Result holds the documents before Index, each appended or already in the log.
	Result *DocumentsResult
}

// Error says which document failed and how many before it are in the log.
func (e *DocumentsError) Error() string {
	return fmt.Sprintf("documents[%d]: %v (documents[0:%d] are in the log; a retry appends only the rest)", e.Index, e.Err, e.Index)
}

// Unwrap returns the cause.
func (e *DocumentsError) Unwrap() error { return e.Err }

// Documents redacts, chunks and appends documents. Each document's chunks are one batch
// with an idempotency key derived from DocumentKeyMaterial(document_id, document_sha256) under
// the space's secret (eventloom.Store.DerivedKeys), so re-ingesting an unchanged document into
// the space appends nothing and a changed one appends a new version; an erasure of one of its
// chunks forgets the key, and the same version sent again is appended anew. All documents are validated before anything is appended (errors for bad input
// are *validation.Error naming the field, e.g. "documents[0].text"). They are then
// appended in order, in transactions of whole documents holding at most
// Config.MaxGroupChunks chunks (a larger document is a transaction of its own), so a large
// upload holds the space's lock only briefly at a time and never stores part of a document.
// When one fails, the error is a *DocumentsError saying which, with the results of the
// documents before it, which are committed.
func (in *Ingester) Documents(ctx context.Context, p *DocumentsParams) (*DocumentsResult, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	if len(p.Documents) == 0 {
		return nil, invalid("documents", "must contain at least one document")
	}
	mode, err := in.store.RedactionMode(ctx, p.SpaceID)
	if err != nil {
		return nil, err
	}
	prepared := make([]preparedDocument, len(p.Documents))
	for i := range p.Documents {
		d, err := in.prepareDocument(ctx, &p.Documents[i], fmt.Sprintf("documents[%d].", i), mode != vocab.RedactionOff)
		if err != nil {
			return nil, err
		}
		prepared[i] = d
	}
	if err := in.deriveKeys(ctx, p.SpaceID, prepared); err != nil {
		return nil, err
	}
	results, pending, err := in.knownDocuments(ctx, p.SpaceID, prepared)
	if err != nil {
		return nil, err
	}
	// upTo returns the results of documents[0:i], all of them done (appended or known).
	upTo := func(i int) *DocumentsResult {
		return &DocumentsResult{SpaceID: p.SpaceID, Documents: results[:i]}
	}
	for g := 0; g < len(pending); {
		end, chunks := g+1, len(prepared[pending[g]].events)
		for end < len(pending) && chunks+len(prepared[pending[end]].events) <= in.cfg.MaxGroupChunks {
			chunks += len(prepared[pending[end]].events)
			end++
		}
		group := pending[g:end]
		err := in.appendDocuments(ctx, p.SpaceID, prepared, group, results)
		if err != nil && len(group) > 1 && ctx.Err() == nil {
			// Find the document that fails: the group again, one document per transaction.
			for _, i := range group {
				if err := in.appendDocuments(ctx, p.SpaceID, prepared, []int{i}, results); err != nil {
					return nil, &DocumentsError{Err: err, Index: i, Result: upTo(i)}
				}
			}
		} else if err != nil {
			return nil, &DocumentsError{Err: err, Index: group[0], Result: upTo(group[0])}
		}
		g = end
	}
	return upTo(len(results)), nil
}

// knownDocuments answers, in one round trip, the documents whose version is already in the
// log (so a retry of a large upload skips them quickly): it returns every document's result
// so far and the indexes of those still to append, in order.
func (in *Ingester) knownDocuments(ctx context.Context, space string, prepared []preparedDocument) ([]DocumentResult, []int, error) {
	ps := make([]*eventloom.AppendParams, len(prepared))
	for i, d := range prepared {
		ps[i] = &eventloom.AppendParams{SpaceID: space, Events: d.events, IdempotencyKey: d.key}
	}
	records, err := in.store.KeyRecords(ctx, space, ps)
	if err != nil {
		return nil, nil, err
	}
	results := make([]DocumentResult, len(prepared))
	var pending []int
	for i, d := range prepared {
		results[i] = d.result
		switch rec := records[i]; {
		case rec == nil:
			pending = append(pending, i)
		case rec.SameBody:
			results[i].FirstSeq, results[i].LastSeq = rec.FirstSeq, rec.LastSeq
		default:
			// The same version is in the log, chunked differently (another chunk size).
		}
	}
	return results, pending, nil
}

// commitTimeout bounds a group's commit, which the caller's deadline does not cut short.
const commitTimeout = 30 * time.Second

// appendDocuments appends the documents prepared[i] for i in group in one transaction, each
// in a savepoint, and sets their results; on error nothing of the group is committed.
//
// The caller's deadline stops the inserts but not the commit: a commit cut off after it was
// sent would leave the group's fate unknown until the server had finished it (the connection
// is dropped, and the server may commit after a check on another connection has looked), so
// the documents reported would not be exactly those in the log. A commit that fails anyway
// (a lost connection, or commitTimeout) reports the group as not appended; the log then holds
// either all of it or none, and a retry skips what is there.
func (in *Ingester) appendDocuments(ctx context.Context, space string, prepared []preparedDocument, group []int, results []DocumentResult) error {
	out := make([]DocumentResult, len(group))
	tx, err := in.db.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after the commit; a rollback that fails closes the connection, which aborts
	err = func() error {
		for j, i := range group {
			d := prepared[i]
			r := d.result
			ar, err := in.store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: space, Events: d.events, IdempotencyKey: d.key})
			switch {
			case errors.Is(err, eventloom.ErrConflict):
				// The same version is in the log, chunked differently (another chunk size).
				r.Appended = false
			case err != nil:
				return fmt.Errorf("append document %q: %w", r.DocumentID, err)
			default:
				r.Appended = !ar.Replayed
				r.FirstSeq, r.LastSeq = ar.Receipts[0].Seq, ar.Receipts[len(ar.Receipts)-1].Seq
				r.Redactions += ar.Redactions
			}
			out[j] = r
		}
		return nil
	}()
	if err != nil {
		return err
	}
	commitCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
	defer cancel()
	if err := tx.Commit(commitCtx); err != nil {
		return err
	}
	for j, i := range group {
		results[i] = out[j]
	}
	return nil
}

func (in *Ingester) prepareDocument(ctx context.Context, doc *Document, prefix string, redactOn bool) (preparedDocument, error) {
	var d preparedDocument
	id := doc.DocumentID
	if id == "" {
		id = doc.Path
	}
	switch {
	case id == "":
		return d, invalid(prefix+"path", "is required (it is also the default document_id)")
	case strings.TrimSpace(id) == "" && doc.DocumentID != "":
		return d, invalid(prefix+"document_id", "must not be blank")
	case strings.TrimSpace(id) == "":
		return d, invalid(prefix+"path", "must not be blank")
	}
	if err := checkText(prefix+"path", doc.Path, maxPathLen); err != nil {
		return d, err
	}
	if err := checkText(prefix+"document_id", doc.DocumentID, maxDocumentIDLen); err != nil {
		return d, err
	}
	format, err := documentFormat(doc.Format, doc.Path, prefix+"format")
	if err != nil {
		return d, err
	}
	if doc.Text == "" {
		return d, invalid(prefix+"text", "is required (an empty document has no chunks)")
	}
	if err := checkText(prefix+"text", doc.Text, 0); err != nil {
		return d, err
	}
	// The whole text is redacted before chunking, so no secret is split between chunks and
	// the offsets and digest refer to what is stored. (The Eventloom redacts each chunk again,
	// which changes nothing, and redacts the path and id in the chunks' data.)
	text, redactions := doc.Text, 0
	if redactOn {
		var err error
		if text, redactions, err = redact.StringContext(ctx, doc.Text); err != nil {
			return d, fmt.Errorf("redact %stext: %w", prefix, err)
		}
	}
	sum := sha256.Sum256([]byte(text))
	docSHA := hex.EncodeToString(sum[:])
	chunks := Chunk(text, ChunkOptions{MaxBytes: in.cfg.MaxChunkBytes, Markdown: format == FormatMarkdown})
	if len(chunks) > in.cfg.MaxChunksPerDocument {
		return d, invalid(prefix+"text", "makes %d chunks of at most %d bytes; the limit is %d chunks per document",
			len(chunks), in.cfg.MaxChunkBytes, in.cfg.MaxChunksPerDocument)
	}
	d.events = make([]eventloom.NewEvent, len(chunks))
	for i, c := range chunks {
		data, err := json.Marshal(chunkData{DocumentID: id, Path: doc.Path, Start: c.Start, End: c.End,
			ChunkIndex: c.Index, ChunkCount: len(chunks), DocumentSHA256: docSHA})
		if err != nil {
			return d, fmt.Errorf("encode chunk data: %w", err)
		}
		d.events[i] = eventloom.NewEvent{Type: vocab.TypeDocumentChunk, Actor: Actor, Content: c.Text, Data: data}
	}
	d.key = DocumentKeyMaterial(id, docSHA) // the key is derived from it (deriveKeys)
	d.result = DocumentResult{DocumentID: id, Path: doc.Path, Chunks: len(chunks), DocumentSHA256: docSHA, Redactions: redactions}
	return d, nil
}

// documentKeyPrefix is the prefix of a document version's derived idempotency key.
const documentKeyPrefix = "doc"

// deriveKeys replaces the key material of each prepared document by the idempotency key
// derived from it under the space's secret (eventloom.Store.DerivedKeys, prefix "doc").
func (in *Ingester) deriveKeys(ctx context.Context, space string, prepared []preparedDocument) error {
	materials := make([]string, len(prepared))
	for i, d := range prepared {
		materials[i] = d.key
	}
	keys, err := in.store.DerivedKeys(ctx, space, documentKeyPrefix, materials...)
	if err != nil {
		return err
	}
	for i := range prepared {
		prepared[i].key = keys[i]
	}
	return nil
}

// DocumentKeyMaterial is what the idempotency key of one version of a document is derived
// from (eventloom.Store.DerivedKeys, prefix "doc"): "doc:" + hex(sha256(documentID + "\n" +
// documentSHA256)), where documentSHA256 is the hex SHA-256 of the redacted text.
func DocumentKeyMaterial(documentID, documentSHA256 string) string {
	sum := sha256.Sum256([]byte(documentID + "\n" + documentSHA256))
	return "doc:" + hex.EncodeToString(sum[:])
}

// markdownExts are the extensions whose documents default to the markdown format.
var markdownExts = map[string]bool{".md": true, ".markdown": true, ".mdown": true, ".mkd": true, ".mdx": true}

// IsMarkdownPath reports whether p has a markdown extension (.md, .markdown, .mdown, .mkd,
// .mdx; case-insensitive).
func IsMarkdownPath(p string) bool { return markdownExts[strings.ToLower(path.Ext(p))] }

func documentFormat(format, p, field string) (string, error) {
	switch format {
	case FormatMarkdown, FormatText:
		return format, nil
	case "":
		if IsMarkdownPath(p) {
			return FormatMarkdown, nil
		}
		return FormatText, nil
	}
	return "", invalid(field, "must be %q or %q, got %q", FormatMarkdown, FormatText, format)
}
