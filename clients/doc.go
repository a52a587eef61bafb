// Package clients holds Zaxy's clients for other languages: clients/typescript (generated from
// api/openapi.json, with a thin wrapper) and clients/python (standard library only). Its Go code
// only tests them: TestClients serves the real API over a real database and runs each client's
// own test suite against it. It must never hold a client's logic, nor be imported.
package clients
