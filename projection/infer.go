package projection

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/extract"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
	"github.com/zaxy/zaxy/review"
)

// Inferrer runs the optional LLM-assisted extractor over projected message and
// document.chunk events and stores what it proposes as inferred statements (table
// inferences, view inferred_facts). It is off unless configured. The model is called outside
// any transaction; its output never touches the asserted fact graph. A statement that
// contradicts a current asserted fact is put up for review instead (review.Interference: a
// proposal.created event appended in the transaction that stores the inference).
type Inferrer struct {
	db        pgexec.Executor
	store     *eventloom.Store
	llm       extract.LLMExtractor
	model     string
	batchSize int
}

// NewInferrer returns an Inferrer recording llm's output under model (e.g. "gpt-4o-mini@1")
// through db (a pool, or a connection or transaction). The proposals interference detection
// appends go through a store without outbox: the projection sweep projects them.
func NewInferrer(db pgexec.Executor, llm extract.LLMExtractor, model string) *Inferrer {
	return &Inferrer{db: db, store: eventloom.NewStore(db, nil, nil), llm: llm, model: model, batchSize: 16}
}

// PendingSpaces returns up to limit spaces with projected messages or document chunks this
// Inferrer's model has not read yet, in space order.
func (in *Inferrer) PendingSpaces(ctx context.Context, limit int) ([]string, error) {
	spaces, err := queries.InferSpacesPending(ctx, in.db, dbsqlc.InferSpacesPendingParams{Model: in.model, MaxRows: clampInt32(limit)})
	if err != nil {
		return nil, fmt.Errorf("read spaces pending inference: %w", err)
	}
	return spaces, nil
}

// Model names the model whose inferences this Inferrer records.
func (in *Inferrer) Model() string { return in.model }

// storedTriple is one inferred statement as stored in inferences.triples.
type storedTriple struct {
	Subject    string  `json:"subject"`
	Predicate  string  `json:"predicate"`
	Object     string  `json:"object"`
	Confidence float64 `json:"confidence"`
}

// InferSpace asks the model about every projected message and chunk of space it has not read
// yet, and returns how many events it stored inferences for. A failing model fails the call;
// what was stored before the failure stays.
func (in *Inferrer) InferSpace(ctx context.Context, space string) (int, error) {
	total := 0
	for {
		todo, err := queries.InferPending(ctx, in.db, dbsqlc.InferPendingParams{SpaceID: space, Model: in.model, MaxRows: clampInt32(in.batchSize)})
		if err != nil {
			return total, fmt.Errorf("infer space %q: %w", space, err)
		}
		if len(todo) == 0 {
			return total, nil
		}
		for _, p := range todo {
			triples, err := in.llm.Extract(ctx, p.Content)
			if err != nil {
				return total, fmt.Errorf("infer space %q seq %d with %s: %w", space, p.Seq, in.model, err)
			}
			stored := make([]storedTriple, 0, len(triples))
			stmts := make([]review.Statement, 0, len(triples))
			for _, t := range triples {
				stored = append(stored, storedTriple{Subject: t.Subject, Predicate: t.Predicate, Object: t.Object, Confidence: t.Confidence})
				stmts = append(stmts, review.Statement{Subject: t.Subject, Predicate: t.Predicate, Object: t.Object, Confidence: t.Confidence})
			}
			b, err := json.Marshal(stored)
			if err != nil {
				return total, err
			}
			// Under the space's erasure lock, shared: an erasure of the event since it was read
			// has committed by then, and infer_insert sees it.
			if err := pgx.BeginFunc(ctx, in.db, func(tx pgx.Tx) error {
				if err := eventloom.LockErasureShared(ctx, tx, space); err != nil {
					return err
				}
				n, err := queries.InferInsert(ctx, tx, dbsqlc.InferInsertParams{SpaceID: space, Seq: p.Seq, Model: in.model, Hash: p.Hash, Triples: b})
				if err != nil || n == 0 {
					return err // erased meanwhile, or stored by another worker
				}
				_, err = review.Interference(ctx, tx, in.store, space, p.Seq, in.model, stmts)
				return err
			}); err != nil {
				return total, fmt.Errorf("infer space %q: store: %w", space, err)
			}
			total++
		}
		if len(todo) < in.batchSize {
			return total, nil
		}
	}
}
