package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/tokenize"
	"github.com/zaxy/zaxy/validation"
)

// seedCodeAndCJK fills space with what chars/4 undercounts: code and tool output, and CJK
// conversation, every event naming the deploy so the lanes rank them all.
func seedCodeAndCJK(t *testing.T, f *fixture, space string) {
	var events []eventloom.NewEvent
	for i := range 120 {
		switch i % 3 {
		case 0:
			events = append(events, msg("s1", "user", fmt.Sprintf("deploy %d 失败了：配置文件里的超时时间写错了单位，应该是秒，却写成了毫秒。本番環境へのデプロイは金曜日の午後を避けるべきです。", i)))
		case 1:
			events = append(events, msg("s1", "assistant", fmt.Sprintf("deploy fix %d: `if err := push(ctx, img, &Opts{Timeout: 120*time.Second}); err != nil { return fmt.Errorf(\"push %%s: %%w\", img, err) }`", i)))
		default:
			events = append(events, eventloom.NewEvent{Type: "tool_call.completed", SessionID: "s1", Content: fmt.Sprintf("deploy run %d", i),
				Data: json.RawMessage(fmt.Sprintf(`{"tool":"kubectl","arguments":"{\"cmd\":\"rollout status deploy/api-%d -n prod\"}","outcome":"failure","error":"error: deployment \"api-%d\" exceeded its progress deadline (0/3 ready)"}`, i, i))})
		}
	}
	f.append(t, space, events...)
	f.index(t, space)
}

// TestCheckout_HonoursTheNamedTokenizer: a packet's text, weave included, is within
// max_tokens as the named tokenizer counts it, and says which one it counted in. Under chars4
// (the only count before the tokenizer field) the same space's packets run over their budget
// in o200k tokens: the check at the end holds on the old code's packets and is why the field
// exists.
func TestCheckout_HonoursTheNamedTokenizer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "tokens"
	seedCodeAndCJK(t, f, space)
	o200k, err := tokenize.Get(tokenize.O200kBase)
	require.NoError(t, err)
	over := 0
	for _, name := range tokenize.Names {
		c, err := tokenize.Get(name)
		require.NoError(t, err)
		for _, budget := range []int{200, 500, 1500} {
			for _, weave := range []bool{false, true} {
				p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "why did the deploy fail?", MaxTokens: budget,
					Tokenizer: name, SessionID: "s1", NoRecord: true, Weave: weave})
				require.NoError(t, err)
				require.Equal(t, name, p.Budget.Tokenizer)
				require.Equal(t, c.Count(p.Text), p.Budget.Used, "%s at %d", name, budget)
				require.LessOrEqual(t, p.Budget.Used, budget, "%s at %d", name, budget)
				require.NotEmpty(t, p.Tiers[2].Items, "%s at %d: the query tier holds something", name, budget)
				if name == tokenize.Chars4 && o200k.Count(p.Text) > budget {
					over++
				}
			}
		}
	}
	require.Positive(t, over, "chars4 packets of code and CJK text run over their budget in o200k tokens")
}

// TestCheckout_TokenizerDefaultsToTheServers: a request naming no tokenizer is budgeted with
// the service's (ZAXY_TOKENIZER); one that names a tokenizer gets it.
func TestCheckout_TokenizerDefaultsToTheServers(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	seedCodeAndCJK(t, f, "tokdefault")
	o200k, _ := tokenize.Get(tokenize.O200kBase)
	svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Tokenizer: o200k})
	p, err := svc.Checkout(ctx, &checkout.Request{SpaceID: "tokdefault", Query: "deploy failed", MaxTokens: 300, NoRecord: true})
	require.NoError(t, err)
	require.Equal(t, tokenize.O200kBase, p.Budget.Tokenizer)
	require.Equal(t, o200k.Count(p.Text), p.Budget.Used)
	p, err = svc.Checkout(ctx, &checkout.Request{SpaceID: "tokdefault", Query: "deploy failed", MaxTokens: 300, NoRecord: true, Tokenizer: tokenize.Chars4})
	require.NoError(t, err)
	require.Equal(t, tokenize.Chars4, p.Budget.Tokenizer)
	require.Equal(t, checkout.EstimateTokens(p.Text), p.Budget.Used)
	// A service configured with nothing counts chars4, as every checkout did before.
	p, err = f.svc.Checkout(ctx, &checkout.Request{SpaceID: "tokdefault", Query: "deploy failed", MaxTokens: 300, NoRecord: true})
	require.NoError(t, err)
	require.Equal(t, tokenize.Chars4, p.Budget.Tokenizer)

	w, err := svc.WeaveMemory(ctx, &checkout.StepRequest{SpaceID: "tokdefault", Goal: "fix the deploy", MaxTokens: 300, NoRecord: true})
	require.NoError(t, err)
	require.Equal(t, tokenize.O200kBase, w.Budget.Tokenizer)
	require.LessOrEqual(t, o200k.Count(w.Text), 300)
	pr, err := svc.Prospective(ctx, &checkout.StepRequest{SpaceID: "tokdefault", Goal: "fix the deploy", NoRecord: true, Tokenizer: tokenize.CL100kBase})
	require.NoError(t, err)
	require.Equal(t, tokenize.CL100kBase, pr.Tokenizer)
	cl, _ := tokenize.Get(tokenize.CL100kBase)
	require.Equal(t, cl.Count(pr.Text), pr.TokenEstimate)
}

// TestCheckout_RejectsAnUnknownTokenizer: a tokenizer not in tokenize.Names is a validation
// error naming the field, on every route that budgets with it.
func TestCheckout_RejectsAnUnknownTokenizer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.append(t, "badtok", msg("", "user", "hello"))
	for _, name := range []string{"gpt2", "O200K_BASE", "p50k_base", "chars"} {
		var ve *validation.Error
		_, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: "badtok", Query: "x", Tokenizer: name})
		require.ErrorAs(t, err, &ve, name)
		require.Equal(t, "tokenizer", ve.Field)
		require.Contains(t, ve.Message, strings.Join(tokenize.Names, ", "))
		_, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "badtok", Query: "x", Tokenizer: name})
		require.ErrorAs(t, err, &ve, name)
		require.Equal(t, "tokenizer", ve.Field)
		_, err = f.svc.WeaveMemory(ctx, &checkout.StepRequest{SpaceID: "badtok", Goal: "x", Tokenizer: name})
		require.ErrorAs(t, err, &ve, name)
		require.Equal(t, "tokenizer", ve.Field)
		_, err = f.svc.Prospective(ctx, &checkout.StepRequest{SpaceID: "badtok", Goal: "x", Tokenizer: name})
		require.ErrorAs(t, err, &ve, name)
		require.Equal(t, "tokenizer", ve.Field)
	}
}
