// Package mcp is Zaxy's Model Context Protocol server, built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): the HTTP API's operations as MCP tools, served
// over stdio (zaxy mcp) and streamable HTTP (/mcp beside the API on zaxy serve).
//
// Every tool call is turned into the HTTP request it stands for and served in process by the
// API's own http.Handler, so validation, error codes and authorization are the HTTP API's,
// not copies of them; tool input schemas are inferred from the Go types the API's handlers
// decode (api.CheckoutBody, eventloom.NewEvent, ...). The package holds no domain logic and
// never touches the database itself. Profiles choose which tools are listed: core (the few an
// agent needs every turn, in lean definitions), compact (fewer still, the rest reached through
// memory_manage by name) or full (every operation).
package mcp
