package api

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/auth"
)

// writeSuffixes are the routes under /v1/spaces/{space} that append to the log and so need
// the write scope (with POST); everything else reads.
var writeSuffixes = []string{"/events", "/documents", "/transcripts", "/context/after-turn", "/cleanup", "/resume"}

// adminSuffixes are the routes under /v1/spaces/{space} that need the admin scope (with
// POST): erasing an event.
var adminSuffixes = []string{"/erasures"}

// requiredScope is the scope a request under /v1/spaces/{space} needs.
func requiredScope(r *http.Request) string { return ScopeFor(r.Method, r.URL.Path) }

// ScopeFor is the scope an operation under /v1/spaces/{space} needs: admin for erasures,
// write for the POSTs that append to the log, read for everything else.
func ScopeFor(method, path string) string {
	if method == http.MethodPost {
		for _, suffix := range adminSuffixes {
			if strings.HasSuffix(path, suffix) {
				return auth.ScopeAdmin
			}
		}
		for _, suffix := range writeSuffixes {
			if strings.HasSuffix(path, suffix) {
				return auth.ScopeWrite
			}
		}
	}
	return auth.ScopeRead
}

// authorize is middleware requiring a bearer token that reaches the space in the path (if
// any) with the route's scope. It runs before the handler, so a request for a space the token
// does not reach learns nothing about that space, not even whether it exists.
func (s *server) authorize(next http.Handler) http.Handler {
	return requireToken(s.cfg.Auth, s.logger, next)
}

// authorizeAllSpaces is middleware for routes that report on every space at once (/metrics):
// with auth on they need a token that reaches all spaces ("*"), since even aggregate lag and
// job counts say something about spaces a narrower token was not given.
func (s *server) authorizeAllSpaces(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Auth == nil || checkBearer(w, r, s.cfg.Auth, s.logger, auth.AllSpaces, auth.ScopeRead) {
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
	return func(next http.Handler) http.Handler { return requireToken(tokens, logger, next) }
}

// requireToken checks the request's bearer token against tokens: for the space in the path
// with the route's scope, or, outside /v1/spaces/{space}, only that it is valid.
func requireToken(tokens *auth.Store, logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tokens == nil {
			next.ServeHTTP(w, r)
			return
		}
		space := chi.URLParam(r, "space")
		scope := auth.ScopeRead
		if space != "" {
			scope = requiredScope(r)
		}
		if checkBearer(w, r, tokens, logger, space, scope) {
			next.ServeHTTP(w, r)
		}
	})
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
	if s.cfg.Auth == nil {
		return true, nil
	}
	_, err := s.cfg.Auth.Authorize(r.Context(), bearerToken(r.Header.Get("Authorization")), space, auth.ScopeAdmin)
	switch {
	case errors.Is(err, auth.ErrForbidden), errors.Is(err, auth.ErrUnauthenticated):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}
