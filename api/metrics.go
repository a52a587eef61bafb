package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/doctor"
	"github.com/zaxy/zaxy/internal/buildinfo"
	"github.com/zaxy/zaxy/replica"
)

// metrics are the Prometheus series /metrics serves. Each handler has its own registry.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.HistogramVec
	appended prometheus.Counter
	lanes    *prometheus.HistogramVec
}

func newMetrics(pool *pgxpool.Pool, replicas *replica.Set) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "zaxy_http_request_duration_seconds", Help: "HTTP request latency by route pattern, method and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10},
		}, []string{"route", "method", "status"}),
		appended: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "zaxy_events_appended_total", Help: "Events appended through the HTTP API (replayed idempotent retries not counted).",
		}),
		lanes: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "zaxy_checkout_lane_seconds", Help: "Checkout lane timings.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25},
		}, []string{"lane"}),
	}
	bi := buildinfo.Get()
	build := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "zaxy_build_info", Help: "The running build: always 1, labelled with its version, VCS revision and Go version.",
	}, []string{"version", "revision", "goversion"})
	build.WithLabelValues(bi.Version, bi.Revision, bi.GoVersion).Set(1)
	m.registry.MustRegister(build, m.requests, m.appended, m.lanes, &dbCollector{pool: pool}, &replicaCollector{set: replicas},
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return m
}

// observeRequest records one request's latency under its route pattern (not its path, so
// space ids do not become label values).
func (m *metrics) observeRequest(route, method string, status int, took time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Observe(took.Seconds())
}

// observeCheckout records a packet's lane timings.
func (m *metrics) observeCheckout(p *checkout.Packet) {
	for lane, st := range p.Diagnostics.Lanes {
		if !st.Off {
			m.lanes.WithLabelValues(lane).Observe(st.MS / 1000)
		}
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// dbCollector reads projection lag and River job outcomes from the database at scrape time.
type dbCollector struct{ pool *pgxpool.Pool }

var (
	lagTotalDesc  = prometheus.NewDesc("zaxy_projection_lag_events", "Events logged but not yet projected, over all spaces.", nil, nil)
	lagMaxDesc    = prometheus.NewDesc("zaxy_projection_lag_max_events", "The largest projection lag of any space.", nil, nil)
	laggingDesc   = prometheus.NewDesc("zaxy_projection_lagging_spaces", "Spaces whose projections lag behind their log.", nil, nil)
	jobsStateDesc = prometheus.NewDesc("zaxy_jobs", "River jobs by kind and state (completed jobs are kept for a day).", []string{"kind", "state"}, nil)
)

// Describe implements prometheus.Collector.
func (c *dbCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- lagTotalDesc
	ch <- lagMaxDesc
	ch <- laggingDesc
	ch <- jobsStateDesc
}

// Collect implements prometheus.Collector; a database error skips the series.
func (c *dbCollector) Collect(ch chan<- prometheus.Metric) {
	if c.pool == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if lag, err := doctor.Lag(ctx, c.pool); err == nil {
		ch <- prometheus.MustNewConstMetric(lagTotalDesc, prometheus.GaugeValue, float64(lag.TotalLag))
		ch <- prometheus.MustNewConstMetric(lagMaxDesc, prometheus.GaugeValue, float64(lag.MaxLag))
		ch <- prometheus.MustNewConstMetric(laggingDesc, prometheus.GaugeValue, float64(lag.LaggingSpaces))
	}
	jobs, err := queries.JobsByState(ctx, c.pool)
	if err != nil {
		return
	}
	for _, j := range jobs {
		ch <- prometheus.MustNewConstMetric(jobsStateDesc, prometheus.GaugeValue, float64(j.Jobs), j.Kind, j.State)
	}
}
