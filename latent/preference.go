package latent

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/zaxy/zaxy/vocab"
)

// preferencePayload is a preference's payload.
type preferencePayload struct {
	Holder     string `json:"holder"`
	Topic      string `json:"topic"`
	Preference string `json:"preference"`
	// Statements counts the times it was stated since it last changed; Stable is two or more.
	Statements int  `json:"statements"`
	Stable     bool `json:"stable"`
}

// preferences derives each holder's current preference per topic from the usable
// preference.stated events: the latest value and the statements of it since the value last
// changed. A preference whose statement was superseded (the fact it asserted was closed by a
// new value) is no longer usable, so its artifact is stale and the new one supersedes it.
func preferences(evs []event) []*Artifact {
	type stmt struct {
		ev                       *event
		holder, topic, preferred string
	}
	by := map[string][]stmt{}
	for i := range evs {
		e := &evs[i]
		if e.Type != vocab.TypePreferenceStated {
			continue
		}
		d, err := vocab.Decode[vocab.PreferenceStated](e.Data)
		if err != nil || strings.TrimSpace(d.Topic) == "" {
			continue
		}
		holder := d.Holder
		if holder == "" {
			holder = e.Actor
		}
		if holder == "" {
			holder = "user"
		}
		key := slotPart(normKey(holder), "/") + "/" + slotPart(normKey(d.Topic), "/")
		by[key] = append(by[key], stmt{ev: e, holder: holder, topic: d.Topic, preferred: strings.TrimSpace(d.Preference)})
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []*Artifact
	for _, k := range keys {
		ss := by[k]
		last := ss[len(ss)-1]
		run := []stmt{}
		for i := len(ss) - 1; i >= 0 && strings.EqualFold(ss[i].preferred, last.preferred); i-- {
			run = append([]stmt{ss[i]}, run...)
		}
		cites := map[int64]*event{}
		for _, s := range run {
			cites[s.ev.Seq] = s.ev
		}
		from := run[0].ev.OccurredAt
		p := preferencePayload{Holder: last.holder, Topic: last.topic, Preference: last.preferred,
			Statements: len(run), Stable: len(run) >= 2}
		out = append(out, &Artifact{
			Slot: "preference:" + k, Type: TypePreference,
			Summary: fmt.Sprintf("%s prefers %s: %s (stated %d times since %s) [%d]", last.holder, last.topic, last.preferred,
				len(run), from.UTC().Format(time.DateOnly), last.ev.Seq),
			Sources: refsOf(cites), ValidFrom: &from, Method: MethodDeterministic,
			Confidence: 1 - 1/float64(int(1)<<min(len(run), 10)), PurposeProfile: "personalization", ReasoningPhase: "plan",
			Payload: mustJSON(p), Diagnostics: mustJSON(map[string]int{"statements": len(ss)}),
		})
	}
	return out
}

func normKey(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
