package api

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/placement"
)

// ClusterHeader names, on every answer about one space, the cluster that served it.
const ClusterHeader = "Zaxy-Cluster"

// Clusters are what NewClusterRouter routes over: the API's handler for each cluster (each
// built by NewHandler on that cluster's pools, workers and standbys, with the home cluster's
// token store), the directory that places spaces on them, and the home cluster's name.
type Clusters struct {
	Directory *placement.Directory
	// Home names the cluster that answers everything not about one space (health, metrics,
	// the OpenAPI document) and every request the directory cannot route.
	Home string
	// Handlers are the API of each cluster, by name; every cluster of Directory needs one.
	Handlers map[string]http.Handler
	// Auth is the token store (on the home cluster); nil serves without authentication.
	Auth   *auth.Store
	Logger *slog.Logger
}

// clusterRouter is the API over several clusters (docs/scaling.md, "Spaces across clusters").
type clusterRouter struct {
	Clusters
	home http.Handler
}

// NewClusterRouter serves the API over the clusters of c: a request about one space goes to the
// cluster the directory places it on (placing a new space by the rule on its first request that
// a token reaching it makes, so that nobody else can fill the directory), answered with
// ClusterHeader; GET /v1/spaces asks every cluster and merges their answers; /readyz is ready
// when every cluster is; /metrics merges every cluster's series under a cluster label;
// everything else is the home cluster's. The directory is read on every
// request, so a move's flip is seen by every instance at once.
func NewClusterRouter(c Clusters) (http.Handler, error) {
	if c.Directory == nil {
		return nil, fmt.Errorf("api: Clusters.Directory is required")
	}
	for _, cl := range c.Directory.Clusters() {
		if c.Handlers[cl.Name] == nil {
			return nil, fmt.Errorf("api: Clusters.Handlers has no handler for cluster %q", cl.Name)
		}
	}
	home := c.Handlers[c.Home]
	if home == nil {
		return nil, fmt.Errorf("api: Clusters.Home %q has no handler", c.Home)
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return &clusterRouter{Clusters: c, home: home}, nil
}

func (cr *clusterRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/v1/spaces" && r.Method == http.MethodGet:
		cr.listSpaces(w, r)
	case r.URL.Path == "/readyz":
		cr.readyz(w, r)
	case r.URL.Path == "/metrics" && r.Method == http.MethodGet:
		cr.metrics(w, r)
	case strings.HasPrefix(r.URL.Path, "/v1/spaces/"):
		cr.routeSpace(w, r)
	default:
		cr.home.ServeHTTP(w, r)
	}
}

// routeSpace serves a request about the space in its path on the space's cluster. A space id
// that is not valid, or that the request's token does not reach, goes to the home cluster, which
// answers 400, 401 or 403 as any cluster would, without placing it.
func (cr *clusterRouter) routeSpace(w http.ResponseWriter, r *http.Request) {
	space, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/v1/spaces/"), "/")
	if eventloom.ValidateSpaceID(space) != nil {
		cr.home.ServeHTTP(w, r)
		return
	}
	if cr.Auth != nil {
		if _, err := cr.Auth.Authorize(r.Context(), bearerToken(r.Header.Get("Authorization")), space, auth.ScopeRead); err != nil {
			cr.home.ServeHTTP(w, r)
			return
		}
	}
	name, err := cr.Directory.Resolve(r.Context(), space)
	if err != nil {
		writeError(w, r, cr.Logger, err)
		return
	}
	h := cr.Handlers[name]
	if h == nil {
		writeError(w, r, cr.Logger, &apiError{status: http.StatusServiceUnavailable, code: "cluster_unavailable", retryAfter: databaseRetryAfter,
			message: fmt.Sprintf("space %q lives on cluster %q, which this instance is not configured with (ZAXY_CLUSTERS)", space, name)})
		return
	}
	w.Header().Set(ClusterHeader, name)
	h.ServeHTTP(w, r)
}

// listSpaces serves GET /v1/spaces from every cluster: each lists the spaces it holds that the
// token reaches, and each space is listed once, from the cluster the directory places it on (a
// space no cluster has an event of yet, listed by every cluster for a token naming it, once).
func (cr *clusterRouter) listSpaces(w http.ResponseWriter, r *http.Request) {
	merged := spacesResponse{AllSpaces: true}
	listed := map[string]map[string]SpaceSummary{} // space -> cluster -> its summary there
	for _, cl := range cr.Directory.Clusters() {
		rec, ok := cr.ask(w, cl.Name, r.Clone(r.Context()))
		if !ok {
			return
		}
		var part spacesResponse
		if err := json.Unmarshal(rec.body.Bytes(), &part); err != nil {
			writeError(w, r, cr.Logger, fmt.Errorf("list spaces of cluster %s: %w", cl.Name, err))
			return
		}
		merged.AllSpaces = merged.AllSpaces && part.AllSpaces
		for _, sp := range part.Spaces {
			if listed[sp.SpaceID] == nil {
				listed[sp.SpaceID] = map[string]SpaceSummary{}
			}
			listed[sp.SpaceID][cl.Name] = sp
		}
	}
	ids := make([]string, 0, len(listed))
	for id := range listed {
		ids = append(ids, id)
	}
	placed, err := cr.Directory.Placed(r.Context(), ids)
	if err != nil {
		writeError(w, r, cr.Logger, err)
		return
	}
	for id, on := range listed {
		// The summary of the cluster that serves the space; for a space placed nowhere yet,
		// the longest log (a space with no event is listed, with head 0, by every cluster).
		sp, ok := on[placed[id]]
		if !ok {
			for _, cl := range cr.Directory.Clusters() {
				if c, has := on[cl.Name]; has && (!ok || c.HeadSeq > sp.HeadSeq) {
					sp, ok = c, true
				}
			}
		}
		merged.Spaces = append(merged.Spaces, sp)
	}
	slices.SortFunc(merged.Spaces, func(a, b SpaceSummary) int { return cmp.Compare(a.SpaceID, b.SpaceID) })
	if len(merged.Spaces) > maxListedSpaces {
		merged.Spaces = merged.Spaces[:maxListedSpaces]
	}
	if merged.Spaces == nil {
		merged.Spaces = []SpaceSummary{}
	}
	_ = writeResponse(w, merged, 0)
}

// readyz is ready when every cluster's API is: the first that is not answers for all.
func (cr *clusterRouter) readyz(w http.ResponseWriter, r *http.Request) {
	for _, cl := range cr.Directory.Clusters() {
		if cl.Name == cr.Home {
			continue
		}
		if _, ok := cr.ask(w, cl.Name, r.Clone(r.Context())); !ok {
			return
		}
	}
	cr.home.ServeHTTP(w, r)
}

// ask serves req on the cluster called name and returns its answer when it is 200; any other
// answer it has written to w, naming the cluster, and ok is false.
func (cr *clusterRouter) ask(w http.ResponseWriter, name string, req *http.Request) (rec *recorder, ok bool) {
	rec = newRecorder()
	cr.Handlers[name].ServeHTTP(rec, req)
	if rec.status != http.StatusOK {
		rec.header.Set(ClusterHeader, name)
		rec.copyTo(w)
		return nil, false
	}
	return rec, true
}

// recorder keeps a handler's answer to merge or forward it.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}, status: http.StatusOK} }

func (rec *recorder) Header() http.Header         { return rec.header }
func (rec *recorder) Write(b []byte) (int, error) { return rec.body.Write(b) }
func (rec *recorder) WriteHeader(status int)      { rec.status = status }

// copyTo writes the recorded answer to w.
func (rec *recorder) copyTo(w http.ResponseWriter) {
	for k, vs := range rec.header {
		w.Header()[k] = vs
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body.Bytes())
}
