package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"
)

// metrics serves /metrics over every cluster: each cluster's API answers its own series (its
// requests, appends, lanes, projection lag and jobs, standbys), which come back with a label
// cluster="<name>"; the process's Go and process series come once, from the home cluster. Each
// cluster checks the request's token as a single-cluster /metrics does, and the first refusal
// is the answer.
func (cr *clusterRouter) metrics(w http.ResponseWriter, r *http.Request) {
	merged := map[string]*dto.MetricFamily{}
	for _, cl := range cr.Directory.Clusters() {
		// The text format, uncompressed, whatever the scraper accepts: it is parsed here.
		req := r.Clone(r.Context())
		req.Header.Del("Accept-Encoding")
		req.Header.Set("Accept", "text/plain")
		rec, ok := cr.ask(w, cl.Name, req)
		if !ok {
			return
		}
		var parser expfmt.TextParser
		families, err := parser.TextToMetricFamilies(&rec.body)
		if err != nil {
			writeError(w, r, cr.Logger, fmt.Errorf("read the metrics of cluster %s: %w", cl.Name, err))
			return
		}
		for name, mf := range families {
			process := strings.HasPrefix(name, "go_") || strings.HasPrefix(name, "process_")
			if process && cl.Name != cr.Home {
				continue
			}
			if !process {
				for _, m := range mf.Metric {
					m.Label = append(m.Label, &dto.LabelPair{Name: proto.String("cluster"), Value: proto.String(cl.Name)})
				}
			}
			if into, ok := merged[name]; ok {
				into.Metric = append(into.Metric, mf.Metric...)
			} else {
				merged[name] = mf
			}
		}
	}
	names := make([]string, 0, len(merged))
	for name := range merged {
		names = append(names, name)
	}
	slices.Sort(names)
	w.Header().Set("Content-Type", string(expfmt.NewFormat(expfmt.TypeTextPlain)))
	for _, name := range names {
		if _, err := expfmt.MetricFamilyToText(w, merged[name]); err != nil {
			cr.Logger.ErrorContext(r.Context(), "write metrics", "error", err)
			return
		}
	}
}
