package eventloom

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom/internal/dbsqlc"
	"github.com/zaxy/zaxy/redact"
	"github.com/zaxy/zaxy/vocab"
)

// redactEvents returns events with the secrets in actor, content, and every string of data
// and cues (at any depth, whole values of secret-named keys) replaced, and how many were
// replaced. It returns events itself when there were none, and ctx's error when ctx is done
// first (redaction checks it as it goes). The events must be valid.
func redactEvents(ctx context.Context, events []NewEvent) ([]NewEvent, int, error) {
	var out []NewEvent
	total := 0
	for i, e := range events {
		actor, n1, err := redact.StringContext(ctx, e.Actor)
		if err != nil {
			return nil, 0, fmt.Errorf("redact event %d actor: %w", i, err)
		}
		content, n2, err := redact.StringContext(ctx, e.Content)
		if err != nil {
			return nil, 0, fmt.Errorf("redact event %d content: %w", i, err)
		}
		data, n3, err := redact.JSONContext(ctx, e.Data)
		if err != nil {
			return nil, 0, fmt.Errorf("redact event %d data: %w", i, err)
		}
		cues, n4, err := redact.JSONContext(ctx, e.Cues)
		if err != nil {
			return nil, 0, fmt.Errorf("redact event %d cues: %w", i, err)
		}
		n := n1 + n2 + n3 + n4
		if n == 0 {
			continue
		}
		if out == nil {
			out = append([]NewEvent(nil), events...)
		}
		out[i].Actor, out[i].Content, out[i].Data, out[i].Cues = actor, content, data, cues
		total += n
	}
	if out == nil {
		return events, 0, nil
	}
	return out, total, nil
}

// lockedRedactionMode takes the space's chain lock (held until tx ends) and then reads its
// redaction mode, in one round trip: the read is a statement of its own, so it sees every
// switch committed before the lock was granted.
func lockedRedactionMode(ctx context.Context, tx pgx.Tx, space string) (string, error) {
	b := &pgx.Batch{}
	dbsqlc.QueueChainLock(b, space)
	dbsqlc.QueueRedactionMode(b, space)
	br := tx.SendBatch(ctx, b)
	defer br.Close() //nolint:errcheck // the results that matter are read below
	if _, err := br.Exec(); err != nil {
		return "", fmt.Errorf("lock space: %w", err)
	}
	var mode string
	err := br.QueryRow().Scan(&mode)
	return modeOf(mode, err)
}

func modeOf(mode string, err error) (string, error) {
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return vocab.RedactionOn, nil
	case err != nil:
		return "", fmt.Errorf("read redaction mode: %w", err)
	case mode != vocab.RedactionOff:
		return vocab.RedactionOn, nil
	}
	return vocab.RedactionOff, nil
}

// RedactionMode returns the space's redaction mode, vocab.RedactionOn or vocab.RedactionOff,
// without locking: a hint for callers that redact ahead (ingest redacts whole documents
// before chunking). Appends read it again under the space's lock.
func (s *Store) RedactionMode(ctx context.Context, space string) (string, error) {
	if err := ValidateSpaceID(space); err != nil {
		return "", err
	}
	return modeOf(s.q.RedactionMode(ctx, s.db, space))
}

// checkPrivileged refuses privileged events (vocab.Privileged: redaction.configured and the
// retrieval policy's lifecycle) in an append without admin rights.
func checkPrivileged(p *AppendParams) error {
	if p.Admin {
		return nil
	}
	for i, e := range p.Events {
		if vocab.Privileged(e.Type) {
			field := "type"
			if len(p.Events) > 1 {
				field = fmt.Sprintf("events[%d].type", i)
			}
			return invalid(field, "%s may only be appended with admin rights (an admin token, or the zaxy CLI)", e.Type)
		}
	}
	return nil
}
