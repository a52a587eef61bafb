package policywire

// FitDiagnostics is what a fit reports and its policy.proposed event records.
type FitDiagnostics struct {
	// BaseMetric and Metric are the replay metric of the base policy and of the fitted one;
	// BaseMargin and Margin the mean relative margin of the judged pairs (objective).
	BaseMetric float64 `json:"base_metric"`
	Metric     float64 `json:"metric"`
	BaseMargin float64 `json:"base_margin"`
	Margin     float64 `json:"margin"`
	// Checkouts and Pairs are how many judged checkouts and (helpful, negative) item pairs
	// the replay holds.
	Checkouts int `json:"checkouts"`
	Pairs     int `json:"pairs"`
	// Sweeps is how many coordinate sweeps ran; Changed lists the lane weights that moved,
	// as "purpose/lane".
	Sweeps  int      `json:"sweeps"`
	Changed []string `json:"changed"`
}
