package client

import (
	"math/rand/v2"
	"net/http"
	"time"
)

// RetryPolicy says how often and how patiently a call that is safe to repeat is retried after
// a 429 too_many_requests, a 503 (database_unavailable, not ready) or a connection error. A
// Retry-After from the server replaces the computed backoff, unless waiting that long would
// pass the context's deadline, in which case the error is returned at once.
type RetryPolicy struct {
	// MaxAttempts counts every try, the first included; 1 never retries. Defaults to 4.
	MaxAttempts int
	// MinBackoff is the wait before the first retry; it doubles per retry, jittered down to
	// half. Defaults to 200ms.
	MinBackoff time.Duration
	// MaxBackoff caps the computed wait. Defaults to 5s.
	MaxBackoff time.Duration
}

// DefaultRetryPolicy is the policy of a client made without WithRetryPolicy.
var DefaultRetryPolicy = RetryPolicy{}.withDefaults()

// NoRetry never retries.
var NoRetry = RetryPolicy{MaxAttempts: 1}.withDefaults()

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 4
	}
	if p.MinBackoff <= 0 {
		p.MinBackoff = 200 * time.Millisecond
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = 5 * time.Second
	}
	return p
}

// backoff is the wait after the attempt-th try failed (attempt counts from 1): MinBackoff
// doubled per earlier retry, capped at MaxBackoff, jittered into its upper half.
func (p RetryPolicy) backoff(attempt int) time.Duration {
	d := p.MinBackoff
	for i := 1; i < attempt && d < p.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, p.MaxBackoff)
	return d/2 + rand.N(d/2+1)
}

// retryableStatus reports whether an answer with status is worth another try.
func retryableStatus(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}
