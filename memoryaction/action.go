package memoryaction

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryaction/internal/dbsqlc"
	"github.com/zaxy/zaxy/validation"
)

// queries are this package's generated queries (memoryaction/internal/dbsqlc, from
// sql/memoryaction).
var queries = dbsqlc.New()

// Names of the memory actions (vocab.MemoryActions lists them all, weave_memory included).
const (
	ActionSimulateForward      = "simulate_forward"
	ActionReflectBackward      = "reflect_backward"
	ActionProcedurePrior       = "retrieve_procedure_prior"
	ActionFailurePrior         = "retrieve_failure_prior"
	ActionCausalNeighborhood   = "query_causal_neighborhood"
	ActionProposeMemoryUpdate  = "propose_memory_update"
	ActionReviseConfidence     = "revise_confidence"
	ActionRecordKnownUnknown   = "record_known_unknown"
	ActionScoreMemoryAction    = "score_memory_action"
	defaultActor               = "agent"
	defaultLimit, maxLimit     = 5, 50
	maxTools, maxGoalChars     = 32, 4000
	maxEvidence, maxTextChars  = 256, 4000
	nonAuthoritativeUseLabel   = "non_authoritative: derived from the log to steer planning; only the cited events authorise a claim"
	maxSessionEvents           = 2000
	maxKnownUnknownsConsidered = 200
)

// ErrArtifactNotFound means the space has no current (non-stale) artifact with that id.
var ErrArtifactNotFound = errors.New("artifact not found")

// SourceRef cites one event: its seq and hash (hex), which verify against the chain.
type SourceRef = latent.SourceRef

// Actions runs the memory actions of every space: reads through db, appends through store.
type Actions struct {
	db    pgexec.Executor
	store *eventloom.Store
	// relationsFromTables keeps the causal neighbourhood's relation reads off the AGE mirror.
	relationsFromTables bool
}

// RelationsFromTables returns a copy of a whose causal neighbourhood reads the relations from
// the relational tables even where the space's AGE mirror could answer (by default it reads
// through the mirror when AGE is installed and the mirror is current).
func (a *Actions) RelationsFromTables() *Actions {
	c := *a
	c.relationsFromTables = true
	return &c
}

// New returns Actions reading through db and appending through store (whose outbox, if any,
// enqueues the projection of what it appends).
func New(db pgexec.Executor, store *eventloom.Store) *Actions {
	return &Actions{db: db, store: store}
}

// artifactRow is the shape every artifact query returns.
type artifactRow = dbsqlc.ArtifactsCurrentRow

func toArtifact(r artifactRow) (Artifact, error) {
	a := Artifact{ID: r.ArtifactID, Slot: r.Slot, Type: r.ArtifactType, Summary: r.Summary,
		Confidence: float64(r.Confidence), ProducedConfidence: float64(r.Confidence), ReviewStatus: r.ReviewStatus,
		AuthorityStatus: r.AuthorityStatus, PurposeProfile: r.PurposeProfile, ReasoningPhase: r.ReasoningPhase,
		Payload: json.RawMessage(r.Payload)}
	if err := json.Unmarshal([]byte(r.SourceEventRefs), &a.SourceEventRefs); err != nil {
		return a, fmt.Errorf("artifact %s sources: %w", r.ArtifactID, err)
	}
	return a, nil
}

// artifacts reads the space's current artifacts of types (all of them, or those citing one of
// seqs when seqs is not nil) with their revised confidences applied.
func (a *Actions) artifacts(ctx context.Context, space string, types []string, seqs []int64) ([]Artifact, error) {
	var rows []artifactRow
	var err error
	if seqs == nil {
		rows, err = queries.ArtifactsCurrent(ctx, a.db, dbsqlc.ArtifactsCurrentParams{SpaceID: space, Types: types})
	} else {
		var cr []dbsqlc.ArtifactsCitingRow
		cr, err = queries.ArtifactsCiting(ctx, a.db, dbsqlc.ArtifactsCitingParams{SpaceID: space, Types: types, Seqs: seqs})
		for _, r := range cr {
			rows = append(rows, artifactRow(r))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read artifacts: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ArtifactID
	}
	revs, err := a.revisions(ctx, space, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Artifact, 0, len(rows))
	for _, r := range rows {
		art, err := toArtifact(r)
		if err != nil {
			return nil, err
		}
		if rev, ok := revs[art.ID]; ok {
			if rev.Confidence == 0 {
				continue // withdrawn (docs/latent.md, "Withdrawing an artifact")
			}
			art.Confidence = rev.Confidence
			art.ConfidenceRevision = &SourceRef{Seq: rev.Seq, Hash: hex.EncodeToString(rev.Hash)}
		}
		out = append(out, art)
	}
	return out, nil
}

// revisions are the latest confidence revision of each of the space's artifacts ids that has
// one, by artifact id.
func (a *Actions) revisions(ctx context.Context, space string, ids []string) (map[string]dbsqlc.ConfidenceRevisionsRow, error) {
	rows, err := queries.ConfidenceRevisions(ctx, a.db, dbsqlc.ConfidenceRevisionsParams{SpaceID: space, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("read confidence revisions: %w", err)
	}
	out := make(map[string]dbsqlc.ConfidenceRevisionsRow, len(rows))
	for _, r := range rows {
		out[r.ArtifactID] = r
	}
	return out, nil
}

// citations is the union of the refs, in seq order without repeats.
func citations(groups ...[]SourceRef) []SourceRef {
	seen := map[int64]bool{}
	out := []SourceRef{}
	for _, g := range groups {
		for _, r := range g {
			if !seen[r.Seq] {
				seen[r.Seq] = true
				out = append(out, r)
			}
		}
	}
	slices.SortFunc(out, func(x, y SourceRef) int { return int(x.Seq - y.Seq) })
	return out
}

// artifactCitations are the refs of every artifact (and their confidence revisions).
func artifactCitations(arts []Artifact) []SourceRef {
	var out []SourceRef
	for _, a := range arts {
		out = append(out, a.SourceEventRefs...)
		if a.ConfidenceRevision != nil {
			out = append(out, *a.ConfidenceRevision)
		}
	}
	return out
}

// stop words left out of goal matching: they would match every artifact.
var stop = map[string]bool{"the": true, "and": true, "for": true, "with": true, "then": true, "that": true,
	"this": true, "from": true, "into": true, "was": true, "are": true, "not": true, "run": true}

// tokens are the lower-cased words of s of at least three letters or digits, stop words out.
func tokens(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len([]rune(w)) >= 3 && !stop[w] {
			out[w] = true
		}
	}
	return out
}

// overlap is the share of the goal's tokens found in text (0 when the goal has none).
func overlap(goal map[string]bool, text string) float64 {
	if len(goal) == 0 {
		return 0
	}
	have := tokens(text)
	n := 0
	for w := range goal {
		if have[w] {
			n++
		}
	}
	return float64(n) / float64(len(goal))
}

// normTools lower-cases and trims tool names as the producers do, naming a bad one.
func normTools(field string, tools []string, required bool) ([]string, error) {
	if len(tools) == 0 && required {
		return nil, &validation.Error{Field: field, Message: "must list at least one tool (step)"}
	}
	if len(tools) > maxTools {
		return nil, &validation.Error{Field: field, Message: fmt.Sprintf("may list at most %d tools, got %d", maxTools, len(tools))}
	}
	out := make([]string, len(tools))
	for i, t := range tools {
		t = strings.ToLower(strings.TrimSpace(t))
		if t == "" || len(t) > 512 {
			return nil, &validation.Error{Field: fmt.Sprintf("%s[%d]", field, i), Message: "must be a tool name of 1-512 characters"}
		}
		out[i] = t
	}
	return out, nil
}

// limit checks a result limit: 0 means the default.
func limit(n int) (int, error) {
	if n == 0 {
		return defaultLimit, nil
	}
	if n < 1 || n > maxLimit {
		return 0, &validation.Error{Field: "limit", Message: fmt.Sprintf("must be an integer between 1 and %d", maxLimit)}
	}
	return n, nil
}

// text checks an optional free-text field of at most maxChars characters.
func text(field, s string, maxChars int) error {
	if len([]rune(s)) > maxChars {
		return &validation.Error{Field: field, Message: fmt.Sprintf("must be at most %d characters", maxChars)}
	}
	return nil
}
