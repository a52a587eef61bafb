package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/auth"
)

// writeSuffixes are the routes under /v1/spaces/{space} that append to the log and so need
// the write scope (with POST); everything else reads.
var writeSuffixes = []string{"/events", "/documents", "/transcripts", "/context/after-turn", "/cleanup", "/resume"}

// requiredScope is the scope a request under /v1/spaces/{space} needs.
func requiredScope(r *http.Request) string {
	if r.Method == http.MethodPost {
		for _, suffix := range writeSuffixes {
			if strings.HasSuffix(r.URL.Path, suffix) {
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
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Auth == nil {
			next.ServeHTTP(w, r)
			return
		}
		bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		space := chi.URLParam(r, "space")
		scope := auth.ScopeRead
		if space != "" {
			scope = requiredScope(r)
		}
		if !ok {
			bearer = ""
		}
		if _, err := s.cfg.Auth.Authorize(r.Context(), strings.TrimSpace(bearer), space, scope); err != nil {
			if errors.Is(err, auth.ErrUnauthenticated) {
				w.Header().Set("WWW-Authenticate", `Bearer realm="zaxy"`)
			}
			writeError(w, r, s.logger, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}
