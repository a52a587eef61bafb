// Package console is Zaxy's web console: plain HTML, CSS and JavaScript modules embedded in the
// binary (go:embed) and served by zaxy serve at /console. It needs no build step and loads
// nothing from outside the server.
//
// The files are static and hold no data, so they are served without a token; every piece of
// data the pages show comes from the /v1 JSON API, called with the bearer token the person types
// once (kept in the browser's sessionStorage and sent in the Authorization header, never in a
// URL). Every response carries a strict Content-Security-Policy: scripts, styles and requests
// from this origin only, no inline script or style, no framing. It must never read the
// database, hold a token on the server or serve anything outside its embedded files.
package console

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

// Path is where the console is served.
const Path = "/console"

// ContentSecurityPolicy is the policy on every console response: everything from this origin
// only, no inline scripts or styles (the pages set styles through the CSSOM, which the policy
// allows), no plugins, no framing, no form posts anywhere.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

//go:embed static
var files embed.FS

// Handler serves the console's files under Path: Path itself redirects to Path + "/", and a
// path under it that names no file is 404. Only GET and HEAD are answered.
func Handler() http.Handler {
	static, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	fileServer := http.StripPrefix(Path+"/", http.FileServerFS(static))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-cache")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if r.URL.Path == Path {
			http.Redirect(w, r, Path+"/", http.StatusMovedPermanently)
			return
		}
		fileServer.ServeHTTP(w, r)
	})
}

// Mount returns a handler that serves the console (Handler) for Path and everything under
// it, and passes every other request to next (the API).
func Mount(next http.Handler) http.Handler {
	console := Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == Path || strings.HasPrefix(r.URL.Path, Path+"/") {
			console.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
