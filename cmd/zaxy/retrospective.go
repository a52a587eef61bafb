package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/retrospective"
)

// retrospectiveCmd: zaxy retrospective --space S --session ID [--from-seq N] [--json]. Runs
// the retrospective_credit job's pass over one session now: judges its outcomes and appends
// the feedback, confidence revisions and proposals they call for (a re-run appends nothing).
type retrospectiveCmd struct {
	space, session string
	fromSeq        int64
	asJSON         bool
}

func (c *retrospectiveCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "space (default $ZAXY_SPACE)")
	fs.StringVar(&c.session, "session", "", "the session whose outcomes to judge (outcome.recorded's data.session_id)")
	fs.Int64Var(&c.fromSeq, "from-seq", 0, "judge the outcomes from this seq on (default all)")
	fs.BoolVar(&c.asJSON, "json", false, "print the attributions as JSON")
}

func (c *retrospectiveCmd) validate(args []string) error {
	switch {
	case c.space == "":
		return errNeedsSpace
	case strings.TrimSpace(c.session) == "":
		return errors.New("--session is required")
	case c.fromSeq < 0:
		return fmt.Errorf("--from-seq must not be negative, got %d", c.fromSeq)
	}
	return noArgs(args)
}

func (c *retrospectiveCmd) run(ctx context.Context, env *env) error {
	res, err := retrospective.NewAssigner(env.pool, env.store, env.logger).Credit(ctx, c.space, c.session, c.fromSeq)
	if err != nil {
		return err
	}
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(struct {
			Outcomes     int                          `json:"outcomes"`
			Appended     int                          `json:"appended"`
			Attributions []*retrospective.Attribution `json:"attributions"`
		}{res.Outcomes, res.Appended, res.Attributions})
	}
	if res.Outcomes == 0 {
		fmt.Fprintf(env.stdout, "no outcome.recorded about session %q in space %q\n", c.session, c.space)
		return nil
	}
	for _, a := range res.Attributions {
		fmt.Fprintf(env.stdout, "outcome %d\t%s (%s)\tcause %s\tconfidence %g\t%s\n", a.OutcomeSeq, a.Status, a.StatusFrom, a.Cause, a.Confidence, a.Reason)
		for _, j := range a.Items {
			fmt.Fprintf(env.stdout, "  item %s\t%s %g\t%s\n", j.ItemID, j.Signal, j.Confidence, j.Reason)
		}
		for _, j := range a.Actions {
			if j.Verdict == "not_implicated" {
				continue
			}
			what := j.Type
			if j.Action != "" {
				what = j.Action
			}
			fmt.Fprintf(env.stdout, "  action %d %s\t%s %g\t%s\n", j.Seq, what, j.Verdict, j.Confidence, j.Reason)
		}
	}
	fmt.Fprintf(env.stdout, "%d outcome(s) judged, %d event(s) appended\n", res.Outcomes, res.Appended)
	return nil
}
