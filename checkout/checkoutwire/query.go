package checkoutwire

// QueryResult is the body of a raw query: ranked items with their score components.
type QueryResult struct {
	Purpose         string `json:"purpose"`
	PurposeInferred bool   `json:"purpose_inferred"`
	// Speaker is the role whose turns the speaker prior favoured ("user"), if any
	// (checkout/speaker.go).
	Speaker       string              `json:"speaker,omitempty"`
	Items         []*Item             `json:"items"`
	Lanes         map[string]LaneStat `json:"lanes"`
	ProjectionLag int64               `json:"projection_lag"`
	// Salience reports the attenuated candidates left out (absent with the plain profile).
	Salience *SalienceStats `json:"salience,omitempty"`
	// PolicyVersion is the retrieval policy the ranking used (docs/checkout.md).
	PolicyVersion string `json:"policy_version"`
}
