package checkout

import (
	"context"
	"sync"
)

// eventPrefetch reads the event items of the lanes' results while slower lanes still run, so
// that after the lanes only the last ones' new events are left to read: the item fetch leaves
// the checkout's critical path. It is single-flight: one read at a time,
// and the ids that lanes return meanwhile wait for it and go in the next read together, so a
// checkout makes two or three reads, not one per lane. Facts are read after the lanes; an
// event read here that fusion then leaves out is simply not used.
type eventPrefetch struct {
	ctx   context.Context
	fetch itemFetch

	mu        sync.Mutex
	requested map[int64]bool
	queued    []int64
	running   bool
	done      sync.WaitGroup
	items     map[string]*rankedItem
}

func newEventPrefetch(ctx context.Context, fetch itemFetch) *eventPrefetch {
	return &eventPrefetch{ctx: ctx, fetch: fetch, requested: map[int64]bool{}, items: map[string]*rankedItem{}}
}

// add asks for the event items among ids, those not asked for before.
func (p *eventPrefetch) add(ids []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range ids {
		if seq := seqOfItem(id); seq > 0 && !p.requested[seq] {
			p.requested[seq] = true
			p.queued = append(p.queued, seq)
		}
	}
	if !p.running && len(p.queued) > 0 {
		p.running = true
		p.done.Add(1)
		go p.run()
	}
}

// run reads the queued events until none are left. A failed read is not an error here: its
// events are read again by the fetch after the lanes, which reports it.
func (p *eventPrefetch) run() {
	defer p.done.Done()
	for {
		p.mu.Lock()
		seqs := p.queued
		p.queued = nil
		if len(seqs) == 0 {
			p.running = false
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		got := map[string]*rankedItem{}
		if err := p.fetch.events(p.ctx, seqs, got); err != nil {
			continue
		}
		p.mu.Lock()
		for id, it := range got {
			p.items[id] = it
		}
		p.mu.Unlock()
	}
}

// wait returns the events read, once no read is in flight.
func (p *eventPrefetch) wait() map[string]*rankedItem {
	p.done.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.items
}
