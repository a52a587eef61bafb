package bench

import (
	"fmt"
	"strings"
)

// ssComponent is a part of a generated code base: its name in prose, its type and file.
type ssComponent struct{ prose, typ, file string }

var ssComponents = []ssComponent{
	{"webhook dispatcher", "WebhookDispatcher", "internal/dispatch/webhook.go"},
	{"invoice exporter", "InvoiceExporter", "billing/export/invoice.go"},
	{"auth middleware", "AuthMiddleware", "server/middleware/auth.go"},
	{"search indexer", "SearchIndexer", "search/indexer/indexer.go"},
	{"rate limiter", "RateLimiter", "internal/limit/limiter.go"},
	{"upload worker", "UploadWorker", "workers/upload/worker.go"},
	{"session cache", "SessionCache", "internal/cache/session.go"},
	{"migration runner", "MigrationRunner", "db/migrate/runner.go"},
	{"notification service", "NotificationService", "notify/service.go"},
	{"report scheduler", "ReportScheduler", "reports/scheduler.go"},
}

// ssIssue is a kind of bug: how a question names it, its cause and its fix, each as phrasing
// templates over {c} (the component's prose name) and {T} (its type).
type ssIssue struct {
	symptoms, causes, fixes []string
	logErr                  string
}

var ssIssues = []ssIssue{
	{symptoms: []string{"the flaky {c} test", "the {c} test that failed only sometimes", "the intermittent test failure in the {c}"},
		causes: []string{"The test compares {T} output against a fixture but ranges over a map, so the order changes from run to run.", "The assertion depends on map iteration order inside {T}.Collect, which Go randomises."},
		fixes:  []string{"I changed the test to sort the keys before comparing, and it passed 500 runs in a row with -count=500.", "Fixed by sorting the collected entries by id before the assertion; it has been green for 500 runs."},
		logErr: "expected [a b c] got [b a c]"},
	{symptoms: []string{"the timeouts in the {c}", "the {c} requests that hung until the deadline", "the {c} calls timing out in production"},
		causes: []string{"The outbound http.Client in {T} has no Timeout, so a slow peer holds the goroutine forever.", "{T}.send builds its request without the caller's context, so nothing ever cancels it."},
		fixes:  []string{"The fix was to give the client a 10 second per-request deadline and pass ctx through with NewRequestWithContext.", "We now pass the context into every call and set Timeout: 10 * time.Second on the client; no hung requests since."},
		logErr: "context deadline exceeded"},
	{symptoms: []string{"the memory growth in the {c}", "the {c} leaking memory", "the {c} using more RAM every hour"},
		causes: []string{"Every call to {T}.Start creates a time.Ticker that is never stopped, so the tickers pile up.", "The heap profile shows tickers created in {T}.Start that are never released."},
		fixes:  []string{"I added defer ticker.Stop() and close the done channel on shutdown; RSS is flat over 24 hours now.", "Resolved by stopping the ticker when the loop exits and reusing one ticker per worker; memory stays flat."},
		logErr: "runtime: out of memory"},
	{symptoms: []string{"the hang in the {c}", "the {c} freezing under load", "the deadlock in the {c}"},
		causes: []string{"Two goroutines take {T}.mu and the registry lock in opposite orders.", "The goroutine dump shows {T}.Flush waiting on the registry lock while Register waits on {T}.mu."},
		fixes:  []string{"We agreed on one lock order: always the registry before the entry, and Flush no longer holds mu while it calls out.", "Fixed by taking the registry lock first everywhere and releasing mu before the callback; the load test ran clean for an hour."},
		logErr: "fatal error: all goroutines are asleep - deadlock!"},
	{symptoms: []string{"the crash in the {c} at startup", "the nil pointer panic in the {c}", "the {c} panicking when it boots"},
		causes: []string{"{T}.cfg is nil when the environment variable is unset, and New does not check it.", "New{T} returns a value whose cfg field is nil if the config file is missing."},
		fixes:  []string{"New{T} now loads a default config when none is given and fails fast with a clear error if a required field is empty.", "The fix: default the config in the constructor and validate it at startup, so a missing variable is an error, not a panic."},
		logErr: "panic: runtime error: invalid memory address or nil pointer dereference"},
	{symptoms: []string{"the slow listing in the {c}", "the {c} query that took seconds", "the {c} page loading slowly"},
		causes: []string{"The query behind {T}.List sorts by created_at with no index on (account_id, created_at), so it scans the table.", "EXPLAIN shows a sequential scan and a sort for {T}.List on every page."},
		fixes:  []string{"I added a composite index on (account_id, created_at) and switched to keyset pagination; p95 went from 3.2 s to 40 ms.", "Solved with an index on (account_id, created_at) and paging by the last seen key instead of OFFSET."},
		logErr: "slow query duration=3204ms"},
	{symptoms: []string{"the data race in the {c}", "the race detector failure in the {c}", "the {c} counters coming out wrong under load"},
		causes: []string{"{T}.count is incremented from several goroutines without synchronisation.", "go test -race reports concurrent writes to {T}.count from the worker goroutines."},
		fixes:  []string{"Switched the counter to atomic.Int64 and the race detector is clean.", "We replaced the plain int with an atomic.Int64 and added a -race run to CI."},
		logErr: "WARNING: DATA RACE"},
	{symptoms: []string{"the missing last item in the {c} results", "the {c} dropping the final page", "the off-by-one in the {c} pagination"},
		causes: []string{"The loop in {T}.Page stops at len(items)-1, so the last element is never returned.", "{T}.Page uses < n-1 where it should use < n."},
		fixes:  []string{"Fixed by fetching page size plus one to detect a next page and returning all of the first n items.", "The loop bound is now len(items), and we fetch one extra row to know whether another page exists."},
		logErr: "expected 25 items, got 24"},
}

// ssDecision is a design choice: how a question asks about it and how it was settled.
type ssDecision struct{ asks, settled []string }

var ssDecisions = []ssDecision{
	{asks: []string{"What retry policy did we settle on for the {c}?", "How are we handling retries in the {c}?", "Remind me what we agreed about backing off in the {c}."},
		settled: []string{"Let's go with exponential backoff starting at 200ms, capped at 30 seconds, full jitter, at most 6 attempts.", "Decision: retries use exponential backoff from 200ms to a 30s cap with jitter, and we give up after six tries."}},
	{asks: []string{"Which YAML parser did we choose for the {c}?", "What library are we using to read config files in the {c}?", "What did we decide about config parsing for the {c}?"},
		settled: []string{"OK, we'll use goccy/go-yaml: it reports line numbers in errors and is faster than yaml.v3.", "Decided: goccy/go-yaml, because its errors point at the line and column."}},
	{asks: []string{"What logging setup did we pick for the {c}?", "How did we decide the {c} should log?", "Which logger are we using in the {c}?"},
		settled: []string{"We'll standardise on log/slog with the JSON handler and a request_id attribute on every line.", "Going with slog's JSON handler; every record carries request_id, no more fmt.Printf."}},
	{asks: []string{"What did we decide about how the {c} stores its state?", "Where does the {c} keep its state now?", "What storage did we agree on for the {c}?"},
		settled: []string{"Final answer: state goes in a Postgres table keyed by tenant, not in Redis, so it survives restarts and joins with billing.", "We agreed to keep it in Postgres, one row per tenant, and drop the Redis copy."}},
	{asks: []string{"What timeout did we agree on for the {c}?", "How long does the {c} wait before giving up?", "What deadline did we choose for the {c}?"},
		settled: []string{"Let's make the deadline 15 seconds end to end, with 5 of those for the upstream call.", "We settled on 15 seconds overall and 5 seconds for the upstream request."}},
	{asks: []string{"How did we decide to version the {c} API?", "What versioning scheme did we pick for the {c}?", "What did we agree on about breaking changes in the {c}?"},
		settled: []string{"Decision: a /v2 path prefix for breaking changes, additive fields allowed in v1, deprecations announced 90 days ahead.", "We'll version in the path (/v2), keep v1 additive only, and give 90 days' notice before removing anything."}},
}

var (
	ssFixAsk = []string{"How did we fix {s}?", "What was the fix for {s} in the end?", "Remind me what solved {s}.", "What did we change to stop {s}?", "What ended up resolving {s}?", "Do you remember how {s} got fixed?"}
	ssWhyAsk = []string{"Why was {s} happening, and what fixed it?", "What caused {s} and how did we solve it?", "What was behind {s}, and what was the fix?"}
	ssPaste  = []string{"Here's the log from the last run, can you see what's wrong?", "Pasting the output below, any idea?", "This keeps showing up, what does it mean?", "CI failed again, full output:", "Got this from production just now:"}
)

// logBlock is a long log of the component: many lines of timestamps, levels and fields, with
// the issue's error among them.
func (g *ssGen) logBlock(c ssComponent, errText string) string {
	var b strings.Builder
	pkg := c.file[:strings.LastIndex(c.file, "/")]
	n := 25 + g.r.IntN(20)
	for i := range n {
		lvl, msg := "info", g.one([]string{"request handled", "batch flushed", "worker started", "cache refreshed", "job queued", "connection reused"})
		if i%7 == 3 {
			lvl, msg = "error", errText
		}
		fmt.Fprintf(&b, "2025-03-%02d 10:%02d:%02d.%03d level=%s component=%s msg=%q duration_ms=%d attempt=%d trace=%08x\n",
			1+g.r.IntN(27), g.r.IntN(60), g.r.IntN(60), g.r.IntN(1000), lvl, pkg, msg, g.r.IntN(900), 1+g.r.IntN(5), g.r.Uint32())
	}
	fmt.Fprintf(&b, "goroutine %d [running]:\n", 10+g.r.IntN(90))
	for _, fn := range []string{"Run", "process", "handle"} {
		fmt.Fprintf(&b, "example.com/app/%s.(*%s).%s(...)\n\t/src/%s:%d +0x%x\n", pkg, c.typ, fn, c.file, 40+g.r.IntN(300), g.r.IntN(4096))
	}
	return b.String()
}

// codeBlock is a Go function of the component, long enough to dominate a turn.
func (g *ssGen) codeBlock(c ssComponent) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\nfunc (x *%s) process(ctx context.Context, items []Item) error {\n", c.file, c.typ)
	for i := range 12 + g.r.IntN(10) {
		fmt.Fprintf(&b, "\tif err := x.step%d(ctx, items[%d:]); err != nil {\n\t\treturn fmt.Errorf(\"step %d: %%w\", err)\n\t}\n", i, i, i)
	}
	b.WriteString("\treturn nil\n}\n")
	return b.String()
}

// codingCase: four components with a bug each (a session with the log, the diagnosis, the fix
// and the confirmation), two with a design decision, sessions about the same components that
// fix nothing, and questions about what was fixed or decided.
func (g *ssGen) codingCase() {
	comps := g.r.Perm(len(ssComponents))
	issues := g.r.Perm(len(ssIssues))
	for i := range 4 {
		c, is := ssComponents[comps[i]], ssIssues[issues[i]]
		causeKey, fixKey := fmt.Sprintf("cause%d", i), fmt.Sprintf("fix%d", i)
		sub := func(s string) string { return fill(s, "c", c.prose, "T", c.typ) }
		s := ssSession{turns: []ssTurn{
			{role: "user", text: g.one(ssPaste) + "\n\n" + g.logBlock(c, is.logErr)},
			{role: "assistant", text: sub(g.one(is.causes)) + " Can you show me " + c.file + "?", keys: []string{causeKey}},
			{role: "user", text: g.codeBlock(c)},
			{role: "assistant", text: sub(g.one(is.fixes)), keys: []string{fixKey}},
			{role: "user", text: "Thanks, re-ran it:\n\n" + g.logBlock(c, "ok")},
			{role: "assistant", text: "Good, that log looks clean now; the " + c.prose + " is back to normal."},
		}}
		g.sessions = append(g.sessions, s)
		// A session about the same component that fixes nothing.
		g.sessions = append(g.sessions, ssSession{turns: []ssTurn{
			{role: "user", text: "Can you explain what this part of " + c.file + " does?\n\n" + g.codeBlock(c)},
			{role: "assistant", text: "It runs each step of the " + c.prose + " in order and wraps the first error with the step's number, so a failure says where it stopped."},
			{role: "user", text: g.one(ssPaste) + "\n\n" + g.logBlock(c, "retrying")},
			{role: "assistant", text: "Those are routine retries of the " + c.prose + "; nothing in this log is an error you need to act on."},
		}})
		symptom := sub(g.phrase(is.symptoms))
		if g.r.IntN(3) == 0 {
			g.questions = append(g.questions, ssQuestion{text: fill(g.phrase(ssWhyAsk), "s", symptom), keys: []string{causeKey, fixKey}})
		} else {
			g.questions = append(g.questions, ssQuestion{text: capFirst(fill(g.phrase(ssFixAsk), "s", symptom)), keys: []string{fixKey}})
		}
	}
	decs := g.r.Perm(len(ssDecisions))
	for i := range 2 {
		c, d := ssComponents[comps[4+i]], ssDecisions[decs[i]]
		key := fmt.Sprintf("decision%d", i)
		g.sessions = append(g.sessions, ssSession{turns: []ssTurn{
			{role: "user", text: "We need to make a call on the " + c.prose + ". Here is the current code:\n\n" + g.codeBlock(c)},
			{role: "assistant", text: "There are a few options, each with trade-offs in simplicity, failure handling and what operators can see. I can lay them out if useful."},
			{role: "user", text: fill(g.one(d.settled), "c", c.prose), keys: []string{key}},
			{role: "assistant", text: "Sounds good, I'll update " + c.file + " accordingly and add a test for it."},
		}})
		g.questions = append(g.questions, ssQuestion{text: fill(g.phrase(d.asks), "c", c.prose), keys: []string{key}})
	}
	g.fillers(8)
}
