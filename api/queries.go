package api

import "github.com/zaxy/zaxy/api/internal/dbsqlc"

// queries runs the api's own queries compiled by sqlc (sql/api, api/internal/dbsqlc); its
// hand-written one (sql/api/handwritten/replay_fit) is qReplayFit in limits.go.
var queries = dbsqlc.New()
