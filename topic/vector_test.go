package topic_test

import "github.com/pgvector/pgvector-go"

// vectorText renders a vector as pgvector text for a query parameter.
func vectorText(v []float32) string { return pgvector.NewVector(v).String() }
