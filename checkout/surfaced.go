package checkout

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/redact"
	"github.com/zaxy/zaxy/vocab"
)

// surfacedItem is one entry of a checkout.surfaced event.
type surfacedItem struct {
	ItemID string  `json:"item_id"`
	Seqs   []int64 `json:"seqs"`
	Tier   string  `json:"tier"`
	// Attenuated marks an item the request recalled from below the salience floor
	// (include_attenuated): a use, which restores it.
	Attenuated bool `json:"attenuated,omitempty"`
	// Lanes are the item's fusion components (rank and weight per lane) and Boost its score
	// over their sum (the multipliers and session context applied after fusion): what an
	// offline policy fit replays
	// the ranking from (package policy), since the event records the query only by its hash.
	Lanes map[string]SurfacedLane `json:"lanes,omitempty"`
	Boost float64                 `json:"boost,omitempty"`
	// Span, Labels, Repeats and LineHash are what re-renders the item's line from the log
	// (recorded.go): the characters of an excerpted event's content it showed, the labels
	// its line showed (an invalidation only as a flag: its reason is read from the log), the
	// later repeats it counted, and the first 16 hex digits of its line's SHA-256.
	Span     []int           `json:"span,omitempty"`
	Labels   *surfacedLabels `json:"labels,omitempty"`
	Repeats  int             `json:"repeats,omitempty"`
	LineHash string          `json:"line_hash,omitempty"`
}

// surfacedLabels are the labels an item's line showed, as a checkout.surfaced event records
// them: no remembered text (an invalidation's reason stays in the log, where erasure reaches it).
type surfacedLabels struct {
	Invalidated  bool   `json:"invalidated,omitempty"`
	Superseded   bool   `json:"superseded,omitempty"`
	RedundantOf  string `json:"redundant_of,omitempty"`
	AttenuatedBy string `json:"attenuated_by,omitempty"`
	Inferred     bool   `json:"inferred,omitempty"`
	Stale        bool   `json:"stale,omitempty"`
	Conflicted   bool   `json:"conflicted,omitempty"`
}

// surfacedRendering is how a checkout.surfaced event records the packet's text without
// holding it: the SHA-256 of the text as handed out, the format version of its rendering,
// whether lines opened with who and when, and the tokenizer its budget counted in.
// TiersSHA256 is the hash of the text before the weave's, set when the packet had a weave
// (which is not re-rendered).
type surfacedRendering struct {
	Format      int    `json:"format"`
	SHA256      string `json:"sha256"`
	TiersSHA256 string `json:"tiers_sha256,omitempty"`
	WhoWhen     bool   `json:"who_when,omitempty"`
	Tokenizer   string `json:"tokenizer,omitempty"`
}

// renderFormat is the version of the packet text's rendering (render.go) a
// checkout.surfaced event records; re-rendering (recorded.go) follows it.
const renderFormat = 1

// SurfacedLane is one lane's part in a surfaced item's score: its rank in the lane and the
// weight it was fused with (the policy's lane weight times the lane's per-item scale).
type SurfacedLane struct {
	Rank   int     `json:"rank"`
	Weight float64 `json:"weight"`
}

// recordSurfaced appends the checkout.surfaced event listing what the packet surfaced, with a
// prospective pass's priors; it is bookkeeping, never retrieved as memory.
func (s *Service) recordSurfaced(ctx context.Context, r *Request, p *Packet, priors []vocab.SurfacedArtifact) (int64, error) {
	ev, err := surfacedEvent(r, p, priors)
	if err != nil {
		return 0, err
	}
	res, err := s.store.Append(ctx, &eventloom.AppendParams{SpaceID: r.SpaceID, Events: []eventloom.NewEvent{ev}, ProjectLater: true})
	if errors.Is(err, eventloom.ErrSpaceMoving) {
		// The space is frozen by a move (docs/scaling.md): the packet stands, unrecorded
		// (surfaced_seq 0, as with no_record), rather than a read failing for a few seconds.
		p.Warnings = append(p.Warnings, Warning{Code: "surfacing_not_recorded",
			Message: "the space is being moved to another cluster: what this answer surfaced was not recorded (no reinforcement; feedback cannot name this checkout)"})
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("record surfaced items: %w", err)
	}
	seq := res.Receipts[0].Seq
	// The record's projection job is enqueued after the answer, not before it: the record is
	// committed, and a job lost here is enqueued by the periodic sweep. It runs beside the
	// caller's next work, so the store must be on a pool, as the lanes already need.
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), surfacedEnqueueTimeout)
		defer cancel()
		if err := s.store.EnqueueProjection(ctx, r.SpaceID, seq); err != nil {
			s.cfg.Logger.WarnContext(ctx, "enqueue the projection of a surfaced record", "space_id", r.SpaceID, "seq", seq, "error", err)
		}
	}()
	return seq, nil
}

// surfacedEnqueueTimeout bounds the enqueue of a surfaced record's projection job.
const surfacedEnqueueTimeout = 10 * time.Second

// recordedSessionID is a caller's session id as a record of a read (checkout.surfaced,
// memory_action.surfaced) carries it: with its secrets redacted (redact.String), whatever the
// space's redaction mode, since a read must not write a secret into the log.
func recordedSessionID(id string) string {
	out, _ := redact.String(id)
	return out
}

// SurfacedEvent is the checkout.surfaced event recording what packet p (the answer to r)
// surfaced, in r's session (recordedSessionID) with r.Actor as its actor (default "zaxy"):
// each item by id with its tier and cited seqs. Its projection reinforces exactly
// those item ids (docs/checkout.md, Salience). A caller that checks out with NoRecord and
// records the surfacing itself (a simulation setting occurred_at) appends this event.
func SurfacedEvent(r *Request, p *Packet) (eventloom.NewEvent, error) {
	return surfacedEvent(r, p, nil)
}

// surfacedEvent is SurfacedEvent with a prospective pass's priors.
func surfacedEvent(r *Request, p *Packet, priors []vocab.SurfacedArtifact) (eventloom.NewEvent, error) {
	sum := sha256.Sum256([]byte(r.Query))
	data := struct {
		Purpose     string         `json:"purpose"`
		QuerySHA256 string         `json:"query_sha256"`
		MaxTokens   int            `json:"max_tokens"`
		UsedTokens  int            `json:"used_tokens"`
		Items       []surfacedItem `json:"items"`
		// PolicyVersion is the retrieval policy the packet was ranked with.
		PolicyVersion string         `json:"policy_version,omitempty"`
		Weave         *SurfacedWeave `json:"weave,omitempty"`
		// Priors are a prospective pass's procedure and failure priors and causal context,
		// as a memory_action.surfaced lists artifacts: what the retrospective pass judges
		// the pass by.
		Priors []vocab.SurfacedArtifact `json:"priors,omitempty"`
		// Rendered is what checks a re-rendering of the packet's text (absent when the
		// packet had no text: a weave or prospective pass alone).
		Rendered *surfacedRendering `json:"rendered,omitempty"`
	}{Purpose: p.Purpose, QuerySHA256: hex.EncodeToString(sum[:]), MaxTokens: r.MaxTokens, UsedTokens: p.Budget.Used, Items: []surfacedItem{},
		PolicyVersion: p.Diagnostics.PolicyVersion, Weave: surfacedWeave(p.Weave), Priors: priors}
	lines := renderedLines(p)
	if p.Text != "" {
		sum := sha256.Sum256([]byte(p.Text))
		data.Rendered = &surfacedRendering{Format: renderFormat, SHA256: hex.EncodeToString(sum[:]), WhoWhen: r.WhoWhen, Tokenizer: p.Budget.Tokenizer}
		if p.Weave != nil && p.Weave.Text != "" {
			tiers := sha256.Sum256([]byte(strings.TrimSuffix(p.Text, p.Weave.Text)))
			data.Rendered.TiersSHA256 = hex.EncodeToString(tiers[:])
		}
	}
	for _, t := range p.Tiers {
		for _, it := range t.Items {
			si := surfacedItem{ItemID: it.ItemID, Tier: t.Name, Attenuated: it.Labels.AttenuatedBy == AttenuatedBySalience}
			if data.Rendered != nil {
				si.recordLine(it, lines)
			}
			for _, c := range it.Citations {
				si.Seqs = append(si.Seqs, c.Seq)
			}
			if len(it.Components) > 0 {
				si.Lanes = make(map[string]SurfacedLane, len(it.Components))
				fused := 0.0
				for lane, c := range it.Components {
					if c.Rank == 0 {
						continue // the session context (session_context.go) is added after fusion, not a lane
					}
					si.Lanes[lane] = SurfacedLane{Rank: c.Rank, Weight: c.Weight}
					fused += c.Score
				}
				if fused > 0 {
					si.Boost = it.Score / fused
				}
			}
			data.Items = append(data.Items, si)
		}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return eventloom.NewEvent{}, err
	}
	return eventloom.NewEvent{Type: SurfacedType, SessionID: recordedSessionID(r.SessionID), Actor: cmp.Or(r.Actor, "zaxy"), Data: raw}, nil
}

// recordLine records in si what re-renders its line (Span, Labels, Repeats) and the hash of
// its line as rendered (lines, by its marker).
func (si *surfacedItem) recordLine(it *Item, lines map[int]string) {
	if it.Kind != "fact" && len(it.Citations) > 0 && it.Citations[0].Start != nil {
		si.Span = []int{*it.Citations[0].Start, *it.Citations[0].End}
	}
	l := surfacedLabels{Invalidated: it.Labels.Invalidated != "", Superseded: it.Labels.Superseded,
		RedundantOf: it.Labels.RedundantOf, AttenuatedBy: it.Labels.AttenuatedBy, Inferred: it.Labels.Inferred,
		Stale: it.Labels.Stale, Conflicted: it.Labels.Conflicted}
	if l != (surfacedLabels{}) {
		si.Labels = &l
	}
	si.Repeats = it.Repeats
	if line, ok := lines[it.Ref]; ok {
		si.LineHash = lineHash(line)
	}
}

// lineHash is the first 16 hex digits of the SHA-256 of a packet's line.
func lineHash(line string) string {
	sum := sha256.Sum256([]byte(line))
	return hex.EncodeToString(sum[:8])
}

// renderedLines are the item lines of p's text by marker: each line of the tiers' part that
// opens with "[n] ".
func renderedLines(p *Packet) map[int]string {
	lines := map[int]string{}
	text := p.Text
	if p.Weave != nil {
		text = strings.TrimSuffix(text, p.Weave.Text)
	}
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "[") {
			continue
		}
		end := strings.Index(line, "] ")
		if end < 0 {
			continue
		}
		if n, err := strconv.Atoi(line[1:end]); err == nil && n > 0 {
			lines[n] = line
		}
	}
	return lines
}

// SurfacedType is the bookkeeping event a checkout appends (vocab.TypeCheckoutSurfaced).
const SurfacedType = vocab.TypeCheckoutSurfaced
