package checkoutwire

// LaneStat is one lane's diagnostics.
type LaneStat struct {
	Count int     `json:"count"`
	MS    float64 `json:"ms"`
	Off   bool    `json:"off,omitempty"`
	Error string  `json:"error,omitempty"`
}
