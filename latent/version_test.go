package latent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/latent"
)

// TestBuild_ArtifactsOfAnotherVersionAreDerivedAgain: a space whose artifacts other producers
// built (latent_watermarks.built_version) is pending for the sweep though its projections are
// not ahead, and its next build discards those artifacts and derives the space again from the
// log: the result equals a rebuild, nothing of the old derivation stays, and no proposal is
// made twice.
func TestBuild_ArtifactsOfAnotherVersionAreDerivedAgain(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-version"
	b.AppendSeqs(t, space, b.workSession("s1")...)
	b.AppendSeqs(t, space, b.workSession("s2")...)
	b.AppendSeqs(t, space, b.workSession("s3")...)
	b.projectAndBuild(t, space)
	b.projectAndBuild(t, space) // projects the proposals
	want, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.NotZero(t, want.Artifacts)
	pending, err := b.builder.PendingSpaces(ctx, 100)
	require.NoError(t, err)
	require.NotContains(t, pending, space, "built and current")

	// What an older binary would have left: its version on the watermark and an artifact the
	// current producers do not derive.
	old := b.artifacts(t, space, "artifact_type = 'episode'")[0]
	_, err = b.db.Exec(ctx, `UPDATE latent_watermarks SET built_version = 1 WHERE space_id = $1`, space)
	require.NoError(t, err)
	_, err = b.db.Exec(ctx, `INSERT INTO latent_artifacts (space_id, artifact_id, slot, artifact_type, summary, source_seqs, source_event_refs,
		entity_refs, valid_from, projection_version, method, confidence, review_status, authority_status, purpose_profile, reasoning_phase,
		payload_kind, payload)
		SELECT space_id, repeat('0', 64), 'episode:old', artifact_type, 'derived the old way', source_seqs, source_event_refs, entity_refs,
		       valid_from, 1, method, confidence, review_status, authority_status, purpose_profile, reasoning_phase, payload_kind, payload
		FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2`, space, old.ID)
	require.NoError(t, err)
	behind, err := b.builder.Behind(ctx, space)
	require.NoError(t, err)
	require.True(t, behind, "another version's artifacts are work to do")
	pending, err = b.builder.PendingSpaces(ctx, 100)
	require.NoError(t, err)
	require.Contains(t, pending, space, "the sweep enqueues its build")

	res, err := b.builder.Build(ctx, space)
	require.NoError(t, err)
	require.EqualValues(t, 1, res.Rederived)
	require.Zero(t, res.FromSeq)
	require.Zero(t, res.Proposed, "the proposals were made before")
	require.Empty(t, b.artifacts(t, space, fmt.Sprintf("slot = 'episode:old' OR projection_version <> %d", latent.ProjectionVersion)))
	got, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, want, got, "the same artifacts as a build by this version")
	var version int32
	require.NoError(t, b.db.QueryRow(ctx, `SELECT built_version FROM latent_watermarks WHERE space_id = $1`, space).Scan(&version))
	require.EqualValues(t, latent.ProjectionVersion, version)
	pending, err = b.builder.PendingSpaces(ctx, 100)
	require.NoError(t, err)
	require.NotContains(t, pending, space)
	again, err := b.builder.Build(ctx, space)
	require.NoError(t, err)
	require.Zero(t, again.Rederived, "once is enough")
}

// TestBuild_AnOlderWorkersWatermarkReadsAsVersion1: a worker of a release before 000031 writes
// the watermark without built_version (its WatermarkSet named only built_seq); the column's
// default records version 1, so the current producers derive that space again.
func TestBuild_AnOlderWorkersWatermarkReadsAsVersion1(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-old-worker"
	b.AppendSeqs(t, space, b.workSession("s1")...)
	_, err := b.Proj.ProjectSpace(ctx, space)
	require.NoError(t, err)
	_, err = b.db.Exec(ctx, `INSERT INTO latent_watermarks (space_id, built_seq) VALUES ($1, (SELECT projected_seq FROM projection_watermarks WHERE space_id = $1))
		ON CONFLICT (space_id) DO UPDATE SET built_seq = excluded.built_seq, updated_at = clock_timestamp()`, space)
	require.NoError(t, err)
	var version int32
	require.NoError(t, b.db.QueryRow(ctx, `SELECT built_version FROM latent_watermarks WHERE space_id = $1`, space).Scan(&version))
	require.EqualValues(t, 1, version)
	pending, err := b.builder.PendingSpaces(ctx, 100)
	require.NoError(t, err)
	require.Contains(t, pending, space)
	res, err := b.builder.Build(ctx, space)
	require.NoError(t, err)
	require.EqualValues(t, 1, res.Rederived)
	require.NotEmpty(t, b.artifacts(t, space, "artifact_type = 'episode'"), "derived from the log's start")
}
