package cliflag

import (
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/internal/readlimit"
	"github.com/memprof/memprof/vocab"
)

// Format is --format: one of a command's output formats, the first
// being the default.
type Format struct {
	Value string // canonical once checked
	valid []string
}

// AddFormat adds --format to fs.
func AddFormat(fs *flag.FlagSet, valid ...string) *Format {
	f := &Format{valid: valid}
	help := valid[0]
	if n := len(valid); n > 1 {
		help = strings.Join(valid[:n-1], ", ") + " or " + valid[n-1]
	}
	fs.StringVar(&f.Value, "format", valid[0], "output `format`: "+help)
	return f
}

// get returns the format given, in its canonical spelling; the error is a
// usage error that lists the formats.
func (f *Format) Get() (string, error) {
	v, err := vocab.Canonical("format", f.Value, f.valid)
	return v, vocab.Suggest(err, f.Value, f.valid)
}

// AddOutput adds -o, the file to write the output to instead of stdout.
func AddOutput(fs *flag.FlagSet) *string {
	return fs.String("o", "", "write the output to `file` (atomically) instead of stdout")
}

// List is a flag given several times: --from a.json --from b.json.
type List []string

func (l *List) String() string { return strings.Join(*l, ",") }

func (l *List) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// Get returns the values joined, or "" when one of them is empty, so that
// Check refuses --from "" wherever it is given.
func (l *List) Get() any {
	for _, v := range *l {
		if strings.Trim(v, ", \t") == "" {
			return ""
		}
	}
	return l.String()
}

// Regexp reads a flag's regular expression; "" is none.
func Regexp(name, expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", name, err)
	}
	return re, nil
}

// FormatSize writes n bytes as a flag's value, as units.ParseBytes reads them:
// readlimit.FormatSize's largest binary unit that divides it, without
// the space: 536870912 is "512MiB".
func FormatSize(n int64) string {
	return strings.ReplaceAll(readlimit.FormatSize(n), " ", "")
}

// Sweep reads the --sweep-n list: at least three distinct positive N.
func Sweep(v string) ([]int, error) {
	var ns []int
	for _, part := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("--sweep-n: %q is not a positive integer", part)
		}
		if slices.Contains(ns, n) {
			return nil, fmt.Errorf("--sweep-n: %d appears twice", n)
		}
		ns = append(ns, n)
	}
	if len(ns) < 3 {
		return nil, fmt.Errorf("--sweep-n needs at least 3 values of N for a confidence interval, got %d", len(ns))
	}
	return ns, nil
}
