package memoryaction

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/redact"
	"github.com/zaxy/zaxy/vocab"
)

// Recording says where a reading memory action records what it surfaced: a
// memory_action.surfaced event in the caller's session, as a checkout appends
// checkout.surfaced. The retrospective pass binds the record to the session's outcome and
// credits or blames the action (docs/latent.md, "Retrospective credit").
type Recording struct {
	// SessionID is the caller's session, optional: the record goes there. Without one the
	// record is still appended, but no outcome can bind it.
	SessionID string
	// Actor is the record's actor; defaults to "agent". The API sets it to the bearer token
	// ("token/<id>") when tokens are on, whatever the body says: a record names who asked.
	Actor string
	// NoRecord skips the record (a dry run), as checkout's no_record does.
	NoRecord bool
}

// validate checks the session id and actor the record would carry, as the log will.
func (r Recording) validate() error {
	if err := eventloom.CheckText("session_id", r.SessionID, maxSessionIDLen); err != nil {
		return err
	}
	return eventloom.CheckText("actor", r.Actor, maxSessionIDLen)
}

// maxSessionIDLen bounds the session id and actor of a record (the log's own bound for a
// session id; an actor may be longer in the log, not here).
const maxSessionIDLen = 256

// surfacedArtifact is art as a record lists it: with the tools it is about (a procedure's
// steps, a failure pattern's or causal link's tool), read from its payload, so the
// retrospective pass judges it from the log alone.
func surfacedArtifact(art Artifact) vocab.SurfacedArtifact {
	s := vocab.SurfacedArtifact{ArtifactID: art.ID, Type: art.Type, Slot: art.Slot, Confidence: art.Confidence, Seqs: []int64{}}
	for _, r := range art.SourceEventRefs {
		s.Seqs = append(s.Seqs, r.Seq)
	}
	s.Tools = latent.ToolsOf(art.Type, art.Payload)
	return s
}

// record appends the memory_action.surfaced event of one answer of action: the request it
// answered (its sha256), the tools it was asked about, the artifacts it returned and every
// event it cited. It returns the event's receipt, or nil when rec says not to record or the
// space has no events: a read never creates a space, and an answer from an empty space has
// nothing a retrospective pass could credit.
func (a *Actions) record(ctx context.Context, action, space string, rec Recording, request any, tools []string,
	arts []vocab.SurfacedArtifact, cited []SourceRef,
) (*eventloom.Receipt, error) {
	if rec.NoRecord {
		return nil, nil
	}
	if exists, err := a.store.SpaceExists(ctx, space); err != nil || !exists {
		return nil, err
	}
	req, err := json.Marshal(request)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(req)
	d := vocab.MemoryActionSurfaced{Action: action, RequestSHA256: hex.EncodeToString(sum[:]), Tools: tools,
		Artifacts: arts, CitedSeqs: make([]int64, 0, len(cited))}
	if d.Artifacts == nil {
		d.Artifacts = []vocab.SurfacedArtifact{}
	}
	for _, c := range cited {
		d.CitedSeqs = append(d.CitedSeqs, c.Seq)
	}
	capRecord(&d)
	data, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	// A read must not write a secret into the log: the session id is redacted whatever the
	// space's redaction mode (as a checkout.surfaced record; the log redacts the actor).
	session, _ := redact.String(rec.SessionID)
	actor := strings.TrimSpace(rec.Actor)
	if actor == "" {
		actor = defaultActor
	}
	res, err := a.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{{
		Type: vocab.TypeMemoryActionSurfaced, SessionID: session, Actor: actor, Data: data}}})
	if errors.Is(err, eventloom.ErrSpaceMoving) {
		// The space is frozen by a move (docs/scaling.md): the answer stands, unrecorded
		// (Record is nil, as with no_record), rather than a read failing for a few seconds.
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("record what %s surfaced: %w", action, err)
	}
	return &res.Receipts[0], nil
}

// surfacedArtifacts lists arts as a record does.
func surfacedArtifacts(arts []Artifact) []vocab.SurfacedArtifact {
	out := make([]vocab.SurfacedArtifact, 0, len(arts))
	for _, art := range arts {
		out = append(out, surfacedArtifact(art))
	}
	return out
}

// Bounds of a record, those the log validates (vocab: at most 200 artifacts, 5,000 seqs a list).
const (
	maxRecordArtifacts = 200
	maxRecordSeqs      = 5000
)

// capRecord keeps d within the bounds the log accepts, so that an answer larger than a record
// may hold (a plan whose tools have hundreds of remembered failures, a procedure citing
// thousands of calls) is still answered: the best-first artifacts and the first seqs are
// kept, and Truncated says the record is not the whole answer.
func capRecord(d *vocab.MemoryActionSurfaced) {
	if len(d.Artifacts) > maxRecordArtifacts {
		d.Artifacts, d.Truncated = d.Artifacts[:maxRecordArtifacts], true
	}
	for i := range d.Artifacts {
		if len(d.Artifacts[i].Seqs) > maxRecordSeqs {
			d.Artifacts[i].Seqs, d.Truncated = d.Artifacts[i].Seqs[:maxRecordSeqs], true
		}
	}
	if len(d.CitedSeqs) > maxRecordSeqs {
		d.CitedSeqs, d.Truncated = d.CitedSeqs[:maxRecordSeqs], true
	}
}
