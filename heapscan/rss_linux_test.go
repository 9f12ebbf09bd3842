package heapscan_test

import (
	"flag"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var rssScale = flag.Float64("rss-scale", 0.125, "size of TestHostileRSS's inputs and limit, as a fraction of the issue's (1: a 512 MiB limit, 500 MB of text, a 2 GB claim)")

// rssTarget is the bound on the memory a hostile input may cost
// at scale 1: under 300 MB of resident memory.
const rssTarget = 300e6

// TestHostileRSS reads each hostile input in a child process and checks
// the child's peak resident set (VmHWM, which a re-executed process
// starts afresh, unlike getrusage's maximum) against the target, scaled
// with the inputs: at -rss-scale 1 (for .ci/run) the inputs are the
// issue's and the bound is 300 MB; by default they are an eighth of that.
// The child's own baseline (the test binary, the input in memory) counts.
func TestHostileRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("reads hundreds of MB of decompressed input per case")
	}
	scaled := int64(rssTarget * max(*rssScale, 0.125))
	for _, c := range hostileCases {
		t.Run(c.name, func(t *testing.T) {
			bound := scaled
			if c.capped {
				bound = rssTarget
			}
			out := startChild(t, "read "+c.name+" "+ftoa(*rssScale))
			m := regexp.MustCompile(`peak RSS (\d+)`).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("child printed no peak RSS: %s", out)
			}
			rss, _ := strconv.ParseInt(m[1], 10, 64)
			t.Logf("%s: %s", c.name, strings.TrimSpace(out))
			if rss > bound {
				t.Errorf("peak RSS %d bytes, want under %d", rss, bound)
			}
		})
	}
}
