package policy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/policy"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// TestPolicy_BuiltinVersionsPinAndRestore: a space ranks with the default built-in policy until
// it promotes one; builtin-1 stays promotable (a space pins the old ranking and its packets say
// so), a rollback returns to the default, and an unknown built-in version is refused naming the
// ones there are. A rebuild from the log reproduces each state.
func TestPolicy_BuiltinVersionsPinAndRestore(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	const space = "policy-builtins"
	seed(t, b, space)

	_, versions := packets(t, b, space)
	for _, v := range versions {
		require.Equal(t, checkout.BuiltinPolicyVersion, v)
	}
	list, err := b.svc.List(ctx, space)
	require.NoError(t, err)
	require.Equal(t, checkout.BuiltinPolicyVersion, list.Current)
	require.Len(t, list.Policies, len(vocab.BuiltinPolicyVersions))
	for i, p := range list.Policies {
		want := "proposed"
		if p.Version == checkout.BuiltinPolicyVersion {
			want = "current"
		}
		require.Equal(t, vocab.BuiltinPolicyVersions[i], p.Version)
		require.Equal(t, want, p.Status, p.Version)
	}
	require.Equal(t, 3.0, list.Policies[0].Policy.NamedSpeakerBoost)

	_, err = b.svc.Promote(ctx, space, "builtin-11", "test", nil)
	require.ErrorIs(t, err, policy.ErrPolicyNotFound)
	require.ErrorContains(t, err, "builtin-11 is not a built-in policy (builtin-1, builtin-2, builtin-3, builtin-4, builtin-5, builtin-6, builtin-7, builtin-8, builtin-9, builtin-10)")
	_, err = b.svc.Promote(ctx, space, checkout.BuiltinPolicyVersion, "test", nil)
	require.ErrorIs(t, err, validation.ErrInvalid, "the default is already current")

	prom, err := b.svc.Promote(ctx, space, checkout.FirstBuiltinPolicyVersion, "test", nil)
	require.NoError(t, err)
	require.Equal(t, checkout.BuiltinPolicyVersion, prom.Previous)
	b.Index(t, space)
	_, versions = packets(t, b, space)
	for _, v := range versions {
		require.Equal(t, checkout.FirstBuiltinPolicyVersion, v, "a pinned space ranks with builtin-1")
	}
	require.Equal(t, checkout.FirstBuiltinPolicyVersion, currentRow(t, b, space))
	requireRebuildKeeps(t, b, space, checkout.FirstBuiltinPolicyVersion)

	rb, err := b.svc.Rollback(ctx, space, "test", "back to the default")
	require.NoError(t, err)
	require.Equal(t, checkout.BuiltinPolicyVersion, rb.Restored)
	b.Index(t, space)
	_, versions = packets(t, b, space)
	for _, v := range versions {
		require.Equal(t, checkout.BuiltinPolicyVersion, v)
	}
	requireRebuildKeeps(t, b, space, checkout.BuiltinPolicyVersion)
}

// TestPolicy_APromotionFromBuiltin1RollsBackToBuiltin1: a space whose policy.promoted event
// names builtin-1 as the policy it replaced gets builtin-1 back on rollback, in the log's replay and in the projection, before and after a
// rebuild: a rollback restores the packets the space had, not the new default's.
func TestPolicy_APromotionFromBuiltin1RollsBackToBuiltin1(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	const space = "policy-old"
	seed(t, b, space)
	const version = "fit-00000000000b"
	content, err := checkout.BuiltinPolicyOf(checkout.FirstBuiltinPolicyVersion).Content()
	require.NoError(t, err)
	_, err = b.Store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Admin: true, Events: []eventloom.NewEvent{
		{Type: "policy.proposed", Data: json.RawMessage(fmt.Sprintf(`{"version":%q,"base":"builtin-1","policy":%s}`, version, content))},
		{Type: "policy.promoted", Data: json.RawMessage(fmt.Sprintf(`{"version":%q,"previous":"builtin-1"}`, version))},
	}})
	require.NoError(t, err)
	b.Index(t, space)
	list, err := b.svc.List(ctx, space)
	require.NoError(t, err)
	require.Equal(t, version, list.Current)
	require.Equal(t, []string{checkout.FirstBuiltinPolicyVersion}, list.History)
	requireRebuildKeeps(t, b, space, version)

	rb, err := b.svc.Rollback(ctx, space, "test", "")
	require.NoError(t, err)
	require.Equal(t, checkout.FirstBuiltinPolicyVersion, rb.Restored)
	b.Index(t, space)
	require.Equal(t, checkout.FirstBuiltinPolicyVersion, currentRow(t, b, space))
	_, versions := packets(t, b, space)
	for _, v := range versions {
		require.Equal(t, checkout.FirstBuiltinPolicyVersion, v)
	}
	requireRebuildKeeps(t, b, space, checkout.FirstBuiltinPolicyVersion)
}

// requireRebuildKeeps rebuilds space's projections from the log and requires the same
// checksum and current policy version.
func requireRebuildKeeps(t *testing.T, b *bundle, space, version string) {
	t.Helper()
	ctx := context.Background()
	sum, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	_, err = b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	again, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, sum.Digest, again.Digest)
	require.Equal(t, version, currentRow(t, b, space))
}
