package api

import (
	_ "embed"
	"net/http"
)

// openAPI is the OpenAPI 3.1 document of this API, generated from the route table and the Go
// types of the bodies and answers (openapi_gen_test.go); TestOpenAPI_IsGenerated fails when it
// is stale.
//
//go:generate go test -count=1 -run TestOpenAPI_IsGenerated . -update-openapi
//go:embed openapi.json
var openAPI []byte

// openAPIDocument serves GET /v1/openapi.json.
func openAPIDocument(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPI)
}
