package api

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/auth"
)

// authorize returns middleware requiring a bearer token that reaches the space in the path
// (if any) with scope; the scope is the one the route declares (spaceRoutes). It runs before
// the handler, so a request for a space the token does not reach learns nothing about that
// space, not even whether it exists. With auth off it lets every request through.
func (s *server) authorize(scope string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if s.auth == nil || checkBearer(w, r, s.auth, s.logger, chi.URLParam(r, "space"), scope) {
				next.ServeHTTP(w, r)
			}
		})
	}
}

// authorizeAllSpaces is middleware for routes that report on every space at once (/metrics):
// with auth on they need a token that reaches all spaces ("*"), since even aggregate lag and
// job counts say something about spaces a narrower token was not given.
func (s *server) authorizeAllSpaces(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.auth == nil || checkBearer(w, r, s.auth, s.logger, auth.AllSpaces, auth.ScopeRead) {
			next.ServeHTTP(w, r)
		}
	})
}

// RequireToken is middleware for routes mounted beside the API (the MCP endpoint): it requires
// a valid bearer token, answering 401 with the API's error body otherwise, exactly as the /v1
// routes do. Which spaces the token reaches is checked later, per operation. A nil tokens
// store lets every request through (ZAXY_AUTH=off).
func RequireToken(tokens *auth.Store, logger *slog.Logger) func(http.Handler) http.Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tokens == nil || checkBearer(w, r, tokens, logger, "", auth.ScopeRead) {
				next.ServeHTTP(w, r)
			}
		})
	}
}

// checkBearer reports whether the request's bearer token reaches space with scope; when it
// does not, it has answered 401 (with WWW-Authenticate) or 403 with the API's error body.
func checkBearer(w http.ResponseWriter, r *http.Request, tokens *auth.Store, logger *slog.Logger, space, scope string) bool {
	if _, err := tokens.Authorize(r.Context(), bearerToken(r.Header.Get("Authorization")), space, scope); err != nil {
		if errors.Is(err, auth.ErrUnauthenticated) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="zaxy"`)
		}
		writeError(w, r, logger, err)
		return false
	}
	return true
}

// bearerToken is the token of an Authorization header using the Bearer scheme, whose name is
// case-insensitive (RFC 9110 section 11.1: "bearer x" and "BEARER x" are "Bearer x"); "" for
// any other header.
func bearerToken(header string) string {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// hasAdminScope reports whether the request may do what only an admin may in space (append
// redaction.configured): always with auth off, otherwise with a token of admin scope that
// reaches the space. Checked only when a request needs it, after the route's own check.
func (s *server) hasAdminScope(r *http.Request, space string) (bool, error) {
	if s.auth == nil {
		return true, nil
	}
	_, err := s.auth.Authorize(r.Context(), bearerToken(r.Header.Get("Authorization")), space, auth.ScopeAdmin)
	switch {
	case errors.Is(err, auth.ErrForbidden), errors.Is(err, auth.ErrUnauthenticated):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}
