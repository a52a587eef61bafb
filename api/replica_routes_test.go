package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// routedRead is one read route that runs on a standby, and the write whose token it is sent
// with: write appends something the read must show, returning the write's answer; sees says
// whether the read's body shows what write appended (its seq).
type routedRead struct {
	name, method, path, body string
	write                    func(t *testing.T) (token string, seq int64)
	sees                     func(body string, seq int64) bool
}

// TestReplica_LifecycleWeaveFeelingAndActionReadsFollowTheToken: behind a standby that applies
// each commit 3 s late, every read route moved to the standby (assemble, handoff, weave,
// prospective, the feeling of knowing, the projection status and the five reading memory
// actions), sent the token of a write it must show, never misses it: at once it is answered by
// the primary after the bounded wait (a fallback counted), and once the standby has replayed
// the token by the standby (Zaxy-Read-From: replica), each time showing the write. What the
// ranking passes and the reading actions record is appended on the primary. Fails on the old
// code: those routes ran on the primary only and answered no Zaxy-Read-From.
func TestReplica_LifecycleWeaveFeelingAndActionReadsFollowTheToken(t *testing.T) {
	t.Parallel()
	const delay = 3 * time.Second
	e := newReplicaEnv(t, delay)
	ctx := context.Background()

	// The space "rr": three sessions of tool calls (one failing each), projected, their latent
	// artifacts (procedures, a failure pattern, a causal link) built; "fok": one note, projected.
	for _, s := range []string{"s1", "s2", "s3"} {
		// A decision before s1's failing call: a causal link.
		evs := []string{`{"type":"decision.recorded","session_id":"s1","data":{"decision":"enable go vet in CI"}}`}
		if s != "s1" {
			evs = nil
		}
		for _, c := range [][3]string{{"git pull", "success", ""}, {"go build", "success", ""}, {"go test", "success", ""},
			{"go vet", "failure", "vet: unreachable code"}, {"gofmt", "success", ""}, {"go vet", "success", ""}} {
			d := fmt.Sprintf(`{"tool":%q,"outcome":%q`, c[0], c[1])
			if c[2] != "" {
				d += fmt.Sprintf(`,"error":%q`, c[2])
			}
			evs = append(evs, fmt.Sprintf(`{"type":"tool_call.completed","session_id":%q,"data":%s}}`, s, d))
		}
		status, _, body := e.call(t, http.MethodPost, "/v1/spaces/rr/events", `{"events":[`+strings.Join(evs, ",")+`]}`)
		require.Equal(t, http.StatusCreated, status, body)
	}
	status, _, body := e.call(t, http.MethodPost, "/v1/spaces/fok/events", `{"type":"note","content":"the registry listens on port 5000"}`)
	require.Equal(t, http.StatusCreated, status, body)
	fixture.Project(t, e.pool, "rr")
	fixture.Project(t, e.pool, "fok")
	b, err := latent.NewBuilder(ctx, e.pool, eventloom.NewStore(e.pool, nil, nil), latent.Config{})
	require.NoError(t, err)
	_, err = b.Build(ctx, "rr")
	require.NoError(t, err)
	// What was seeded is on the standby before the writes the reads must see.
	e.standby.WaitReplay(t, currentLSN(t, e))

	note := func(space, session, word string) func(t *testing.T) (string, int64) {
		return func(t *testing.T) (string, int64) {
			status, h, body := e.call(t, http.MethodPost, "/v1/spaces/"+space+"/events",
				fmt.Sprintf(`{"type":"note","session_id":%q,"content":"the %s gateway listens on port 7311"}`, session, word))
			require.Equal(t, http.StatusCreated, status, body)
			var out struct {
				Events []struct {
					Seq int64 `json:"seq"`
				} `json:"events"`
			}
			require.NoError(t, json.Unmarshal([]byte(body), &out))
			return h.Get(replica.Header), out.Events[0].Seq
		}
	}
	// revise revises the confidence of the first artifact the read at path answers with body.
	revise := func(path, body string) func(t *testing.T) (string, int64) {
		return func(t *testing.T) (string, int64) {
			status, _, answer := e.call(t, http.MethodPost, path, body)
			require.Equal(t, http.StatusOK, status, answer)
			m := regexp.MustCompile(`"artifact_id":"([0-9a-f]+)"`).FindStringSubmatch(answer)
			require.NotNil(t, m, "%s answers an artifact: %s", path, answer)
			status, h, out := e.call(t, http.MethodPost, "/v1/spaces/rr/actions/revise-confidence",
				fmt.Sprintf(`{"artifact_id":%q,"confidence":0.42,"reason":"seen again"}`, m[1]))
			require.Equal(t, http.StatusCreated, status, out)
			var res struct {
				Event struct {
					Seq int64 `json:"seq"`
				} `json:"event"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &res))
			return h.Get(replica.Header), res.Event.Seq
		}
	}
	mentions := func(word string) func(string, int64) bool {
		return func(body string, _ int64) bool { return strings.Contains(body, word) }
	}
	// cites: an artifact of the answer carries the revision, or a later one.
	cites := func(body string, seq int64) bool {
		for _, m := range regexp.MustCompile(`"confidence_revision":\{"seq":(\d+)`).FindAllStringSubmatch(body, -1) {
			if n, _ := strconv.ParseInt(m[1], 10, 64); n >= seq {
				return true
			}
		}
		return false
	}
	action := func(name, path, body string) routedRead {
		path = "/v1/spaces/rr/actions/" + path
		return routedRead{name, http.MethodPost, path, body, revise(path, body), cites}
	}
	reads := []routedRead{
		{"assemble", http.MethodPost, "/v1/spaces/rr/context/assemble", `{"query":"aardwolf gateway port","session_id":"s1","max_tokens":800}`,
			note("rr", "s1", "aardwolf"), mentions("aardwolf")},
		{"handoff", http.MethodPost, "/v1/spaces/rr/handoff", `{"session_id":"s2","query":"bonobo gateway port"}`,
			note("rr", "s2", "bonobo"), mentions("bonobo")},
		{"weave", http.MethodPost, "/v1/spaces/rr/weave", `{"goal":"caracal gateway port"}`,
			note("rr", "s3", "caracal"), mentions("caracal")},
		{"prospective", http.MethodPost, "/v1/spaces/rr/prospective", `{"goal":"dugong gateway port"}`,
			note("rr", "s3", "dugong"), mentions("dugong")},
		{"feeling of knowing", http.MethodPost, "/v1/spaces/fok/feeling-of-knowing", `{"query":"which port does the registry listen on"}`,
			note("fok", "", "echidna"), func(body string, seq int64) bool {
				var f struct {
					Sketch struct {
						Watermark     int64 `json:"watermark"`
						ProjectionLag int64 `json:"projection_lag"`
					} `json:"sketch"`
				}
				return json.Unmarshal([]byte(body), &f) == nil && f.Sketch.Watermark+f.Sketch.ProjectionLag >= seq
			}},
		{"projection", http.MethodGet, "/v1/spaces/fok/projection", "",
			note("fok", "", "fossa"), func(body string, seq int64) bool {
				var st struct {
					HeadSeq int64 `json:"head_seq"`
				}
				return json.Unmarshal([]byte(body), &st) == nil && st.HeadSeq >= seq
			}},
		action("failure prior", "retrieve-failure-prior", `{"tools":["go vet"],"session_id":"agent"}`),
		action("procedure prior", "retrieve-procedure-prior", `{"tools":["git pull","go build"],"session_id":"agent"}`),
		action("simulate forward", "simulate-forward", `{"steps":["git pull","go vet"],"session_id":"agent"}`),
		action("reflect backward", "reflect-backward", `{"session_id":"s2"}`),
		action("causal neighborhood", "query-causal-neighborhood", `{"tool":"go vet","session_id":"agent"}`),
	}

	tokens := make([]string, len(reads))
	seqs := make([]int64, len(reads))
	fellBack := 0
	for i, rd := range reads {
		// At once: the standby applies the write 3 s late, so the read waits for it, then
		// reads the primary.
		fallbacks := e.set.Stats().Fallbacks
		tokens[i], seqs[i] = rd.write(t)
		wrote := time.Now()
		status, h, body := e.call(t, rd.method, rd.path, rd.body, replica.Header, tokens[i])
		require.Equal(t, http.StatusOK, status, "%s: %s", rd.name, body)
		require.True(t, rd.sees(body, seqs[i]), "%s with the write's token misses seq %d: %s", rd.name, seqs[i], body)
		if time.Since(wrote) < delay*3/4 {
			require.Equal(t, replica.FromPrimary, h.Get(replica.ReadFromHeader), "%s: the standby cannot have applied the write yet", rd.name)
			require.Greater(t, e.set.Stats().Fallbacks, fallbacks, "%s: the fallback is counted", rd.name)
			fellBack++
		}
	}
	t.Logf("%d of %d reads checked to fall back to the primary before the standby applied their write", fellBack, len(reads))

	last, err := replica.ParseToken(tokens[len(tokens)-1])
	require.NoError(t, err)
	e.standby.WaitReplay(t, last.LSN.String())
	waitFor(t, "the measurement to cover the last token", func() bool { return e.set.Standbys()[0].Replay() >= last.LSN })
	var recordsBefore int
	require.NoError(t, e.pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE type IN ('checkout.surfaced', 'memory_action.surfaced')`).Scan(&recordsBefore))
	recording := 0
	for i, rd := range reads {
		status, h, body := e.call(t, rd.method, rd.path, rd.body, replica.Header, tokens[i])
		require.Equal(t, http.StatusOK, status, "%s: %s", rd.name, body)
		require.Equal(t, replica.FromReplica, h.Get(replica.ReadFromHeader), "%s: the standby has replayed the token", rd.name)
		require.True(t, rd.sees(body, seqs[i]), "%s on the standby misses seq %d: %s", rd.name, seqs[i], body)
		if strings.Contains(body, `"surfaced_seq":`) || strings.Contains(body, `"record":{`) {
			recording++
		}
	}
	var recordsAfter int
	require.NoError(t, e.pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE type IN ('checkout.surfaced', 'memory_action.surfaced')`).Scan(&recordsAfter))
	require.Positive(t, recording)
	require.Equal(t, recordsBefore+recording, recordsAfter, "each read served by the standby that recorded what it surfaced recorded it once, on the primary")
}

// currentLSN is the primary's WAL position now.
func currentLSN(t *testing.T, e *replicaEnv) string {
	t.Helper()
	tok, err := e.set.Token(context.Background())
	require.NoError(t, err)
	return tok.LSN.String()
}
