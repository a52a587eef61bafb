package client

import (
	"context"
	"encoding/json"
	"net/http"
)

// Status is the answer of Health and Ready.
type Status struct {
	// Status is "ok" (Health) or "ready" (Ready).
	Status string `json:"status"`
	// Version, Revision and GoVersion say which build the server runs (Health only): its
	// module version ("dev" for a build from a work tree), VCS commit and Go toolchain.
	Version   string `json:"version,omitempty"`
	Revision  string `json:"revision,omitempty"`
	GoVersion string `json:"go_version,omitempty"`
}

// Health reports that the server process is up (operation health; no token needed).
func (c *Client) Health(ctx context.Context, opts ...CallOption) (*Status, error) {
	var res Status
	err := c.do(ctx, &call{method: http.MethodGet, path: "/healthz", safe: true}, &res, opts)
	return result(&res, err)
}

// Ready reports that the database answers and the schema is current (operation ready; no
// token needed); otherwise an *Error with status 503.
func (c *Client) Ready(ctx context.Context, opts ...CallOption) (*Status, error) {
	var res Status
	err := c.do(ctx, &call{method: http.MethodGet, path: "/readyz", safe: true}, &res, opts)
	return result(&res, err)
}

// OpenAPI returns the server's OpenAPI 3.1 document (operation getOpenAPI, scope read).
func (c *Client) OpenAPI(ctx context.Context, opts ...CallOption) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.do(ctx, &call{method: http.MethodGet, path: "/v1/openapi.json", safe: true}, &res, opts)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Metrics returns the Prometheus text of GET /metrics (operation getMetrics; a token that
// reaches every space).
func (c *Client) Metrics(ctx context.Context, opts ...CallOption) (string, error) {
	var res string
	err := c.do(ctx, &call{method: http.MethodGet, path: "/metrics", safe: true}, &res, opts)
	return res, err
}
