package graph

import "github.com/zaxy/zaxy/graph/graphwire"

// The types that cross HTTP live in the leaf package graphwire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// CypherResult holds a Cypher query's rows (graphwire.CypherResult).
	CypherResult = graphwire.CypherResult
	// Entity is a node of the graph (graphwire.Entity).
	Entity = graphwire.Entity
	// EntityRef names an entity in a fact (graphwire.EntityRef).
	EntityRef = graphwire.EntityRef
	// Evidence cites an event (graphwire.Evidence).
	Evidence = graphwire.Evidence
	// Fact is one version of a (subject, predicate) edge (graphwire.Fact).
	Fact = graphwire.Fact
	// InferredFact is a statement the optional LLM-assisted extractor proposed for an event
	// (graphwire.InferredFact).
	InferredFact = graphwire.InferredFact
	// View selects which versions a fact query returns (graphwire.View).
	View = graphwire.View
)
