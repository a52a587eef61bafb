package checkoutwire

// Component is one lane's contribution to an item's score.
type Component struct {
	Rank   int     `json:"rank"`
	Weight float64 `json:"weight"`
	Score  float64 `json:"score"`
}
