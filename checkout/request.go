package checkout

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/tokenize"
	"github.com/zaxy/zaxy/validation"
)

// Purposes a checkout can be made for; each weighs the lanes and kinds of memory differently
// (fusion.go).
const (
	PurposeGeneral        = checkoutwire.PurposeGeneral
	PurposePlanning       = checkoutwire.PurposePlanning
	PurposeExploration    = checkoutwire.PurposeExploration
	PurposeImplementation = checkoutwire.PurposeImplementation
	PurposeDebugging      = checkoutwire.PurposeDebugging
	PurposeReview         = checkoutwire.PurposeReview
	PurposeRefactoring    = checkoutwire.PurposeRefactoring
)

// Purposes lists every purpose.
var Purposes = checkoutwire.Purposes

// Lane names.
const (
	LaneExact    = "exact"
	LaneKeyword  = "keyword"
	LaneVector   = "vector"
	LaneGraph    = "graph"
	LaneVerbatim = "verbatim"
	LaneRecent   = "recent"
	LaneTopic    = "topic"
	LaneReply    = "reply"
	LaneRemedy   = "remedy"
	LanePPR      = "ppr"
)

// Lanes lists every lane.
var Lanes = []string{LaneExact, LaneKeyword, LaneVector, LaneGraph, LaneVerbatim, LaneRecent, LaneTopic, LaneReply, LaneRemedy, LanePPR}

// Token budget limits of a checkout.
const (
	MinMaxTokens     = 200
	MaxMaxTokens     = 32000
	DefaultMaxTokens = 2000
	// MaxQueryChars is the longest query checkout takes, in characters (ValidateQuery).
	MaxQueryChars = 4000
	// maxSessionIDChars bounds a request's session id, as the log bounds an event's.
	maxSessionIDChars = 256
)

// ValidateQuery checks a query as checkout and the feeling of knowing (package metamemory)
// take it: not blank, at most MaxQueryChars characters once trimmed, valid UTF-8 without NUL
// characters (Postgres's text holds neither, so every lane would fail on it; FuzzQuery). The
// error is a *validation.Error naming the field query.
func ValidateQuery(q string) error {
	switch q = strings.TrimSpace(q); {
	case q == "":
		return &validation.Error{Field: "query", Message: "is required"}
	case utf8.RuneCountInString(q) > MaxQueryChars:
		return &validation.Error{Field: "query", Message: fmt.Sprintf("must be at most %d characters", MaxQueryChars)}
	case !utf8.ValidString(q) || strings.ContainsRune(q, 0):
		return &validation.Error{Field: "query", Message: "must be valid UTF-8 without NUL characters"}
	}
	return nil
}

// validateRequest checks r and fills defaults; errors name the field.
func validateRequest(r *Request) error {
	if err := eventloom.ValidateSpaceID(r.SpaceID); err != nil {
		return err
	}
	if err := ValidateQuery(r.Query); err != nil {
		return err
	}
	if err := eventloom.CheckText("session_id", r.SessionID, maxSessionIDChars); err != nil {
		return err
	}
	if r.Purpose != "" && !slices.Contains(Purposes, r.Purpose) {
		return &validation.Error{Field: "purpose", Message: "must be one of " + strings.Join(Purposes, ", ") + ", got " + r.Purpose}
	}
	if r.MaxTokens == 0 {
		r.MaxTokens = DefaultMaxTokens
	}
	if r.MaxTokens < MinMaxTokens || r.MaxTokens > MaxMaxTokens {
		return &validation.Error{Field: "max_tokens", Message: "must be between 200 and 32000"}
	}
	if r.Tokenizer != "" && !tokenize.Valid(r.Tokenizer) {
		return &validation.Error{Field: "tokenizer", Message: "must be one of " + strings.Join(tokenize.Names, ", ") + ", got " + r.Tokenizer}
	}
	if r.AsOf != nil && (r.AsOf.Year() < 1 || r.AsOf.Year() > 9999) {
		return &validation.Error{Field: "as_of", Message: "must be a time between years 0001 and 9999"}
	}
	for i, l := range r.DisableLanes {
		if !slices.Contains(Lanes, l) {
			return &validation.Error{Field: "disable_lanes", Message: "unknown lane " + l + " at index " + strconv.Itoa(i) + "; lanes are " + strings.Join(Lanes, ", ")}
		}
	}
	if r.RetrievalProfile != "" && !slices.Contains(Profiles, r.RetrievalProfile) {
		return &validation.Error{Field: "retrieval_profile", Message: "must be one of " + strings.Join(Profiles, ", ") + ", got " + r.RetrievalProfile}
	}
	if r.ReasoningPhase != "" && !slices.Contains(Phases, r.ReasoningPhase) {
		return &validation.Error{Field: "reasoning_phase", Message: "must be one of " + strings.Join(Phases, ", ") + ", got " + r.ReasoningPhase}
	}
	if w := r.PPRWeight; w != nil && !(*w >= 0 && *w <= checkoutwire.MaxPPRWeight) {
		// Written so that NaN fails too.
		return &validation.Error{Field: "ppr_weight", Message: "must be between 0 and 5, got " + strconv.FormatFloat(*w, 'g', -1, 64)}
	}
	if err := validateCues(r.Cues); err != nil {
		return err
	}
	if r.Limit == 0 {
		r.Limit = 50
	}
	if r.Limit < 1 || r.Limit > 200 {
		return &validation.Error{Field: "limit", Message: "must be between 1 and 200"}
	}
	return nil
}

// laneOn reports whether r leaves lane on (DisableLanes does not name it).
func laneOn(r *Request, lane string) bool { return !slices.Contains(r.DisableLanes, lane) }

// plainProfile reports whether the request asks for the plain profile (no salience).
func plainProfile(r *Request) bool { return r.RetrievalProfile == ProfilePlain }

// purposeRules map words of a query to a purpose, tried in order; the first match wins.
// Words that are also everyday verbs of a conversation ("build", "write", "add", "plan",
// "schedule") count only as a request: at the start of the query ("build the ..."), after
// "please", "let's", "help me" or "how do/can/should I/we". Question words alone ("what",
// "when", "who") name no purpose: a question about a past conversation ("When did she go to
// the support group?") is general, and general is the answer whenever no rule is sure
// (TestInferPurpose holds the labelled queries the rules are measured against).
var purposeRules = []struct {
	purpose string
	pattern *regexp.Regexp
}{
	{PurposeDebugging, regexp.MustCompile(`(?i)\b(error|errors|fail|fails|failed|failing|failure|bug|bugs|crash|crashes|exception|panic|stack ?trace|debug|broken|flaky|regression|timeout)\b`)},
	{PurposeReview, regexp.MustCompile(`(?i)\b(review|pull request|pr|diff|approve|feedback on)\b`)},
	{PurposeRefactoring, regexp.MustCompile(`(?i)\b(refactor|refactoring|clean ?up|rename|restructure|extract (a|the) )\b`)},
	{PurposePlanning, regexp.MustCompile(`(?i)\b(planning|roadmap|next steps?|should we|prioriti[sz]e|milestones?)\b|` + requestVerb + `(plan|schedule)\b`)},
	{PurposeImplementation, regexp.MustCompile(`(?i)\b(implement|implementing|endpoint|test for)\b|` + requestVerb + `(add|build|write|code)\b`)},
	{PurposeExploration, regexp.MustCompile(`(?i)\b(overview|explore|what do (we|i) know|tell me about|summari[sz]e)\b`)},
}

// requestVerb is the position where an everyday verb is a request: the query's start, or
// after please, let's, help me, or how do/can/should I/we (to).
const requestVerb = `(?:^\s*|\b(?:please|let'?s|help (?:me|us)(?: to)?|how (?:do|can|should) (?:i|we)|how to)\s+)`

// InferPurpose picks a purpose from the words of a query: the first of debugging, review,
// refactoring, planning, implementation and exploration whose words it contains, else
// general (purposeRules). docs/checkout.md lists the words.
func InferPurpose(query string) string {
	for _, r := range purposeRules {
		if r.pattern.MatchString(query) {
			return r.purpose
		}
	}
	return PurposeGeneral
}
