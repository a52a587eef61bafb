package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/placement"
)

// readClusters reads ZAXY_CLUSTERS and ZAXY_CLUSTER_WEIGHTS, with each other cluster's standbys
// from ZAXY_REPLICA_URLS_<NAME> (the home cluster's are ZAXY_REPLICA_URLS); nil without
// ZAXY_CLUSTERS.
func readClusters(r envReader, c *config) ([]placement.Cluster, error) {
	spec := r.str("ZAXY_CLUSTERS")
	if strings.TrimSpace(spec) == "" {
		if r.str("ZAXY_CLUSTER_WEIGHTS") != "" {
			return nil, fmt.Errorf("ZAXY_CLUSTER_WEIGHTS is set but ZAXY_CLUSTERS is not")
		}
		return nil, nil
	}
	if c.databaseURL == "" {
		return nil, fmt.Errorf("ZAXY_CLUSTERS needs ZAXY_DATABASE_URL: the home cluster, where the placement directory and the tokens live")
	}
	clusters, err := placement.ParseClusters(spec, r.str("ZAXY_CLUSTER_WEIGHTS"), c.databaseURL)
	if err != nil {
		return nil, err
	}
	for i := range clusters {
		cl := &clusters[i]
		if _, err := pgxpool.ParseConfig(cl.URL); err != nil {
			return nil, fmt.Errorf("ZAXY_CLUSTERS: the URL of cluster %q does not parse as a PostgreSQL URL", cl.Name)
		}
		if cl.URL == c.databaseURL {
			cl.ReplicaURLs = c.replicas.urls
			continue
		}
		v := replicaURLsVar(cl.Name)
		for j, u := range strings.Split(r.getenv(v), ",") {
			if u = strings.TrimSpace(u); u == "" {
				continue
			}
			if _, err := pgxpool.ParseConfig(u); err != nil {
				return nil, fmt.Errorf("%s: URL %d does not parse as a PostgreSQL URL", v, j+1)
			}
			cl.ReplicaURLs = append(cl.ReplicaURLs, u)
		}
	}
	return clusters, nil
}

// replicaURLsVar is the variable listing the standbys of the cluster called name.
func replicaURLsVar(name string) string {
	return "ZAXY_REPLICA_URLS_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// clusterConfig is cfg for the cluster cl: its URL as ZAXY_DATABASE_URL, its standbys as
// ZAXY_REPLICA_URLS, everything else as configured.
func clusterConfig(cfg *config, cl placement.Cluster) *config {
	c := *cfg
	c.databaseURL = cl.URL
	c.replicas.urls = cl.ReplicaURLs
	if len(cfg.clusters) > 0 {
		c.replicas.cluster = cl.Name
	}
	return &c
}

// servedClusters are the clusters zaxy serve serves: those of ZAXY_CLUSTERS, or the one of
// ZAXY_DATABASE_URL.
func servedClusters(cfg *config) []placement.Cluster {
	if len(cfg.clusters) > 0 {
		return cfg.clusters
	}
	return []placement.Cluster{{Name: placement.HomeName, URL: cfg.databaseURL, Weight: 1, ReplicaURLs: cfg.replicas.urls}}
}

// openSites opens, for zaxy space move, a pool as configured on every cluster (the schema
// owner's URLs, as migrate uses) with its projector, latent builder and job outbox; close
// closes them.
func openSites(ctx context.Context, cfg *config, logger *slog.Logger) (sites map[string]placement.Site, close func(), err error) {
	sites = map[string]placement.Site{}
	var pools []*pgxpool.Pool
	close = func() {
		for _, p := range pools {
			p.Close()
		}
	}
	for _, cl := range servedClusters(cfg) {
		pool, err := newPoolSized(ctx, cl.URL, 8, "zaxy-move")
		if err != nil {
			close()
			return nil, nil, fmt.Errorf("open cluster %s: %w", cl.Name, err)
		}
		pools = append(pools, pool)
		site, err := newSite(ctx, cfg, cl.Name, pool, logger)
		if err != nil {
			close()
			return nil, nil, err
		}
		sites[cl.Name] = site
	}
	return sites, close, nil
}
