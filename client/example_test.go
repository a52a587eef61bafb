package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Example remembers a decision and checks memory out before the next task, against the
// server at ZAXY_URL with the token in ZAXY_TOKEN. docs/client.md shows this file.
func Example() {
	if err := remember(context.Background(), os.Stdout, os.Getenv("ZAXY_URL"), os.Getenv("ZAXY_TOKEN")); err != nil {
		log.Fatal(err)
	}
}

func remember(ctx context.Context, out io.Writer, baseURL, token string) error {
	c, err := client.New(baseURL, client.WithToken(token))
	if err != nil {
		return err
	}
	// An Idempotency-Key makes the append safe to retry: the client retries it on 429, 503
	// and dropped connections, and the server appends it once.
	res, err := c.AppendEvents(ctx, "acme-web", []eventloomwire.NewEvent{{
		Type:      "message",
		SessionID: "run-42",
		Content:   "We deploy through the blue cluster from now on.",
		Data:      json.RawMessage(`{"role":"user"}`),
	}}, client.WithIdempotencyKey("run-42/turn-1"))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "appended seq %d\n", res.Receipts[0].Seq)

	packet, err := c.Checkout(ctx, "acme-web", &checkoutwire.Request{
		Query:     "how do we deploy?",
		SessionID: "run-42",
		MaxTokens: 800,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d of %d tokens used\n%s", packet.Budget.Used, packet.Budget.Requested, packet.Text)
	return nil
}
