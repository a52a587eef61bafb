package eventloom

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom/internal/dbsqlc"
)

// DerivedKeys returns the idempotency keys of materials in space: for each, prefix + ":" +
// the lowercase hex HMAC-SHA256 of the material under the space's secret (a random 32 bytes
// kept in space_secrets, created on the space's first derived key). The service derives keys
// from what a request holds (a transcript's turns, a document's text); keyed by a secret of
// the space, such a key confirms no guess of the text to anyone who sees it, in that space or
// another, and an erasure forgets the derived keys of the records covering the erased event
// (migrations 000053), so re-sending an erased text appends it anew, as any text never sent.
// The prefix must be one erasure knows ("transcript" or "doc").
func (s *Store) DerivedKeys(ctx context.Context, space, prefix string, materials ...string) ([]string, error) {
	secret, err := s.spaceSecret(ctx, space)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(materials))
	for i, m := range materials {
		keys[i] = DeriveKey(secret, prefix, m)
	}
	return keys, nil
}

// DeriveKey is prefix + ":" + hex(HMAC-SHA256(secret, material)), as DerivedKeys and the SQL
// function zaxy_hmac_sha256 compute it.
func DeriveKey(secret []byte, prefix, material string) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(material))
	return prefix + ":" + hex.EncodeToString(mac.Sum(nil))
}

// spaceSecret reads the space's secret, creating it when there is none.
func (s *Store) spaceSecret(ctx context.Context, space string) ([]byte, error) {
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("make space secret: %w", err)
	}
	for range 2 {
		secret, err := s.q.SpaceSecret(ctx, s.db, dbsqlc.SpaceSecretParams{SpaceID: space, Secret: fresh})
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			continue // created by another transaction after this statement's snapshot: read it again
		case err != nil:
			return nil, fmt.Errorf("read space secret: %w", err)
		}
		return secret, nil
	}
	return nil, fmt.Errorf("read space secret: space %q has none after creating it", space)
}
