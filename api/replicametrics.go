package api

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/zaxy/zaxy/replica"
)

// replicaCollector serves the read routing's counts (replica.Set.Stats) and each standby's
// measured state at scrape time. With no standbys every routed read counts as the primary's.
type replicaCollector struct{ set *replica.Set }

var (
	readsDesc = prometheus.NewDesc("zaxy_reads_total",
		"Reads of the routes that may run on a standby, by where they ran (primary or replica).", []string{"from"}, nil)
	readWaitsDesc = prometheus.NewDesc("zaxy_read_waits_total",
		"Reads with a consistency token that waited for a standby to reach it.", nil, nil)
	readFallbacksDesc = prometheus.NewDesc("zaxy_read_fallbacks_total",
		"Reads that went to the primary because no standby reached their token in time, or a standby failed them.", nil, nil)
	standbyUpDesc = prometheus.NewDesc("zaxy_standby_up",
		"Whether the standby answered its last health measurement (1) or not (0).", []string{"standby"}, nil)
	standbyLagDesc = prometheus.NewDesc("zaxy_standby_lag_seconds",
		"The standby's last measured lag behind the primary.", []string{"standby"}, nil)
)

// Describe implements prometheus.Collector.
func (c *replicaCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- readsDesc
	ch <- readWaitsDesc
	ch <- readFallbacksDesc
	ch <- standbyUpDesc
	ch <- standbyLagDesc
}

// Collect implements prometheus.Collector.
func (c *replicaCollector) Collect(ch chan<- prometheus.Metric) {
	var st replica.Stats
	if c.set != nil {
		st = c.set.Stats()
	}
	ch <- prometheus.MustNewConstMetric(readsDesc, prometheus.CounterValue, float64(st.Primary), replica.FromPrimary)
	ch <- prometheus.MustNewConstMetric(readsDesc, prometheus.CounterValue, float64(st.Replica), replica.FromReplica)
	ch <- prometheus.MustNewConstMetric(readWaitsDesc, prometheus.CounterValue, float64(st.Waits))
	ch <- prometheus.MustNewConstMetric(readFallbacksDesc, prometheus.CounterValue, float64(st.Fallbacks))
	if c.set == nil {
		return
	}
	for _, sb := range c.set.Standbys() {
		up := 0.0
		if sb.Up() {
			up = 1
		}
		ch <- prometheus.MustNewConstMetric(standbyUpDesc, prometheus.GaugeValue, up, sb.Name)
		ch <- prometheus.MustNewConstMetric(standbyLagDesc, prometheus.GaugeValue, sb.Lag().Seconds(), sb.Name)
	}
}
