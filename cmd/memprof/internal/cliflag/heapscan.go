package cliflag

import (
	"flag"
	"fmt"
	"time"

	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// Heapscan are the flags of heapscan that choose what is read and how it
// is summarized: --base, --sample, --group-by, --rules, --instances,
// --focus, --ignore, --top, --max-bytes, --timeout and --reader.
type Heapscan struct {
	Base      string
	Instances int64
	Top       int
	sample    string
	groupBy   string
	rulesFile string
	focus     string
	ignore    string
	maxBytes  string
	timeout   time.Duration
	reader    string
	fs        *flag.FlagSet
}

// Add adds the flags to fs.
func (h *Heapscan) Add(fs *flag.FlagSet) {
	h.fs = fs
	fs.StringVar(&h.Base, "base", "", "diff against the base profile `file or URL`")
	fs.StringVar(&h.sample, "sample", "inuse", "`sample`: inuse or alloc")
	fs.StringVar(&h.groupBy, "group-by", "", "group by `g`: function, site, stack or rule (default function, or rule with --rules)")
	fs.StringVar(&h.rulesFile, "rules", "", "read rules (YAML: name: pattern) from `file` (at most 64 MiB, or --max-bytes if larger)")
	fs.Int64Var(&h.Instances, "instances", 0, "report bytes and objects per instance of `n` instances")
	fs.StringVar(&h.focus, "focus", "", "keep only samples with a frame whose function or file name matches `regexp`")
	fs.StringVar(&h.ignore, "ignore", "", "drop samples with a frame whose function or file name matches `regexp`")
	fs.IntVar(&h.Top, "top", 0, "show only the first `n` rows (0: all)")
	fs.StringVar(&h.maxBytes, "max-bytes", FormatSize(heapscan.DefaultMaxBytes), "stop reading a profile whose decompressed size passes `size` (bytes, or with KiB, MiB, GiB; with --reader model the default is "+FormatSize(heapscan.DefaultMaxModelBytes)+")")
	fs.DurationVar(&h.timeout, "timeout", heapscan.DefaultTimeout, "time limit for fetching a profile by URL")
	fs.StringVar(&h.reader, "reader", "stream", "protobuf `reader`: stream (the streaming decoder) or model (pprof's full profile model, slower, for cross-checking)")
}

// Options checks the flags, reads the --rules file, and returns how to
// summarize and how to read the profiles; the error is a usage error.
func (h *Heapscan) Options() (heapscan.Options, heapscan.ReadOptions, error) {
	opts := heapscan.Options{Sample: h.sample, GroupBy: h.groupBy}
	if opts.GroupBy == "" && h.rulesFile != "" {
		opts.GroupBy = "rule"
	}
	limit, err := units.ParseBytes(h.maxBytes)
	if err != nil {
		return opts, heapscan.ReadOptions{}, fmt.Errorf("--max-bytes: %v", err)
	}
	if h.rulesFile != "" {
		// --max-bytes, when given, raises the rules file's limit too
		// (never below its default).
		rulesLimit := int64(heapscan.DefaultMaxRulesBytes)
		if WasGiven(h.fs, "max-bytes") {
			rulesLimit = max(limit, rulesLimit)
		}
		rules, err := heapscan.ReadRulesLimit(h.rulesFile, rulesLimit)
		if err != nil {
			return opts, heapscan.ReadOptions{}, fmt.Errorf("--rules: %v", err)
		}
		opts.Rules = rules
	}
	ro, err := h.check(&opts, limit)
	return opts, ro, err
}

// check checks the flags that need no file, sets --focus and --ignore in
// opts, and returns the read options of a profile of at most limit bytes.
func (h *Heapscan) check(opts *heapscan.Options, limit int64) (heapscan.ReadOptions, error) {
	var ro heapscan.ReadOptions
	if opts.GroupBy == "rule" && opts.Rules == nil {
		return ro, fmt.Errorf("--group-by rule needs --rules FILE")
	}
	var err error
	if opts.Focus, err = Regexp("focus", h.focus); err != nil {
		return ro, err
	}
	if opts.Ignore, err = Regexp("ignore", h.ignore); err != nil {
		return ro, err
	}
	if h.Instances < 0 {
		return ro, fmt.Errorf("--instances must not be negative, got %d", h.Instances)
	}
	if h.Top < 0 {
		return ro, fmt.Errorf("--top must not be negative, got %d", h.Top)
	}
	if h.timeout <= 0 {
		return ro, fmt.Errorf("--timeout must be positive, got %s", h.timeout)
	}
	rd, err := vocab.Canonical("reader", h.reader, []string{"stream", "model"})
	if err != nil {
		return ro, err
	}
	// Check the options before reading anything.
	if err := opts.Validate(); err != nil {
		return ro, err
	}
	ro = heapscan.ReadOptions{MaxBytes: limit, Timeout: h.timeout, Model: rd == "model"}
	if ro.Model && !WasGiven(h.fs, "max-bytes") {
		ro.MaxBytes = 0 // the model's own default, heapscan.DefaultMaxModelBytes
	}
	return ro, nil
}
