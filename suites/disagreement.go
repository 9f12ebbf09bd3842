package suites

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/memprof/memprof/vocab"
)

// Disagreement is the error an agreement check returns when a library does
// not compute what the vectors or another library say: it names the case,
// the check, the libraries and the differing bytes. It is agree.Disagreement;
// it lives here so that a family's check, given by a suite
// (FamilyCheck), can return it without importing suites/agree.
type Disagreement struct {
	Case string
	// Check is what was compared: "secret key", "public key", "signature",
	// "verify", "round trip <repr>"...
	Check string
	// Lib is the library that disagrees; Against is what it was compared
	// with (the vectors file or another library).
	Lib     vocab.Lib
	Against string
	// Agreeing lists the libraries that computed the expected value.
	Agreeing []vocab.Lib
	Got      []byte
	Want     []byte
	// Detail says more when there are no bytes to compare (a verification
	// result, an error).
	Detail string
}

func (d *Disagreement) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "libraries disagree: case %s: %s: %s differs from %s", d.Case, d.Check, d.Lib, d.Against)
	if len(d.Agreeing) > 0 {
		fmt.Fprintf(&b, " (%s agree with it)", vocab.Join(d.Agreeing))
	}
	if d.Detail != "" {
		fmt.Fprintf(&b, ": %s", d.Detail)
	}
	if d.Got != nil || d.Want != nil {
		fmt.Fprintf(&b, "\n  %-8s %s\n  %-8s %s", d.Lib+":", hex.EncodeToString(d.Got), "want:", hex.EncodeToString(d.Want))
		if i := firstDiff(d.Got, d.Want); i >= 0 {
			fmt.Fprintf(&b, "\n  first difference at byte %d", i)
		}
	}
	return b.String()
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}
