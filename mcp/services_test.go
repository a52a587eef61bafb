package mcp_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	zmcp "github.com/zaxy/zaxy/mcp"
)

// The MCP server builds none of its services: without the API it is an error naming it.
func TestNewServer_RequiresTheAPI(t *testing.T) {
	t.Parallel()
	_, err := zmcp.NewServer(zmcp.Config{}, zmcp.Services{}, nil)
	require.ErrorContains(t, err, "Services.API is required")
	_, err = zmcp.NewHTTPHandler(zmcp.HTTPConfig{}, zmcp.Services{}, nil)
	require.ErrorContains(t, err, "Services.API is required")
}
