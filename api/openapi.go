package api

import (
	_ "embed"
	"net/http"
)

// openAPI is the OpenAPI 3.1 document of this API; a test keeps it and the routes in step.
//
//go:embed openapi.json
var openAPI []byte

// openAPIDocument serves GET /v1/openapi.json.
func openAPIDocument(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPI)
}
