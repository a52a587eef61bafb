package ingest_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/testcontainers"
)

// benchDoc is about 1 MB of markdown prose with a few secrets.
func benchDoc() string {
	section := "## Setup notes\n\nThe service reads its configuration from the environment. Set the " +
		"database URL, for example postgres://app:" + "s3cret" + "@db:5432/zaxy, and restart it.\n\n" +
		"- step one: run the migrations.\n- step two: start the worker (it takes about 30 s).\n\n" +
		"```sh\nexport TOKEN=abc\n# comment\nzaxy serve\n```\n\n"
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString(section)
	}
	return b.String()
}

func BenchmarkChunk(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		ingest.Chunk(doc, ingest.ChunkOptions{Markdown: true})
	}
}

// BenchmarkDocuments appends a new 1 MiB version of a markdown document per iteration
// (about 550 chunks in one batch).
func BenchmarkDocuments(b *testing.B) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(b)
	pool := db.AppPool(b)
	in, err := ingest.New(pool, eventloom.NewStore(pool, nil, nil), ingest.Config{})
	if err != nil {
		b.Fatal(err)
	}
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	i := 0
	for b.Loop() {
		i++
		_, err := in.Documents(ctx, &ingest.DocumentsParams{SpaceID: "bench",
			Documents: []ingest.Document{{Path: "bench.md", Text: doc + strconv.Itoa(i)}}})
		if err != nil {
			b.Fatal(err)
		}
	}
}
