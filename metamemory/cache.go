package metamemory

import (
	"container/list"
	"sync"
)

// cache holds the sketches of the most recently asked spaces, at most limit of them; the least
// recently asked is dropped first.
type cache struct {
	mu      sync.Mutex
	limit   int
	order   *list.List // of *entry, most recently asked first
	entries map[string]*list.Element
}

// entry is one space's place in the cache. Its mutex guards its sketch: held while an answer
// reads it (microseconds) and while it is refreshed.
type entry struct {
	space string
	mu    sync.Mutex
	sk    *sketch
}

func newCache(limit int) *cache {
	return &cache{limit: limit, order: list.New(), entries: map[string]*list.Element{}}
}

// get returns the space's entry, creating an empty one (and dropping the least recently asked
// space past the limit) when there is none, and marks it most recently asked.
func (c *cache) get(space string) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[space]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*entry)
	}
	e := &entry{space: space}
	c.entries[space] = c.order.PushFront(e)
	for c.order.Len() > c.limit {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(*entry).space)
	}
	return e
}

// len is how many spaces are cached.
func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
