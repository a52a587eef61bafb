package mcp

import (
	"errors"
	"net/http"

	"github.com/zaxy/zaxy/auth"
)

// Services are what the MCP server serves with, each built once by the caller (zaxy's
// composition root, cmd/zaxy/services.go) and shared by every session and tool call. NewServer,
// ServeStdio and NewHTTPHandler build none of them: API is required, and a missing one is
// their error naming it.
type Services struct {
	// API serves every tool call: the handler api.NewHandler returns. Required.
	API http.Handler
	// Auth checks bearer tokens on the streamable HTTP endpoint: a request without a valid one
	// gets 401 before MCP sees it, and each tool call is then authorized by the API for its
	// space and scope. Nil serves that endpoint without tokens (ZAXY_AUTH=off, loopback only).
	// Over stdio the API checks Config.Token on every call instead.
	Auth *auth.Store
}

// validate names every required service s lacks.
func (s Services) validate() error {
	if s.API == nil {
		return errors.New("mcp: Services.API is required")
	}
	return nil
}
