package replica

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Header is the HTTP header a write answers its Token in and a read sends it back in.
const Header = "Zaxy-Consistency"

// ReadFromHeader is the HTTP header a read that can run on a standby answers: FromPrimary or
// FromReplica.
const ReadFromHeader = "Zaxy-Read-From"

// The values of ReadFromHeader.
const (
	FromPrimary = "primary"
	FromReplica = "replica"
)

// LSN is a WAL position (Postgres's pg_lsn) as a number: its text form is the high and low 32
// bits in hexadecimal, "16/B374D848".
type LSN uint64

// String is the LSN's text form as Postgres writes it ("0/16B3F20").
func (l LSN) String() string { return fmt.Sprintf("%X/%X", uint64(l)>>32, uint64(l)&0xFFFFFFFF) }

// lsnText is a pg_lsn's text form.
var lsnText = regexp.MustCompile(`^([0-9A-Fa-f]{1,8})/([0-9A-Fa-f]{1,8})$`)

// ParseLSN reads an LSN's text form ("0/16B3F20").
func ParseLSN(s string) (LSN, error) {
	m := lsnText.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("parse lsn %q: want two hexadecimal numbers of at most 8 digits separated by /", s)
	}
	hi, _ := strconv.ParseUint(m[1], 16, 32)
	lo, _ := strconv.ParseUint(m[2], 16, 32)
	return LSN(hi<<32 | lo), nil
}

// Token is a consistency token: what a write answers in Header and a read sends back. Its
// text form ("lsn:0/16B3F20") is opaque to clients; the zero Token means none.
type Token struct {
	// Cluster names the cluster whose primary wrote it when zaxy serve spans several
	// (ZAXY_CLUSTERS); "" with one. A token of another cluster than the one a read runs on (its
	// space moved since) says nothing of that cluster's WAL: the read goes to the primary.
	Cluster string
	// LSN is the primary's WAL position once the write had committed.
	LSN LSN
}

// tokenPrefix starts every token's text form.
const tokenPrefix = "lsn:"

// String is the token's text form, as Header carries it.
func (t Token) String() string {
	if t.Cluster != "" {
		return tokenPrefix + t.Cluster + ":" + t.LSN.String()
	}
	return tokenPrefix + t.LSN.String()
}

// IsZero reports whether t is no token.
func (t Token) IsZero() bool { return t.LSN == 0 }

// clusterName is what a token's cluster may be (placement's cluster names).
var clusterName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// ParseToken reads a token's text form strictly: "lsn:", a cluster name and ":" when the token
// names one, then an LSN. Anything else (another prefix, spaces, more text) is an error.
func ParseToken(s string) (Token, error) {
	if len(s) <= len(tokenPrefix) || s[:len(tokenPrefix)] != tokenPrefix {
		return Token{}, fmt.Errorf("parse token %q: want lsn:<hex>/<hex>, as a write's %s header gave it", s, Header)
	}
	var t Token
	rest := s[len(tokenPrefix):]
	if cluster, lsn, ok := strings.Cut(rest, ":"); ok {
		if !clusterName.MatchString(cluster) {
			return Token{}, fmt.Errorf("parse token %q: want lsn:<hex>/<hex>, as a write's %s header gave it", s, Header)
		}
		t.Cluster, rest = cluster, lsn
	}
	l, err := ParseLSN(rest)
	if err != nil || l == 0 {
		return Token{}, fmt.Errorf("parse token %q: want lsn:<hex>/<hex>, as a write's %s header gave it", s, Header)
	}
	t.LSN = l
	return t, nil
}
