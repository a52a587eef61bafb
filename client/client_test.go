package client_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/lifecycle"
	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/vocab"
)

// recorder is a RoundTripper that names the OpenAPI operation of every request it sends.
type recorder struct {
	ops  []operation
	mu   sync.Mutex
	seen []string
	// paths are the escaped paths sent, in order.
	paths []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	id := "unknown " + req.Method + " " + req.URL.EscapedPath()
	for _, op := range r.ops {
		if op.method == req.Method && op.match.MatchString(req.URL.EscapedPath()) {
			id = op.id
		}
	}
	r.mu.Lock()
	r.seen = append(r.seen, id)
	r.paths = append(r.paths, req.URL.EscapedPath())
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

// take returns and forgets the operations sent since the last take.
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.seen
	r.seen = nil
	return s
}

// server is a real API handler over a fresh database, with an admin token for every space.
type server struct {
	url, token string
	db         *testcontainers.Database
}

func newServer(t *testing.T) *server {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	rc, err := jobs.NewInsertOnlyClient(pool, nil)
	require.NoError(t, err)
	tokens := auth.NewStore(pool)
	_, token, err := tokens.Create(context.Background(), []string{auth.AllSpaces}, auth.ScopeAdmin, "client test")
	require.NoError(t, err)
	store := eventloom.NewStore(pool, jobs.NewOutbox(rc), nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil))
	t.Cleanup(srv.Close)
	return &server{url: srv.URL, token: token, db: db}
}

func (s *server) project(t *testing.T, space string) {
	t.Helper()
	fixture.Project(t, s.db.AppPool(t), space)
}

func ptr[T any](v T) *T { return &v }

// TestClient_EveryMethodAgainstARealServer calls every Client method against the API over a
// real database, decoding strictly (an answer field the client's types lack fails), checks
// that each method sent its own operation, and fails when an operation of api/openapi.json
// was never called.
func TestClient_EveryMethodAgainstARealServer(t *testing.T) {
	ctx := context.Background()
	srv := newServer(t)
	rec := &recorder{ops: documentOperations(t)}
	c, err := client.New(srv.url, client.WithToken(srv.token), client.WithHTTPClient(&http.Client{Transport: rec}))
	require.NoError(t, err)
	client.Strict(c)
	called := map[string]bool{}
	// check runs one call, which must succeed and send operation id (and only it).
	check := func(id string, call func() error) {
		t.Helper()
		require.NoError(t, call(), id)
		sent := rec.take()
		require.NotEmpty(t, sent, id)
		for _, s := range sent {
			require.Equal(t, id, s, "the call of %s sent another operation", id)
		}
		called[id] = true
	}
	const space = "cl"

	check("health", func() error {
		st, err := c.Health(ctx)
		if err == nil {
			require.Equal(t, "ok", st.Status)
		}
		return err
	})
	check("ready", func() error { _, err := c.Ready(ctx); return err })
	check("getOpenAPI", func() error {
		doc, err := c.OpenAPI(ctx)
		want, rerr := os.ReadFile(filepath.Join("..", "api", "openapi.json"))
		require.NoError(t, rerr)
		require.JSONEq(t, string(want), string(doc))
		return err
	})

	events := []eventloom.NewEvent{
		{Type: "message", SessionID: "s1", Content: "The staging registry times out after 30 seconds", Data: json.RawMessage(`{"role":"user"}`)},
		{Type: "fact.asserted", Data: json.RawMessage(`{"subject":"Alice","predicate":"works at","object":"Acme"}`)},
		{Type: "message", Content: "Alice moved to Beta", Data: json.RawMessage(`{"role":"user"}`)},
		{Type: "proposal.created", Actor: "agent", Data: json.RawMessage(`{"kind":"belief_update","evidence":[3],"fact":{"subject":"Alice","predicate":"works at","object":"Beta"}}`)},
		{Type: "proposal.created", Actor: "agent", Data: json.RawMessage(`{"kind":"skill","evidence":[3]}`)},
		{Type: "proposal.created", Actor: "agent", Data: json.RawMessage(`{"kind":"skill","evidence":[1]}`)},
	}
	var first *eventloom.AppendResult
	check("appendEvents", func() error {
		var err error
		first, err = c.AppendEvents(ctx, space, events, client.WithIdempotencyKey("batch-1"))
		return err
	})
	require.Len(t, first.Receipts, 6)
	require.False(t, first.Replayed)
	check("appendEvents", func() error {
		again, err := c.AppendEvents(ctx, space, events, client.WithIdempotencyKey("batch-1"))
		if err == nil {
			require.True(t, again.Replayed)
			require.Equal(t, first.Receipts, again.Receipts)
		}
		return err
	})
	check("replayEvents", func() error {
		page, err := c.ReplayEvents(ctx, space, &client.ReplayParams{Limit: 2})
		if err == nil {
			require.Len(t, page.Events, 2)
			require.EqualValues(t, 2, page.NextAfterSeq)
		}
		return err
	})
	check("verifyChain", func() error {
		v, err := c.Verify(ctx, space, "sql")
		if err == nil {
			require.True(t, v.OK)
		}
		return err
	})
	check("ingestDocuments", func() error {
		res, err := c.IngestDocuments(ctx, space, &ingest.DocumentsParams{Documents: []ingest.Document{{Path: "runbook.md", Text: "# Deploys\n\nDeploys go through the blue cluster."}}})
		if err == nil {
			require.Len(t, res.Documents, 1)
		}
		return err
	})
	check("ingestTranscript", func() error {
		_, err := c.IngestTranscript(ctx, space, &ingest.TranscriptParams{SessionID: "s2", Turns: []ingest.Turn{{Role: "user", Content: "Hello there"}, {Role: "assistant", Content: "Hi"}}})
		return err
	})
	srv.project(t, space)

	check("listFacts", func() error {
		res, err := c.Facts(ctx, space, &client.FactsParams{Entity: "Alice", Limit: 10, IncludeInferred: true})
		if err == nil {
			require.Len(t, res.Facts, 1)
		}
		return err
	})
	check("getEntity", func() error {
		res, err := c.Entity(ctx, space, "Alice")
		if err == nil {
			require.NotEmpty(t, res.Facts)
		}
		return err
	})
	check("getProjection", func() error {
		st, err := c.Projection(ctx, space)
		if err == nil {
			require.Zero(t, st.Lag)
		}
		return err
	})
	check("cypher", func() error {
		_, err := c.Cypher(ctx, space, &client.CypherRequest{Query: "MATCH (n) RETURN n", Limit: 5})
		if client.IsCode(err, "age_unavailable") {
			return nil // a server without Apache AGE: the operation answered as documented
		}
		return err
	})
	check("getIndex", func() error {
		_, err := c.Index(ctx, space, &client.IndexParams{MaxTokens: ptr[int64](200)})
		return err
	})
	check("getTimeline", func() error {
		_, err := c.Timeline(ctx, space, &client.TimelineParams{MaxTokens: ptr[int64](300)})
		return err
	})
	check("getItem", func() error {
		it, err := c.Item(ctx, space, "ev:1")
		if err == nil {
			require.Equal(t, "ev:1", it.ID)
		}
		return err
	})

	req := checkout.Request{Query: "registry timeout", SessionID: "s1", MaxTokens: 600}
	var packet *checkout.Packet
	check("checkout", func() error {
		p, err := c.Checkout(ctx, space, &req)
		if err == nil {
			require.Contains(t, p.Text, "times out after 30 seconds")
			require.NotZero(t, p.SurfacedSeq)
			packet = p
		}
		return err
	})
	check("getRecordedCheckout", func() error {
		rec, err := c.RecordedCheckout(ctx, space, packet.SurfacedSeq)
		if err == nil {
			require.Equal(t, packet.Text, rec.Text)
			require.Equal(t, "matches", rec.Status)
		}
		return err
	})
	check("getItemSalience", func() error {
		h, err := c.ItemSalience(ctx, space, "ev:1")
		if err == nil {
			require.Equal(t, "ev:1", h.ItemID)
		}
		return err
	})
	check("query", func() error {
		res, err := c.Query(ctx, space, &checkout.Request{Query: "registry timeout", AsOf: ptr(time.Now().Add(time.Minute))})
		if err == nil {
			require.NotEmpty(t, res.Items)
		}
		return err
	})
	check("listSpaces", func() error {
		l, err := c.Spaces(ctx)
		if err == nil {
			require.NotEmpty(t, l.Spaces)
		}
		return err
	})
	check("getSalience", func() error {
		h, err := c.Salience(ctx, space)
		if err == nil {
			require.Len(t, h.Buckets, 10)
		}
		return err
	})
	check("feelingOfKnowing", func() error {
		f, err := c.FeelingOfKnowing(ctx, space, &metamemory.Request{Query: "registry timeout"})
		if err == nil {
			require.Contains(t, []string{"likely", "possible", "unlikely"}, f.Judgement)
		}
		return err
	})
	check("weaveMemory", func() error {
		w, err := c.WeaveMemory(ctx, space, &checkout.StepRequest{Goal: "registry timeout", ReasoningPhase: checkout.PhaseAct})
		if err == nil {
			require.Len(t, w.WeaveID, 64)
			require.Contains(t, w.Text, "Prohibited use: ")
			require.NotZero(t, w.SurfacedSeq)
		}
		return err
	})
	check("prospective", func() error {
		p, err := c.Prospective(ctx, space, &checkout.StepRequest{Goal: "registry timeout", NoRecord: true})
		if err == nil {
			require.NotNil(t, p.Weave)
			require.Equal(t, checkout.EstimateTokens(p.Text), p.TokenEstimate)
		}
		return err
	})
	check("assembleContext", func() error {
		a, err := c.AssembleContext(ctx, space, &lifecycle.AssembleRequest{Request: req, WorkingSet: []string{"deploy.yaml"}})
		if err == nil {
			require.Contains(t, a.Text, "deploy.yaml")
		}
		return err
	})
	check("afterTurn", func() error {
		res, err := c.AfterTurn(ctx, space, &client.AfterTurnRequest{
			AssembleRequest: lifecycle.AssembleRequest{Request: checkout.Request{Query: "deploys", SessionID: "s1"}},
			Events:          []eventloom.NewEvent{{Type: "message", SessionID: "s1", Content: "Deploys moved to the green cluster", Data: json.RawMessage(`{"role":"user"}`)}},
		}, client.WithIdempotencyKey("turn-1"), client.WithRequestID("turn-1-req"))
		if err == nil {
			require.Len(t, res.Receipts, 1)
		}
		return err
	})
	check("handoff", func() error {
		h, err := c.Handoff(ctx, space, &lifecycle.HandoffRequest{Request: checkout.Request{Query: "where were we", SessionID: "s1"}, TailEvents: 5})
		if err == nil {
			require.Equal(t, "s1", h.SessionID)
		}
		return err
	})
	check("cleanupSubagent", func() error {
		_, err := c.CleanupSubagent(ctx, space, "sub 1/a", &lifecycle.CleanupRequest{Request: checkout.Request{Query: "done", SessionID: "s1"}, Outcome: "success", Summary: "checked"})
		require.Equal(t, "/v1/spaces/cl/subagents/sub%201%2Fa/cleanup", rec.paths[len(rec.paths)-1], "path parameters are escaped once")
		return err
	})
	check("resumeSession", func() error { _, err := c.ResumeSession(ctx, space, "s1"); return err })

	check("listProposals", func() error {
		page, err := c.ListProposals(ctx, space, &client.ProposalsParams{Status: "pending", Limit: ptr[int64](10)})
		if err == nil {
			require.Len(t, page.Proposals, 3)
		}
		return err
	})
	seq := first.Receipts[3].Seq
	check("getProposal", func() error {
		p, err := c.GetProposal(ctx, space, seq)
		if err == nil {
			require.Equal(t, "belief_update", p.Kind)
		}
		return err
	})
	check("acceptProposal", func() error {
		d, err := c.AcceptProposal(ctx, space, seq, &client.DecisionRequest{Actor: "ann", Reason: "confirmed"})
		if err == nil {
			require.Equal(t, "accepted", d.Status)
		}
		return err
	})
	check("rejectProposal", func() error { _, err := c.RejectProposal(ctx, space, first.Receipts[4].Seq, nil); return err })
	check("deferProposal", func() error {
		_, err := c.DeferProposal(ctx, space, first.Receipts[5].Seq, &client.DecisionRequest{Reason: "later"})
		return err
	})
	// The memory actions: this space has no artifacts, so the reads answer empty but cited
	// lists, and revising an artifact's confidence is 404 artifact_not_found.
	check("listArtifacts", func() error {
		page, err := c.Artifacts(ctx, space, &client.ArtifactsParams{Type: "episode", IncludeStale: true, Limit: ptr[int64](5)})
		if err == nil {
			require.Empty(t, page.Artifacts)
			require.Nil(t, page.NextAfter)
		}
		return err
	})
	check("simulateForward", func() error {
		sim, err := c.SimulateForward(ctx, space, &client.SimulateRequest{Steps: []string{"git pull", "deploy"}})
		if err == nil {
			require.Len(t, sim.EvidenceNeeds, 2)
		}
		return err
	})
	check("reflectBackward", func() error {
		r, err := c.ReflectBackward(ctx, space, &client.ReflectRequest{SessionID: "s1"})
		if err == nil {
			require.Positive(t, r.Events)
		}
		return err
	})
	check("retrieveProcedurePrior", func() error {
		_, err := c.ProcedurePrior(ctx, space, &client.PriorRequest{Tools: []string{"git pull"}})
		return err
	})
	check("retrieveFailurePrior", func() error {
		_, err := c.FailurePrior(ctx, space, &client.PriorRequest{Goal: "registry timeout"})
		return err
	})
	check("queryCausalNeighborhood", func() error {
		_, err := c.CausalNeighborhood(ctx, space, &client.NeighborhoodRequest{Tool: "git pull"})
		return err
	})
	check("proposeMemoryUpdate", func() error {
		a, err := c.ProposeMemoryUpdate(ctx, space, &client.ProposeRequest{Kind: "consolidation", Evidence: []int64{first.Receipts[2].Seq}},
			client.WithIdempotencyKey("propose-1"))
		if err == nil {
			require.Equal(t, "proposal.created", a.Type)
		}
		return err
	})
	{
		_, err := c.ReviseConfidence(ctx, space, &client.ReviseRequest{ArtifactID: "0000", Confidence: 0.5, Reason: "r"})
		var ce *client.Error
		require.ErrorAs(t, err, &ce)
		require.Equal(t, "artifact_not_found", ce.Code)
		require.Equal(t, []string{"reviseConfidence"}, rec.take())
		called["reviseConfidence"] = true
	}
	var unknown *memoryaction.Appended
	check("recordKnownUnknown", func() error {
		var err error
		unknown, err = c.RecordKnownUnknown(ctx, space, &client.KnownUnknownRequest{Question: "Which registry mirror is closest?"})
		return err
	})
	check("scoreMemoryAction", func() error {
		_, err := c.ScoreMemoryAction(ctx, space, &client.ScoreRequest{Action: "record_known_unknown", ActionSeq: unknown.Event.Seq, Signal: "helpful"})
		return err
	})
	// The retrieval policy's lifecycle. The space has no judged checkouts, so a fit has nothing
	// to learn (its success is tested in package policy); a version proposed by an admin append
	// passes the gate (an empty replay does not drop) and is rolled back.
	_, err = c.FitPolicy(ctx, space, nil)
	var fitErr *client.Error
	require.ErrorAs(t, err, &fitErr)
	require.Equal(t, "nothing_to_learn", fitErr.Code)
	require.Equal(t, []string{"fitPolicy"}, rec.take())
	called["fitPolicy"] = true
	const version = "fit-0123456789ab"
	_, err = c.AppendEvents(ctx, space, []eventloom.NewEvent{{Type: "policy.proposed",
		Data: json.RawMessage(`{"version":"` + version + `","base":"builtin-1","policy":{"lane_weights":{"general":{"keyword":2,"vector":1.2}},"kind_boosts":{},"speaker_boost":1.5,"named_speaker_boost":3,"temporal_boost":2}}`)}})
	require.NoError(t, err)
	rec.take()
	check("promotePolicy", func() error {
		p, err := c.PromotePolicy(ctx, space, version, &client.PolicyRequest{Actor: "ann"})
		if err == nil {
			require.Equal(t, checkout.BuiltinPolicyVersion, p.Previous)
		}
		return err
	})
	check("listPolicies", func() error {
		l, err := c.Policies(ctx, space)
		if err == nil {
			require.Equal(t, version, l.Current)
			require.Len(t, l.Policies, len(vocab.BuiltinPolicyVersions)+1)
		}
		return err
	})
	check("rollbackPolicy", func() error {
		rb, err := c.RollbackPolicy(ctx, space, &client.PolicyRequest{Reason: "testing"})
		if err == nil {
			require.Equal(t, checkout.BuiltinPolicyVersion, rb.Restored)
		}
		return err
	})
	check("eraseEvent", func() error {
		_, err := c.Erase(ctx, space, &client.EraseRequest{Seq: first.Receipts[0].Seq, Reason: "asked by the user"})
		return err
	})
	check("getMetrics", func() error {
		m, err := c.Metrics(ctx)
		require.Contains(t, m, "zaxy_events_appended_total")
		return err
	})

	// An error answer is an *Error with the server's code, and is not retried.
	_, err = c.ReplayEvents(ctx, "Bad Space", nil)
	var apiErr *client.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.Status)
	require.Equal(t, "invalid_request", apiErr.Code)
	require.NotEmpty(t, apiErr.RequestID)
	require.Len(t, rec.take(), 1)

	for _, op := range documentOperations(t) {
		require.True(t, called[op.id], "operation %s (%s %s) was never called against the server", op.id, op.method, op.path)
	}
}
