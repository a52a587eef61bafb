package api

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/lifecycle"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/policy"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/review"
)

// Services are what the API serves with, each built once by the caller (zaxy's composition
// root, cmd/zaxy/services.go) and shared by every request. NewHandler builds none of them and
// no handler builds one per request: every field is required except Auth, and a missing one
// is NewHandler's error naming it.
type Services struct {
	// Pool serves the hot reads and readiness; Store, built on it, the appends.
	Pool  *pgxpool.Pool
	Store *eventloom.Store
	// Analytics serves the analytics routes (AnalyticsRoute: Cypher, facts, entities, the
	// disclosure views, verify), so that broad reads cannot take the connections appends,
	// checkout and token checks need; AnalyticsStore is the log read through it (verify). They
	// may be Pool and Store.
	Analytics      *pgxpool.Pool
	AnalyticsStore *eventloom.Store
	// Auth checks bearer tokens on every /v1 route; nil serves without authentication (zaxy
	// serve sets it unless ZAXY_AUTH=off on a loopback address).
	Auth *auth.Store
	// Checkout answers /checkout, /query, /weave and /prospective (on a standby, its
	// ReadingFrom in Standbys).
	Checkout *checkout.Service
	// Lifecycle answers /context, /handoff, the subagent cleanups and the session resumes
	// (/context/assemble and /handoff on a standby: its ReadingFrom in Standbys).
	Lifecycle *lifecycle.Service
	// FeelingOfKnowing answers /feeling-of-knowing (on a standby, its ReadingFrom in Standbys).
	FeelingOfKnowing *metamemory.Service
	// Ingest serves /documents and /transcripts.
	Ingest *ingest.Ingester
	// Erasure serves /erasures.
	Erasure *erasure.Service
	// Policies serves /policies.
	Policies *policy.Service
	// MemoryActions serves /actions (the reading ones on a standby: its ReadingFrom in
	// Standbys).
	MemoryActions *memoryaction.Actions
	// Review decides the proposals under /review.
	Review *review.Decider
	// SharedBudgets, when set, keeps each caller's in-flight budgets and fair pool shares in
	// the database, shared by every instance on it (OpenSharedBudgets); nil keeps them per
	// process.
	SharedBudgets *SharedBudgets
	// Replicas routes the reads that may run on a standby (replicaRoutes) and gives writes their
	// consistency token; nil, or a set without standbys, reads everything from Pool and
	// Analytics and answers writes without a token.
	Replicas *replica.Set
	// Standbys are the services a read routed to each standby of Replicas uses, one entry per
	// standby (StandbyServicesOf builds them); required when Replicas has standbys.
	Standbys map[*replica.Standby]StandbyServices
}

// StandbyServices are what a read served by one standby runs on: the log read there, and the
// services that read there and append what they record (the surfacing of a checkout, a weave, a
// prospective pass, an assembly or a reading memory action) through the primary's store.
type StandbyServices struct {
	Store    *eventloom.Store
	Checkout *checkout.Service
	// Lifecycle answers /context/assemble and /handoff; the lifecycle routes that append stay
	// on Services.Lifecycle.
	Lifecycle *lifecycle.Service
	// FeelingOfKnowing answers /feeling-of-knowing, from sketches of its own.
	FeelingOfKnowing *metamemory.Service
	// MemoryActions answers the reading memory actions; the writing ones stay on
	// Services.MemoryActions.
	MemoryActions *memoryaction.Actions
}

// StandbyServicesOf builds the services of every standby of replicas from primary's (the
// Services the API serves with): a log on each standby's pool, and primary's checkout,
// lifecycle, feeling of knowing and memory actions ReadingFrom it (checkout.Service.ReadingFrom
// and the like), each appending through primary's store. Those four of primary must be set.
// Nil without standbys.
func StandbyServicesOf(replicas *replica.Set, primary Services, logger *slog.Logger) map[*replica.Standby]StandbyServices {
	if !replicas.Enabled() {
		return nil
	}
	out := map[*replica.Standby]StandbyServices{}
	for _, st := range replicas.Standbys() {
		store := eventloom.NewStore(st.Pool, nil, logger)
		co := primary.Checkout.ReadingFrom(st.Pool, store)
		out[st] = StandbyServices{Store: store, Checkout: co,
			Lifecycle:        primary.Lifecycle.ReadingFrom(st.Pool, store, co),
			FeelingOfKnowing: primary.FeelingOfKnowing.ReadingFrom(st.Pool),
			MemoryActions:    primary.MemoryActions.ReadingFrom(st.Pool)}
	}
	return out
}

// validate names every required service s lacks.
func (s Services) validate() error {
	required := []struct {
		name string
		nil  bool
	}{
		{"Pool", s.Pool == nil}, {"Store", s.Store == nil}, {"Analytics", s.Analytics == nil},
		{"AnalyticsStore", s.AnalyticsStore == nil}, {"Checkout", s.Checkout == nil}, {"Lifecycle", s.Lifecycle == nil},
		{"FeelingOfKnowing", s.FeelingOfKnowing == nil}, {"Ingest", s.Ingest == nil},
		{"Erasure", s.Erasure == nil}, {"Policies", s.Policies == nil},
		{"MemoryActions", s.MemoryActions == nil}, {"Review", s.Review == nil},
	}
	var errs []error
	if s.Replicas.Enabled() {
		for _, st := range s.Replicas.Standbys() {
			if sv, ok := s.Standbys[st]; !ok || sv.Store == nil || sv.Checkout == nil || sv.Lifecycle == nil ||
				sv.FeelingOfKnowing == nil || sv.MemoryActions == nil {
				errs = append(errs, errors.New("api: Services.Standbys needs each standby of Replicas (StandbyServicesOf)"))
				break
			}
		}
	}
	for _, r := range required {
		if r.nil {
			errs = append(errs, fmt.Errorf("api: Services.%s is required", r.name))
		}
	}
	return errors.Join(errs...)
}
