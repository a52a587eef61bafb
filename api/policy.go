package api

import (
	"bytes"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// PolicyActionBody is the body of POST /policies/fit, /policies/{version}/promote and
// /policies/rollback (all optional).
type PolicyActionBody struct {
	// Actor is who acts (the policy event's actor); defaults to "admin".
	Actor string `json:"actor,omitempty"`
	// Reason says why (recorded by a rollback).
	Reason string `json:"reason,omitempty"`
}

// policyVersionParam matches a version in the path: builtin-<n> or fit-<12 hex>.
var policyVersionParam = regexp.MustCompile(`^(builtin-[0-9]{1,3}|fit-[0-9a-f]{12})$`)

// readPolicyAction reads the optional body of a policy action.
func readPolicyAction(r *http.Request) (PolicyActionBody, error) {
	var b PolicyActionBody
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return b, err
	}
	if len(bytes.TrimSpace(raw)) > 0 {
		r.Body = io.NopCloser(bytes.NewReader(raw))
		if err := readJSON(r, &b); err != nil {
			return b, err
		}
	}
	if b.Actor == "" {
		b.Actor = "admin"
	}
	return b, nil
}

// listPolicies serves GET /v1/spaces/{space}/policies.
func (s *server) listPolicies(r *http.Request) (any, error) {
	return s.policies.List(r.Context(), chi.URLParam(r, "space"))
}

// fitPolicy serves POST /v1/spaces/{space}/policies/fit: 201 with the proposed version.
func (s *server) fitPolicy(r *http.Request) (any, error) {
	b, err := readPolicyAction(r)
	if err != nil {
		return nil, err
	}
	res, err := s.policies.Fit(r.Context(), chi.URLParam(r, "space"), b.Actor)
	if err != nil {
		return nil, err
	}
	return withStatus(http.StatusCreated, res), nil
}

// promotePolicy serves POST /v1/spaces/{space}/policies/{version}/promote: 201 when the
// regression gate (the replay on the space's own history) passed.
func (s *server) promotePolicy(r *http.Request) (any, error) {
	version, err := pathParam(r, "version", "version")
	if err != nil {
		return nil, err
	}
	if !policyVersionParam.MatchString(version) {
		return nil, &validation.Error{Field: "version", Message: "must be " + strings.Join(vocab.BuiltinPolicyVersions, ", ") + " or fit-<12 hex digits>"}
	}
	b, err := readPolicyAction(r)
	if err != nil {
		return nil, err
	}
	prom, err := s.policies.Promote(r.Context(), chi.URLParam(r, "space"), version, b.Actor, nil)
	if err != nil {
		return nil, err
	}
	return withStatus(http.StatusCreated, prom), nil
}

// rollbackPolicy serves POST /v1/spaces/{space}/policies/rollback: 201 with the restored version.
func (s *server) rollbackPolicy(r *http.Request) (any, error) {
	b, err := readPolicyAction(r)
	if err != nil {
		return nil, err
	}
	rb, err := s.policies.Rollback(r.Context(), chi.URLParam(r, "space"), b.Actor, b.Reason)
	if err != nil {
		return nil, err
	}
	return withStatus(http.StatusCreated, rb), nil
}
