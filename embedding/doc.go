// Package embedding turns memory text into vectors for the vector lane of retrieval.
//
// It defines the Embedder interface, a built-in offline embedder (Offline) that needs no
// model download and gives the same bytes for the same text on every machine, a semantic
// embedder (WordVec) over pretrained word vectors read from a file the caller names (installed
// by make models; LoadWordVectors, ConvertWinkJSON), the Universal Sentence Encoder lite (USE,
// a two-layer transformer ported from its TensorFlow.js graph, read from the directory the
// caller names, installed by make models), and a client for OpenAI-compatible
// embedding APIs (OpenAI, Ollama, vLLM, TEI). A vector is only
// meaningful next to vectors of the same Model() ("name@version") and Dimensions(): callers
// must store both with every vector and never compare vectors across them.
//
// This package must never touch the database, read configuration from the environment, or
// return a vector it has not checked (length, finiteness): what it hands back is either
// complete and usable or an error.
package embedding
