package api

import (
	"context"
	"sync/atomic"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/internal/pgexec"
)

// rowBudget bounds what one capped read holds in memory: the bytes of the rows its queries
// have read, counted as each row arrives (its values as sent by Postgres). A read whose rows
// pass the budget stops reading there and fails with 413 response_too_large, so a request for
// 10,000 large facts holds about the response cap, not the whole result. Every field of these
// rows encodes to at least its size on the wire plus its JSON name, so rows that pass the
// budget could never have fit in the response.
type rowBudget struct {
	limit int64
	used  atomic.Int64 // bytes read
	rows  atomic.Int64 // rows read
}

// rowBudgetKey is the context key of a request's rowBudget.
type rowBudgetKey struct{}

// withRowBudget returns ctx carrying a budget of limit bytes.
func withRowBudget(ctx context.Context, limit int64) context.Context {
	return context.WithValue(ctx, rowBudgetKey{}, &rowBudget{limit: limit})
}

// budgeted returns db reading within the budget of ctx (serve sets one on every capped route),
// or db itself when ctx has none. field names the parameter that would make the answer
// smaller ("limit"), or is "" when there is none.
func budgeted(ctx context.Context, db pgexec.Executor, field string) pgexec.Executor {
	b, _ := ctx.Value(rowBudgetKey{}).(*rowBudget)
	if b == nil {
		return db
	}
	return &budgetedExecutor{Executor: db, budget: b, field: field}
}

// budgetedExecutor is an executor whose queries' rows count against a rowBudget, inside the
// transactions it begins too (a snapshot read).
type budgetedExecutor struct {
	pgexec.Executor
	budget *rowBudget
	field  string
}

// Query runs the query with its rows counted against the budget.
func (e *budgetedExecutor) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := e.Executor.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return &budgetedRows{Rows: rows, budget: e.budget, field: e.field}, nil
}

// Begin begins a transaction (a savepoint inside one) whose queries count against the budget.
func (e *budgetedExecutor) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := e.Executor.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &budgetedTx{Tx: tx, budget: e.budget, field: e.field}, nil
}

// BeginTx begins a transaction with opts (pgexec.BeginTx) whose queries count against the
// budget.
func (e *budgetedExecutor) BeginTx(ctx context.Context, opts pgx.TxOptions) (pgx.Tx, error) {
	tx, err := pgexec.BeginTx(ctx, e.Executor, opts)
	if err != nil {
		return nil, err
	}
	return &budgetedTx{Tx: tx, budget: e.budget, field: e.field}, nil
}

// budgetedTx is a transaction whose queries' rows count against a rowBudget.
type budgetedTx struct {
	pgx.Tx
	budget *rowBudget
	field  string
}

// Query runs the query with its rows counted against the budget.
func (t *budgetedTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := t.Tx.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return &budgetedRows{Rows: rows, budget: t.budget, field: t.field}, nil
}

// Begin begins a savepoint whose queries count against the budget.
func (t *budgetedTx) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := t.Tx.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &budgetedTx{Tx: tx, budget: t.budget, field: t.field}, nil
}

// budgetedRows counts each row as it arrives and ends the result, with a 413 as its error,
// at the first row that passes the budget.
type budgetedRows struct {
	pgx.Rows
	budget *rowBudget
	field  string
	err    error
}

// Next advances to the next row unless the rows read so far have passed the budget.
func (r *budgetedRows) Next() bool {
	if r.err != nil || !r.Rows.Next() {
		return false
	}
	n := 0
	for _, v := range r.Rows.RawValues() {
		n += len(v)
	}
	r.budget.rows.Add(1)
	if r.budget.used.Add(int64(n)) > r.budget.limit {
		r.err = responseTooLarge(r.budget.limit, r.field)
		r.Rows.Close()
		return false
	}
	return true
}

// Err is the budget's 413 when it ended the rows, else the rows' own error.
func (r *budgetedRows) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.Rows.Err()
}
