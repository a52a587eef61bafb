package disclosure

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/memoryitem"
)

// factStatement is a fact as a sentence. This file discloses a fact (factItem) and renders its
// lines.
func factStatement(f *graph.Fact) string {
	obj := valueText(f.Value)
	if f.Object != nil {
		obj = f.Object.Name
	}
	return f.Subject.Name + " " + f.Predicate + " " + obj
}

// factLabels are a fact's labels: its status unless current, and inferred.
func factLabels(f *graph.Fact) []string {
	var l []string
	if f.Status != "current" {
		l = append(l, f.Status)
	}
	if f.Inferred {
		l = append(l, LabelInferred)
	}
	if f.Status == "current" && f.ReviewStatus == LabelConflicted {
		l = append(l, LabelConflicted)
	}
	return l
}

// renderFact is a fact's line in a listing.
func renderFact(f *graph.Fact, cites citations) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (v%d, %s) %s", memoryitem.FactID(f.ID), clip(factStatement(f), summaryRunes), f.Version,
		f.Status, cites.add(f.RecordedSeq, f.RecordedHash))
	if f.Inferred {
		b.WriteString(" [inferred]")
	}
	if f.Status == "current" && f.ReviewStatus == LabelConflicted {
		b.WriteString(" [conflicted]")
	}
	return b.String()
}

func renderWindow(f *graph.Fact) string {
	s := "valid from " + f.ValidFrom.Format(time.RFC3339Nano)
	if f.ValidTo != nil {
		s += " to " + f.ValidTo.Format(time.RFC3339Nano)
	}
	return s
}

// factItem is fact id in full: its current version with its earlier versions, rendered with
// their citations.
func factItem(ctx context.Context, q Querier, space, id string) (*ItemView, error) {
	facts, err := queryFact(ctx, q, factArgs{SpaceID: space, FactID: id})
	if err != nil {
		return nil, fmt.Errorf("query fact: %w", err)
	}
	if len(facts) == 0 {
		return nil, notFound(space, memoryitem.FactID(id))
	}
	f := FactItem{Fact: facts[0], Statement: factStatement(&facts[0])}
	if f.Versions, err = queryFactVersions(ctx, q, factVersionsArgs{SpaceID: space, SubjectID: f.Subject.ID, Predicate: f.Predicate}); err != nil {
		return nil, fmt.Errorf("query fact versions: %w", err)
	}
	v := &ItemView{Fact: &f, Labels: factLabels(&f.Fact)}
	cites := citations{}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", memoryitem.FactID(f.ID), f.Statement)
	writeLabels(&b, v.Labels)
	fmt.Fprintf(&b, "\nversion %d of %s %s · %s · %s", f.Version, f.Subject.Name, f.Predicate, f.Status, renderWindow(&f.Fact))
	if f.SupersededBy != nil {
		fmt.Fprintf(&b, " · superseded by %s", memoryitem.FactID(*f.SupersededBy))
	}
	if f.ClosedSeq != nil {
		fmt.Fprintf(&b, " · closed at #%d", *f.ClosedSeq)
		if f.CloseReason != nil {
			fmt.Fprintf(&b, " (%s)", *f.CloseReason)
		}
	}
	fmt.Fprintf(&b, "\nauthority %s · review %s", f.Authority, f.ReviewStatus)
	if f.Confidence != nil {
		fmt.Fprintf(&b, " · confidence %s", strconv.FormatFloat(float64(*f.Confidence), 'g', 4, 32))
	}
	fmt.Fprintf(&b, "\nrecorded %s", cites.add(f.RecordedSeq, f.RecordedHash))
	if len(f.Evidence) > 0 {
		b.WriteString("; evidence")
		for i, ev := range f.Evidence {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(" " + cites.add(ev.Seq, ev.Hash))
		}
	}
	if len(f.Versions) > 1 {
		b.WriteString("\nversions:")
		for i := range f.Versions {
			x := &f.Versions[i]
			obj := valueText(x.Value)
			if x.Object != nil {
				obj = x.Object.Name
			}
			fmt.Fprintf(&b, "\nv%d %s %s %s %s", x.Version, memoryitem.FactID(x.ID), clip(obj, summaryRunes), x.Status,
				cites.add(x.RecordedSeq, x.RecordedHash))
		}
	}
	v.Text, v.Citations = b.String(), cites.list()
	return v, nil
}
