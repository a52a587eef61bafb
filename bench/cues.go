package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
)

// CueScores are the ranking scores of one way of asking the cue lane's questions.
type CueScores struct {
	// Hit1 and Hit3 are the shares of questions whose expected note ranks first, or in the top 3.
	Hit1 float64 `json:"hit@1"`
	Hit3 float64 `json:"hit@3"`
	// MRR is the mean reciprocal rank of the expected note (0 when it is not in the top 10).
	MRR float64 `json:"mrr@10"`
	// Stray3 is the share of questions with a note that matches only the cue (no query word)
	// in the top 3.
	Stray3 float64 `json:"stray@3"`
}

// CuesReport is what Cues measured (zaxy bench cues prints it, as JSON with --json).
type CuesReport struct {
	Repos     int `json:"repos"`
	Questions int `json:"questions"`
	Events    int `json:"events"`
	// Plain asks without cues; Cued with the repository the question is about ({"repo": ...});
	// Misleading with another repository's; Unknown with a repository no event carries (it must
	// equal Plain).
	Plain      CueScores `json:"plain"`
	Cued       CueScores `json:"cued"`
	Misleading CueScores `json:"misleading"`
	Unknown    CueScores `json:"unknown"`
}

// CuesOptions configures Cues.
type CuesOptions struct {
	// Embedder is the embedding provider of the vector lane; nil runs without it.
	Embedder embedding.Embedder
	// OpenPool opens the scratch database's pool; required.
	OpenPool func(ctx context.Context, url string) (*pgxpool.Pool, error)
	// Logger receives the store's and the projector's logs.
	Logger *slog.Logger
}

// cueRepos, cueComponents and cueCauses generate the cue lane's space: every repository has a
// note on why each component's tests fail, with a cause of its own, so a question about a
// component matches one note per repository equally well and only the cue says which is meant.
var (
	cueRepos      = []string{"atlas", "borealis", "cobalt", "dune", "ember", "fjord"}
	cueComponents = []string{"login", "checkout", "search", "upload", "billing", "export", "sync", "invite", "audit", "cache"}
	cueCauses     = []string{
		"the fixture clock is not frozen", "a port is already taken on the runner", "the mock server answers too slowly",
		"the seed data is missing one row", "a goroutine leaks between cases", "the temp directory is shared",
		"an environment variable from another job leaks in", "the retry budget runs out under load",
	}
	cueStrays = []string{"Lunch for the offsite is booked.", "The team photo is on Friday.", "New laptops arrive next week.",
		"The office plants need water.", "Parking passes were renewed."}
)

// Cues measures what checkout's cues do to ranking on a generated space in a scratch database
// beside dbURL's: len(cueRepos) repositories, each with a note per component explaining its
// failing tests (cued {"repo", "task"}) and unrelated notes cued with the repository only. Each
// question asks why one component's tests fail, four ways: without cues, cued with the
// repository meant, with another one, and with one no event carries.
func Cues(ctx context.Context, dbURL string, o CuesOptions) (*CuesReport, error) {
	if o.OpenPool == nil {
		return nil, errors.New("OpenPool is required")
	}
	if dbURL == "" {
		return nil, errors.New("no database URL to create the scratch database beside")
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	scratch, drop, err := scratchDatabase(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer drop()
	pool, err := o.OpenPool(ctx, scratch)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	const space = "cues"
	store := eventloom.NewStore(pool, nil, logger)
	var evs []eventloom.NewEvent
	cued := func(session, text string, cues map[string]string) eventloom.NewEvent {
		raw, _ := json.Marshal(cues)
		return eventloom.NewEvent{Type: "message", SessionID: session, Content: text, Data: json.RawMessage(`{"role":"assistant"}`), Cues: raw}
	}
	// expected[repo][component] is the seq of that repository's note on the component.
	expected := map[string]map[string]int64{}
	strays := map[int64]bool{}
	seq := int64(0)
	for ri, repo := range cueRepos {
		expected[repo] = map[string]int64{}
		for ci, comp := range cueComponents {
			cause := cueCauses[(ri+ci*3)%len(cueCauses)]
			evs = append(evs, cued(fmt.Sprintf("%s-%d", repo, ci), fmt.Sprintf("The %s tests fail because %s.", comp, cause),
				map[string]string{"repo": repo, "task": fmt.Sprintf("%s-%d", repo, ci)}))
			seq++
			expected[repo][comp] = seq
		}
		for si, text := range cueStrays {
			evs = append(evs, cued(fmt.Sprintf("%s-stray-%d", repo, si), text, map[string]string{"repo": repo}))
			seq++
			strays[seq] = true
		}
	}
	if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: evs}); err != nil {
		return nil, err
	}
	proj, err := projection.New(ctx, pool, projection.Config{Logger: logger})
	if err != nil {
		return nil, err
	}
	if _, err := proj.ProjectSpace(ctx, space); err != nil {
		return nil, err
	}
	if o.Embedder != nil {
		if _, err := projection.NewEmbedder(pool, o.Embedder, 512).EmbedSpace(ctx, space); err != nil {
			return nil, err
		}
	}
	svc := checkout.New(pool, store, checkout.Config{Embedder: o.Embedder, Logger: logger})
	rep := &CuesReport{Repos: len(cueRepos), Events: len(evs)}
	ways := []struct {
		scores *CueScores
		cues   func(ri int) checkout.Cues
	}{
		{&rep.Plain, func(int) checkout.Cues { return nil }},
		{&rep.Cued, func(ri int) checkout.Cues { return checkout.Cues{"repo": cueRepos[ri]} }},
		{&rep.Misleading, func(ri int) checkout.Cues { return checkout.Cues{"repo": cueRepos[(ri+1)%len(cueRepos)]} }},
		{&rep.Unknown, func(int) checkout.Cues { return checkout.Cues{"repo": "nowhere"} }},
	}
	for _, w := range ways {
		n := 0
		for ri, repo := range cueRepos {
			for _, comp := range cueComponents {
				res, err := svc.Query(ctx, &checkout.Request{SpaceID: space, Query: fmt.Sprintf("Why do the %s tests fail?", comp),
					Limit: 10, Cues: w.cues(ri), DisableLanes: []string{checkout.LaneRecent}})
				if err != nil {
					return nil, err
				}
				n++
				want := memoryitem.EventID(expected[repo][comp])
				stray := false
				for i, it := range res.Items {
					if it.ItemID == want {
						w.scores.MRR += 1 / float64(i+1)
						if i == 0 {
							w.scores.Hit1++
						}
						if i < 3 {
							w.scores.Hit3++
						}
					}
					if i < 3 && strays[seqOf(it.ItemID)] {
						stray = true
					}
				}
				if stray {
					w.scores.Stray3++
				}
			}
		}
		w.scores.Hit1 /= float64(n)
		w.scores.Hit3 /= float64(n)
		w.scores.MRR /= float64(n)
		w.scores.Stray3 /= float64(n)
		rep.Questions = n
	}
	return rep, nil
}

// seqOf is the seq of an event item id ("ev:12"), or 0.
func seqOf(id string) int64 {
	seq, _ := memoryitem.ParseEventID(id)
	return seq
}

// WriteText writes the report as zaxy bench cues prints it.
func (rep *CuesReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%d repositories, %d events, %d questions (each matches one note per repository equally)\n", rep.Repos, rep.Events, rep.Questions)
	fmt.Fprintf(w, "| asked | hit@1 | hit@3 | MRR@10 | stray in top 3 |\n|---|---:|---:|---:|---:|\n")
	for _, row := range []struct {
		name string
		s    CueScores
	}{{"without cues", rep.Plain}, {"cued with the repository meant", rep.Cued}, {"cued with another repository", rep.Misleading}, {"cued with an unknown repository", rep.Unknown}} {
		fmt.Fprintf(w, "| %s | %.3f | %.3f | %.3f | %.3f |\n", row.name, row.s.Hit1, row.s.Hit3, row.s.MRR, row.s.Stray3)
	}
}
