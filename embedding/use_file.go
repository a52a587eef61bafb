package embedding

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

// ErrUSEModel means the Universal Sentence Encoder's files (model.json, its weight shards,
// vocab.json) are missing, truncated or not the graph the embedder implements. The message
// names the file and what is wrong.
var ErrUSEModel = errors.New("unusable universal sentence encoder model")

// useManifest is the part of a TF.js model.json the loader reads.
type useManifest struct {
	WeightsManifest []struct {
		Paths   []string `json:"paths"`
		Weights []struct {
			Name         string          `json:"name"`
			Shape        []int           `json:"shape"`
			Dtype        string          `json:"dtype"`
			Quantization json.RawMessage `json:"quantization"`
		} `json:"weights"`
	} `json:"weightsManifest"`
}

// useTensor is one weight: its shape and its values (float32 weights in f, int32 in i).
type useTensor struct {
	shape []int
	f     []float32
	i     []int32
}

// loadUSETensors reads dir/model.json and its weight shards into tensors by name.
func loadUSETensors(dir string) (map[string]useTensor, error) {
	path := filepath.Join(dir, "model.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUSEModel, err)
	}
	var m useManifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrUSEModel, path, err)
	}
	if len(m.WeightsManifest) == 0 {
		return nil, fmt.Errorf("%w: %s has no weightsManifest", ErrUSEModel, path)
	}
	out := make(map[string]useTensor)
	for _, g := range m.WeightsManifest {
		var buf []byte
		for _, p := range g.Paths {
			if filepath.Base(p) != p {
				return nil, fmt.Errorf("%w: %s names the shard %q outside its directory", ErrUSEModel, path, p)
			}
			b, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrUSEModel, err)
			}
			buf = append(buf, b...)
		}
		off := 0
		for _, w := range g.Weights {
			if len(w.Quantization) > 0 && string(w.Quantization) != "null" {
				return nil, fmt.Errorf("%w: %s: weight %s is quantized", ErrUSEModel, path, w.Name)
			}
			n := 1
			for _, d := range w.Shape {
				n *= d
			}
			if off+4*n > len(buf) {
				return nil, fmt.Errorf("%w: %s: the shards end inside weight %s (%d bytes, need %d)", ErrUSEModel, path, w.Name, len(buf), off+4*n)
			}
			t := useTensor{shape: w.Shape}
			switch w.Dtype {
			case "float32":
				t.f = make([]float32, n)
				for k := range t.f {
					v := math.Float32frombits(binary.LittleEndian.Uint32(buf[off+4*k:]))
					if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
						return nil, fmt.Errorf("%w: %s: weight %s has a non-finite value", ErrUSEModel, path, w.Name)
					}
					t.f[k] = v
				}
			case "int32":
				t.i = make([]int32, n)
				for k := range t.i {
					t.i[k] = int32(binary.LittleEndian.Uint32(buf[off+4*k:]))
				}
			default:
				return nil, fmt.Errorf("%w: %s: weight %s has dtype %s", ErrUSEModel, path, w.Name, w.Dtype)
			}
			out[w.Name] = t
			off += 4 * n
		}
		if off != len(buf) {
			return nil, fmt.Errorf("%w: %s: %d bytes after the last weight", ErrUSEModel, path, len(buf)-off)
		}
	}
	return out, nil
}

// loadUSEVocab reads dir/vocab.json: [[piece, score], ...] in id order.
func loadUSEVocab(dir string) ([]string, []float64, error) {
	path := filepath.Join(dir, "vocab.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrUSEModel, err)
	}
	var v [][2]json.RawMessage
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %w", ErrUSEModel, path, err)
	}
	pieces, scores := make([]string, len(v)), make([]float64, len(v))
	for i, e := range v {
		if err := json.Unmarshal(e[0], &pieces[i]); err != nil {
			return nil, nil, fmt.Errorf("%w: %s: entry %d: %w", ErrUSEModel, path, i, err)
		}
		if err := json.Unmarshal(e[1], &scores[i]); err != nil {
			return nil, nil, fmt.Errorf("%w: %s: entry %d: %w", ErrUSEModel, path, i, err)
		}
	}
	return pieces, scores, nil
}
