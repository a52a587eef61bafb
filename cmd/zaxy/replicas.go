package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/doctor"
	"github.com/zaxy/zaxy/replica"
)

// replicaConfig is the read replicas zaxy serve reads from.
type replicaConfig struct {
	// urls are the standbys' URLs (ZAXY_REPLICA_URLS); none reads everything from the primary.
	urls []string
	// wait and maxLag are ZAXY_REPLICA_WAIT and ZAXY_REPLICA_MAX_LAG.
	wait, maxLag time.Duration
	// cluster names the cluster in its consistency tokens (with ZAXY_CLUSTERS; "" without).
	cluster string
}

// readReplicaConfig reads ZAXY_REPLICA_URLS (each a URL pgx parses), ZAXY_REPLICA_WAIT and
// ZAXY_REPLICA_MAX_LAG.
func readReplicaConfig(r envReader) (replicaConfig, error) {
	var c replicaConfig
	for i, u := range strings.Split(r.str("ZAXY_REPLICA_URLS"), ",") {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		if _, err := pgxpool.ParseConfig(u); err != nil {
			return c, fmt.Errorf("ZAXY_REPLICA_URLS: URL %d does not parse as a PostgreSQL URL", i+1)
		}
		c.urls = append(c.urls, u)
	}
	var err error
	if c.wait, err = r.duration("ZAXY_REPLICA_WAIT", 0); err != nil {
		return c, err
	}
	if c.maxLag, err = r.duration("ZAXY_REPLICA_MAX_LAG", 0); err != nil {
		return c, err
	}
	return c, nil
}

// openReplicas opens a pool per standby of cfg and starts the set's health loop until ctx
// ends; without standbys it returns a nil set. The pools connect lazily, so a standby that is
// down at start only serves no reads until it is up. close closes the pools.
func openReplicas(ctx context.Context, cfg *config, primary *pgxpool.Pool, logger *slog.Logger) (set *replica.Set, close func(), err error) {
	if len(cfg.replicas.urls) == 0 {
		return nil, func() {}, nil
	}
	var standbys []*replica.Standby
	close = func() {
		for _, st := range standbys {
			st.Pool.Close()
		}
	}
	for i, u := range cfg.replicas.urls {
		pool, err := newPoolSized(ctx, u, cfg.pools.hot+cfg.pools.analytics, "zaxy-replica")
		if err != nil {
			close()
			return nil, nil, fmt.Errorf("open standby %d of ZAXY_REPLICA_URLS: %w", i+1, err)
		}
		standbys = append(standbys, &replica.Standby{Name: poolName(pool), Pool: pool})
	}
	set = replica.NewSet(primary, standbys, replica.Config{Wait: cfg.replicas.wait, MaxLag: cfg.replicas.maxLag, Logger: logger, Cluster: cfg.replicas.cluster})
	go set.Run(ctx)
	return set, close, nil
}

// doctorStandbys opens a small pool on each standby of ZAXY_REPLICA_URLS for zaxy doctor's
// standby checks; close closes them.
func doctorStandbys(ctx context.Context, cfg *config) (standbys []doctor.Standby, close func(), err error) {
	close = func() {
		for _, st := range standbys {
			st.Pool.Close()
		}
	}
	for i, u := range cfg.replicas.urls {
		pool, err := newPoolSized(ctx, u, 2, "zaxy-doctor")
		if err != nil {
			close()
			return nil, nil, fmt.Errorf("open standby %d of ZAXY_REPLICA_URLS: %w", i+1, err)
		}
		standbys = append(standbys, doctor.Standby{Name: poolName(pool), Pool: pool})
	}
	return standbys, close, nil
}

// poolName is a pool's host:port.
func poolName(pool *pgxpool.Pool) string {
	c := pool.Config().ConnConfig
	return net.JoinHostPort(c.Host, fmt.Sprint(c.Port))
}
