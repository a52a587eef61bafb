package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/validation"
)

// Path is where zaxy serve mounts the streamable HTTP endpoint, beside the API.
const Path = "/mcp"

// envelopeBytes is what a JSON-RPC envelope may add to an API request body.
const envelopeBytes = 64 << 10

// HTTPConfig configures the streamable HTTP endpoint.
type HTTPConfig struct {
	Config
	// MaxBodyBytes caps a request body. Defaults to 1 MiB; the JSON-RPC envelope gets 64 KiB
	// on top, so an argument the API accepts fits.
	MaxBodyBytes int64
}

// NewHTTPHandler returns the streamable HTTP endpoint. It is stateless (no Mcp-Session-Id:
// any zaxy serve process answers any request, as the HTTP API does) and answers with JSON
// rather than an event stream, since no tool streams. ?profile=core|full chooses the tools
// listed; the default is cfg.Profile. svc.Auth checks the bearer tokens (nil: none), svc.API
// serves the tool calls; logger receives the SDK's and the endpoint's warnings and errors (nil
// discards them).
//
// DNS rebinding protection (the SDK refuses a loopback connection whose Host is not a loopback
// name) is kept when auth is off, the case it exists for, and dropped when a token is
// required, so that a reverse proxy on the same host can forward to a loopback address.
// Cross-site browser requests are refused either way (api.RefuseCrossSite, as on /v1).
func NewHTTPHandler(cfg HTTPConfig, svc Services, logger *slog.Logger) (http.Handler, error) {
	cfg.Config = cfg.WithDefaults()
	if err := errors.Join(cfg.validate(), svc.validate()); err != nil {
		return nil, err
	}
	logger = sdkLogger(logger)
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	servers := map[string]*sdk.Server{}
	for _, p := range Profiles {
		c := cfg.Config
		c.Profile = p
		s, err := newServer(c, svc, logger, nil)
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
		Logger:                     logger,
		MaxRequestBodyBytes:        cfg.MaxBodyBytes + envelopeBytes,
		DisableLocalhostProtection: svc.Auth != nil,
	})
	profiles := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := ParseProfile(r.URL.Query().Get("profile"), "profile"); err != nil {
			writeError(w, err)
			return
		}
		streamable.ServeHTTP(w, r)
	})
	noBatches := refuseBatches(profiles, cfg.MaxBodyBytes+envelopeBytes)
	return api.RefuseCrossSite(logger)(api.RequireToken(svc.Auth, logger)(noBatches)), nil
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

// batchRefusal is the JSON-RPC error answering a batch: Invalid Request, with no id since a
// batch has none of its own.
const batchRefusal = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"JSON-RPC batches are not supported: send one request per POST (MCP 2025-06-18 removed batching)"}}`

// refuseBatches answers a POST whose body is a JSON-RPC batch (a JSON array) with 400 and
// batchRefusal, whatever protocol version it claims: the SDK still serves batches to clients
// of 2025-03-26 and earlier, and one batch of a thousand calls is a thousand responses held
// in memory at once. Bodies are read up to limit bytes; past it the answer is 413.
func refuseBatches(next http.Handler, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
		if err != nil {
			var mbe *http.MaxBytesError
			if !errors.As(err, &mbe) {
				err = &validation.Error{Field: "body", Message: "could not be read: " + err.Error()}
			}
			writeError(w, err)
			return
		}
		if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '[' {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, batchRefusal+"\n")
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}
