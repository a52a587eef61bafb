package latent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent/internal/dbsqlc"
)

// Summarizer writes a short summary of texts (an episode's events, in order). It is the
// optional LLM-assisted method (extract.OpenAIChat implements it); the deterministic producers
// never need one.
type Summarizer interface {
	Summarize(ctx context.Context, texts []string) (string, error)
}

// Summary bounds.
const (
	// MaxSummaryChars is the longest summary stored; a longer answer is cut at a word.
	MaxSummaryChars = 2000
	// summaryInputChars caps the text sent for one episode (its first events that fit).
	summaryInputChars = 24000
	// summariesPerRun is how many episodes one SummarizeSpace call summarizes at most.
	summariesPerRun = 20
)

// ErrEmptySummary means the model answered with nothing to store.
var ErrEmptySummary = errors.New("the model returned an empty summary")

// SummaryWriter keeps LLM-assisted summaries of a space's current episodes in
// latent_llm_summaries (docs/latent.md, "LLM-assisted summaries"): a cache beside the artifacts,
// labelled with the model, never part of an artifact's content, gone with its artifact.
type SummaryWriter struct {
	db    pgexec.Executor
	llm   Summarizer
	model string
}

// NewSummaryWriter returns a SummaryWriter asking llm and recording its summaries under model
// ("name@version").
func NewSummaryWriter(db pgexec.Executor, llm Summarizer, model string) (*SummaryWriter, error) {
	if llm == nil {
		return nil, errors.New("latent summaries: a summarizer is required")
	}
	if name, _, ok := strings.Cut(model, "@"); !ok || name == "" || strings.ContainsAny(model, " \t\n") || strings.Count(model, "@") != 1 {
		return nil, fmt.Errorf("latent summaries: model must be name@version, got %q", model)
	}
	return &SummaryWriter{db: db, llm: llm, model: model}, nil
}

// Model is the model the summaries are recorded under.
func (w *SummaryWriter) Model() string { return w.model }

// PendingSpaces returns up to limit spaces with a current episode this model has not
// summarized.
func (w *SummaryWriter) PendingSpaces(ctx context.Context, limit int) ([]string, error) {
	spaces, err := queries.SummarySpacesPending(ctx, w.db, dbsqlc.SummarySpacesPendingParams{Model: w.model, MaxSpaces: int32(max(min(limit, 1<<30), 0))})
	if err != nil {
		return nil, fmt.Errorf("read spaces pending a summary: %w", err)
	}
	return spaces, nil
}

// SummaryResult reports one SummarizeSpace call.
type SummaryResult struct {
	SpaceID string `json:"space_id"`
	// Written counts the summaries stored; Gone the episodes replaced while the model was
	// asked; Failed those the model failed on.
	Written int `json:"written"`
	Gone    int `json:"gone"`
	Failed  int `json:"failed"`
	// More reports that episodes were left for the next call.
	More     bool          `json:"more"`
	Duration time.Duration `json:"duration_ns"`
}

// SummarizeSpace summarizes up to summariesPerRun of space's current episodes that have no
// summary by this model yet. The model is asked outside any transaction; a summary is stored
// only if its episode is still current then. An episode the model fails on (an error, or an
// empty answer) is skipped and the others are still asked; the call then returns the first such
// error, with what was stored kept. A database error stops it at once.
func (w *SummaryWriter) SummarizeSpace(ctx context.Context, space string) (*SummaryResult, error) {
	start := time.Now()
	res := &SummaryResult{SpaceID: space}
	pending, err := queries.SummariesPending(ctx, w.db, dbsqlc.SummariesPendingParams{SpaceID: space, Model: w.model, MaxRows: summariesPerRun + 1})
	if err != nil {
		return nil, fmt.Errorf("read episodes to summarize in %q: %w", space, err)
	}
	if len(pending) > summariesPerRun {
		pending, res.More = pending[:summariesPerRun], true
	}
	var modelErr error
	for _, p := range pending {
		rows, err := queries.SummaryTexts(ctx, w.db, dbsqlc.SummaryTextsParams{SpaceID: space, Seqs: p.SourceSeqs})
		if err != nil {
			return res, fmt.Errorf("read the events of %s: %w", p.Slot, err)
		}
		var texts []string
		size := 0
		for _, r := range rows {
			e := event{Seq: r.Seq, Type: r.Type, Content: r.Content, Data: []byte(r.Data)}
			t := strings.TrimSpace(e.text())
			if t == "" {
				continue
			}
			if size += len(t); size > summaryInputChars && len(texts) > 0 {
				break
			}
			texts = append(texts, t)
		}
		if len(texts) == 0 {
			continue
		}
		summary, err := w.llm.Summarize(ctx, texts)
		if err == nil {
			if summary = clipWords(summary, MaxSummaryChars); summary == "" {
				err = ErrEmptySummary
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return res, fmt.Errorf("summarize %s of %q: %w", p.Slot, space, err)
			}
			res.Failed++
			if modelErr == nil {
				modelErr = fmt.Errorf("summarize %s of %q: %w", p.Slot, space, err)
			}
			continue
		}
		n, err := queries.SummaryInsert(ctx, w.db, dbsqlc.SummaryInsertParams{SpaceID: space, ArtifactID: p.ArtifactID, Model: w.model, Summary: summary})
		if err != nil {
			return res, fmt.Errorf("store the summary of %s: %w", p.Slot, err)
		}
		if n == 0 {
			res.Gone++
		} else {
			res.Written++
		}
	}
	res.Duration = time.Since(start)
	return res, modelErr
}

// clipWords trims s and cuts it to at most n characters at a word boundary, ending it with "…"
// when it was longer (an LLM summary, an outcome's summary in a causal link).
func clipWords(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := string([]rune(s)[:n-1])
	if i := strings.LastIndexAny(cut, " \n\t"); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut) + "…"
}

// llmSummaries reads the summaries of ids in space, by artifact id.
func llmSummaries(ctx context.Context, db pgexec.Executor, space string, ids []string) (map[string][]LLMSummary, error) {
	out := map[string][]LLMSummary{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := queries.SummariesOf(ctx, db, dbsqlc.SummariesOfParams{SpaceID: space, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("read LLM-assisted summaries: %w", err)
	}
	for _, r := range rows {
		out[r.ArtifactID] = append(out[r.ArtifactID], LLMSummary{Model: r.Model, Summary: r.Summary, Method: MethodLLMAssisted,
			Authority: "non_authoritative", CreatedAt: r.CreatedAt})
	}
	return out, nil
}
