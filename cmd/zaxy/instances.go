package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/zaxy/zaxy/api"
)

// readSharedBudgets reads ZAXY_SHARED_BUDGETS: on keeps each caller's in-flight budgets and
// fair pool shares in the database, shared by every instance serving it (docs/scaling.md,
// Many service instances).
func readSharedBudgets(r envReader) (bool, error) {
	switch v := r.str("ZAXY_SHARED_BUDGETS"); v {
	case "on":
		return true, nil
	case "off":
		return false, nil
	default:
		return false, fmt.Errorf("ZAXY_SHARED_BUDGETS must be on or off, got %q", v)
	}
}

// openSharedBudgets opens the shared budgets' lease connections when cfg asks for them, else
// returns nil (budgets per process).
func openSharedBudgets(ctx context.Context, cfg *config, logger *slog.Logger) (*api.SharedBudgets, error) {
	if !cfg.sharedBudgets {
		return nil, nil
	}
	b, err := api.OpenSharedBudgets(ctx, cfg.databaseURL, 0, logger)
	if err != nil {
		return nil, fmt.Errorf("open shared budgets: %w", err)
	}
	return b, nil
}
