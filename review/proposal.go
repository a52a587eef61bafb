package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/review/internal/dbsqlc"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// queries are this package's generated queries (review/internal/dbsqlc, from sql/review).
var queries = dbsqlc.New()

var (
	// ErrProposalNotFound means no proposal.created event has that seq in the space.
	ErrProposalNotFound = errors.New("proposal not found")
	// ErrNotPending means the proposal was already accepted or rejected; a decision about it
	// appends nothing.
	ErrNotPending = errors.New("proposal is not pending")
)

// Statuses of a proposal. Open proposals are pending or deferred.
const (
	StatusPending  = "pending"
	StatusAccepted = "accepted"
	StatusRejected = "rejected"
	StatusDeferred = "deferred"
	// StatusOpen, as a list filter, means pending or deferred.
	StatusOpen = "open"
)

// proposalRow is the shape both ProposalsList and ProposalGet return.
type proposalRow = dbsqlc.ProposalGetRow

func toProposal(r proposalRow) (Proposal, error) {
	p := Proposal{Seq: r.Seq, Hash: r.Hash, Kind: r.Kind, Status: r.Status, ProposedBy: r.ProposedBy,
		ProposedAt: r.ProposedAt, Confidence: r.Confidence, Contradicts: r.Contradicts, Rationale: r.Rationale,
		DecidedSeq: r.DecidedSeq, DecidedBy: r.DecidedBy, DecidedAt: r.DecidedAt, Reason: r.Reason, FactID: r.FactID}
	if r.Fact != "" {
		p.Fact = json.RawMessage(r.Fact)
	}
	if r.InferenceSeq != nil && r.InferenceModel != nil && r.InferenceOrdinal != nil {
		p.Inference = &vocab.InferenceRef{Seq: *r.InferenceSeq, Model: *r.InferenceModel, Ordinal: int(*r.InferenceOrdinal)}
	}
	if err := json.Unmarshal([]byte(r.Evidence), &p.Evidence); err != nil {
		return p, fmt.Errorf("proposal %d evidence: %w", r.Seq, err)
	}
	return p, nil
}

// ListParams selects proposals.
type ListParams struct {
	// SpaceID is required.
	SpaceID string
	// Status keeps one status (pending, accepted, rejected, deferred, or open for pending and
	// deferred); "" keeps all.
	Status string
	// AfterSeq is the cursor: only proposals after it (a page's NextAfterSeq).
	AfterSeq int64
	// Limit is the page size, 1–1000; defaults to 100.
	Limit int
}

// Statuses a list may filter by.
var listStatuses = []string{StatusPending, StatusAccepted, StatusRejected, StatusDeferred, StatusOpen}

// List returns a page of the space's proposals from the projection (what the projector has
// applied; a proposal appended a moment ago shows up once it is projected).
func List(ctx context.Context, db pgexec.Executor, p ListParams) (*Page, error) {
	if p.Limit == 0 {
		p.Limit = 100
	}
	if p.Limit < 1 || p.Limit > 1000 {
		return nil, &validation.Error{Field: "limit", Message: "must be an integer between 1 and 1000"}
	}
	if p.AfterSeq < 0 {
		return nil, &validation.Error{Field: "after_seq", Message: "must be a non-negative integer"}
	}
	if p.Status != "" && !slices.Contains(listStatuses, p.Status) {
		return nil, &validation.Error{Field: "status", Message: fmt.Sprintf("must be one of pending, accepted, rejected, deferred, open, got %q", p.Status)}
	}
	rows, err := queries.ProposalsList(ctx, db, dbsqlc.ProposalsListParams{SpaceID: p.SpaceID, AfterSeq: p.AfterSeq,
		Status: p.Status, MaxRows: int32(min(p.Limit+1, math.MaxInt32))})
	if err != nil {
		return nil, fmt.Errorf("list proposals: %w", err)
	}
	page := &Page{Proposals: []Proposal{}}
	for i, r := range rows {
		if i == p.Limit {
			next := page.Proposals[i-1].Seq
			page.NextAfterSeq = &next
			break
		}
		pr, err := toProposal(proposalRow(r))
		if err != nil {
			return nil, err
		}
		page.Proposals = append(page.Proposals, pr)
	}
	return page, nil
}

// Get returns one proposal by the seq of its proposal.created event.
func Get(ctx context.Context, db pgexec.Executor, space string, seq int64) (*Proposal, error) {
	r, err := queries.ProposalGet(ctx, db, dbsqlc.ProposalGetParams{SpaceID: space, Seq: seq})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: no proposal at seq %d in space %q (or not projected yet)", ErrProposalNotFound, seq, space)
	}
	if err != nil {
		return nil, fmt.Errorf("get proposal: %w", err)
	}
	p, err := toProposal(r)
	if err != nil {
		return nil, err
	}
	return &p, nil
}
