package projection

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/extract"
	"github.com/zaxy/zaxy/sql"
)

// Inferrer runs the optional LLM-assisted extractor over projected message and
// document.chunk events and stores what it proposes as inferred statements (table
// inferences, view inferred_facts). It is off unless configured. The model is called outside
// any transaction; its output never touches the asserted fact graph.
type Inferrer struct {
	pool      *pgxpool.Pool
	llm       extract.LLMExtractor
	model     string
	batchSize int
}

// NewInferrer returns an Inferrer recording llm's output under model (e.g. "gpt-4o-mini@1").
func NewInferrer(pool *pgxpool.Pool, llm extract.LLMExtractor, model string) *Inferrer {
	return &Inferrer{pool: pool, llm: llm, model: model, batchSize: 16}
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
		rows, err := in.pool.Query(ctx, sql.Query("projection/infer_pending"), space, in.model, in.batchSize)
		if err != nil {
			return total, fmt.Errorf("infer space %q: %w", space, err)
		}
		type pending struct {
			seq  int64
			hash []byte
			text string
		}
		var todo []pending
		var p pending
		if _, err := pgx.ForEachRow(rows, []any{&p.seq, &p.hash, &p.text}, func() error {
			todo = append(todo, p)
			return nil
		}); err != nil {
			return total, fmt.Errorf("infer space %q: %w", space, err)
		}
		if len(todo) == 0 {
			return total, nil
		}
		for _, p := range todo {
			triples, err := in.llm.Extract(ctx, p.text)
			if err != nil {
				return total, fmt.Errorf("infer space %q seq %d with %s: %w", space, p.seq, in.model, err)
			}
			stored := make([]storedTriple, 0, len(triples))
			for _, t := range triples {
				stored = append(stored, storedTriple{Subject: t.Subject, Predicate: t.Predicate, Object: t.Object, Confidence: t.Confidence})
			}
			b, err := json.Marshal(stored)
			if err != nil {
				return total, err
			}
			// Under the space's erasure lock, shared: an erasure of the event since it was read
			// has committed by then, and infer_insert sees it.
			if err := pgx.BeginFunc(ctx, in.pool, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, sql.Query("erasure/lock_shared"), space); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, sql.Query("projection/infer_insert"), space, p.seq, in.model, p.hash, string(b))
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
