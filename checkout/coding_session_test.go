package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
)

// codingCall is a tool call of an agent's session at minute m of day d (November 2026), with its
// output as the event's content.
func codingCall(session string, d, m int, tool, args, output, failure string) eventloom.NewEvent {
	at := time.Date(2026, 11, d, 10, m, 0, 0, time.UTC)
	data := map[string]string{"tool": tool, "arguments": args, "outcome": "success"}
	if failure != "" {
		data["outcome"], data["error"] = "failure", failure
	}
	raw, _ := json.Marshal(data)
	return eventloom.NewEvent{Type: "tool_call.completed", SessionID: session, Actor: "assistant", Content: output, OccurredAt: &at, Data: raw}
}

// codingSaid is a message of an agent's session at minute m of day d.
func codingSaid(session string, d, m int, role, text string) eventloom.NewEvent {
	at := time.Date(2026, 11, d, 10, m, 0, 0, time.UTC)
	return eventloom.NewEvent{Type: "message", SessionID: session, Actor: role, Content: text, OccurredAt: &at,
		Data: json.RawMessage(fmt.Sprintf(`{"role":%q}`, role))}
}

// TestCodingSession_QuestionsFindTheirEvidence: two sessions of a coding agent as a client would
// append them (a flaky test fixed, then a deploy that failed on duplicate rows and was fixed),
// and the questions a person asks afterwards. In a space this small every event shares the
// project's name with every question, and the ranking once buried answers under what merely
// shared it: the remedy lane followed any failure sharing a word with the question, and the
// keyword lane's hits weighed the same whatever their score. Each question's evidence must be
// among the first three ranked items.
func TestCodingSession_QuestionsFindTheirEvidence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	const space = "coding"
	const s1, s2 = "fix-flaky-test", "deploy-staging"
	r := f.append(t, space,
		codingSaid(s1, 20, 0, "user", "The CI job for the payments service keeps failing on TestRefundIdempotency. Can you look into it?"),
		codingSaid(s1, 20, 1, "assistant", "I'll run the payments test suite first."),
		codingCall(s1, 20, 2, "bash", "go test ./payments/...", "--- FAIL: TestRefundIdempotency (0.31s)", "refund_test.go:88: expected 1 refund row, got 2"),
		codingCall(s1, 20, 3, "read_file", "payments/refund.go", "func (s *Service) Refund(ctx context.Context, id string) error {\n\t_, err := s.db.Exec(ctx, `INSERT INTO refunds (payment_id, amount) VALUES ($1, $2)`, id, amt)\n\treturn err\n}", ""),
		codingCall(s1, 20, 4, "grep", "-rn idempotency_key payments/", "payments/refund.go:42: // TODO: idempotency_key not checked", ""),
		codingSaid(s1, 20, 5, "assistant", "The refund insert never checks the idempotency key, so a retried request inserts a second row. I'll add a unique index on idempotency_key and make the insert ON CONFLICT DO NOTHING."),
		codingCall(s1, 20, 7, "edit_file", "payments/refund.go", "added idempotency_key to the INSERT with ON CONFLICT (idempotency_key) DO NOTHING", ""),
		codingCall(s1, 20, 8, "edit_file", "migrations/0042_refunds_idempotency.sql", "CREATE UNIQUE INDEX refunds_idempotency ON refunds (idempotency_key);", ""),
		codingCall(s1, 20, 9, "bash", "go test ./payments/...", "ok  \tpayments\t0.412s", ""),
		codingSaid(s1, 20, 10, "user", "Great. Also bump the payments retry limit to 5 in the config."),
		codingCall(s1, 20, 11, "edit_file", "config/payments.yaml", "retry_limit: 5  # was 3", ""),
		codingSaid(s1, 20, 13, "assistant", "Done: refunds are idempotent (unique index plus ON CONFLICT), and the retry limit is 5."),
		codingSaid(s2, 23, 0, "user", "Deploy the payments fix to staging."),
		codingCall(s2, 23, 1, "bash", "make deploy ENV=staging", "deploy aborted", `migration 0042 failed: could not create unique index "refunds_idempotency": Key (idempotency_key)=(rf_8812) is duplicated`),
		codingSaid(s2, 23, 2, "assistant", "Staging already has duplicate refund rows, so the unique index cannot be built. I'll dedupe them first."),
		codingCall(s2, 23, 3, "bash", "psql staging -f scripts/dedupe_refunds.sql", "DELETE 17", ""),
		codingCall(s2, 23, 4, "bash", "make deploy ENV=staging", "deployed payments v1.8.3 to staging", ""),
		codingSaid(s2, 23, 5, "user", "Thanks. Who is on call for payments this week?"),
		codingSaid(s2, 23, 6, "assistant", "Priya is on call for payments until Friday; Marco takes over next week."),
	)
	f.index(t, space)
	ev := func(i int) string { return memoryitem.EventID(r[i].Seq) }
	for _, c := range []struct {
		question string
		evidence []string // any of them
	}{
		{"Why did TestRefundIdempotency fail?", []string{ev(2), ev(5)}},
		{"Why did the refund idempotency test fail?", []string{ev(2), ev(5)}},
		{"Who is on call for payments?", []string{ev(18)}},
		{"What was the payments retry limit before we changed it?", []string{ev(10)}},
		{"Why did the staging deploy fail?", []string{ev(13), ev(14)}},
		{"How many duplicate refund rows were deleted on staging?", []string{ev(15)}},
		{"What version of payments is on staging?", []string{ev(16)}},
		{"Which migration adds the unique index?", []string{ev(7)}},
		{"What did we change in refund.go?", []string{ev(6)}},
	} {
		res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: c.question, Limit: 10})
		require.NoError(t, err)
		var top []string
		for _, it := range res.Items[:min(3, len(res.Items))] {
			top = append(top, it.ItemID)
		}
		require.Condition(t, func() bool {
			for _, id := range c.evidence {
				for _, got := range top {
					if got == id {
						return true
					}
				}
			}
			return false
		}, "%q: evidence %v not in the first three %v", c.question, c.evidence, top)
	}
}
