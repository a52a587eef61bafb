package embedding

import (
	"context"
	"errors"
	"fmt"
)

// Embedder turns texts into vectors. Implementations are safe for concurrent use.
type Embedder interface {
	// Model names the model and its version, "name@version"; vectors of different models are never compared.
	Model() string
	// Dimensions is the length of every vector Embed returns.
	Dimensions() int
	// Embed returns one vector per text, in order. An error means none of the vectors may be used.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// ErrBadResponse means a provider answered with something that is not a usable set of
// embeddings: undecodable JSON, the wrong number of vectors, a missing, repeated or
// out-of-range index, a vector of the wrong length, or a NaN or infinite value.
var ErrBadResponse = errors.New("bad embedding response")

// ErrDimensionMismatch means a provider returned a vector whose length differs from the
// configured Dimensions. It wraps ErrBadResponse, so errors.Is matches both.
var ErrDimensionMismatch = fmt.Errorf("%w: dimension mismatch", ErrBadResponse)
