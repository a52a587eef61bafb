package client

import (
	"context"
	"iter"

	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Events walks space's log in seq order, page after page (operation replayEvents, scope read):
// each page's NextAfterSeq becomes the next request's AfterSeq until a page says it is the last.
// p filters and pages as for ReplayEvents (nil: the whole log, the server's page size); it is
// not modified. A failed page yields its error once and ends the walk; breaking out of the loop
// sends no further request.
//
//	for ev, err := range c.Events(ctx, "acme-web", nil) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(ev.Seq, ev.Type)
//	}
func (c *Client) Events(ctx context.Context, space string, p *ReplayParams, opts ...CallOption) iter.Seq2[eventloomwire.Event, error] {
	return func(yield func(eventloomwire.Event, error) bool) {
		var q ReplayParams
		if p != nil {
			q = *p
		}
		for {
			page, err := c.ReplayEvents(ctx, space, &q, opts...)
			if err != nil {
				yield(eventloomwire.Event{}, err)
				return
			}
			for i := range page.Events {
				if !yield(page.Events[i], nil) {
					return
				}
			}
			if page.NextAfterSeq == 0 || page.NextAfterSeq <= q.AfterSeq {
				return
			}
			q.AfterSeq = page.NextAfterSeq
		}
	}
}
