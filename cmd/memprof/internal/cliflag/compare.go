package cliflag

import (
	"flag"
	"fmt"
	"net/url"

	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/units"
)

// Compare are the flags of compare that say what a regression is and what
// is warned of: --tolerance-bytes, --tolerance, --allow-missing,
// --allow-env-mismatch, --fail-on-time, --base-url, --base-commit and
// --max-base-age.
type Compare struct {
	BaseURL                            string
	tolBytes, tol, baseCommit, maxAge  string
	allowMissing, allowEnv, failOnTime bool
}

// Add adds the flags to fs.
func (c *Compare) Add(fs *flag.FlagSet) {
	fs.StringVar(&c.tolBytes, "tolerance-bytes", "0", "allowed increase in bytes per instance (`size`, e.g. 0, 8B)")
	fs.StringVar(&c.tol, "tolerance", "5%", "allowed significant slowdown of a time (`percent`)")
	fs.BoolVar(&c.allowMissing, "allow-missing", false, "do not fail on cases present in base but not in head")
	fs.BoolVar(&c.allowEnv, "allow-env-mismatch", false, "compare results from different environments (the differences are reported)")
	fs.BoolVar(&c.failOnTime, "fail-on-time", false, "fail on a time regression (for a pinned, quiet runner); without it a time regression warns")
	fs.StringVar(&c.BaseURL, "base-url", "", "link the base run at `url` in the markdown comment")
	fs.StringVar(&c.baseCommit, "base-commit", "", "warn unless the base was measured at commit `sha` (its env.commit; a prefix of 7 or more hex digits matches)")
	fs.StringVar(&c.maxAge, "max-base-age", "7d", "warn when the base was measured longer than `age` ago (days such as 7d, or a duration such as 36h; 0 turns it off)")
}

// Options checks the flags, for output in format, and returns the
// comparison's options; the error is a usage error.
func (c *Compare) Options(format string) (gate.CompareOptions, error) {
	var opts gate.CompareOptions
	var err error
	if opts.ToleranceBytes, err = units.ParseSize(c.tolBytes); err != nil {
		return opts, fmt.Errorf("--tolerance-bytes: %v", err)
	}
	if opts.Tolerance, err = units.ParsePercent(c.tol); err != nil {
		return opts, fmt.Errorf("--tolerance: %v", err)
	}
	opts.AllowMissing, opts.AllowEnvMismatch, opts.FailOnTime = c.allowMissing, c.allowEnv, c.failOnTime
	opts.BaseCommit = c.baseCommit
	if opts.MaxBaseAge, err = gate.ParseAge(c.maxAge); err != nil {
		return opts, fmt.Errorf("--max-base-age: %v", err)
	}
	if c.BaseURL != "" {
		if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return opts, fmt.Errorf("--base-url: %q is not a URL: give the base run's page, https://...", c.BaseURL)
		}
		if format != "markdown" {
			return opts, fmt.Errorf("--base-url does nothing with --format %s: the link is for the markdown comment", format)
		}
	}
	return opts, nil
}
