package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
)

// StorageTable is what one table of the database holds on disk.
type StorageTable struct {
	// Name is the table's name, schema-qualified when it is not in public.
	Name string `json:"name"`
	// Rows is the table's exact row count.
	Rows int64 `json:"rows"`
	// Heap is the bytes of the table's main fork, free space map and visibility map.
	Heap int64 `json:"heap_bytes"`
	// Indexes is the bytes of the table's indexes.
	Indexes int64 `json:"index_bytes"`
	// TOAST is the bytes of the table's TOAST table and its index.
	TOAST int64 `json:"toast_bytes"`
	// Total is pg_total_relation_size: Heap + Indexes + TOAST.
	Total int64 `json:"total_bytes"`
	// PerEvent is Total divided by the events in the database.
	PerEvent float64 `json:"bytes_per_event"`
	// OfLog is Total divided by the events table's Total.
	OfLog float64 `json:"of_log"`
}

// StorageReport is the bytes a database keeps, per table, against its log.
type StorageReport struct {
	// Database is the database's name.
	Database string `json:"database"`
	// Events is the row count of the events table.
	Events int64 `json:"events"`
	// LogBytes is the events table's total bytes (heap, indexes and TOAST).
	LogBytes int64 `json:"log_bytes"`
	// Total is every listed table's total bytes.
	Total int64 `json:"total_bytes"`
	// PerEvent is Total divided by Events.
	PerEvent float64 `json:"bytes_per_event"`
	// OfLog is Total divided by LogBytes: how many times the log everything costs.
	OfLog float64 `json:"of_log"`
	// DatabaseBytes is pg_database_size, which also counts the catalogs.
	DatabaseBytes int64 `json:"database_bytes"`
	// Tables is every table of the non-system schemas holding at least one page, largest first.
	Tables []StorageTable `json:"tables"`
	// Load is the load average when the report was taken.
	Load string `json:"load_average"`
	// Loaded describes what was loaded before measuring, when the run loaded anything.
	Loaded string `json:"loaded,omitempty"`
	// LoadSeconds is how long the load (append, projection, embeddings, latent builds) took.
	LoadSeconds float64 `json:"load_seconds,omitempty"`
}

// storageSizesSQL lists the tables of the non-system schemas with their sizes.
const storageSizesSQL = `
SELECT c.oid::regclass::text,
       pg_relation_size(c.oid, 'main') + pg_relation_size(c.oid, 'fsm') + pg_relation_size(c.oid, 'vm'),
       pg_indexes_size(c.oid),
       CASE WHEN c.reltoastrelid = 0 THEN 0 ELSE pg_total_relation_size(c.reltoastrelid) END,
       pg_total_relation_size(c.oid)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relkind IN ('r', 'm', 'p')
   AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'ag_catalog')
   AND n.nspname NOT LIKE 'pg\_%'
   AND pg_total_relation_size(c.oid) > 0`

// Storage measures the database pool is connected to: every table's heap, index and TOAST
// bytes and exact row count, each against the events in the log. It reads pg_class and counts
// rows, so it takes a full scan of every table.
func Storage(ctx context.Context, pool *pgxpool.Pool) (*StorageReport, error) {
	rep := &StorageReport{Load: loadAverage()}
	if err := pool.QueryRow(ctx, `SELECT current_database(), pg_database_size(current_database())`).Scan(&rep.Database, &rep.DatabaseBytes); err != nil {
		return nil, fmt.Errorf("measure storage: %w", err)
	}
	rows, err := pool.Query(ctx, storageSizesSQL)
	if err != nil {
		return nil, fmt.Errorf("measure storage: %w", err)
	}
	tables, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (StorageTable, error) {
		var t StorageTable
		err := r.Scan(&t.Name, &t.Heap, &t.Indexes, &t.TOAST, &t.Total)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("measure storage: %w", err)
	}
	for i := range tables {
		t := &tables[i]
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM `+t.Name).Scan(&t.Rows); err != nil {
			return nil, fmt.Errorf("count rows of %s: %w", t.Name, err)
		}
		if t.Name == "events" {
			rep.Events, rep.LogBytes = t.Rows, t.Total
		}
		rep.Total += t.Total
	}
	for i := range tables {
		t := &tables[i]
		t.PerEvent, t.OfLog = ratio(t.Total, rep.Events), ratio(t.Total, rep.LogBytes)
	}
	rep.PerEvent, rep.OfLog = ratio(rep.Total, rep.Events), ratio(rep.Total, rep.LogBytes)
	slices.SortFunc(tables, func(a, b StorageTable) int {
		if a.Total != b.Total {
			return int(b.Total - a.Total)
		}
		return compareStrings(a.Name, b.Name)
	})
	rep.Tables = tables
	return rep, nil
}

// ratio is a / b, 0 when b is 0.
func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// LoadForStorage appends every case's turns into a fresh space of the database and makes them
// searchable as checkout would (projection, embeddings, latent builds), asking no question;
// it returns how long that took.
func LoadForStorage(ctx context.Context, p *DatasetParams) (time.Duration, error) {
	retriever, _, _ := NewCheckoutRetriever(p.Pool, p.Projector, p.Embedder, p.Provider, p.TextSearchConfig, []string{}, 0)
	opts := p.Options
	opts.LoadOnly, opts.Out, opts.KeywordOut, opts.Summary = true, nil, nil, nil
	start := time.Now()
	if _, err := Run(ctx, eventloom.NewStore(p.Pool, nil, opts.Logger), retriever, p.Cases, opts); err != nil {
		return 0, fmt.Errorf("load for storage: %w", err)
	}
	return time.Since(start), nil
}

// WriteText prints the report as a table, largest table first.
func (r *StorageReport) WriteText(w io.Writer) {
	if r.Loaded != "" {
		fmt.Fprintf(w, "loaded: %s in %.0f s\n", r.Loaded, r.LoadSeconds)
	}
	fmt.Fprintf(w, "database %s: %d events, log (events table) %s, tables %s = %.0f bytes/event = %.2f× the log (pg_database_size %s); load average %s\n\n",
		r.Database, r.Events, mib(r.LogBytes), mib(r.Total), r.PerEvent, r.OfLog, mib(r.DatabaseBytes), r.Load)
	fmt.Fprintf(w, "%-34s %10s %10s %10s %10s %10s %9s %7s\n", "table", "rows", "heap", "indexes", "toast", "total", "B/event", "× log")
	row := func(t StorageTable) {
		fmt.Fprintf(w, "%-34s %10d %10s %10s %10s %10s %9.0f %7.2f\n", t.Name, t.Rows, mib(t.Heap), mib(t.Indexes), mib(t.TOAST), mib(t.Total), t.PerEvent, t.OfLog)
	}
	// Tables under 1% of the total each are summed in one line (the JSON lists them all).
	rest := StorageTable{}
	n := 0
	for _, t := range r.Tables {
		if t.Total*100 >= r.Total {
			row(t)
			continue
		}
		n++
		rest.Rows, rest.Heap, rest.Indexes, rest.TOAST, rest.Total = rest.Rows+t.Rows, rest.Heap+t.Heap, rest.Indexes+t.Indexes, rest.TOAST+t.TOAST, rest.Total+t.Total
	}
	if n > 0 {
		rest.Name = fmt.Sprintf("%d smaller tables", n)
		rest.PerEvent, rest.OfLog = ratio(rest.Total, r.Events), ratio(rest.Total, r.LogBytes)
		row(rest)
	}
	fmt.Fprintf(w, "%-34s %10s %10s %10s %10s %10s %9.0f %7.2f\n", "all", "", "", "", "", mib(r.Total), r.PerEvent, r.OfLog)
}

// mib formats bytes as MiB with one decimal.
func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
