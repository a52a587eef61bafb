package client

import (
	"errors"
	"os"
)

// Environment variables NewFromEnv reads: the server's base URL and the bearer token, the
// same ones the zaxy CLI reads to talk to a server.
const (
	EnvURL   = "ZAXY_URL"
	EnvToken = "ZAXY_TOKEN"
)

// NewFromEnv returns a client of the server at $ZAXY_URL (required) sending $ZAXY_TOKEN as its
// bearer token (none when unset or empty: a server with ZAXY_AUTH=off). opts apply after the
// environment, so WithToken overrides ZAXY_TOKEN.
func NewFromEnv(opts ...Option) (*Client, error) {
	u := os.Getenv(EnvURL)
	if u == "" {
		return nil, errors.New("client: " + EnvURL + " is not set (the server's base URL, e.g. http://127.0.0.1:8080)")
	}
	if token := os.Getenv(EnvToken); token != "" {
		opts = append([]Option{WithToken(token)}, opts...)
	}
	return New(u, opts...)
}
