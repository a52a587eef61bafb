package console_test

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/console"
)

func TestHandler_ServesTheEmbeddedFilesUnderAStrictPolicy(t *testing.T) {
	t.Parallel()
	api := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := console.Mount(api)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	rec := get("/console")
	require.Equal(t, http.StatusMovedPermanently, rec.Code)
	require.Equal(t, "/console/", rec.Header().Get("Location"))
	for path, contentType := range map[string]string{
		"/console/":                "text/html; charset=utf-8",
		"/console/app.js":          "text/javascript; charset=utf-8",
		"/console/console.css":     "text/css; charset=utf-8",
		"/console/pages/review.js": "text/javascript; charset=utf-8",
	} {
		rec := get(path)
		require.Equal(t, http.StatusOK, rec.Code, path)
		require.Equal(t, contentType, rec.Header().Get("Content-Type"), path)
		require.Equal(t, console.ContentSecurityPolicy, rec.Header().Get("Content-Security-Policy"), path)
		require.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"), path)
	}
	require.Equal(t, http.StatusNotFound, get("/console/nothing.js").Code)
	require.Equal(t, http.StatusTeapot, get("/v1/spaces").Code, "everything else goes to the API")
	require.Equal(t, http.StatusTeapot, get("/consoles").Code)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/console/", nil))
	require.Equal(t, http.StatusMethodNotAllowed, rec.Code)
	require.NotContains(t, console.ContentSecurityPolicy, "unsafe")
}

// TestStatic_NeedsNothingFromOutsideAndNoInlineCode keeps the console within its policy: no
// inline script or style, no URL of another origin, and no token in a URL.
func TestStatic_NeedsNothingFromOutsideAndNoInlineCode(t *testing.T) {
	t.Parallel()
	scriptTag := regexp.MustCompile(`<script[^>]*>`)
	external := regexp.MustCompile(`https?://|src="//|href="//`)
	require.NoError(t, filepath.WalkDir("static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		text := strings.ReplaceAll(string(b), "'http://www.w3.org/2000/svg'", "") // a namespace name, never fetched
		require.NotRegexp(t, external, text, path)
		require.NotContains(t, text, "innerHTML", path)
		require.NotContains(t, text, "eval(", path)
		if strings.HasSuffix(path, ".html") {
			for _, tag := range scriptTag.FindAllString(text, -1) {
				require.Contains(t, tag, " src=", "%s: inline script %s", path, tag)
			}
			require.NotContains(t, text, "style=", path)
			require.NotRegexp(t, `\son[a-z]+=`, text, path) // no inline event handlers
		}
		if strings.HasSuffix(path, ".js") {
			require.NotRegexp(t, `[?&](token|access_token)=`, text, path)
		}
		return nil
	}))
}
