package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/vocab"
)

// Retriever is what the benchmark asks of Zaxy.
type Retriever interface {
	// Prepare makes everything appended to space searchable (waits for projection and embeddings).
	Prepare(ctx context.Context, space string) error
	// Rank returns the top k event seqs of space for the question, best first; keywordOnly switches every lane but keyword off.
	Rank(ctx context.Context, space, question string, asOf time.Time, k int, keywordOnly bool) ([]int64, error)
	// Packet runs a checkout with a token budget and returns the cited seqs and the packet's
	// token count; keywordOnly switches every lane but keyword off.
	Packet(ctx context.Context, space, question string, asOf time.Time, maxTokens int, keywordOnly bool) (seqs []int64, tokens int, err error)
}

// Feeler is a Retriever that also answers the feeling of knowing (package metamemory): Run asks
// it for every question (untimed) and scores its probability against whether the packet held
// evidence (Group.FoK).
type Feeler interface {
	Feel(ctx context.Context, space, question string) (*metamemory.Feeling, error)
}

// Options configures Run.
type Options struct {
	// Out receives one JSON line per question (ranked.jsonl); nil discards them.
	Out io.Writer
	// KeywordOut, when set, receives the keyword-only ranking of every question as JSON
	// lines of the same shape without the packet fields, so the keyword-only scores can be
	// recomputed too.
	KeywordOut io.Writer
	// Summary receives the summary as a readable table; nil prints nothing.
	Summary io.Writer
	// K is how many ranked events are kept per question. Default 50.
	K int
	// PacketTokens is the packet's token budget. Default 2000.
	PacketTokens int
	// Parallel is how many cases are worked at once. Default 1 (latencies are only
	// comparable at 1).
	Parallel int
	// Limit caps the number of questions asked (cases are taken in order, the last one's
	// questions cut short); 0 means all.
	Limit int
	// Logger reports progress per case; nil logs nothing.
	Logger *slog.Logger
	// Reuse, when set, names an earlier run (Summary.Run) whose spaces are asked again: a
	// case whose space already holds its turns is not appended again (its turns are read
	// back from the log), so re-ranking after a code change costs only the questions. A case
	// without that space is appended into it as usual.
	Reuse string
	// LoadOnly appends and prepares every case and asks none of its questions (zaxy bench
	// storage measures what the load leaves on disk).
	LoadOnly bool
}

func (o Options) withDefaults() Options {
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.K <= 0 {
		o.K = 50
	}
	if o.PacketTokens <= 0 {
		o.PacketTokens = 2000
	}
	if o.Parallel <= 0 {
		o.Parallel = 1
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// appendBatch is how many turns go into one append.
const appendBatch = 1000

// rankedTurn is one retrieved event with its benchmark ids.
type rankedTurn struct {
	Seq       int64  `json:"seq"`
	SessionID string `json:"session_id"`
	TurnID    string `json:"turn_id"`
}

// record is one line of ranked.jsonl.
type record struct {
	QuestionID    string       `json:"question_id"`
	QuestionType  string       `json:"question_type"`
	Ranked        []rankedTurn `json:"ranked"`
	PacketTurnIDs []string     `json:"packet_turn_ids"`
	PacketTokens  int          `json:"packet_tokens"`
	LatencyMs     float64      `json:"latency_ms"`
	// FoK is the feeling of knowing's answer, when the retriever gives one.
	FoK *fokRecord `json:"fok,omitempty"`
}

// fokRecord is the feeling of knowing's answer to a question, with the signals its probability
// is computed from, so the mapping can be refitted from ranked.jsonl.
type fokRecord struct {
	Judgement           string  `json:"judgement"`
	Probability         float64 `json:"probability"`
	QueryTerms          int     `json:"query_terms"`
	KnownIDFShare       float64 `json:"known_idf_share"`
	MaxKnownSpecificity float64 `json:"max_known_specificity"`
	EntityHits          int     `json:"entity_hits"`
	// SpeakerSupport is absent when the question names no speaker of the space.
	SpeakerSupport *float64 `json:"speaker_support,omitempty"`
	// Positive is the calibration target: the packet cites evidence and the question is
	// answerable. Absent when the question has no turn evidence to judge the packet by.
	Positive *bool `json:"positive,omitempty"`
}

// keywordRecord is one line of the keyword-only output.
type keywordRecord struct {
	QuestionID   string       `json:"question_id"`
	QuestionType string       `json:"question_type"`
	Ranked       []rankedTurn `json:"ranked"`
	LatencyMs    float64      `json:"latency_ms"`
}

// messageData is the data of an appended turn; the benchmark ids ride along so anyone can
// map events back to the benchmark.
type messageData struct {
	Role         string `json:"role"`
	Name         string `json:"name,omitempty"`
	LMESessionID string `json:"lme_session_id,omitempty"`
	DiaID        string `json:"dia_id,omitempty"`
	TurnID       string `json:"turn_id"`
}

// caseResult is what one case produced.
type caseResult struct {
	lines, kwLines [][]byte
	questions      []questionResult
	turns, skipped int
	appendDur      time.Duration
	prepareDur     time.Duration
	questionDur    time.Duration
}

// Run ingests each case into a fresh space of store, asks its questions through r and scores
// the answers. For every question it writes a line to opts.Out:
//
//	{"question_id","question_type","ranked":[{"seq","session_id","turn_id"}...top K],
//	 "packet_turn_ids":[...],"packet_tokens","latency_ms"}
//
// in the order of the cases and their questions, whatever opts.Parallel is; latency_ms times
// the fused Rank plus the Packet. It prints the summary table to opts.Summary and returns the
// summary. Spaces are named "<lme|locomo>-<run>-<hash of the case id>", where run is derived
// from the start time, so a repeated run never appends to an earlier run's spaces.
func Run(ctx context.Context, store *eventloom.Store, r Retriever, cases []Case, opts Options) (*Summary, error) {
	opts = opts.withDefaults()
	cases = limitQuestions(cases, opts.Limit)
	start := time.Now()
	run := strconv.FormatInt(start.UnixMilli(), 36)
	if opts.Reuse != "" {
		run = opts.Reuse
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	results := make([]*caseResult, len(cases))
	var (
		mu       sync.Mutex
		next     int // the first case whose lines are not written yet
		writeErr error
	)
	// flush writes the lines of every finished case that all earlier cases precede.
	flush := func() {
		for next < len(results) && results[next] != nil && writeErr == nil {
			for _, l := range results[next].lines {
				if _, err := opts.Out.Write(l); err != nil {
					writeErr = fmt.Errorf("write ranked lines: %w", err)
				}
			}
			if opts.KeywordOut != nil {
				for _, l := range results[next].kwLines {
					if _, err := opts.KeywordOut.Write(l); err != nil {
						writeErr = fmt.Errorf("write keyword lines: %w", err)
					}
				}
			}
			next++
		}
		if writeErr != nil {
			cancel(writeErr)
		}
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for range opts.Parallel {
		wg.Go(func() {
			for i := range work {
				res, err := runCase(ctx, store, r, &cases[i], run, opts)
				if err != nil {
					cancel(err)
					continue
				}
				opts.Logger.InfoContext(ctx, "bench case done", "case", cases[i].ID, "index", i+1, "of", len(cases),
					"turns", res.turns, "questions", len(res.questions), "append_ms", res.appendDur.Milliseconds(),
					"prepare_ms", res.prepareDur.Milliseconds(), "questions_ms", res.questionDur.Milliseconds())
				mu.Lock()
				results[i] = res
				flush()
				mu.Unlock()
			}
		})
	}
feed:
	for i := range cases {
		select {
		case work <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}

	s := &Summary{Run: run, Cases: len(cases), K: opts.K, PacketTokens: opts.PacketTokens, Parallel: opts.Parallel}
	var qs []questionResult
	for _, res := range results {
		qs = append(qs, res.questions...)
		s.Turns += res.turns
		s.SkippedTurns += res.skipped
		s.AppendSeconds += res.appendDur.Seconds()
		s.PrepareSeconds += res.prepareDur.Seconds()
		s.QuestionSeconds += res.questionDur.Seconds()
	}
	s.Questions = len(qs)
	if s.AppendSeconds > 0 {
		s.AppendEventsPerSec = float64(s.Turns) / s.AppendSeconds
	}
	s.WallSeconds = time.Since(start).Seconds()
	s.Overall, s.ByType = summarize(qs)
	s.Pooled = pooled(qs)
	if opts.Summary != nil {
		if err := s.WriteTable(opts.Summary); err != nil {
			return s, fmt.Errorf("write summary: %w", err)
		}
	}
	return s, nil
}

// limitQuestions keeps the cases holding the first limit questions (all when limit is 0).
func limitQuestions(cases []Case, limit int) []Case {
	if limit <= 0 {
		return cases
	}
	var out []Case
	for _, c := range cases {
		if limit <= 0 {
			break
		}
		if len(c.Questions) > limit {
			c.Questions = c.Questions[:limit]
		}
		limit -= len(c.Questions)
		out = append(out, c)
	}
	return out
}

// spaceID is the space a case is ingested into in the run named run.
func spaceID(c *Case, run string) string {
	prefix := "bench"
	switch c.Dataset {
	case DatasetLongMemEval:
		prefix = "lme"
	case DatasetLoCoMo:
		prefix = "locomo"
	}
	sum := sha256.Sum256([]byte(c.ID))
	return prefix + "-" + run + "-" + hex.EncodeToString(sum[:8])
}

// turnRef is the benchmark ids of an appended event.
type turnRef struct{ session, turn string }

func runCase(ctx context.Context, store *eventloom.Store, r Retriever, c *Case, run string, opts Options) (*caseResult, error) {
	space := spaceID(c, run)
	res := &caseResult{}
	var refs map[int64]turnRef
	var err error
	if opts.Reuse != "" {
		refs, err = readTurns(ctx, store, space, c, res)
	}
	if err == nil && refs == nil {
		refs, err = appendTurns(ctx, store, space, c, res)
	}
	if err != nil {
		return nil, fmt.Errorf("case %s: %w", c.ID, err)
	}
	t0 := time.Now()
	if err := r.Prepare(ctx, space); err != nil {
		return nil, fmt.Errorf("case %s: prepare space %s: %w", c.ID, space, err)
	}
	res.prepareDur = time.Since(t0)
	if opts.LoadOnly {
		return res, nil
	}
	t0 = time.Now()
	for i := range c.Questions {
		if err := ask(ctx, r, space, &c.Questions[i], refs, opts, res); err != nil {
			return nil, fmt.Errorf("case %s: question %s: %w", c.ID, c.Questions[i].ID, err)
		}
	}
	res.questionDur = time.Since(t0)
	return res, nil
}

// appendTurns appends the case's turns as message events and maps their seqs to turns.
func appendTurns(ctx context.Context, store *eventloom.Store, space string, c *Case, res *caseResult) (map[int64]turnRef, error) {
	refs := make(map[int64]turnRef, len(c.Turns))
	var batch []eventloom.NewEvent
	var batchRefs []turnRef
	t0 := time.Now()
	send := func() error {
		if len(batch) == 0 {
			return nil
		}
		out, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: batch})
		if err != nil {
			return fmt.Errorf("append turns to %s: %w", space, err)
		}
		for i, rc := range out.Receipts {
			refs[rc.Seq] = batchRefs[i]
		}
		batch, batchRefs = batch[:0], batchRefs[:0]
		return nil
	}
	for i := range c.Turns {
		t := &c.Turns[i]
		if strings.TrimSpace(t.Text) == "" {
			res.skipped++
			continue
		}
		d := messageData{Role: t.Role, Name: t.Speaker, TurnID: t.TurnID}
		if c.Dataset == DatasetLoCoMo {
			d.DiaID = t.TurnID
		} else {
			d.LMESessionID = t.SessionID
		}
		data, err := json.Marshal(d)
		if err != nil {
			return nil, fmt.Errorf("encode turn %s: %w", t.TurnID, err)
		}
		ev := eventloom.NewEvent{Type: "message", SessionID: t.SessionID, Actor: firstNonEmpty(t.Speaker, t.Role), Content: t.Text, Data: data}
		if !t.Date.IsZero() {
			ev.OccurredAt = &t.Date
		}
		batch, batchRefs = append(batch, ev), append(batchRefs, turnRef{t.SessionID, t.TurnID})
		res.turns++
		if len(batch) == appendBatch {
			if err := send(); err != nil {
				return nil, err
			}
		}
	}
	if err := send(); err != nil {
		return nil, err
	}
	res.appendDur = time.Since(t0)
	return refs, nil
}

// readTurns maps the seqs of a space an earlier run filled back to the case's turns. It
// returns nil refs when the space has no events, and an error when it holds other turns
// than the case's (a different file, or a run cut short).
func readTurns(ctx context.Context, store *eventloom.Store, space string, c *Case, res *caseResult) (map[int64]turnRef, error) {
	t0 := time.Now()
	want, n := map[string]bool{}, 0 // turn ids (not always distinct), how many turns were appended
	for i := range c.Turns {
		if strings.TrimSpace(c.Turns[i].Text) == "" {
			res.skipped++
			continue
		}
		want[c.Turns[i].TurnID] = true
		n++
	}
	refs := map[int64]turnRef{}
	err := store.ReplayAll(ctx, eventloom.ReplayParams{SpaceID: space}, func(ev *eventloom.Event) error {
		if memoryitem.IsBookkeeping(ev.Type) || ev.Type == vocab.TypeFeedbackRecorded {
			return nil // recorded checkouts and their feedback (zaxy bench latent-policy trains on them)
		}
		var d messageData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return fmt.Errorf("event %d of %s: %w", ev.Seq, space, err)
		}
		if _, ok := want[d.TurnID]; !ok {
			return fmt.Errorf("space %s holds turn %q, which case %s does not have", space, d.TurnID, c.ID)
		}
		refs[ev.Seq] = turnRef{session: ev.SessionID, turn: d.TurnID}
		return nil
	})
	if errors.Is(err, eventloom.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read back %s: %w", space, err)
	}
	if len(refs) != n {
		return nil, fmt.Errorf("space %s holds %d turns, case %s has %d: not a finished run of this file", space, len(refs), c.ID, n)
	}
	res.turns = len(refs)
	res.appendDur = time.Since(t0)
	return refs, nil
}

// firstNonEmpty returns a unless it is empty, else b.
func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ask runs one question: the fused ranking and the packet (timed together), then the
// keyword-only ranking and packet (timed together), and scores them.
func ask(ctx context.Context, r Retriever, space string, q *Question, refs map[int64]turnRef, opts Options, res *caseResult) error {
	asOf := q.Date
	if asOf.IsZero() {
		asOf = time.Now()
	}
	t0 := time.Now()
	fused, err := r.Rank(ctx, space, q.Text, asOf, opts.K, false)
	if err != nil {
		return fmt.Errorf("rank: %w", err)
	}
	packet, tokens, err := r.Packet(ctx, space, q.Text, asOf, opts.PacketTokens, false)
	if err != nil {
		return fmt.Errorf("packet: %w", err)
	}
	latency := time.Since(t0)
	t0 = time.Now()
	keyword, err := r.Rank(ctx, space, q.Text, asOf, opts.K, true)
	if err != nil {
		return fmt.Errorf("rank keyword only: %w", err)
	}
	kwPacket, _, err := r.Packet(ctx, space, q.Text, asOf, opts.PacketTokens, true)
	if err != nil {
		return fmt.Errorf("packet keyword only: %w", err)
	}
	kwLatency := time.Since(t0)

	fusedTurns, kwTurns := rankedTurns(fused, refs, opts.K), rankedTurns(keyword, refs, opts.K)
	packetIDs := make([]string, 0, len(packet))
	for _, seq := range packet {
		packetIDs = append(packetIDs, refs[seq].turn)
	}
	packetIDs = dedupe(packetIDs)
	packetHit := false
	for _, id := range packetIDs {
		packetHit = packetHit || slices.Contains(q.EvidenceTurns, id)
	}
	var fok *fokRecord
	if f, isFeeler := r.(Feeler); isFeeler {
		feeling, err := f.Feel(ctx, space, q.Text)
		if err != nil {
			return fmt.Errorf("feeling of knowing: %w", err)
		}
		s := &feeling.Signals
		fok = &fokRecord{Judgement: feeling.Judgement, Probability: feeling.Probability, QueryTerms: s.QueryTerms,
			KnownIDFShare: s.KnownIDFShare, MaxKnownSpecificity: s.MaxKnownSpecificity, EntityHits: len(s.EntityHits),
			SpeakerSupport: s.SpeakerSupport}
		if q.Unanswerable || len(q.EvidenceTurns) > 0 {
			pos := packetHit && !q.Unanswerable
			fok.Positive = &pos
		}
	}
	line, err := json.Marshal(record{QuestionID: q.ID, QuestionType: q.Type, Ranked: fusedTurns, PacketTurnIDs: packetIDs,
		PacketTokens: tokens, LatencyMs: millis(latency), FoK: fok})
	if err != nil {
		return err
	}
	kwLine, err := json.Marshal(keywordRecord{QuestionID: q.ID, QuestionType: q.Type, Ranked: kwTurns, LatencyMs: millis(kwLatency)})
	if err != nil {
		return err
	}
	res.lines, res.kwLines = append(res.lines, append(line, '\n')), append(res.kwLines, append(kwLine, '\n'))

	qr := questionResult{typ: q.Type, abstain: q.Abstain, hasSession: len(q.EvidenceSessions) > 0, hasTurn: len(q.EvidenceTurns) > 0,
		tokens: tokens, latency: latency, kwLatency: kwLatency}
	qr.fusedSess, qr.fusedTurn = scoreRanked(fusedTurns, q)
	qr.kwSess, qr.kwTurn = scoreRanked(kwTurns, q)
	qr.packetHit = packetHit
	if fok != nil && fok.Positive != nil {
		qr.fok = &fokOutcome{p: fok.Probability, judgement: fok.Judgement, positive: *fok.Positive}
	}
	for _, seq := range kwPacket {
		qr.kwPacketHit = qr.kwPacketHit || slices.Contains(q.EvidenceTurns, refs[seq].turn)
	}
	res.questions = append(res.questions, qr)
	return nil
}

// rankedTurns maps up to k seqs to their benchmark ids (empty for events Run did not append).
func rankedTurns(seqs []int64, refs map[int64]turnRef, k int) []rankedTurn {
	out := make([]rankedTurn, 0, min(len(seqs), k))
	for _, s := range seqs[:min(len(seqs), k)] {
		ref := refs[s]
		out = append(out, rankedTurn{Seq: s, SessionID: ref.session, TurnID: ref.turn})
	}
	return out
}

func scoreRanked(ranked []rankedTurn, q *Question) (session, turn levelScore) {
	sessions, turns := make([]string, len(ranked)), make([]string, len(ranked))
	for i, r := range ranked {
		sessions[i], turns[i] = r.SessionID, r.TurnID
	}
	return scoreLevel(sessions, q.EvidenceSessions), scoreLevel(turns, q.EvidenceTurns)
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
