package client

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/zaxy/zaxy/erasure/erasurewire"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
	"github.com/zaxy/zaxy/ingest/ingestwire"
)

// AppendEvents appends events to space, all or nothing (operation appendEvents, scope write).
// The database assigns each event's seq and hash; the result's receipts are in the order given.
// Pass WithIdempotencyKey to make the call safe to repeat: it is then retried, and a repeat
// answers with the original receipts (Replayed true).
func (c *Client) AppendEvents(ctx context.Context, space string, events []eventloomwire.NewEvent, opts ...CallOption) (*eventloomwire.AppendResult, error) {
	var res eventloomwire.AppendResult
	body := struct {
		Events []eventloomwire.NewEvent `json:"events"`
	}{events}
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "events"), body: body}, &res, opts)
	return result(&res, err)
}

// ReplayParams filters and pages ReplayEvents; zero fields are left out.
type ReplayParams struct {
	// SessionID keeps only that session's events.
	SessionID string `json:"session_id,omitempty"`
	// AfterSeq is the cursor: only events after it (a page's NextAfterSeq).
	AfterSeq int64 `json:"after_seq,omitempty"`
	// UntilSeq, when set, is the last seq to include.
	UntilSeq int64 `json:"until_seq,omitempty"`
	// RecordedBefore keeps only events recorded at or before it.
	RecordedBefore *time.Time `json:"recorded_before,omitempty"`
	// Limit is the page size, 1–1000 (0: the server's default).
	Limit int `json:"limit,omitempty"`
}

// ReplayEvents reads one page of space's log in seq order (operation replayEvents, scope read).
// Continue with AfterSeq set to the page's NextAfterSeq while it is not 0.
func (c *Client) ReplayEvents(ctx context.Context, space string, p *ReplayParams, opts ...CallOption) (*eventloomwire.ReplayPage, error) {
	var res eventloomwire.ReplayPage
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "events"), query: encodeQuery(p), safe: true}, &res, opts)
	return result(&res, err)
}

// Verify recomputes space's hash chain (operation verifyChain, scope read): method "go"
// (in the server, the default when "") or "sql" (in Postgres).
func (c *Client) Verify(ctx context.Context, space, method string, opts ...CallOption) (*eventloomwire.VerifyResult, error) {
	q := url.Values{}
	if method != "" {
		q.Set("method", method)
	}
	var res eventloomwire.VerifyResult
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "verify"), query: q, safe: true}, &res, opts)
	return result(&res, err)
}

// EraseRequest is the body of Erase.
type EraseRequest struct {
	// Seq is the event to erase.
	Seq int64 `json:"seq"`
	// Reason says why; it is recorded in the log, so it must not repeat the erased text.
	Reason string `json:"reason"`
	// Actor is who asked; optional.
	Actor string `json:"actor,omitempty"`
}

// Erase tombstones one event's content and data and purges what was derived from it
// (operation eraseEvent, scope admin). It is not retried: a repeat answers 409 not_erasable.
func (c *Client) Erase(ctx context.Context, space string, r *EraseRequest, opts ...CallOption) (*erasurewire.Result, error) {
	var res erasurewire.Result
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "erasures"), body: r}, &res, opts)
	return result(&res, err)
}

// IngestDocuments chunks documents into document.chunk events (operation ingestDocuments,
// scope write). An unchanged document appends nothing, so the call is retried like a read.
// p.SpaceID is ignored: space names the space.
func (c *Client) IngestDocuments(ctx context.Context, space string, p *ingestwire.DocumentsParams, opts ...CallOption) (*ingestwire.DocumentsResult, error) {
	var res ingestwire.DocumentsResult
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "documents"), body: p, safe: true}, &res, opts)
	return result(&res, err)
}

// IngestTranscript imports conversation turns as message events (operation ingestTranscript,
// scope write). Each batch is keyed by the transcript's content, so a repeat appends nothing
// and the call is retried like a read. p.SpaceID is ignored: space names the space.
func (c *Client) IngestTranscript(ctx context.Context, space string, p *ingestwire.TranscriptParams, opts ...CallOption) (*ingestwire.TranscriptResult, error) {
	var res ingestwire.TranscriptResult
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "transcripts"), body: p, safe: true}, &res, opts)
	return result(&res, err)
}

// result returns res, or nil and err.
func result[T any](res *T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return res, nil
}
