package eventloomwire

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Hash is a SHA-256 digest; it is written as lowercase hex in JSON and text.
type Hash []byte

// String returns the hash as lowercase hex.
func (h Hash) String() string { return hex.EncodeToString(h) }

// MarshalJSON writes the hash as a hex string.
func (h Hash) MarshalJSON() ([]byte, error) { return json.Marshal(h.String()) }

// UnmarshalJSON reads a hex string.
func (h *Hash) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	d, err := hex.DecodeString(s)
	if err != nil || len(d) != sha256.Size {
		return fmt.Errorf("hash must be 64 hex characters")
	}
	*h = d
	return nil
}

// HexBytes is a byte string written as lowercase hex in JSON (an event's salt).
type HexBytes []byte

// MarshalJSON writes the bytes as a hex string.
func (b HexBytes) MarshalJSON() ([]byte, error) { return json.Marshal(hex.EncodeToString(b)) }

// UnmarshalJSON reads a hex string.
func (b *HexBytes) UnmarshalJSON(raw []byte) error {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return err
	}
	d, err := hex.DecodeString(s)
	if err != nil {
		return fmt.Errorf("must be hex")
	}
	*b = d
	return nil
}
