package graph

import (
	"crypto/sha256"
	"encoding/hex"
)

// EntityID is the stable id of the entity with key (its normalized name, Key) in space: "e"
// and 20 hex digits of sha256(space, NUL, key), the same on every rebuild. An entity is found
// by key through its id: the entities table has no index on key.
func EntityID(space, key string) string {
	sum := sha256.Sum256([]byte(space + "\x00" + key))
	return "e" + hex.EncodeToString(sum[:10])
}

// EntityIDs are the ids of the entities with the given keys in space, in order.
func EntityIDs(space string, keys []string) []string {
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = EntityID(space, k)
	}
	return ids
}
