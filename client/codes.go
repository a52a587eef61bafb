package client

// The error codes the server answers with (Error.Code; docs/api.md lists them with their
// statuses). Test for one with IsCode(err, CodeSpaceNotFound) or compare Error.Code.
const (
	// CodeInvalidRequest (400): a parameter, header or body field is wrong; details.field names it.
	CodeInvalidRequest = "invalid_request"
	// CodeBodyIncomplete (400): the body was shorter than its Content-Length.
	CodeBodyIncomplete = "body_incomplete"
	// CodeUnauthorized (401): no valid bearer token.
	CodeUnauthorized = "unauthorized"
	// CodeForbidden (403): the token does not reach the space or lacks the scope.
	CodeForbidden = "forbidden"
	// CodeHostNotAllowed (403): the Host header is not the server's.
	CodeHostNotAllowed = "host_not_allowed"
	// CodeCrossSiteRequest (403): a browser request from another site.
	CodeCrossSiteRequest = "cross_site_request"
	// CodeRouteNotFound (404): no operation has this path.
	CodeRouteNotFound = "route_not_found"
	// CodeSpaceNotFound (404): what needs earlier events (a policy change, a Cypher query before
	// the first projection) asked of a space with none. Reads of such a space answer empty.
	CodeSpaceNotFound = "space_not_found"
	// CodeEventNotFound (404): the space has no event with that seq.
	CodeEventNotFound = "event_not_found"
	// CodeEntityNotFound (404): no entity has that id or name.
	CodeEntityNotFound = "entity_not_found"
	// CodeItemNotFound (404): no memory item has that id.
	CodeItemNotFound = "item_not_found"
	// CodeProposalNotFound (404): no proposal.created event has that seq.
	CodeProposalNotFound = "proposal_not_found"
	// CodeCheckoutNotFound (404): no checkout.surfaced event has that seq.
	CodeCheckoutNotFound = "checkout_not_found"
	// CodePolicyNotFound (404): no retrieval policy has that version.
	CodePolicyNotFound = "policy_not_found"
	// CodeArtifactNotFound (404): no current latent artifact has that id.
	CodeArtifactNotFound = "artifact_not_found"
	// CodeMethodNotAllowed (405): the path exists, not with this method.
	CodeMethodNotAllowed = "method_not_allowed"
	// CodeBodyTimeout (408): the body stalled.
	CodeBodyTimeout = "body_timeout"
	// CodeIdempotencyConflict (409): the Idempotency-Key was used with another body.
	CodeIdempotencyConflict = "idempotency_conflict"
	// CodeChainBroken (409): the space's hash chain does not verify.
	CodeChainBroken = "chain_broken"
	// CodeNotErasable (409): the event cannot be erased.
	CodeNotErasable = "not_erasable"
	// CodeProposalNotPending (409): the proposal was already decided.
	CodeProposalNotPending = "proposal_not_pending"
	// CodePolicyGateFailed (409): the policy did not pass its promotion gate.
	CodePolicyGateFailed = "policy_gate_failed"
	// CodePolicyChanged (409): the current policy changed meanwhile.
	CodePolicyChanged = "policy_changed"
	// CodeNothingToRollBack (409): no earlier policy to return to.
	CodeNothingToRollBack = "nothing_to_roll_back"
	// CodeBodyTooLarge (413): the body passed the server's body cap.
	CodeBodyTooLarge = "body_too_large"
	// CodeBatchTooLarge (413): more events than the server's batch cap.
	CodeBatchTooLarge = "batch_too_large"
	// CodeResponseTooLarge (413): the answer would pass the response cap; ask for less.
	CodeResponseTooLarge = "response_too_large"
	// CodeUnsupportedMediaType (415): the body is not application/json.
	CodeUnsupportedMediaType = "unsupported_media_type"
	// CodeQueryTimeout (422): the Cypher query passed its statement timeout.
	CodeQueryTimeout = "query_timeout"
	// CodeNothingToLearn (422): no feedback to fit a policy on.
	CodeNothingToLearn = "nothing_to_learn"
	// CodeTooManyRequests (429): the caller's in-flight budget is full; retry after RetryAfter.
	CodeTooManyRequests = "too_many_requests"
	// CodeInternal (500): a server fault, logged with the request id.
	CodeInternal = "internal"
	// CodeAGEUnavailable (501): the database has no Apache AGE.
	CodeAGEUnavailable = "age_unavailable"
	// CodePoolBusy (503): no fair share of a connection pool came free before the deadline.
	CodePoolBusy = "pool_busy"
	// CodeErasurePending (503): an erasure's purge is pending in the space.
	CodeErasurePending = "erasure_pending"
	// CodeRequestTimeout (503): the request did not finish before its deadline.
	CodeRequestTimeout = "request_timeout"
	// CodeSpaceMoving (503): the space is being moved to another cluster (or this is the
	// read-only copy a move left); retry after Retry-After with the same idempotency key.
	CodeSpaceMoving = "space_moving"
	// CodeClusterUnavailable (503): the space lives on a cluster this server is not configured
	// with.
	CodeClusterUnavailable = "cluster_unavailable"
	// CodeDatabaseUnavailable (503): the database refused or dropped the connection.
	CodeDatabaseUnavailable = "database_unavailable"
	// CodeDatabaseUnreachable (503, readiness): the database does not answer.
	CodeDatabaseUnreachable = "database_unreachable"
	// CodeSchemaOutOfDate (503, readiness): migrations are pending.
	CodeSchemaOutOfDate = "schema_out_of_date"
)
