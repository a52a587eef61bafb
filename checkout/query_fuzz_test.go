package checkout_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/validation"
)

// FuzzQuery: a checkout's query is any caller's text (HTTP, MCP, the Go API), and every lane
// reads it: the keyword lane through zaxy_path_tsv (paths, dotted names and camel-case
// identifiers split in SQL), the exact lane's keys, the speaker and time readers. Whatever the
// text, a raw query either ranks or is refused with a *validation.Error naming query;
// no lane fails on it (a failing lane is reported in lanes[...].error, so that is checked too),
// and the tokenizer keeps every lexeme to_tsvector gives.
func FuzzQuery(f *testing.F) {
	for _, seed := range []string{
		"Why did the refund idempotency test fail?", "TestRefundIdempotency", "parseConfig in pkg/userService.go",
		"HTTPServer XMLHttpRequest2 URLs APIs iPhone naïveBayes", "os.Getenv and cmd/deploy/push.go", "0.e0( 0..e( 1.f(",
		strings.Repeat("aB", 2000), strings.Repeat("getUserById ", 300), "a\x00b", "\xff\xfe", "ÀÉÎ ǅungla ΣΑΣ", "\u00a0\u2028?",
		"what did we do last week?", "'; DROP TABLE events; --", "$1 :: :: \\x", "", "   ",
	} {
		f.Add(seed)
	}
	ctx := context.Background()
	db := testcontainers.NewDatabase(f)
	pool := db.AppPool(f)
	proj, err := projection.New(ctx, pool, projection.Config{})
	if err != nil {
		f.Fatal(err)
	}
	store := eventloom.NewStore(pool, nil, nil)
	if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "fuzz", Events: []eventloom.NewEvent{
		msg("s1", "user", "--- FAIL: TestRefundIdempotency in pkg/userService.go, see os.Getenv"),
		msg("s1", "assistant", "The HTTPServer reads its limits with parseConfig."),
	}}); err != nil {
		f.Fatal(err)
	}
	if _, err := proj.ProjectSpace(ctx, "fuzz"); err != nil {
		f.Fatal(err)
	}
	svc := checkout.New(pool, store, checkout.Config{Embedder: embedding.NewOffline()})
	f.Fuzz(func(t *testing.T, q string) {
		res, err := svc.Query(ctx, &checkout.Request{SpaceID: "fuzz", Query: q})
		if err != nil {
			var ve *validation.Error
			if !errors.As(err, &ve) || ve.Field != "query" {
				t.Fatalf("%q: error %v is not a ValidationError on query", q, err)
			}
			return
		}
		for name, l := range res.Lanes {
			if l.Error != "" && !l.Off {
				t.Fatalf("%q: lane %s failed: %s", q, name, l.Error)
			}
		}
		if !utf8.ValidString(q) || strings.ContainsRune(q, 0) {
			t.Fatalf("%q: ranked text Postgres cannot hold", q)
		}
		// A text of more than 256 characters is parsed in chunks, and a run of 128 or more
		// non-blank characters in it is cut (migration 000051): only there may a lexeme differ.
		var missing int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM unnest(to_tsvector('english', $1)) u
			WHERE u.lexeme <> ALL (SELECT lexeme FROM unnest(zaxy_path_tsv('english', $1)))
			  AND NOT (length($1) > 256 AND $1 ~ '[^[:space:]]{128}')`, q).Scan(&missing); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if missing > 0 {
			t.Fatalf("%q: zaxy_path_tsv lost %d of to_tsvector's lexemes", q, missing)
		}
	})
}
