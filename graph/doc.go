// Package graph reads the temporal graph the projector builds: entities and the versioned
// facts between them, as they are now, as they were valid at a point in time, and as memory
// recorded them as of a point in the log. It only reads; package projection writes.
package graph
