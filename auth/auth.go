// Package auth issues, checks and revokes the bearer tokens that guard the HTTP API. A token
// is shown once; only its sha256 is stored. A token reaches only its spaces ("*" for all) with
// its scope: read ⊂ write ⊂ admin. It never logs or returns a token's secret after creation.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/auth/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/validation"
)

// Scopes, weakest first.
const (
	ScopeRead  = "read"
	ScopeWrite = "write"
	ScopeAdmin = "admin"
)

var scopeRank = map[string]int{ScopeRead: 1, ScopeWrite: 2, ScopeAdmin: 3}

// AllSpaces in a token's spaces lets it reach every space.
const AllSpaces = "*"

// Errors of authentication and authorization.
var (
	// ErrUnauthenticated means no token, a malformed one, or one that is unknown or revoked.
	ErrUnauthenticated = errors.New("a valid bearer token is required")
	// ErrForbidden means the token does not reach that space with that scope.
	ErrForbidden = errors.New("the token does not grant this")
	// ErrNotFound means no token has that id.
	ErrNotFound = errors.New("no such token")
)

// Token describes a token without its secret.
type Token struct {
	ID        string     `json:"id"`
	Scope     string     `json:"scope"`
	Spaces    []string   `json:"spaces"`
	Label     string     `json:"label,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

// Store keeps tokens in the database.
type Store struct{ db pgexec.Executor }

// NewStore returns a Store on db (a pool, or a connection or transaction).
func NewStore(db pgexec.Executor) *Store { return &Store{db: db} }

// queries are this package's generated queries (auth/internal/dbsqlc, from sql/auth).
var queries = dbsqlc.New()

// Create issues a token for spaces with scope and returns it with its secret form, which is
// never shown again.
func (s *Store) Create(ctx context.Context, spaces []string, scope, label string) (*Token, string, error) {
	if _, ok := scopeRank[scope]; !ok {
		return nil, "", &validation.Error{Field: "scope", Message: "must be read, write or admin"}
	}
	if len(spaces) == 0 {
		return nil, "", &validation.Error{Field: "space", Message: "give at least one space (or * for all)"}
	}
	for _, sp := range spaces {
		if sp == AllSpaces {
			continue
		}
		if err := eventloom.ValidateSpaceID(sp); err != nil {
			return nil, "", err
		}
	}
	idBytes := make([]byte, 6)
	secret := make([]byte, 32)
	if _, err := rand.Read(idBytes); err != nil {
		return nil, "", err
	}
	if _, err := rand.Read(secret); err != nil {
		return nil, "", err
	}
	t := &Token{ID: hex.EncodeToString(idBytes), Scope: scope, Spaces: spaces, Label: label}
	plain := "zx_" + t.ID + "_" + base64.RawURLEncoding.EncodeToString(secret)
	created, err := queries.CreateToken(ctx, s.db, dbsqlc.CreateTokenParams{TokenID: t.ID, Hash: hash(plain), Scope: scope, Spaces: spaces, Label: label})
	if err != nil {
		return nil, "", fmt.Errorf("create token: %w", err)
	}
	t.CreatedAt = created
	return t, plain, nil
}

// Revoke revokes the token with id.
func (s *Store) Revoke(ctx context.Context, id string) error {
	n, err := queries.RevokeToken(ctx, s.db, id)
	if err != nil {
		return fmt.Errorf("revoke token: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return nil
}

// List returns every token, without secrets.
func (s *Store) List(ctx context.Context) ([]Token, error) {
	rows, err := queries.ListTokens(ctx, s.db)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	out := make([]Token, len(rows))
	for i, r := range rows {
		out[i] = Token{ID: r.TokenID, Scope: r.Scope, Spaces: r.Spaces, Label: r.Label, CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt}
	}
	return out, nil
}

// Authorize checks that the bearer token reaches space with at least scope. space "" asks
// only for a valid token. It reveals nothing about spaces the token does not reach.
func (s *Store) Authorize(ctx context.Context, bearer, space, scope string) (*Token, error) {
	if !strings.HasPrefix(bearer, "zx_") || len(bearer) > 200 {
		return nil, ErrUnauthenticated
	}
	r, err := queries.LookupToken(ctx, s.db, hash(bearer))
	t := Token{ID: r.TokenID, Scope: r.Scope, Spaces: r.Spaces}
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrUnauthenticated
	}
	if err != nil {
		return nil, fmt.Errorf("check token: %w", err)
	}
	if space != "" && !slices.Contains(t.Spaces, AllSpaces) && !slices.Contains(t.Spaces, space) {
		return nil, ErrForbidden
	}
	if scopeRank[t.Scope] < scopeRank[scope] {
		return nil, ErrForbidden
	}
	return &t, nil
}

// TokenID is the id part of a bearer token zx_<id>_<secret>, which names the token (as in
// zaxy token list) without its secret; false when bearer does not have that shape. It says
// nothing about whether the token is valid: Authorize does.
func TokenID(bearer string) (string, bool) {
	rest, ok := strings.CutPrefix(bearer, "zx_")
	if !ok {
		return "", false
	}
	id, _, ok := strings.Cut(rest, "_")
	return id, ok && id != ""
}

func hash(plain string) []byte {
	sum := sha256.Sum256([]byte(plain))
	return sum[:]
}
