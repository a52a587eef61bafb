package projection

import (
	"encoding/json"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// weaveCitation is one latent_weave_citations row: a checkout.surfaced event whose weave cited
// an artifact.
type weaveCitation struct {
	ArtifactID string
	Seq        int64
}

// wovenArtifacts returns the artifact ids a checkout.surfaced record's weave cites
// (data.weave.artifact_ids), each once, in order: only strings of an artifact id's form. A
// record without a weave, or whose weave does not decode (the type is not validated on append),
// cites none; the rest of the record still projects. Keys match exactly, as the SQL that reads
// the records the projector has not applied yet (sql/latent/artifacts_page.sql) and migration
// 000039 match them: encoding/json would also take "Weave" into a struct field.
func wovenArtifacts(e *eventloom.Event) []string {
	var d map[string]json.RawMessage
	if json.Unmarshal(e.Data, &d) != nil {
		return nil
	}
	var w map[string]json.RawMessage
	if json.Unmarshal(d["weave"], &w) != nil {
		return nil
	}
	var ids []json.RawMessage
	if json.Unmarshal(w["artifact_ids"], &ids) != nil {
		return nil
	}
	var out []string
	for _, raw := range ids {
		var id string
		if json.Unmarshal(raw, &id) == nil && vocab.IsArtifactID(id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// citeWeave records that the event e's weave cited the artifacts ids.
func (s *batchState) citeWeave(e *eventloom.Event, ids []string) {
	for _, id := range ids {
		s.weaveCitations = append(s.weaveCitations, weaveCitation{ArtifactID: id, Seq: e.Seq})
	}
}

// queueWeaveCitations queues the batch's weave citations (one statement).
func (s *batchState) queueWeaveCitations(b *pgx.Batch) {
	if len(s.weaveCitations) == 0 {
		return
	}
	ids, seqs := make([]string, len(s.weaveCitations)), make([]int64, len(s.weaveCitations))
	for i, c := range s.weaveCitations {
		ids[i], seqs[i] = c.ArtifactID, c.Seq
	}
	dbsqlc.QueueWeaveCitationsInsert(b, dbsqlc.WeaveCitationsInsertParams{SpaceID: s.space, ArtifactIds: ids, Seqs: seqs})
}
