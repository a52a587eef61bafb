package projection

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
	"github.com/zaxy/zaxy/sql"
)

// queries are this package's generated queries (projection/internal/dbsqlc, from
// sql/projection).
var queries = dbsqlc.New()

// qEventsAfter is hand-written: its rows are eventloom.Row, read by eventloom.ScanEvent.
var qEventsAfter = sql.Query("projection/events_after")

// eventsAfterArgs are events_after.sql's parameters: the next Limit events of the space after
// seq AfterSeq.
type eventsAfterArgs struct {
	SpaceID  string
	AfterSeq int64
	Limit    int
}

// queryEventsAfter runs events_after.sql; eventloom.ScanEvent reads its rows.
func queryEventsAfter(ctx context.Context, tx pgx.Tx, a eventsAfterArgs) (pgx.Rows, error) {
	return tx.Query(ctx, qEventsAfter, a.SpaceID, a.AfterSeq, a.Limit)
}

// ErrBusy means another worker is projecting the space right now.
var ErrBusy = errors.New("space is being projected by another worker")

// Config configures a Projector.
type Config struct {
	// TextSearchConfig is the Postgres text search configuration memory text is indexed with
	// (a regconfig such as "english" or "simple"). Defaults to "english". Changing it needs a
	// rebuild for existing rows.
	TextSearchConfig string
	// BatchSize is how many events one projection transaction applies. Defaults to 500.
	BatchSize int
	// AGE is "auto" (mirror the graph into Apache AGE when the extension is installed, the
	// default) or "off".
	AGE string
	// Gate is the write-time encoding gate of spaces that never recorded a gate.configured:
	// "on" (the default) or "off" (docs/projections.md, "Encoding gate"). Changing it needs a
	// rebuild for items already projected.
	Gate string
	// GateParaphrase, when set, makes the encoding gate also tag paraphrases as redundant,
	// comparing vectors it computes with this embedder at projection time (docs/projections.md,
	// "Encoding gate"). It must be a pure function of the text, the same on every projector of
	// a deployment (embedding.WordVec or embedding.Offline); nil (the default) leaves it off.
	// Changing it needs a rebuild for items already projected.
	GateParaphrase embedding.Embedder
	// Logger receives the projector's logs. Defaults to discarding.
	Logger *slog.Logger
}

var regconfigPattern = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// WithDefaults returns a copy with zero fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.TextSearchConfig == "" {
		c.TextSearchConfig = "english"
	}
	if c.BatchSize == 0 {
		c.BatchSize = 500
	}
	if c.AGE == "" {
		c.AGE = "auto"
	}
	if c.Gate == "" {
		c.Gate = GateOn
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

func (c Config) validate() error {
	if !regconfigPattern.MatchString(c.TextSearchConfig) {
		return fmt.Errorf("projection config: TextSearchConfig must name a text search configuration, got %q", c.TextSearchConfig)
	}
	if c.AGE != "auto" && c.AGE != "off" {
		return fmt.Errorf("projection config: AGE must be auto or off, got %q", c.AGE)
	}
	if c.Gate != GateOn && c.Gate != GateOff {
		return fmt.Errorf("projection config: Gate must be on or off, got %q", c.Gate)
	}
	if c.BatchSize < 1 || c.BatchSize > 100000 {
		return fmt.Errorf("projection config: BatchSize must be between 1 and 100000, got %d", c.BatchSize)
	}
	return nil
}

// Projector applies spaces' events to the projections.
type Projector struct {
	db     pgexec.Executor
	cfg    Config
	age    bool
	para   *gateParaphraser
	logger *slog.Logger
}

// New returns a Projector writing through db (a pool; or a connection or transaction, whose
// batches then run in savepoints). It checks that the text search configuration exists.
func New(ctx context.Context, db pgexec.Executor, cfg Config) (*Projector, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	ok, err := queries.TSConfigExists(ctx, db, cfg.TextSearchConfig)
	if err != nil {
		return nil, fmt.Errorf("check text search configuration: %w", err)
	}
	if !ok {
		return nil, fmt.Errorf("projection config: text search configuration %q does not exist in the database", cfg.TextSearchConfig)
	}
	age := false
	if cfg.AGE == "auto" {
		if age, err = graph.AGEInstalled(ctx, db); err != nil {
			return nil, fmt.Errorf("check for AGE: %w", err)
		}
	}
	return &Projector{db: db, cfg: cfg, age: age, para: newGateParaphraser(cfg.GateParaphrase), logger: cfg.Logger}, nil
}

// AGE reports whether the projector mirrors the graph into Apache AGE.
func (p *Projector) AGE() bool { return p.age }

// Result reports what one ProjectSpace call applied.
type Result struct {
	// Applied is how many events were applied.
	Applied int
	// ProjectedSeq is the watermark afterwards.
	ProjectedSeq int64
}

// ProjectSpace applies every event of space past its watermark, one transaction per batch,
// until it reaches the end of the log. It returns ErrBusy at once when another worker holds
// the space.
func (p *Projector) ProjectSpace(ctx context.Context, space string) (*Result, error) {
	res := &Result{}
	if err := queries.WatermarkEnsure(ctx, p.db, space); err != nil {
		return nil, fmt.Errorf("ensure watermark: %w", mapFK(err, space))
	}
	for {
		n, last, err := p.projectOnce(ctx, space, false)
		if err != nil {
			return res, err
		}
		res.Applied += n
		res.ProjectedSeq = last
		if n < p.cfg.BatchSize {
			return res, nil
		}
	}
}

// projectOnce applies up to one batch in its own transaction.
func (p *Projector) projectOnce(ctx context.Context, space string, wait bool) (int, int64, error) {
	ctx, span := startBatch(ctx, space)
	var n int
	var last int64
	err := pgx.BeginFunc(ctx, p.db, func(tx pgx.Tx) error {
		var err error
		n, last, err = p.projectBatchTx(ctx, tx, space, batchOpts{wait: wait, purge: true})
		return err
	})
	endBatch(span, n, last, err)
	return n, last, err
}

// batchOpts says how projectBatchTx runs.
type batchOpts struct {
	// wait waits for the watermark lock instead of returning ErrBusy.
	wait bool
	// upTo, when positive, is the last seq the batch may apply: a replay stops at the log's
	// end as it stood when the replay began.
	upTo int64
	// purge rebuilds the space's projections instead of applying the batch when the batch
	// holds the erasure record of an event the projections already hold (see purgeTx).
	purge bool
}

// projectBatchTx locks the space's watermark, applies the next batch of events and moves the
// watermark, all in tx.
func (p *Projector) projectBatchTx(ctx context.Context, tx pgx.Tx, space string, o batchOpts) (int, int64, error) {
	lock := queries.WatermarkLock
	if o.wait {
		lock = queries.WatermarkLockWait
	}
	wm, err := lock(ctx, tx, space)
	if err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "55P03" {
			return 0, 0, ErrBusy
		}
		return 0, 0, fmt.Errorf("lock watermark: %w", err)
	}
	rows, err := queryEventsAfter(ctx, tx, eventsAfterArgs{SpaceID: space, AfterSeq: wm, Limit: p.cfg.BatchSize})
	if err != nil {
		return 0, 0, fmt.Errorf("read events: %w", err)
	}
	events, err := pgx.CollectRows(rows, eventloom.ScanEvent)
	if err != nil {
		return 0, 0, fmt.Errorf("read events: %w", err)
	}
	if o.upTo > 0 {
		for len(events) > 0 && events[len(events)-1].Seq > o.upTo {
			events = events[:len(events)-1]
		}
	}
	if len(events) == 0 {
		return 0, wm, nil
	}
	if events[0].Seq != wm+1 {
		return 0, 0, fmt.Errorf("project space %q: expected seq %d after the watermark, found %d", space, wm+1, events[0].Seq)
	}
	if o.purge && erasesProjected(events, wm) {
		last := events[len(events)-1].Seq
		if err := p.purgeTx(ctx, tx, space, last); err != nil {
			return 0, 0, err
		}
		return len(events), last, nil
	}
	fxs := make([]effects, len(events))
	for i := range events {
		fx, err := extractEvent(&events[i])
		if err != nil {
			// A known type whose data fails to decode was appended before its shape was
			// validated; it keeps its text and contributes nothing else.
			p.logger.WarnContext(ctx, "event data does not decode; projecting its text only",
				"space_id", space, "seq", events[i].Seq, "type", events[i].Type, "error", err)
			fx = effects{Text: events[i].Content}
		}
		fxs[i] = fx
	}
	st := newBatchState(space)
	if err := st.load(ctx, tx, fxs); err != nil {
		return 0, 0, err
	}
	if err := st.loadClaims(ctx, tx, fxs); err != nil {
		return 0, 0, err
	}
	if err := st.loadFeedback(ctx, tx, events, fxs); err != nil {
		return 0, 0, err
	}
	if err := st.loadGate(ctx, tx, p.cfg.Gate == GateOn, p.para, events, fxs); err != nil {
		return 0, 0, err
	}
	for i := range events {
		st.apply(i, &events[i], &fxs[i])
	}
	lastEvent := events[len(events)-1]
	if err := st.write(ctx, tx, p.cfg.TextSearchConfig, p.age, wm, lastEvent.Seq, lastEvent.Hash); err != nil {
		return 0, 0, err
	}
	return len(events), lastEvent.Seq, nil
}

// mapFK turns "no such space" foreign key errors into eventloom.ErrNotFound.
func mapFK(err error, space string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" {
		return fmt.Errorf("%w: space %q has no events", eventloom.ErrNotFound, space)
	}
	return err
}
