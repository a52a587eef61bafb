package client

// Strict makes c refuse answers with fields its result types lack, so a test against a real
// server fails when the server's answer and this package's types drift apart.
func Strict(c *Client) *Client {
	c.strict = true
	return c
}
