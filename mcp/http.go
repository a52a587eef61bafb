package mcp

import (
	"encoding/json"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/auth"
)

// Path is where zaxy serve mounts the streamable HTTP endpoint, beside the API.
const Path = "/mcp"

// envelopeBytes is what a JSON-RPC envelope may add to an API request body.
const envelopeBytes = 64 << 10

// HTTPConfig configures the streamable HTTP endpoint.
type HTTPConfig struct {
	Config
	// Auth checks bearer tokens: a request without a valid one gets 401 before MCP sees it, and
	// each tool call is then authorized by the API for its space and scope. Nil serves without
	// tokens (ZAXY_AUTH=off, loopback only).
	Auth *auth.Store
	// MaxBodyBytes caps a request body. Defaults to 1 MiB; the JSON-RPC envelope gets 64 KiB
	// on top, so an argument the API accepts fits.
	MaxBodyBytes int64
}

// NewHTTPHandler returns the streamable HTTP endpoint. It is stateless (no Mcp-Session-Id:
// any zaxy serve process answers any request, as the HTTP API does) and answers with JSON
// rather than an event stream, since no tool streams. ?profile=core|full chooses the tools
// listed; the default is cfg.Profile.
//
// DNS rebinding protection (the SDK refuses a loopback connection whose Host is not a loopback
// name) is kept when auth is off, the case it exists for, and dropped when a token is
// required, so that a reverse proxy on the same host can forward to a loopback address.
// Cross-site browser requests are refused either way (api.RefuseCrossSite, as on /v1).
func NewHTTPHandler(cfg HTTPConfig) (http.Handler, error) {
	cfg.Config = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	servers := map[string]*sdk.Server{}
	for _, p := range Profiles {
		c := cfg.Config
		c.Profile = p
		s, err := NewServer(c)
		if err != nil {
			return nil, err
		}
		servers[p] = s
	}
	streamable := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
		p := r.URL.Query().Get("profile")
		if p == "" {
			p = cfg.Profile
		}
		return servers[p]
	}, &sdk.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		Logger:                     cfg.Logger,
		MaxRequestBodyBytes:        cfg.MaxBodyBytes + envelopeBytes,
		DisableLocalhostProtection: cfg.Auth != nil,
	})
	profiles := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := ParseProfile(r.URL.Query().Get("profile"), "profile"); err != nil {
			writeError(w, err)
			return
		}
		streamable.ServeHTTP(w, r)
	})
	return api.RefuseCrossSite(cfg.Logger)(api.RequireToken(cfg.Auth, cfg.Logger)(profiles)), nil
}

// Mount returns a handler serving mcpHandler at Path and everything else with apiHandler.
func Mount(apiHandler, mcpHandler http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == Path {
			mcpHandler.ServeHTTP(w, r)
			return
		}
		apiHandler.ServeHTTP(w, r)
	})
}

// writeError answers err with the API's status and error body.
func writeError(w http.ResponseWriter, err error) {
	status, body := api.ErrorResponse(err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
