// Package checkout retrieves memory for an agent: lanes that each rank a space's memory items
// one way (for now the vector lane), to be fused into a cited, token-budgeted packet. It only
// reads projections and the log.
package checkout
