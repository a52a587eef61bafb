package dbsqlc

// Written by hand, not generated (sqlc leaves this file alone): the generated statements that
// the projector pipelines with its hand-written batch writes in one pgx.Batch. Each queues the
// generated statement with the generated method's arguments.

import "github.com/jackc/pgx/v5"

// QueueWatermarkSet queues WatermarkSet.
func QueueWatermarkSet(b *pgx.Batch, arg WatermarkSetParams) {
	b.Queue(watermarkSet, arg.ProjectedSeq, arg.ProjectedHash, arg.SpaceID)
}

// QueueAGESync queues AGESync.
func QueueAGESync(b *pgx.Batch, arg AGESyncParams) {
	b.Queue(aGESync, arg.SpaceID, arg.Entities, arg.Facts)
}

// QueueSpeakersInsert queues SpeakersInsert.
func QueueSpeakersInsert(b *pgx.Batch, arg SpeakersInsertParams) {
	b.Queue(speakersInsert, arg.SpaceID, arg.AfterSeq, arg.LastSeq)
}

// QueueProposalUpsert queues ProposalUpsert.
func QueueProposalUpsert(b *pgx.Batch, arg ProposalUpsertParams) {
	b.Queue(proposalUpsert, arg.SpaceID, arg.Seq, arg.Hash, arg.Kind, arg.Status, arg.ProposedBy, arg.ProposedAt,
		arg.Confidence, arg.Evidence, arg.Fact, arg.Contradicts, arg.InferenceSeq, arg.InferenceModel,
		arg.InferenceOrdinal, arg.Rationale, arg.DecidedSeq, arg.DecidedBy, arg.DecidedAt, arg.Reason, arg.FactID)
}

// QueueSalienceSpaceUpsert queues SalienceSpaceUpsert.
func QueueSalienceSpaceUpsert(b *pgx.Batch, arg SalienceSpaceUpsertParams) {
	b.Queue(salienceSpaceUpsert, arg.SpaceID, arg.HalfLifeDays, arg.Floor, arg.ConfiguredSeq, arg.UseStartedAt)
}

// QueueGateSpaceUpsert queues GateSpaceUpsert.
func QueueGateSpaceUpsert(b *pgx.Batch, arg GateSpaceUpsertParams) {
	b.Queue(gateSpaceUpsert, arg.SpaceID, arg.Enabled, arg.ConfiguredSeq)
}

// QueuePolicyPropose queues PolicyPropose.
func QueuePolicyPropose(b *pgx.Batch, arg PolicyProposeParams) {
	b.Queue(policyPropose, arg.SpaceID, arg.Version, arg.Policy, arg.Diagnostics, arg.ProposedSeq, arg.ProposedHash)
}

// QueuePolicyPromote queues PolicyPromote.
func QueuePolicyPromote(b *pgx.Batch, arg PolicyPromoteParams) {
	b.Queue(policyPromote, arg.SpaceID, arg.Version, arg.ChangedSeq, arg.Replaced, arg.BuiltinVersions)
}

// QueuePolicyRollback queues PolicyRollback.
func QueuePolicyRollback(b *pgx.Batch, arg PolicyRollbackParams) {
	b.Queue(policyRollback, arg.ChangedSeq, arg.SpaceID, arg.Version)
}

// QueueWeaveCitationsInsert queues WeaveCitationsInsert.
func QueueWeaveCitationsInsert(b *pgx.Batch, arg WeaveCitationsInsertParams) {
	b.Queue(weaveCitationsInsert, arg.SpaceID, arg.ArtifactIds, arg.Seqs)
}
