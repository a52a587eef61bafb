package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/tokenize"
)

// DatasetReport is the summary file RunDataset writes beside its ranked lines.
type DatasetReport struct {
	Dataset   string `json:"dataset"`
	File      string `json:"file"`
	Retriever string `json:"retriever"`
	Embedder  string `json:"embedder"`
	// Lanes are the lanes the fused ranking and packet ran with (the vector lane only with an
	// embedder); DisabledLanes those --disable-lanes switched off.
	Lanes         []string `json:"lanes"`
	DisabledLanes []string `json:"disabled_lanes"`
	// WhoWhen: the packets opened each event's line with its day and speaker (--who-when).
	WhoWhen bool `json:"who_when,omitempty"`
	// Tokens is every fused packet's text counted by each tokenizer (TokenCheck).
	Tokens *TokenCheck `json:"tokens"`
	*Summary
}

// LoadFile reads a benchmark file of dataset (DatasetLongMemEval or DatasetLoCoMo) into cases.
func LoadFile(dataset, path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if dataset == DatasetLoCoMo {
		return LoadLoCoMo(bufio.NewReader(f))
	}
	return LoadLongMemEval(bufio.NewReader(f))
}

// DatasetParams is what RunDataset runs: the cases of one benchmark file, asked through
// checkout's retrieval (NewCheckoutRetriever) on Pool's database.
type DatasetParams struct {
	// Dataset and File name the benchmark and the file the cases came from, for the report.
	Dataset, File string
	// Cases are the file's cases (LoadFile).
	Cases []Case
	// Out is the ranked JSON lines file to write; the keyword-only lines (.keyword.jsonl) and
	// the summary (.summary.json) go beside it.
	Out string
	// Pool is the database the spaces are appended to; the events stay (the log is append-only).
	Pool *pgxpool.Pool
	// Projector and Embedder make appended spaces searchable; Embedder is nil when embedding is off.
	Projector *projection.Projector
	Embedder  *projection.Embedder
	// Provider is the embedding provider checkout embeds questions with (nil: off), and
	// EmbedderName the configured embedder's name, reported when Provider is nil.
	Provider     embedding.Embedder
	EmbedderName string
	// TextSearchConfig is the Postgres text search configuration of memory text.
	TextSearchConfig string
	// DisabledLanes are the checkout lanes switched off (an ablation): the fused ranking and
	// the packet run without them; the keyword-only rankings are unchanged.
	DisabledLanes []string
	// PPRWeight is the personalized PageRank lane's weight (checkout.Config.PPRWeight); 0 leaves
	// the lane off, as checkout does by default.
	PPRWeight float64
	// WhoWhen asks every packet for who_when (checkout.Request.WhoWhen): each event's line
	// opens with its day and speaker, at the cost of the tokens they take.
	WhoWhen bool
	// Tokenizer is what the packets' budget counts in (checkout.Request.Tokenizer); empty means
	// checkout's default, chars4.
	Tokenizer string
	// Options configure Run; Out and KeywordOut are set by RunDataset.
	Options Options
}

// RunDataset asks every question of p.Cases, writes the ranked lines, the keyword-only lines
// and the summary file, and prints the summary table and where the files went to
// p.Options.Summary.
func RunDataset(ctx context.Context, p *DatasetParams) error {
	out, opts, provider := p.Out, p.Options, p.Provider
	disabled := p.DisabledLanes
	if disabled == nil {
		disabled = []string{} // the summary's disabled_lanes is [] rather than null
	}
	retriever, name, lanes := NewCheckoutRetriever(p.Pool, p.Projector, p.Embedder, provider, p.TextSearchConfig, disabled, p.PPRWeight)
	if p.WhoWhen {
		retriever.(*checkoutRetriever).whoWhen = true
		name += "; lines open with their day and speaker (who_when)"
	}
	cr := retriever.(*checkoutRetriever)
	cr.tokenizer = p.Tokenizer
	if cr.tokenizer == "" {
		cr.tokenizer = tokenize.Chars4
	}
	cr.tokens = newPacketTokenTally(cr.tokenizer, opts.withDefaults().PacketTokens)

	base := strings.TrimSuffix(out, ".jsonl")
	keywordPath, summaryPath := base+".keyword.jsonl", base+".summary.json"
	ranked, err := newBufferedFile(out)
	if err != nil {
		return err
	}
	defer ranked.close()
	keyword, err := newBufferedFile(keywordPath)
	if err != nil {
		return err
	}
	defer keyword.close()
	opts.Out, opts.KeywordOut = ranked.w, keyword.w
	sum, err := Run(ctx, eventloom.NewStore(p.Pool, nil, opts.Logger), retriever, p.Cases, opts)
	if err != nil {
		return err
	}
	if err := ranked.close(); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	if err := keyword.close(); err != nil {
		return fmt.Errorf("write %s: %w", keywordPath, err)
	}
	rep := DatasetReport{Dataset: p.Dataset, File: p.File, Retriever: name, Embedder: p.EmbedderName, Lanes: lanes, DisabledLanes: disabled, WhoWhen: p.WhoWhen, Tokens: cr.tokens.check(), Summary: sum}
	if provider != nil {
		rep.Embedder = provider.Model()
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(summaryPath, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	if opts.Summary == nil {
		return nil
	}
	fmt.Fprintf(opts.Summary, "\nrun: %s (--reuse-run %s asks its spaces again)\nretriever: %s\nlanes: %s; disabled: %s\nembedder: %s\nwrote %s, %s, %s\n", sum.Run, sum.Run, name,
		strings.Join(lanes, ", "), orNone(disabled), rep.Embedder, out, keywordPath, summaryPath)
	rep.Tokens.WriteText(opts.Summary)
	return nil
}

// orNone joins names with commas, or says none.
func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// bufferedFile is a created file behind a buffer; close flushes and closes it once.
type bufferedFile struct {
	f      *os.File
	w      *bufio.Writer
	closed bool
}

func newBufferedFile(path string) (*bufferedFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &bufferedFile{f: f, w: bufio.NewWriter(f)}, nil
}

func (b *bufferedFile) close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if err := b.w.Flush(); err != nil {
		b.f.Close()
		return err
	}
	return b.f.Close()
}
